/*
 * Shared buffer with Choudhury-Hahne dynamic thresholds, per-PG headroom for
 * lossless classes (PFC XOFF/XON) and egress drops for lossy classes.
 */
#ifndef DYNAMIC_THRESHOLD_BUFFER_MANAGER_H
#define DYNAMIC_THRESHOLD_BUFFER_MANAGER_H

#include "buffer-manager.h"

#include "ns3/queue-size.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup dcb
 * One shared pool with dynamic thresholds (threshold = alpha × free pool space).
 *
 * The physical buffer BufferSize is split into a reserved headroom of H bytes per
 * (port, lossless PG) and a shared pool S holding everything else. A lossless
 * ingress PG grows in the shared pool while its occupancy stays under
 * Alpha × (S − U) (U = shared bytes in use); the packet that would cross it sets
 * the PG paused, sends XOFF upstream, and it and later arrivals go to the PG's
 * headroom until the PG has drained its headroom and fallen below
 * max(Xon, threshold − XonOffset), when XON is sent (spec §1.4, §1.5 model A).
 * A lossless packet finding the headroom full is dropped and counted as a
 * headroom overflow. Lossy packets are admitted while their egress queue stays
 * under LossyAlpha × (S − U).
 *
 * H is the Headroom attribute, or when it is zero, sized per port for the
 * model's worst case: the data on the wire in both directions while the pause
 * travels (2 × rate × delay), a frame in progress at each end, and the PFC frame.
 */
class DynamicThresholdBufferManager : public BufferManager
{
  public:
    static TypeId GetTypeId();
    DynamicThresholdBufferManager();

    uint64_t GetOccupancy() const override;
    /** \return the shared pool size S in bytes (buffer minus reserved headroom). */
    uint64_t GetSharedPoolSize() const;
    /** \return shared bytes in use U. */
    uint64_t GetSharedUsed() const;
    /** \return the current lossless ingress threshold Alpha × (S − U). */
    uint64_t GetIngressThreshold() const;
    uint64_t GetHeadroomSize(uint32_t port) const;
    uint64_t GetIngressSharedBytes(uint32_t port, uint8_t pg) const;
    uint64_t GetHeadroomBytes(uint32_t port, uint8_t pg) const;
    uint64_t GetEgressBytes(uint32_t port, uint8_t tc) const;
    bool IsPaused(uint32_t port, uint8_t pg) const;

  private:
    std::string DoSetup() override;
    bool DoAdmit(uint32_t inPort, uint32_t outPort, uint8_t tc, uint32_t bytes,
                 DropReason& reason) override;
    void DoRelease(uint32_t inPort, uint32_t outPort, uint8_t tc, uint32_t bytes) override;
    uint64_t Threshold(double alpha) const;

    QueueSize m_bufferSize;
    QueueSize m_headroom;
    double m_alpha;
    double m_lossyAlpha;
    QueueSize m_xon;
    QueueSize m_xonOffset;

    uint64_t m_sharedPool{0};
    uint64_t m_sharedUsed{0};
    uint64_t m_headroomUsed{0};
    std::vector<uint64_t> m_headroomSize;    //!< per port
    std::vector<uint64_t> m_ingressShared;   //!< per (port, pg)
    std::vector<uint64_t> m_ingressHeadroom; //!< per (port, pg)
    std::vector<uint8_t> m_paused;           //!< per (port, pg)
    std::vector<uint64_t> m_egressBytes;     //!< per (port, tc)
};

} // namespace ns3

#endif /* DYNAMIC_THRESHOLD_BUFFER_MANAGER_H */
