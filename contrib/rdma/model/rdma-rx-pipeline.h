/*
 * The receive pipeline of an RdmaNic: receive buffer, per-packet processing, DMA to the host.
 */
#ifndef RDMA_RX_PIPELINE_H
#define RDMA_RX_PIPELINE_H

#include "rdma-dma-targets.h"

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/host-model.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/queue-size.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

#include <array>
#include <deque>
#include <string>
#include <vector>

namespace ns3
{

class DcbNetDevice;
class RdmaQueuePair;

/**
 * \ingroup rdma
 * Counters of an RdmaRxPipeline.
 */
struct RdmaRxCounters
{
    uint64_t packets{0};         //!< packets admitted to the buffer
    uint64_t bytes{0};           //!< frame bytes admitted
    uint64_t droppedLossy{0};    //!< lossy-class packets refused above the XOFF threshold
    uint64_t droppedHeadroom{0}; //!< lossless packets refused with the buffer full
    uint64_t xoffEvents{0};      //!< XON -> XOFF transitions of the buffer
    uint64_t maxOccupancy{0};    //!< largest occupancy seen, bytes
    Time pausedTime{0};          //!< time spent in XOFF (closed intervals only)
    uint64_t dmaWrites{0};       //!< payload DMA writes issued to the host model
    uint64_t dmaWriteBytes{0};   //!< their bytes
};

/**
 * \ingroup rdma
 * What happens between the wire and host memory on receive.
 *
 * Data packets (WRITE, SEND, READ response) enter a receive buffer of BufferSize bytes
 * (frame bytes), are processed one at a time (the sum of the service delays that other models
 * add, e.g. a QP-context cache miss), and are then written to host memory by a posted
 * DMA_WRITE through the node's HostModel, one at a time: a packet's buffer space is freed when
 * its bytes have crossed the host's bottleneck, and the QP executes it when the write has
 * reached memory (half the path's round-trip latency later; PCIe keeps posted writes in
 * order). Processing of the next packet overlaps the DMA of the previous one.
 *
 * Push-back: when the occupancy exceeds BufferSize - Headroom the NIC sends PFC XOFF on its
 * port for every lossless class (one shared buffer, as a NIC maps its lossless priorities to
 * one receive buffer), and XON when it falls to XonOffset below that threshold. Lossy-class
 * packets that would take the occupancy above the XOFF threshold are dropped; lossless packets
 * are dropped only when the headroom itself overflows (under-sized headroom). ACKs, NAKs,
 * CNPs and READ requests bypass the buffer.
 *
 * Without a host model or service delay the pipeline is inactive and RdmaNic hands packets
 * straight to the QP (the ideal host: no cost, no events, no buffer).
 */
class RdmaRxPipeline : public Object
{
  public:
    /// Why a packet was refused.
    enum DropReason : uint8_t
    {
        DROP_LOSSY_FULL,        //!< lossy class, occupancy above the XOFF threshold
        DROP_HEADROOM_OVERFLOW, //!< lossless class, buffer full (headroom too small)
    };

    /**
     * Extra processing time of one received data packet of queue pair \p qpn carrying \p bytes
     * of payload (e.g. a QP-context cache miss penalty). Called once per packet, in order.
     */
    typedef Callback<Time, uint32_t, uint32_t> ServiceDelayCallback;
    /// Trace signature: class, true for XOFF / false for XON.
    typedef void (*PfcTracedCallback)(uint8_t, bool);
    /// Trace signature: packet (BTH first), class, reason.
    typedef void (*DropTracedCallback)(Ptr<const Packet>, uint8_t, uint8_t);

    static TypeId GetTypeId();
    RdmaRxPipeline();
    ~RdmaRxPipeline() override;

    /** Send PFC frames on \p device. */
    void SetDevice(Ptr<DcbNetDevice> device);
    /**
     * Drain the buffer by DMA_WRITEs from the RnicPort \p rnic to \p target (both resource
     * indices of \p host). Activates the pipeline.
     */
    void SetHostModel(Ptr<HostModel> host, uint32_t rnic, uint32_t target);
    /** DMA target of queue pair \p qpn's payload (e.g. a GPU for GDR), instead of the default. */
    void SetQueuePairTarget(uint32_t qpn, uint32_t target);
    Ptr<HostModel> GetHostModel() const;
    /** Add a per-packet processing delay; delays of several models add up. Activates. */
    void AddServiceDelay(ServiceDelayCallback delay);
    /** \return true when packets go through the buffer (host model or delays set). */
    bool IsActive() const;
    /** \return "" or why the attributes are impossible (units, Headroom, XonOffset). */
    std::string CheckConfig() const;

    /**
     * Admit a received data packet (BTH first, ICRC removed) of \p qp, carrying \p payload
     * bytes of payload, \p frameBytes on the wire, in traffic class \p cls.
     */
    void Enqueue(Ptr<RdmaQueuePair> qp, Ptr<Packet> packet, bool ce, uint32_t payload,
                 uint32_t frameBytes, uint8_t cls);

    uint64_t GetOccupancy() const;
    uint64_t GetXoffThreshold() const;
    uint64_t GetXonThreshold() const;
    bool IsXoff() const;
    /** \return the time spent in XOFF so far, the current interval included. */
    Time GetPausedTime() const;
    const RdmaRxCounters& GetCounters() const;

  protected:
    void DoDispose() override;

  private:
    struct Item
    {
        Ptr<RdmaQueuePair> qp;
        Ptr<Packet> packet;
        uint32_t payload;
        uint32_t frameBytes;
        bool ce;
    };

    void TryProcess();
    void OnProcessed();
    void TryDma();
    void OnTransferred();
    void OnPlaced(Time latency);
    void Deliver(Item& item);
    void SetXoff(bool xoff);

    QueueSize m_bufferSize;
    QueueSize m_headroom;
    QueueSize m_xonOffset;
    uint8_t m_losslessMask;

    Ptr<DcbNetDevice> m_device;
    Ptr<HostModel> m_host;
    uint32_t m_rnic{HostModel::NONE};
    RdmaDmaTargets m_targets; //!< default and per-QP DMA targets
    std::vector<ServiceDelayCallback> m_delays;

    std::deque<Item> m_buffer; //!< admitted, not yet transferred; front = in DMA
    uint32_t m_processed{0};   //!< items at the front of m_buffer whose processing is done
    bool m_processing{false};
    bool m_dmaBusy{false};
    std::deque<Item> m_placing; //!< transferred, write not yet in memory
    EventId m_processEvent;
    bool m_xoff{false};
    Time m_xoffSince;

    TracedValue<uint64_t> m_occupancy;
    RdmaRxCounters m_counters;
    TracedCallback<uint8_t, bool> m_pfcTrace;
    TracedCallback<Ptr<const Packet>, uint8_t, uint8_t> m_dropTrace;
};

} // namespace ns3

#endif /* RDMA_RX_PIPELINE_H */
