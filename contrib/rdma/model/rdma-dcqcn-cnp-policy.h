/*
 * DCQCN rule family "CNP policy": when the notification point owes its sender a CNP, how
 * the notification travels, and the NIC-wide capacity of a firmware notification point.
 * Specification: design/spec-buffers-pfc-dcqcn.md sections 3.3, 4 (NpCnpCapacity).
 */
#ifndef RDMA_DCQCN_CNP_POLICY_H
#define RDMA_DCQCN_CNP_POLICY_H

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * The notification-point rule of one DCQCN configuration (a value type; the time of the
 * QP's last CNP is RdmaDcqcn's per-QP state).
 *
 * A CE-marked packet triggers a CNP at once if none was sent for the QP in the last
 * Interval, so at most one CNP per Interval: the paper's NP with N = 50 us [DCQCN15],
 * Gen1's NP-side coalescing [AZURE 7.2], the firmware's np_min_time_between_cnps
 * (0: a CNP per marked packet) and the Azure interop CNP limiter are all this one rule
 * with another Interval. Delivery says how the CNP travels: a RoCEv2 CNP packet, or the
 * BECN bit of the marked packet's ACK (the HPCC simulator's NP). FirmwareTime > 0 makes
 * the NIC generate at most one CNP per FirmwareTime over all its QPs, FirmwareQueue
 * requests waiting (RdmaFirmwareCnpQueue, the Gen1 firmware NP); 0 generates CNPs in
 * hardware.
 */
struct RdmaDcqcnCnpPolicy
{
    /** How a congestion notification travels from NP to RP (attribute CnpDelivery). */
    enum Delivery
    {
        CNP_PACKET,  //!< RoCEv2 CNP packet (IBTA Vol. 1 Annex A17), as RoCEv2 NICs send
        CNP_ACK_BECN //!< HPCC simulator: BECN in the BTH of the marked packet's ACK/NAK
    };

    Time interval{MicroSeconds(50)}; //!< CnpInterval
    Delivery delivery{CNP_PACKET};   //!< CnpDelivery
    Time firmwareTime{0};            //!< FirmwareCnpTime (0: hardware NP)
    uint32_t firmwareQueue{16};      //!< FirmwareCnpQueue

    /**
     * \param ceMarked the arriving packet carried ECN CE
     * \param sent a CNP was sent for this QP before
     * \param last the time of that CNP
     * \param now the arrival time
     * \return true if a CNP must be sent now
     */
    bool Sends(bool ceMarked, bool sent, Time last, Time now) const
    {
        return ceMarked && (!sent || now - last >= interval);
    }
};

} // namespace ns3

#endif /* RDMA_DCQCN_CNP_POLICY_H */
