/*
 * Data-center-bridging network device: eight traffic classes, strict priority
 * with optional DWRR, IEEE 802.1Qbb PFC, per-class counters, pcap capture.
 */
#ifndef DCB_NET_DEVICE_H
#define DCB_NET_DEVICE_H

#include "dcb-frame-record.h"
#include "dcb-packet-ref.h"
#include "dcb-tx-source.h"
#include "ethernet-vlan-header.h"
#include "reusable-event.h"

#include "ns3/data-rate.h"
#include "ns3/error-model.h"
#include "ns3/event-id.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <array>
#include <boost/circular_buffer.hpp>
#include <deque>
#include <vector>

namespace ns3
{

class DcbChannel;
class DcbNetDevice;
class PcapFileWrapper;

/**
 * \ingroup dcb
 * Where a port hands the data frames it receives when the receiver forwards them on their
 * record (a switch): the frame's reference is handed over, not copied, so the Packet
 * object is not touched (DcbPacketRef). Set with DcbNetDevice::SetFrameSink; a receive
 * callback set later replaces it.
 */
class DcbFrameSink
{
  public:
    /**
     * A data frame arrived at \p port. The bytes may be stale where the record is dirty.
     * \param frame the frame; the sink may take it (move from it)
     * \param bytes what the frame counts in queues, buffers and counters
     *        (DcbFrameRecord::CountedBytes of the frame)
     */
    virtual void AcceptFrame(DcbNetDevice* port, DcbPacketRef& frame, const DcbFrameRecord& record,
                             uint32_t bytes) = 0;

  protected:
    ~DcbFrameSink() = default;
};

/**
 * \ingroup dcb
 * Per-traffic-class counters of a DcbNetDevice.
 */
struct DcbClassCounters
{
    uint64_t txPackets{0};
    uint64_t txBytes{0};
    uint64_t rxPackets{0};
    uint64_t rxBytes{0};
    uint64_t pfcXoffSent{0};     //!< XOFF frames (quanta > 0) sent, refreshes included
    uint64_t pfcXonSent{0};      //!< XON frames (quanta 0) sent
    uint64_t pfcXoffReceived{0}; //!< XOFF frames received
    uint64_t pfcXonReceived{0};  //!< XON frames received
    Time pausedTime{0};          //!< time this transmitter spent paused by its peer
    uint64_t pauseOnsets{0};     //!< unpaused -> paused transitions (SONiC ON2OFF counter)
    uint64_t linkDownDrops{0};   //!< frames of this class dropped because the link was down
};

/**
 * \ingroup dcb
 * A full-duplex Ethernet port with eight traffic classes.
 *
 * Frames enter through Enqueue (switches, NIC control traffic) or are pulled from
 * a DcbTxSource (a NIC's scheduler) when the wire is free. Transmission order:
 * MAC control frames (PFC) first, never paused; then the strict-priority classes
 * from 7 down to 0; then the DWRR classes; then the pull source. A class paused
 * by a received PFC frame starts no new frame until the pause expires or an XON
 * arrives; the frame on the wire is always finished.
 *
 * The serialization time of a frame of L bytes is (L + WireOverhead) × 8 / rate,
 * WireOverhead covering preamble/SFD, FCS and the inter-frame gap; a frame whose record
 * carries a wire-size override W (DcbFrameRecord::wireBytes) takes W × 8 / rate truncated
 * to whole ns and counts W bytes in queues and counters.
 */
class DcbNetDevice : public NetDevice
{
  public:
    static constexpr uint8_t N_CLASSES = 8;

    /** Data frame received: (device, frame without Ethernet header, that header). */
    using DcbReceiveCallback =
        Callback<void, Ptr<DcbNetDevice>, Ptr<Packet>, const EthernetVlanHeader&>;
    /**
     * Data frame received, parsed once: (device, the whole frame with its Ethernet
     * header, its record). The bytes may be stale where the record is dirty
     * (DcbFrameRecord::Materialize writes it back).
     */
    using DcbFrameReceiveCallback =
        Callback<void, Ptr<DcbNetDevice>, Ptr<Packet>, const DcbFrameRecord&>;
    /** A frame queued with Enqueue left the queue: (if index, tag, class, frame bytes). */
    using DequeueCallback = Callback<void, uint32_t, uint32_t, uint8_t, uint32_t>;
    /**
     * A queued frame starts transmission: (if index, class, frame, its record). The
     * record may be updated (ECN marking at dequeue); not called for pulled frames.
     */
    using DequeueFrameCallback = Callback<void, uint32_t, uint8_t, Ptr<Packet>, DcbFrameRecord*>;

