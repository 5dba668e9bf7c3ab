/*
 * The limited CNP-generation capacity of a NIC whose DCQCN notification point
 * runs in firmware (Azure NSDI'23 section 7.2, "Gen1"; DCQCN SIGCOMM'15 on the
 * ConnectX-3 Pro NP). Specification: design/spec-buffers-pfc-dcqcn.md section 4
 * (NpCnpCapacity).
 */
#ifndef RDMA_FIRMWARE_CNP_QUEUE_H
#define RDMA_FIRMWARE_CNP_QUEUE_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * One NIC's firmware CNP generator: a single server that needs ServiceTime per
 * CNP, in front of a FIFO of QueueSlots pending requests.
 *
 * The queue pairs' notification points decide per QP whether a CNP is due (the
 * Gen1 coalescing window); each decision is a request here. An idle firmware
 * generates the CNP at once and is then busy for ServiceTime; a request that
 * finds it busy waits in the FIFO and is served in order, one per ServiceTime;
 * a request that finds the FIFO full is lost (counted, traced). So the NIC
 * sends at most one CNP per ServiceTime whatever the number of congested QPs,
 * CNPs are delayed by up to QueueSlots x ServiceTime, and beyond that lost.
 * The generation latency of an idle firmware is not modelled (not published).
 *
 * RdmaNic creates one when its congestion-control prototype reports a positive
 * RdmaCongestionOps::GetCnpGenerationTime() (the Gen1 profile); NICs with
 * hardware notification points (Gen2/Gen3, the paper variant) have none and
 * send each CNP at once. Nothing here runs per data packet: only CNP decisions
 * reach it, and the FIFO is a ring allocated once by Configure().
 */
class RdmaFirmwareCnpQueue : public Object
{
  public:
    /** Running totals. */
    struct Counters
    {
        uint64_t requests{0};    //!< CNP decisions handed to the firmware
        uint64_t generated{0};   //!< CNPs generated (sent)
        uint64_t dropped{0};     //!< requests lost because the FIFO was full
        uint64_t delayed{0};     //!< requests that waited in the FIFO
        uint32_t peakBacklog{0}; //!< largest FIFO occupancy seen
    };

    /** Callback that sends the CNP of queue pair qpn. */
    typedef Callback<void, uint32_t> EmitCallback;

    /**
     * TracedCallback signature for a lost request.
     * \param qpn the queue pair whose CNP was lost
     */
    typedef void (*DropTracedCallback)(uint32_t qpn);

    static TypeId GetTypeId();
    RdmaFirmwareCnpQueue();
    ~RdmaFirmwareCnpQueue() override;

    /**
     * Set the capacity and where CNPs go. Allocates the FIFO; call before the
     * first Submit (calling again with a request pending aborts).
     * \param serviceTime firmware time per CNP (> 0)
     * \param queueSlots requests that may wait while the firmware is busy (0: none)
     * \param emit sends the CNP of a queue pair
     */
    void Configure(Time serviceTime, uint32_t queueSlots, EmitCallback emit);

    /**
     * A notification point decided that queue pair \p qpn owes its sender a CNP.
     * \param qpn the queue pair
     */
    void Submit(uint32_t qpn);

    Time GetServiceTime() const;
    uint32_t GetQueueSlots() const;
    /** \return requests waiting now */
    uint32_t GetBacklog() const;
    /** \return true if a request of queue pair \p qpn waits (scans the backlog). */
    bool IsWaiting(uint32_t qpn) const;
    const Counters& GetCounters() const;

  protected:
    void DoDispose() override;

  private:
    /** The firmware finished a CNP: serve the next request, if any. */
    void ServiceDone();
    /** Generate the CNP of \p qpn now and stay busy for the service time. */
    void Serve(uint32_t qpn);

    Time m_serviceTime;
    EmitCallback m_emit;
    std::vector<uint32_t> m_ring; //!< FIFO of QP numbers, QueueSlots long
    uint32_t m_head{0};           //!< index of the oldest request
    uint32_t m_count{0};          //!< requests waiting
    bool m_busy{false};           //!< a CNP is being generated
    EventId m_doneEvent;
    Counters m_counters;
    TracedCallback<uint32_t> m_dropTrace;
};

} // namespace ns3

#endif /* RDMA_FIRMWARE_CNP_QUEUE_H */
