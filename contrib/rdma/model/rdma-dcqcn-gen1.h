/*
 * DCQCN as run by "Gen1" NICs (Azure, "Empowering Azure Storage with RDMA",
 * NSDI'23, section 7.2): reaction and notification points in firmware, CNPs
 * coalesced at the notification point, per-burst rate limiting.
 * Specification: design/spec-buffers-pfc-dcqcn.md sections 3.3, 4.
 */
#ifndef RDMA_DCQCN_GEN1_H
#define RDMA_DCQCN_GEN1_H

#include "rdma-dcqcn.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * Gen1 DCQCN profile.
 *
 * - Notification point: NP-side CNP coalescing, "the NP generates at most one
 *   CNP in a time window for a flow, if any arriving packets within this window
 *   are ECN marked" [AZURE 7.2]. The window is the inherited CnpInterval
 *   (default 50 us, the SIGCOMM'15 N: Azure does not disclose the Gen1 timer).
 *   The first marked packet after a CNP-free window triggers the CNP at once.
 * - Reaction point: the rate is cut on every CNP (the paper's RP, inherited).
 * - Rate limiter: per-burst ("from a single packet to a burst of packets");
 *   BurstBytes is the burst, handed to the queue pair's pacer through
 *   RdmaCcState::m_pacingBurstBytes.
 *
 * - Firmware capacity (NIC-wide): the NIC generates at most one CNP per
 *   FirmwareCnpTime over all its QPs, with FirmwareCnpQueue requests waiting and
 *   the rest lost. The NIC reads both through GetCnpGenerationTime() and
 *   GetCnpGenerationQueue() and runs them in an RdmaFirmwareCnpQueue.
 *
 * Not modelled here (NIC-wide): the small QP-context cache whose misses slow
 * the receive pipeline is RdmaRxQpcCache, installed on the Gen1 NIC's
 * RdmaRxPipeline. The firmware's processing of received CNPs (the RP) is not
 * rate-limited: no capacity is published for it.
 */
class RdmaDcqcnGen1 : public RdmaDcqcn
{
  public:
    static TypeId GetTypeId();

    RdmaDcqcnGen1();
    /**
     * Copy the attribute values only (used by Fork()).
     * \param other the instance to copy
     */
    RdmaDcqcnGen1(const RdmaDcqcnGen1& other);
    ~RdmaDcqcnGen1() override;

    std::string GetName() const override;
    Ptr<RdmaCongestionOps> Fork() const override;
    void Init(RdmaCcState* state) override;

    /**
     * \return the bytes the rate limiter lets go back-to-back at line rate
     * before waiting BurstBytes / R_C from the burst start (0: per packet)
     */
    uint32_t GetPacingBurstBytes() const;

    Time GetCnpGenerationTime() const override;
    uint32_t GetCnpGenerationQueue() const override;

  protected:
    bool ShouldSendCnp(bool ceMarked, Time now) override;

  private:
    uint32_t m_burstBytes;       //!< per-burst rate-limiter granularity (bytes)
    Time m_firmwareCnpTime;      //!< firmware time per generated CNP (0: unlimited)
    uint32_t m_firmwareCnpQueue; //!< CNP requests that may wait for the firmware
};

} // namespace ns3

#endif /* RDMA_DCQCN_GEN1_H */