    static TypeId GetTypeId();
    DcbNetDevice();
    ~DcbNetDevice() override;

    bool Attach(Ptr<DcbChannel> channel);
    Ptr<DcbChannel> GetDcbChannel() const;
    void SetDataRate(DataRate rate);
    DataRate GetDataRate() const;

    /**
     * Queue a complete frame (Ethernet header included) in traffic class \p tc.
     * \param tag opaque value handed back to the dequeue callback (switch ingress port)
     */
    void Enqueue(Ptr<Packet> frame, uint8_t tc, uint32_t tag);
    /** Enqueue a frame with its record (a switch forwarding without rewriting bytes). */
    void EnqueueFrame(Ptr<Packet> frame, const DcbFrameRecord& record, uint8_t tc, uint32_t tag);
    /**
     * Enqueue a frame handed over with its record and counted bytes
     * (record.CountedBytes(frame)): the Packet object is not touched.
     */
    void EnqueueFrame(DcbPacketRef&& frame, const DcbFrameRecord& record, uint32_t bytes,
                      uint8_t tc, uint32_t tag);
    /** \return bytes queued in class \p tc (excluding the frame on the wire). */
    uint64_t GetQueueBytes(uint8_t tc) const;
    /** \return frames queued in class \p tc. */
    uint32_t GetQueuePackets(uint8_t tc) const;
    /**
     * \return bytes queued in class \p tc that were enqueued with \p tag (a switch: the
     * ingress port they came from). Walks the queue: for monitors, not per frame.
     */
    uint64_t GetQueueBytesWithTag(uint8_t tc, uint32_t tag) const;

    void SetTxSource(DcbTxSource* source);
    /** The pull source has new frames; start transmitting if idle. */
    void NotifyTxReady();
    void SetDcbReceiveCallback(DcbReceiveCallback cb);
    /**
     * Receive data frames with their records (takes precedence over the other callbacks;
     * replaces a frame sink).
     */
    void SetDcbFrameReceiveCallback(DcbFrameReceiveCallback cb);
    /**
     * Hand data frames to \p sink (nullptr: none), with their records, taking precedence
     * over the other callbacks; replaces a frame receive callback. \p sink must outlive
     * the device's use of it (a switch clears it at DoDispose).
     */
    void SetFrameSink(DcbFrameSink* sink);
    void SetDequeueCallback(DequeueCallback cb);
    void SetDequeueFrameCallback(DequeueFrameCallback cb);

    /**
     * Ask the peer to pause (\p xoff true) or resume class \p cls. While in XOFF the
     * device re-sends the pause before it expires; leaving XOFF sends one XON.
     */
    void SetPfcXoff(uint8_t cls, bool xoff);
    /** \return true while this device asks its peer to pause \p cls. */
    bool IsPfcXoff(uint8_t cls) const;
    /** \return the mask of classes in which the peer currently pauses us. */
    uint8_t GetPausedMask() const;
    /** \return when the pause of class \p cls in force began (meaningful while paused). */
    Time GetPauseStart(uint8_t cls) const;
    /**
     * \return the time this transmitter has spent paused in class \p cls so far: the
     * ended pauses (DcbClassCounters::pausedTime) plus the pause still in force, if any.
     */
    Time GetPausedTime(uint8_t cls) const;
    /**
     * Ignore (\p ignore true) received PFC for class \p cls, as the PFC watchdog
     * does for a stormed queue: the class resumes now and later XOFFs are counted
     * but not obeyed.
     */
    void SetPfcIgnored(uint8_t cls, bool ignore);
    bool IsPfcIgnored(uint8_t cls) const;
    /**
     * Drop every frame queued in class \p cls (each is handed to the dequeue
     * callback, so a switch releases its buffer). \return frames dropped
     */
    uint32_t DropQueued(uint8_t cls);

