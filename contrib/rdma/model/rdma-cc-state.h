/*
 * Per-queue-pair congestion-control state shared between a queue pair and its
 * RdmaCongestionOps instance (the shape of ns-3's TcpSocketState).
 */
#ifndef RDMA_CC_STATE_H
#define RDMA_CC_STATE_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <limits>

namespace ns3
{

/**
 * \ingroup rdma
 * State a congestion-control algorithm reads and writes for one queue pair.
 *
 * Rate-based algorithms (DCQCN) set m_rate, which paces the queue pair's packets;
 * window-based ones (DCTCP) set m_window, which caps the unacknowledged bytes.
 */
struct RdmaCcState
{
    DataRate m_lineRate{"100Gbps"};   //!< rate of the NIC port (the cap for m_rate)
    DataRate m_rate{"100Gbps"};       //!< current sending rate (DCQCN R_C)
    DataRate m_targetRate{"100Gbps"}; //!< DCQCN R_T (informational for other algorithms)
    uint64_t m_window{std::numeric_limits<uint64_t>::max()}; //!< in-flight cap in bytes
    uint64_t m_bytesInFlight{0};      //!< unacknowledged payload bytes (maintained by the QP)
    double m_alpha{1.0};              //!< congestion estimate (DCQCN/DCTCP alpha)
    uint32_t m_mtu{1024};             //!< path MTU (payload bytes per packet)
    Time m_baseRtt{MicroSeconds(10)}; //!< propagation RTT of the QP's path when known
    /**
     * Rate-limiter granularity set by the algorithm: 0 paces every packet at m_rate;
     * > 0 lets this many wire bytes go back-to-back at line rate, then waits until
     * the burst's bytes would have left at m_rate from the burst start.
     */
    uint32_t m_pacingBurstBytes{0};
};

} // namespace ns3

#endif /* RDMA_CC_STATE_H */
