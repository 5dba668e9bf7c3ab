// Why ~1000 lines: one port's per-frame path (enqueue, class pick, PFC, serialization end,
// arrival) stays in one translation unit so that the compiler inlines it across the steps.
#include "dcb-net-device.h"

#include "dcb-channel.h"
#include "int-trailer.h"
#include "pfc-frame.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pcap-file-wrapper.h"
#include "ns3/pointer.h"
#include "ns3/protocol-numbers.h"
#include "ns3/simulator.h"
#include "ns3/trace-helper.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcbNetDevice");
NS_OBJECT_ENSURE_REGISTERED(DcbNetDevice);

TypeId
DcbNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcbNetDevice")
            .SetParent<NetDevice>()
            .SetGroupName("Dcb")
            .AddConstructor<DcbNetDevice>()
            .AddAttribute("DataRate",
                          "Line rate of the port. Default 100 Gb/s (host links of the SRNIC and "
                          "HPCC fat-tree settings).",
                          DataRateValue(DataRate("100Gbps")),
                          MakeDataRateAccessor(&DcbNetDevice::m_rate), MakeDataRateChecker())
            .AddAttribute("Mtu",
                          "Largest frame payload the port accepts, bytes. Default 9216 (jumbo "
                          "frames, the SONiC port default).",
                          UintegerValue(9216), MakeUintegerAccessor(&DcbNetDevice::m_mtu),
                          MakeUintegerChecker<uint16_t>(64))
            .AddAttribute("WireOverhead",
                          "Bytes each frame costs on the wire beyond the captured frame: "
                          "preamble+SFD 8, FCS 4, inter-frame gap 12 (IEEE 802.3) = 24.",
                          UintegerValue(24), MakeUintegerAccessor(&DcbNetDevice::m_wireOverhead),
                          MakeUintegerChecker<uint32_t>(0, 64))
            .AddAttribute("PfcEnabled",
                          "Honour received PFC frames (IEEE 802.1Qbb). When false, pause frames "
                          "are counted and ignored.",
                          BooleanValue(true), MakeBooleanAccessor(&DcbNetDevice::m_pfcEnabled),
                          MakeBooleanChecker())
            .AddAttribute("PauseQuanta",
                          "Pause time carried in XOFF frames, in quanta of 512 bit times. "
                          "Default 0xFFFF: pause 'for a large number of quanta and then "
                          "explicitly resume' (Cisco PFC white paper; spec 2.3).",
                          UintegerValue(0xffff), MakeUintegerAccessor(&DcbNetDevice::m_pauseQuanta),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("PauseRefreshFraction",
                          "While a class stays in XOFF, the pause is re-sent after this fraction "
                          "of its duration. Default 0.5 (DCQCN authors' simulator refreshes at "
                          "pause_time/2; spec 2.3).",
                          DoubleValue(0.5), MakeDoubleAccessor(&DcbNetDevice::m_refreshFraction),
                          MakeDoubleChecker<double>(0.01, 0.99))
            .AddAttribute("DwrrClassMask",
                          "Traffic classes served by deficit weighted round robin after the "
                          "strict-priority classes (bit n = class n). Default 0: all strict.",
                          UintegerValue(0), MakeUintegerAccessor(&DcbNetDevice::m_dwrrMask),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute("DwrrQuantum",
                          "DWRR quantum in bytes per unit of weight. Default 9216 (one jumbo "
                          "frame, so every round can send at least one frame).",
                          UintegerValue(9216), MakeUintegerAccessor(&DcbNetDevice::m_dwrrQuantum),
                          MakeUintegerChecker<uint32_t>(64))
            .AddAttribute("ReceiveErrorModel",
                          "Error model applied to arriving data frames (PFC frames are exempt).",
                          PointerValue(), MakePointerAccessor(&DcbNetDevice::m_receiveErrorModel),
                          MakePointerChecker<ErrorModel>())
            .AddTraceSource("PhyTxBegin", "A frame starts serialization.",
                            MakeTraceSourceAccessor(&DcbNetDevice::m_txBeginTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacRx", "A data frame was received and handed up.",
                            MakeTraceSourceAccessor(&DcbNetDevice::m_rxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyRxDrop", "A frame was dropped by the receive error model.",
                            MakeTraceSourceAccessor(&DcbNetDevice::m_rxDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PfcSent", "A PFC frame was sent: (class, quanta; 0 = XON).",
                            MakeTraceSourceAccessor(&DcbNetDevice::m_pfcSentTrace),
                            "ns3::DcbNetDevice::PfcTracedCallback")
            .AddTraceSource("PfcReceived", "A PFC frame was received: (class, quanta; 0 = XON).",
                            MakeTraceSourceAccessor(&DcbNetDevice::m_pfcReceivedTrace),
                            "ns3::DcbNetDevice::PfcTracedCallback")
            .AddTraceSource("PauseState",
                            "This transmitter was paused (true) or resumed (false) in a class.",
                            MakeTraceSourceAccessor(&DcbNetDevice::m_pauseStateTrace),
                            "ns3::DcbNetDevice::PauseStateTracedCallback")
            .AddTraceSource("LinkDrop", "A frame was dropped because the link is down.",
                            MakeTraceSourceAccessor(&DcbNetDevice::m_linkDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("LinkState", "The link went up (true) or down (false).",
                            MakeTraceSourceAccessor(&DcbNetDevice::m_linkStateTrace),
                            "ns3::DcbNetDevice::LinkStateTracedCallback");
    return tid;
}

DcbNetDevice::DcbNetDevice()
    : m_txComplete(Create<TxCompleteEvent>(this))
{
    m_dwrrWeight.fill(1);
    m_pauseStart.fill(Time(0));
}

DcbNetDevice::~DcbNetDevice() = default;

void
DcbNetDevice::DoDispose()
{
    for (uint8_t c = 0; c < N_CLASSES; ++c)
    {
        m_resumeEvents[c].Cancel();
        m_refreshEvents[c].Cancel();
        m_queues[c].clear();
    }
    m_nonEmptyMask = 0;
    m_controlQueue.clear();
    m_linkChangeCallbacks.clear();
    m_node = nullptr;
    m_channel = nullptr;
    m_receiveErrorModel = nullptr;
    m_txSource = nullptr;
    m_pcap = nullptr;
    m_dcbRxCallback = DcbReceiveCallback();
    m_dcbFrameRxCallback = DcbFrameReceiveCallback();
    m_frameSink = nullptr;
    m_dequeueCallback = DequeueCallback();
    m_dequeueFrameCallback = DequeueFrameCallback();
    m_rxCallback = NetDevice::ReceiveCallback();
    m_promiscCallback = NetDevice::PromiscReceiveCallback();
    NetDevice::DoDispose();
}

bool
DcbNetDevice::Attach(Ptr<DcbChannel> channel)
{
    m_channel = channel;
    channel->Attach(this);
    return true;
}

Ptr<DcbChannel>
DcbNetDevice::GetDcbChannel() const
{
    return m_channel;
}

void
DcbNetDevice::SetDataRate(DataRate rate)
{
    m_rate = rate;
}

DataRate
DcbNetDevice::GetDataRate() const
{
    return m_rate;
}

void
DcbNetDevice::Enqueue(Ptr<Packet> frame, uint8_t tc, uint32_t tag)
{
    EnqueueFrame(frame, DcbFrameRecord(), tc, tag);
}

void
DcbNetDevice::EnqueueFrame(Ptr<Packet> frame, const DcbFrameRecord& record, uint8_t tc,
                           uint32_t tag)
{
    EnqueueFrame(DcbPacketRef(frame), record, record.CountedBytes(*frame), tc, tag);
}

void
DcbNetDevice::EnqueueFrame(DcbPacketRef&& frame, const DcbFrameRecord& record, uint32_t bytes,
                           uint8_t tc, uint32_t tag)
{
    tc &= 7;
    if (!m_linkUp)
    {
        if (!m_dequeueCallback.IsNull())
        {
            m_dequeueCallback(m_ifIndex, tag, tc, bytes);
        }
        Ptr<Packet> packet = frame.Release();
        if (!m_linkDropTrace.IsEmpty())
        {
            DcbFrameRecord r = record;
            Materialize(packet, r);
        }
        LinkDrop(packet, tc);
        return;
    }
    m_queueBytes[tc] += bytes;
    Ring& q = m_queues[tc];
    if (q.full())
    {
        q.set_capacity(q.capacity() < 16 ? 16 : 2 * q.capacity());
    }
    q.push_back(QueueItem{std::move(frame), tag, bytes, record});
    m_nonEmptyMask |= static_cast<uint8_t>(1u << tc);
    TryTransmit();
}

uint64_t
DcbNetDevice::GetQueueBytes(uint8_t tc) const
{
    return m_queueBytes[tc & 7];
}

uint64_t
DcbNetDevice::GetQueueBytesWithTag(uint8_t tc, uint32_t tag) const
{
    uint64_t bytes = 0;
    for (const QueueItem& item : m_queues[tc & 7])
    {
        if (item.tag == tag)
        {
            bytes += item.bytes;
        }
    }
    return bytes;
}

uint32_t
DcbNetDevice::GetQueuePackets(uint8_t tc) const
{
    return static_cast<uint32_t>(m_queues[tc & 7].size());
}

void
DcbNetDevice::SetTxSource(DcbTxSource* source)
{
    m_txSource = source;
}

void
DcbNetDevice::NotifyTxReady()
{
    TryTransmit();
}

void
DcbNetDevice::SetDcbReceiveCallback(DcbReceiveCallback cb)
{
    m_dcbRxCallback = cb;
}

void
DcbNetDevice::SetDcbFrameReceiveCallback(DcbFrameReceiveCallback cb)
{
    m_dcbFrameRxCallback = cb;
    m_frameSink = nullptr;
}

void
DcbNetDevice::SetFrameSink(DcbFrameSink* sink)
{
    m_frameSink = sink;
    m_dcbFrameRxCallback = DcbFrameReceiveCallback();
}

void
DcbNetDevice::SetDequeueFrameCallback(DequeueFrameCallback cb)
{
    m_dequeueFrameCallback = cb;
}

void
DcbNetDevice::SetDequeueCallback(DequeueCallback cb)
{
    m_dequeueCallback = cb;
}

void
DcbNetDevice::SetDwrrWeight(uint8_t cls, uint32_t weight)
{
    m_dwrrWeight[cls & 7] = std::max<uint32_t>(weight, 1);
}

uint32_t
DcbNetDevice::GetDwrrWeight(uint8_t cls) const
{
    return m_dwrrWeight[cls & 7];
}

const DcbClassCounters&
DcbNetDevice::GetCounters(uint8_t cls) const
{
    return m_counters[cls & 7];
}

uint64_t
DcbNetDevice::GetDroppedByErrorModel() const
{
    return m_droppedByErrorModel;
}

uint8_t
DcbNetDevice::GetPausedMask() const
{
    return m_pausedMask;
}

Time
DcbNetDevice::GetPauseStart(uint8_t cls) const
{
    return m_pauseStart[cls & 7];
}

Time
DcbNetDevice::GetPausedTime(uint8_t cls) const
{
    cls &= 7;
    Time t = m_counters[cls].pausedTime;
    if ((m_pausedMask >> cls) & 1)
    {
        t += Simulator::Now() - m_pauseStart[cls];
    }
    return t;
}

Time
DcbNetDevice::QuantaToTime(uint16_t quanta) const
{
    // What ns-3.37's DataRate::CalculateBitsTxTime computes; before 3.37 it takes
    // Seconds(bits), which overflows at picosecond resolution from ~9.2 Mbit (18000 quanta) on.
    return Seconds(int64x64_t(static_cast<uint64_t>(quanta) * PfcFrame::BITS_PER_QUANTUM) /
                   int64x64_t(m_rate.GetBitRate()));
}

// ---------------------------------------------------------------- transmit side

void
DcbNetDevice::TryTransmit()
{
    if (m_txCompletePending || !m_channel)
    {
        return; // the wire is busy; the end of its frame will call again
    }
    const Time now = Simulator::Now();
    if (now < m_busyUntil)
    {
        // The frame on the wire was started with nothing waiting behind it, so its end
        // was not scheduled: schedule it now that something is.
        m_txCompletePending = true;
        m_txComplete->Schedule(m_busyUntil - now);
        return;
    }
    DcbPacketRef frame;
    DcbFrameRecord record;
    uint8_t tc = 0;
    uint32_t bytes = 0;
    if (!m_controlQueue.empty())
    {
        const Ptr<Packet>& control = m_controlQueue.front();
        bytes = record.CountedBytes(*control);
        frame = DcbPacketRef(control);
        m_controlQueue.pop_front();
        tc = N_CLASSES; // MAC control: not counted in a traffic class
    }
    else if (!PickFromQueues(frame, record, tc, bytes))
    {
        if (m_txSource == nullptr)
        {
            return;
        }
        Ptr<Packet> pulled = m_txSource->PullFrame(m_pausedMask, tc, record);
        if (!pulled)
        {
            return;
        }
        bytes = record.CountedBytes(*pulled);
        frame = DcbPacketRef(pulled);
    }
    else
    {
        if (record.intCapacity != 0)
        {
            StampInt(frame.Get(), record, tc);
        }
        if (!m_dequeueFrameCallback.IsNull())
        {
            m_dequeueFrameCallback(m_ifIndex, tc, frame.Get(), &record);
        }
    }
    StartTransmission(frame, record, tc, bytes);
}

bool
DcbNetDevice::PickFromQueues(DcbPacketRef& frame, DcbFrameRecord& record, uint8_t& tc,
                             uint32_t& bytes)
{
    // The highest strict-priority class that holds a frame and is not paused: one mask,
    // no walk over the eight ring headers.
    const unsigned ready = m_nonEmptyMask & ~m_pausedMask & ~m_dwrrMask & 0xffu;
    if (ready != 0)
    {
        tc = static_cast<uint8_t>(31 - __builtin_clz(ready));
        TakeHead(tc, frame, record, bytes);
        return true;
    }
    return m_dwrrMask != 0 && PickDwrr(frame, record, tc, bytes);
}

bool
DcbNetDevice::PickDwrr(DcbPacketRef& frame, DcbFrameRecord& record, uint8_t& tc, uint32_t& bytes)
{
    // Deficit round robin (Shreedhar & Varghese, SIGCOMM'95): a class may send
    // while its deficit covers the head frame; each visit that cannot send adds
    // weight x quantum. Bounded: every eligible class gains credit each round.
    bool anyEligible = false;
    for (uint8_t c = 0; c < N_CLASSES; ++c)
    {
        const uint8_t bit = static_cast<uint8_t>(1u << c);
        if ((m_dwrrMask & bit) && !(m_pausedMask & bit) && !m_queues[c].empty())
        {
            anyEligible = true;
        }
        else if (m_dwrrMask & bit)
        {
            m_dwrrDeficit[c] = 0; // an idle class keeps no credit
        }
    }
    if (!anyEligible)
    {
        return false;
    }
    for (;;)
    {
        const uint8_t c = m_dwrrNext;
        const uint8_t bit = static_cast<uint8_t>(1u << c);
        if ((m_dwrrMask & bit) && !(m_pausedMask & bit) && !m_queues[c].empty())
        {
            const int64_t head = m_queues[c].front().bytes;
            if (m_dwrrDeficit[c] >= head)
            {
                m_dwrrDeficit[c] -= head;
                tc = c;
                TakeHead(tc, frame, record, bytes);
                return true;
            }
            m_dwrrDeficit[c] += static_cast<int64_t>(m_dwrrWeight[c]) * m_dwrrQuantum;
        }
        m_dwrrNext = static_cast<uint8_t>((m_dwrrNext + 1) % N_CLASSES);
    }
}

void
DcbNetDevice::StampInt(Ptr<Packet> frame, DcbFrameRecord& record, uint8_t tc)
{
    if (record.intHops >= record.intCapacity)
    {
        return; // the path is longer than the sender reserved: later hops go unreported
    }
    // HPCC's txBytes: everything this port put on the wire, preamble and IFG included,
    // so that a saturated link reads as utilization 1.
    const uint64_t word =
        IntTrailer::EncodeHop(m_rate, Simulator::Now(), m_txWireBytes, m_queueBytes[tc]);
    IntTrailer::StampHop(frame, record.intHops, record.intCapacity, word);
    record.intHops++;
}

void
DcbNetDevice::TakeHead(uint8_t tc, DcbPacketRef& frame, DcbFrameRecord& record, uint32_t& bytes)
{
    QueueItem& item = m_queues[tc].front();
    frame = std::move(item.frame);
    record = item.record;
    const uint32_t tag = item.tag;
    const uint32_t size = item.bytes;
    bytes = size;
    m_queues[tc].pop_front();
    if (m_queues[tc].empty())
    {
        m_nonEmptyMask &= static_cast<uint8_t>(~(1u << tc));
    }
    m_queueBytes[tc] -= size;
    if (!m_dequeueCallback.IsNull())
    {
        m_dequeueCallback(m_ifIndex, tag, tc, size);
    }
}

void
DcbNetDevice::StartTransmission(DcbPacketRef& frame, DcbFrameRecord& record, uint8_t tc,
                                uint32_t bytes)
{
    const uint32_t size = bytes;
    const uint32_t wireBytes = record.wireBytes != 0 ? size : size + m_wireOverhead;
    if (tc < N_CLASSES)
    {
        m_counters[tc].txPackets++;
        m_counters[tc].txBytes += size;
        m_txWireBytes += wireBytes;
    }
    if (record.IsDirty() && (m_pcap || !m_txBeginTrace.IsEmpty() || !m_linkUp))
    {
        record.Materialize(frame.Get());
    }
    if (!m_txBeginTrace.IsEmpty())
    {
        m_txBeginTrace(frame.Get());
    }
    if (m_pcap)
    {
        WritePcap(frame.Get());
    }
    const Time txTime = record.wireBytes != 0 ? SerializationTimeWholeNs(wireBytes, m_rate)
                                              : SerializationTime(wireBytes, m_rate);
    if (m_linkUp)
    {
        m_channel->Transmit(std::move(frame), record, bytes, this, txTime);
    }
    else
    {
        LinkDrop(frame.Release(),
                 tc < N_CLASSES ? tc : 0); // a pull source's frame: lost on the dead wire
    }
    m_busyUntil = Simulator::Now() + txTime;
    if (!m_controlQueue.empty() || HasQueuedFrames() ||
        (m_txSource != nullptr && m_txSource->HasTxWork()))
    {
        // Something may go next (a pull source is asked at every frame's end).
        m_txCompletePending = true;
        m_txComplete->Schedule(txTime);
    }
}

bool
DcbNetDevice::HasQueuedFrames() const
{
    return m_nonEmptyMask != 0;
}

void
DcbNetDevice::TransmitComplete()
{
    m_txCompletePending = false;
    TryTransmit();
}

// ---------------------------------------------------------------- receive side

void
DcbNetDevice::Receive(Ptr<Packet> frame)
{
    ReceiveFrame(frame, DcbFrameRecord());
}

void
DcbNetDevice::ReceiveFrame(Ptr<Packet> frame, DcbFrameRecord record)
{
    DcbPacketRef ref(frame);
    ReceiveFrameRef(ref, record, record.CountedBytes(*frame));
}

void
DcbNetDevice::ReceiveFrameRef(DcbPacketRef& ref, DcbFrameRecord& record, uint32_t bytes)
{
    if (!record.IsParsed())
    {
        // first hop: the only parse of this frame
        record = DcbFrameRecord::Parse(Ptr<const Packet>(ref.Peek()), record);
    }
    if (!m_linkUp)
    {
        Ptr<Packet> frame = ref.Release();
        if (!m_linkDropTrace.IsEmpty())
        {
            Materialize(frame, record);
        }
        LinkDrop(frame, record.pcp);
        return;
    }
    if (record.etherType == ETHERTYPE_MAC_CONTROL)
    {
        Ptr<Packet> frame = ref.Release();
        if (m_pcap)
        {
            WritePcap(frame);
        }
        HandlePfc(frame);
        return;
    }
    if (m_receiveErrorModel || m_pcap || !m_rxTrace.IsEmpty())
    {
        Materialize(ref.Get(), record);
    }
    if (m_receiveErrorModel && m_receiveErrorModel->IsCorrupt(ref.Get()))
    {
        m_droppedByErrorModel++;
        m_rxDropTrace(ref.Get());
        return;
    }
    if (m_pcap)
    {
        WritePcap(ref.Get());
    }
    const uint8_t cls = record.pcp;
    m_counters[cls].rxPackets++;
    m_counters[cls].rxBytes += bytes;
    if (!m_rxTrace.IsEmpty())
    {
        m_rxTrace(ref.Get());
    }
    if (m_frameSink != nullptr)
    {
        m_frameSink->AcceptFrame(this, ref, record, bytes);
        return;
    }
    Ptr<Packet> frame = ref.Release();
    if (!m_dcbFrameRxCallback.IsNull())
    {
        m_dcbFrameRxCallback(this, frame, record);
        return;
    }
    // Receivers that parse headers themselves get current bytes.
    Materialize(frame, record);
    EthernetVlanHeader eth;
    eth.SetSource(record.ethSrc);
    eth.SetDestination(record.ethDst);
    eth.SetEtherType(record.etherType);
    if (record.IsTagged())
    {
        eth.SetVlanTag(record.pcp, record.vid);
    }
    if (!m_dcbRxCallback.IsNull())
    {
        frame->RemoveAtStart(eth.GetSerializedSize());
        m_dcbRxCallback(this, frame, eth);
    }
    else if (!m_rxCallback.IsNull())
    {
        frame->RemoveAtStart(eth.GetSerializedSize());
        m_rxCallback(this, frame, eth.GetEtherType(), eth.GetSource());
    }
}

// ---------------------------------------------------------------- PFC

void
DcbNetDevice::HandlePfc(Ptr<Packet> frame)
{
    EthernetVlanHeader eth;
    frame->RemoveHeader(eth);
    PfcFrame pfc;
    frame->RemoveHeader(pfc);
    if (pfc.GetOpcode() != PfcFrame::OPCODE_PFC)
    {
        return; // other MAC control opcodes (802.3x PAUSE) are not modelled
    }
    for (uint8_t c = 0; c < N_CLASSES; ++c)
    {
        if (!pfc.IsEnabled(c))
        {
            continue;
        }
        const uint16_t quanta = pfc.GetQuanta(c);
        m_pfcReceivedTrace(c, quanta);
        if (quanta == 0)
        {
            m_counters[c].pfcXonReceived++;
        }
        else
        {
            m_counters[c].pfcXoffReceived++;
        }
        if (!m_pfcEnabled || ((m_pfcIgnoreMask >> c) & 1))
        {
            continue;
        }
        if (quanta == 0)
        {
            ResumeClass(c);
        }
        else
        {
            PauseClass(c, quanta);
        }
    }
}

void
DcbNetDevice::PauseClass(uint8_t cls, uint16_t quanta)
{
    const uint8_t bit = static_cast<uint8_t>(1u << cls);
    if (!(m_pausedMask & bit))
    {
        m_pausedMask |= bit;
        m_counters[cls].pauseOnsets++;
        m_pauseStart[cls] = Simulator::Now();
        m_pauseStateTrace(cls, true);
    }
    // "The MAC sets the pause quanta to the last pause quanta received" (spec 2.2).
    m_resumeEvents[cls].Cancel();
    m_resumeEvents[cls] =
        Simulator::Schedule(QuantaToTime(quanta), &DcbNetDevice::ResumeClass, this, cls);
}

void
DcbNetDevice::ResumeClass(uint8_t cls)
{
    const uint8_t bit = static_cast<uint8_t>(1u << cls);
    m_resumeEvents[cls].Cancel();
    if (!(m_pausedMask & bit))
    {
        return;
    }
    m_pausedMask &= static_cast<uint8_t>(~bit);
    m_counters[cls].pausedTime += Simulator::Now() - m_pauseStart[cls];
    m_pauseStateTrace(cls, false);
    TryTransmit();
}

void
DcbNetDevice::SetPfcXoff(uint8_t cls, bool xoff)
{
    cls &= 7;
    const uint8_t bit = static_cast<uint8_t>(1u << cls);
    if (xoff == bool(m_xoffMask & bit))
    {
        return;
    }
    if (xoff)
    {
        m_xoffMask |= bit;
        RefreshPfc(cls);
    }
    else
    {
        m_xoffMask &= static_cast<uint8_t>(~bit);
        m_refreshEvents[cls].Cancel();
        SendPfcFrame(cls, 0);
    }
}

void
DcbNetDevice::SetPfcIgnored(uint8_t cls, bool ignore)
{
    const uint8_t bit = static_cast<uint8_t>(1u << (cls & 7));
    m_pfcIgnoreMask = ignore ? (m_pfcIgnoreMask | bit) : (m_pfcIgnoreMask & ~bit);
    if (ignore)
    {
        ResumeClass(cls & 7);
    }
}

bool
DcbNetDevice::IsPfcIgnored(uint8_t cls) const
{
    return (m_pfcIgnoreMask >> (cls & 7)) & 1;
}

uint32_t
DcbNetDevice::DropQueued(uint8_t cls)
{
    cls &= 7;
    uint32_t n = 0;
    while (!m_queues[cls].empty())
    {
        DcbPacketRef frame;
        DcbFrameRecord record;
        uint32_t bytes = 0;
        TakeHead(cls, frame, record, bytes);
        ++n;
    }
    return n;
}

void
DcbNetDevice::LinkDrop(Ptr<const Packet> frame, uint8_t cls)
{
    m_counters[cls & 7].linkDownDrops++;
    m_linkDropTrace(frame);
}

void
DcbNetDevice::SetLinkUp(bool up)
{
    if (up == m_linkUp)
    {
        return;
    }
    m_linkUp = up;
    if (!up)
    {
        for (uint8_t c = 0; c < N_CLASSES; ++c)
        {
            while (!m_queues[c].empty())
            {
                DcbPacketRef ref;
                DcbFrameRecord record;
                uint32_t bytes = 0;
                TakeHead(c, ref, record, bytes);
                Ptr<Packet> frame = ref.Release();
                if (!m_linkDropTrace.IsEmpty())
                {
                    Materialize(frame, record);
                }
                LinkDrop(frame, c);
            }
            ResumeClass(c); // a pause from a peer we no longer hear cannot be lifted
        }
        m_controlQueue.clear();
    }
    m_linkStateTrace(up);
    for (const Callback<void>& cb : m_linkChangeCallbacks)
    {
        cb();
    }
    if (up)
    {
        TryTransmit();
    }
}

bool
DcbNetDevice::IsPfcXoff(uint8_t cls) const
{
    return (m_xoffMask >> (cls & 7)) & 1;
}

void
DcbNetDevice::RefreshPfc(uint8_t cls)
{
    SendPfcFrame(cls, m_pauseQuanta);
    m_refreshEvents[cls] = Simulator::Schedule(QuantaToTime(m_pauseQuanta) * m_refreshFraction,
                                               &DcbNetDevice::RefreshPfc, this, cls);
}

void
DcbNetDevice::SendPfcFrame(uint8_t cls, uint16_t quanta)
{
    Ptr<Packet> frame = Create<Packet>();
    PfcFrame pfc;
    pfc.SetPause(cls, quanta);
    frame->AddHeader(pfc);
    EthernetVlanHeader eth;
    eth.SetDestination(Mac48Address("01:80:c2:00:00:01"));
    eth.SetSource(m_address);
    eth.SetEtherType(ETHERTYPE_MAC_CONTROL);
    frame->AddHeader(eth);
    if (quanta == 0)
    {
        m_counters[cls].pfcXonSent++;
    }
    else
    {
        m_counters[cls].pfcXoffSent++;
    }
    m_pfcSentTrace(cls, quanta);
    m_controlQueue.push_back(frame);
    TryTransmit();
}

// ---------------------------------------------------------------- capture

void
DcbNetDevice::EnablePcap(const std::string& filename)
{
    m_pcap = CreateObject<PcapFileWrapper>();
    // Nanosecond timestamps (pcap magic 0xa1b23c4d): frames microseconds apart are common.
    m_pcap->SetAttribute("NanosecMode", BooleanValue(true));
    m_pcap->Open(filename, std::ios::out | std::ios::binary);
    m_pcap->Init(PcapHelper::DLT_EN10MB, 65535);
}

void
DcbNetDevice::WritePcap(Ptr<const Packet> frame)
{
    m_pcap->Write(Simulator::Now(), frame);
}

// ---------------------------------------------------------------- NetDevice

void
DcbNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
DcbNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
DcbNetDevice::GetChannel() const
{
    return m_channel;
}

void
DcbNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
DcbNetDevice::GetAddress() const
{
    return m_address;
}

bool
DcbNetDevice::SetMtu(const uint16_t mtu)
{
    m_mtu = mtu;
    return true;
}

uint16_t
DcbNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
DcbNetDevice::IsLinkUp() const
{
    return m_channel != nullptr && m_linkUp;
}

void
DcbNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
    m_linkChangeCallbacks.push_back(callback);
}

bool
DcbNetDevice::IsBroadcast() const
{
    return true;
}

Address
DcbNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
DcbNetDevice::IsMulticast() const
{
    return false;
}

Address
DcbNetDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
DcbNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
DcbNetDevice::IsBridge() const
{
    return false;
}

bool
DcbNetDevice::IsPointToPoint() const
{
    return true;
}

bool
DcbNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    return SendFrom(packet, m_address, dest, protocolNumber);
}

bool
DcbNetDevice::SendFrom(Ptr<Packet> packet, const Address& source, const Address& dest,
                       uint16_t protocolNumber)
{
    EthernetVlanHeader eth;
    eth.SetSource(Mac48Address::ConvertFrom(source));
    eth.SetDestination(Mac48Address::ConvertFrom(dest));
    eth.SetEtherType(protocolNumber);
    packet->AddHeader(eth);
    Enqueue(packet, 0, 0);
    return true;
}

Ptr<Node>
DcbNetDevice::GetNode() const
{
    return m_node;
}

void
DcbNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
}

bool
DcbNetDevice::NeedsArp() const
{
    return false;
}

void
DcbNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_rxCallback = cb;
}

void
DcbNetDevice::SetPromiscReceiveCallback(PromiscReceiveCallback cb)
{
    m_promiscCallback = cb;
}

bool
DcbNetDevice::SupportsSendFrom() const
{
    return true;
}

} // namespace ns3
