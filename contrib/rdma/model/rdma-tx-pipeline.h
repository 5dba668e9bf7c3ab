/*
 * The transmit side of an RdmaNic's host interface: payload DMA reads before the wire.
 */
#ifndef RDMA_TX_PIPELINE_H
#define RDMA_TX_PIPELINE_H

#include "rdma-dma-targets.h"

#include "ns3/dcb-frame-record.h"
#include "ns3/host-model.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/queue-size.h"

#include <deque>
#include <vector>

namespace ns3
{

class RdmaNic;

/**
 * \ingroup rdma
 * Counters of an RdmaTxPipeline.
 */
struct RdmaTxCounters
{
    uint64_t dmaReads{0};     //!< payload DMA reads issued
    uint64_t dmaReadBytes{0}; //!< their bytes
    uint64_t frames{0};       //!< frames handed to the port
    uint64_t wqeReads{0};     //!< WQE DMA reads issued (work requests the scheduler did not read)
    uint64_t wqeReadBytes{0}; //!< their bytes
};

/**
 * \ingroup rdma
 * Payload fetch on transmit: a frame the QP scheduler releases is sent only after its payload
 * has been read from host (or GPU) memory by a DMA_READ through the node's HostModel. Reads
 * are issued one after the other as fast as the host allows (the next as soon as the previous
 * one's bytes have crossed the bottleneck; each lands a path latency later), so the read rate
 * is what the HostModel grants: min(PCIe share, line rate, outstanding-read budget / path
 * latency), as in Hostping Fig. 4. At most ReadAhead bytes of frames are read ahead of the
 * wire. Frames leave in the order they were read; a frame of a class paused by PFC lets later
 * frames of other classes pass. Frames without payload (READ requests) need no read.
 *
 * A frame that opens a work request (First/Only packet, READ request) first has its WQE read
 * (WqeBytes, a DMA_READ from host memory issued with the payload read and sharing the PCIe
 * links with it), unless the QP scheduler's own fetch read it (QpScheduler::WqeAlreadyRead:
 * SRNIC's WQE batches, ConnectX's WQE-cache fills). The WQE read adds bytes, not latency: a NIC
 * prefetches WQEs after the doorbell, and the fetch schedulers model that latency themselves.
 */
class RdmaTxPipeline : public Object
{
  public:
    static TypeId GetTypeId();
    RdmaTxPipeline();
    ~RdmaTxPipeline() override;

    void Setup(RdmaNic* nic, Ptr<HostModel> host, uint32_t rnic, uint32_t target);
    /** Read queue pair \p qpn's payload from \p target (e.g. a GPU for GDR). */
    void SetQueuePairTarget(uint32_t qpn, uint32_t target);
    bool IsActive() const;
    /** The scheduler may have a frame now (new work, rate limiter): start reading it. */
    void Kick();
    /**
     * The port wants a frame of a class not in \p pausedMask; \p record: the frame's record
     * as RdmaNic::DequeueFrame filled it (DcbTxSource::PullFrame).
     */
    Ptr<Packet> PullFrame(uint8_t pausedMask, uint8_t& tc, DcbFrameRecord& record);
    /** \return true while a frame is being read or waits for the wire. */
    bool HoldsFrames() const;
    const RdmaTxCounters& GetCounters() const;

  protected:
    void DoDispose() override;

  private:
    struct Item
    {
        Ptr<Packet> frame;
        uint32_t bytes;
        uint8_t tc;
        bool needsRead;
        DcbFrameRecord record; //!< from RdmaNic::DequeueFrame, wire-size override included
    };

    void Fetch(uint8_t pausedMask);
    void OnTransferred();
    void OnRead(Time latency);

    QueueSize m_readAhead;
    uint32_t m_wqeBytes;
    uint32_t m_memory{HostModel::NONE}; //!< where WQEs live (SetQueuePairTarget moves payload only)
    RdmaNic* m_nic{nullptr};
    Ptr<HostModel> m_host;
    uint32_t m_rnic{HostModel::NONE};
    RdmaDmaTargets m_targets;   //!< default and per-QP DMA targets
    std::deque<Item> m_reading; //!< read issued, data not yet in the NIC; in order
    std::deque<Item> m_ready;   //!< payload in the NIC, waiting for the wire
    uint64_t m_bytes{0};        //!< frame bytes in m_reading + m_ready
    bool m_transferring{false};
    bool m_fetching{false};
    RdmaTxCounters m_counters;
};

} // namespace ns3

#endif /* RDMA_TX_PIPELINE_H */