    /**
     * Bring the link up or down at this end. A down device drops everything it
     * would send (queued frames at once, later ones on arrival, frames its pull
     * source offers at line rate) or receive, counting them per class
     * (linkDownDrops) and firing LinkDrop; link change callbacks and LinkState
     * fire on every change. Cut a cable by calling it on both ends.
     */
    void SetLinkUp(bool up);
    /** Up to this size and rate, bytes x 8e12 + rate / 2 fits in 64 bits (1.65e19). */
    static constexpr uint64_t MAX_BYTES_64BIT_TX_TIME = 2000000;
    static constexpr uint64_t MAX_BPS_64BIT_TX_TIME = 1000000000000000000ULL; //!< 1 Ebit/s
    /**
     * \return the time \p bytes take at \p rate, rounded to the nearest picosecond.
     * Integer arithmetic: DataRate::CalculateBytesTxTime divides 128-bit fixed point,
     * which showed up at ~4% of a profile on the per-packet path.
     */
    static Time SerializationTime(uint64_t bytes, const DataRate& rate)
    {
        const uint64_t bps = rate.GetBitRate();
        if (bytes <= MAX_BYTES_64BIT_TX_TIME && bps <= MAX_BPS_64BIT_TX_TIME)
        {
            // The same rounding in 64 bits: bytes x 8e12 does not overflow, and one
            // 64-bit division is several times cheaper than a 128-bit one (__udivti3).
            return PicoSeconds(static_cast<int64_t>((bytes * 8000000000000ULL + bps / 2) / bps));
        }
        const unsigned __int128 bits = static_cast<unsigned __int128>(bytes) * 8;
        const unsigned __int128 ps = (bits * 1000000000000ULL + bps / 2) / bps;
        return PicoSeconds(static_cast<int64_t>(ps));
    }

    /**
     * \return the time \p bytes take at \p rate, truncated to whole nanoseconds: the
     * serialization time of a frame with a wire-size override (DcbFrameRecord::wireBytes).
     */
    static Time SerializationTimeWholeNs(uint64_t bytes, const DataRate& rate)
    {
        const unsigned __int128 bits = static_cast<unsigned __int128>(bytes) * 8;
        return NanoSeconds(static_cast<int64_t>(bits * 1000000000ULL / rate.GetBitRate()));
    }

    /** \return the duration of a pause of \p quanta at this device's rate. */
    Time QuantaToTime(uint16_t quanta) const;

    const DcbClassCounters& GetCounters(uint8_t cls) const;
    uint64_t GetDroppedByErrorModel() const;

    /** Set the DWRR weight of a class (DWRR classes are given by DwrrClassMask). */
    void SetDwrrWeight(uint8_t cls, uint32_t weight);
    uint32_t GetDwrrWeight(uint8_t cls) const;

    /** Capture every frame sent or received, as LINKTYPE_ETHERNET pcap. */
    void EnablePcap(const std::string& filename);

    /** Entry point for frames without a record (MPI ranks): the last bit has arrived. */
    void Receive(Ptr<Packet> frame);
    /** The last bit of \p frame, carried with \p record, has arrived. */
    void ReceiveFrame(Ptr<Packet> frame, DcbFrameRecord record);
    /**
     * Channel entry point: the last bit of \p frame, carried with \p record, has arrived;
     * \p bytes is what it counts (record.CountedBytes). The device may take the frame
     * and update the record.
     */
    void ReceiveFrameRef(DcbPacketRef& frame, DcbFrameRecord& record, uint32_t bytes);

    // NetDevice
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsBridge() const override;
    bool IsPointToPoint() const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet, const Address& source, const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

  protected:
    void DoDispose() override;

  private:
    /** A queued frame: its reference, tag, counted bytes and record (56 bytes). */
    struct QueueItem
    {
        DcbPacketRef frame;
        uint32_t tag;
        uint32_t bytes; //!< record.CountedBytes(frame), computed once at enqueue
        DcbFrameRecord record;
    };
    /** A class queue: a ring that grows (doubling) only when full, never per frame. */
    using Ring = boost::circular_buffer<QueueItem>;

