/*
 * Deep-buffer VoQ chassis switch buffer (T2 / regional hub): SONiC accounting over
 * on-chip SRAM plus off-chip DRAM whose bandwidth is below the forwarding capacity
 * (Azure NSDI'23 §7.1 and footnote 3; spec-buffers-pfc-dcqcn.md §6).
 */
#ifndef DEEP_BUFFER_VOQ_H
#define DEEP_BUFFER_VOQ_H

#include "sonic-buffer-manager.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/queue-size.h"
#include "ns3/traced-value.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup dcb
 * Buffer of a chassis switch built on the virtual-output-queue architecture.
 *
 * Admission, PFC and the shared headroom pool are SonicBufferManager's (a VoQ
 * chassis uses one pool of type `both`; by default the Jericho2 configuration of
 * SonicBufferConfig::VoqChassisJ2). On top of that the packet must find a place
 * in the chassis' two-tier packet memory:
 *
 * - Each (egress port, class) is one VoQ (the egress queue of the switch port
 *   stands for the VoQs of all ingress ports towards it; the egress scheduler
 *   serves them first come first served, so there is no head-of-line blocking
 *   between VoQs).
 * - A VoQ keeps its packets in the on-chip buffer (OCB, `OcbSize`) while it
 *   holds at most `VoqEvictThreshold` and the OCB has room; otherwise the VoQ
 *   is evicted to DRAM and its later packets are written there until it is empty
 *   again (so a VoQ's packets leave in order: its OCB part first).
 *   `VoqEvictThreshold` 0 writes every packet to DRAM, as Azure's chassis do
 *   ("we use deep packet buffers of off-chip DRAM to store RDMA packets").
 * - DRAM holds `DramSize` bytes and moves `DramBandwidth` of packet data: a
 *   packet written costs its length at that rate (the read that matches it is
 *   part of the figure, which is quoted in the unit of the forwarding capacity).
 *   Writes queue in a staging buffer of `DramWriteBuffer`; a packet that finds
 *   it full is dropped (DROP_DRAM_BANDWIDTH), lossless or not: "when all the
 *   ports send and receive traffic at line rate, DRAM will suffer from packet
 *   drops" (Azure fn. 3).
 * - A lossy VoQ holds at most `VoqMaxDelay` at its port's rate (DROP_VOQ_LIMIT);
 *   lossless VoQs are bounded by PFC (ingress thresholds and headroom).
 *
 * The DRAM write backlog is a virtual queue (the time the memory is busy until),
 * updated on admission only: no event, no allocation per packet.
 */
class DeepBufferVoq : public SonicBufferManager
{
  public:
    static TypeId GetTypeId();
    DeepBufferVoq();

    /** \return the DRAM bandwidth in use (DramBandwidth, or its derived default). */
    DataRate GetDramBandwidth() const;
    uint64_t GetOcbBytes() const;
    uint64_t GetDramBytes() const;
    uint64_t GetOcbWatermark() const;
    uint64_t GetDramWatermark() const;
    /** \return bytes written to DRAM since Setup. */
    uint64_t GetDramWrittenBytes() const;
    /** \return bytes held by the VoQ of (egress port, class). */
    uint64_t GetVoqBytes(uint32_t port, uint8_t tc) const;
    uint64_t GetVoqWatermark(uint32_t port, uint8_t tc) const;
    /** \return true while the VoQ of (port, class) is evicted to DRAM. */
    bool IsVoqInDram(uint32_t port, uint8_t tc) const;
    /** Also resets the OCB, DRAM and VoQ watermarks. */
    void ClearWatermarks() override;

  protected:
    std::string DoSetup() override;
    bool DoAdmit(uint32_t inPort, uint32_t outPort, uint8_t tc, uint32_t bytes,
                 DropReason& reason) override;
    void DoRelease(uint32_t inPort, uint32_t outPort, uint8_t tc, uint32_t bytes) override;
    SonicBufferConfig DefaultConfig(uint32_t nPorts) const override;
    /** SonicBufferManager's figures, then the chassis "ocb" and "dram". */
    void DoReportOccupancy(std::vector<BufferOccupancy>& report) const override;

  private:
    /** One VoQ: (egress port, class). */
    struct Voq
    {
        uint64_t bytes{0};
        uint64_t ocbBytes{0}; //!< the VoQ's head, written before it was evicted
        uint64_t peak{0};
        uint64_t limit{0}; //!< lossy depth limit, bytes
        bool inDram{false};
    };

    // Attributes
    QueueSize m_ocbSize;
    uint64_t m_dramSize;
    DataRate m_dramBandwidth;
    double m_dramFraction;
    QueueSize m_dramWriteBuffer;
    QueueSize m_evictThreshold;
    Time m_voqMaxDelay;

    DataRate m_dramRate{0}; //!< in use
    Time m_dramBusyUntil{0};
    std::vector<Voq> m_voqs; //!< port * 8 + class
    TracedValue<uint64_t> m_ocbBytes{0};
    TracedValue<uint64_t> m_dramBytes{0};
    uint64_t m_ocbPeak{0};
    uint64_t m_dramPeak{0};
    uint64_t m_dramWritten{0};
};

} // namespace ns3

#endif /* DEEP_BUFFER_VOQ_H */