    void TryTransmit();
    void StartTransmission(DcbPacketRef& frame, DcbFrameRecord& record, uint8_t tc, uint32_t bytes);
    void TransmitComplete();
    /** \return true when any traffic class holds a queued frame (paused or not). */
    bool HasQueuedFrames() const;
    /** The end of the frame on the wire: one event object, scheduled once per frame. */
    using TxCompleteEvent = ReusableEvent<DcbNetDevice, &DcbNetDevice::TransmitComplete>;
    bool PickFromQueues(DcbPacketRef& frame, DcbFrameRecord& record, uint8_t& tc, uint32_t& bytes);
    bool PickDwrr(DcbPacketRef& frame, DcbFrameRecord& record, uint8_t& tc, uint32_t& bytes);
    void TakeHead(uint8_t tc, DcbPacketRef& frame, DcbFrameRecord& record, uint32_t& bytes);
    /**
     * HPCC INT: append this port's hop record (rate, now, cumulative tx bytes, the
     * class's queue) to a queued frame that carries an INT trailer with a free slot.
     */
    void StampInt(Ptr<Packet> frame, DcbFrameRecord& record, uint8_t tc);
    /** Make the bytes of \p frame current before someone observes them. */
    static void Materialize(Ptr<Packet> frame, DcbFrameRecord& record)
    {
        if (record.IsDirty())
        {
            record.Materialize(frame);
        }
    }
    void HandlePfc(Ptr<Packet> frame);
    void PauseClass(uint8_t cls, uint16_t quanta);
    void ResumeClass(uint8_t cls);
    void SendPfcFrame(uint8_t cls, uint16_t quanta);
    void RefreshPfc(uint8_t cls);
    void WritePcap(Ptr<const Packet> frame);
    void LinkDrop(Ptr<const Packet> frame, uint8_t cls);

    // What every frame reads or writes, first and together: about four cache lines of the
    // object (and the ring header of its class) instead of fields spread over 2 KB.
    bool m_linkUp{true};
    bool m_txCompletePending{false};
    uint8_t m_pausedMask{0};
    uint8_t m_nonEmptyMask{0}; //!< classes whose queue holds a frame (paused or not)
    uint8_t m_dwrrMask{0};
    uint32_t m_ifIndex{0};
    uint32_t m_wireOverhead{24};
    DataRate m_rate{"100Gbps"};
    Ptr<DcbChannel> m_channel;
    DcbTxSource* m_txSource{nullptr};
    DcbFrameSink* m_frameSink{nullptr};
    Ptr<TxCompleteEvent> m_txComplete;
    Ptr<ErrorModel> m_receiveErrorModel;
    Ptr<PcapFileWrapper> m_pcap;
    uint64_t m_txWireBytes{0}; //!< class frames' bytes on the wire, WireOverhead included
    std::array<uint64_t, N_CLASSES> m_queueBytes{};
    /**
     * When the frame on the wire (if any) ends. The end of a serialization is an event
     * only when something may be waiting to go (m_txCompletePending): a port whose
     * queues are empty records this time instead, and the next frame queued before it
     * schedules the event then (one event per frame per hop on uncongested ports).
     */
    Time m_busyUntil{0};
    DequeueCallback m_dequeueCallback;
    DequeueFrameCallback m_dequeueFrameCallback;
    DcbFrameReceiveCallback m_dcbFrameRxCallback;
    TracedCallback<Ptr<const Packet>> m_txBeginTrace;
    TracedCallback<Ptr<const Packet>> m_rxTrace;
    std::deque<Ptr<Packet>> m_controlQueue;
    std::array<Ring, N_CLASSES> m_queues;

    Ptr<Node> m_node;
    Mac48Address m_address;
    uint16_t m_mtu{9216};
    bool m_pfcEnabled{true};
    uint16_t m_pauseQuanta{0xffff};
    double m_refreshFraction{0.5};
    uint32_t m_dwrrQuantum{9216};
    std::array<EventId, N_CLASSES> m_resumeEvents;
    std::array<Time, N_CLASSES> m_pauseStart;
    uint8_t m_xoffMask{0};
    uint8_t m_pfcIgnoreMask{0};
    std::vector<Callback<void>> m_linkChangeCallbacks;
    TracedCallback<Ptr<const Packet>> m_linkDropTrace;
    TracedCallback<bool> m_linkStateTrace;
    std::array<EventId, N_CLASSES> m_refreshEvents;

    std::array<uint32_t, N_CLASSES> m_dwrrWeight;
    std::array<int64_t, N_CLASSES> m_dwrrDeficit{};
    uint8_t m_dwrrNext{0};

    std::array<DcbClassCounters, N_CLASSES> m_counters;
    uint64_t m_droppedByErrorModel{0};

    DcbReceiveCallback m_dcbRxCallback;
    NetDevice::ReceiveCallback m_rxCallback;
    NetDevice::PromiscReceiveCallback m_promiscCallback;
    TracedCallback<Ptr<const Packet>> m_rxDropTrace;
    TracedCallback<uint8_t, uint16_t> m_pfcSentTrace;
    TracedCallback<uint8_t, uint16_t> m_pfcReceivedTrace;
    TracedCallback<uint8_t, bool> m_pauseStateTrace;
};

} // namespace ns3

#endif /* DCB_NET_DEVICE_H */
