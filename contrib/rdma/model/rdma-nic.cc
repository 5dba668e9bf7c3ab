// Why ~900 lines: the NIC's per-frame send and receive path (QP table look-up, encapsulation,
// pacing hand-off) stays in one translation unit so that the compiler inlines it across the steps.
#include "rdma-nic.h"

#include "roce-bth-header.h"
#include "roce-icrc-trailer.h"
#include "roce-outer-header.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/dcb-channel.h"
#include "ns3/enum.h"
#include "ns3/int-trailer.h"
#include "ns3/integer.h"
#include "ns3/ipv4-header.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/protocol-numbers.h"
#include "ns3/rnic-port.h"
#include "ns3/simulator.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaNic");
NS_OBJECT_ENSURE_REGISTERED(RdmaNic);

namespace
{
/** Ethernet + 802.1Q (18), IPv4 (20), UDP (8), ICRC (4). */
constexpr uint32_t ENCAPSULATION_HEADER_BYTES = 18 + 20 + 8 + 4;
constexpr uint32_t ETHERNET_VLAN_BYTES = 18;
constexpr uint32_t RETH_BYTES = 16;
constexpr uint32_t AETH_BYTES = 4;
constexpr uint32_t IMM_DT_BYTES = 4;
/** BTH bytes 0-7: opcode, flags, P_Key, resv8a (INT bits), destination QP. */
constexpr uint32_t BTH_HEAD_BYTES = 8;
/** RdmaNic::m_entropyEcho: the packet arrived CE-marked. */
constexpr uint32_t ENTROPY_ECHO_CE = 1u << 16;
/** RdmaNic::m_entropyEcho: a packet arrived that no ACK/NAK has echoed yet (SET clears on echo). */
constexpr uint32_t ENTROPY_ECHO_SET = 1u << 17;

/** \return \p payload without the INT trailer of \p intHops hops (telemetry, not payload). */
uint32_t
WithoutIntTrailer(uint32_t payload, uint8_t intHops)
{
    const uint32_t intBytes = intHops ? IntTrailer::SizeFor(intHops) : 0;
    return payload > intBytes ? payload - intBytes : 0;
}
} // namespace

TypeId
RdmaNic::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaNic")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaNic>()
            .AddAttribute("CongestionControl",
                          "Congestion-control algorithm forked for each QP. Default DCQCN "
                          "(Zhu et al. SIGCOMM'15), what RoCE NICs run.",
                          TypeIdValue(TypeId::LookupByName("ns3::RdmaDcqcn")),
                          MakeTypeIdAccessor(&RdmaNic::m_ccType), MakeTypeIdChecker())
            .AddAttribute("LossRecovery",
                          "Loss recovery forked for each QP. Default go-back-N, as commercial "
                          "RoCE NICs (ConnectX) implement it.",
                          TypeIdValue(TypeId::LookupByName("ns3::RdmaGoBackN")),
                          MakeTypeIdAccessor(&RdmaNic::m_lossType), MakeTypeIdChecker())
            .AddAttribute("QpScheduler",
                          "Transmit scheduler over the QPs. Default round robin with every "
                          "resource on chip (ns3::RoundRobinQpScheduler); "
                          "ns3::CachedQpScheduler and ns3::SrnicQpScheduler model commercial "
                          "and SRNIC NICs (SRNIC, NSDI'23, sections 3 and 4.3).",
                          TypeIdValue(TypeId::LookupByName("ns3::RoundRobinQpScheduler")),
                          MakeTypeIdAccessor(&RdmaNic::m_schedulerType), MakeTypeIdChecker())
            .AddAttribute("CnpDscp",
                          "DSCP of CNPs. Default 48 (ConnectX CNP_DSCP default; class 6, "
                          "a lossy high-priority class; spec 3.3).",
                          UintegerValue(48), MakeUintegerAccessor(&RdmaNic::m_cnpDscp),
                          MakeUintegerChecker<uint8_t>(0, 63))
            .AddAttribute("AckDscp",
                          "DSCP of ACKs and NAKs; -1 sends them with the QP's own DSCP (and so "
                          "in its traffic class). Default -1: RoCE NICs acknowledge in the QP's "
                          "traffic class (IBTA: responses carry the QP's GRH traffic class; "
                          "ConnectX sets no separate ACK priority). The HPCC simulator's "
                          "ACK_HIGH_PRIO 1 sends them in a high-priority class instead "
                          "[HPCC-CFG ACK_HIGH_PRIO].",
                          IntegerValue(-1), MakeIntegerAccessor(&RdmaNic::m_ackDscp),
                          MakeIntegerChecker<int16_t>(-1, 63))
            .AddAttribute("AckEgressClass",
                          "Traffic class of the NIC's own egress queue in which ACK/NAK frames "
                          "wait, whatever class their DSCP and PCP give them on the wire (what "
                          "switches see); -1: that wire class. Queued ACK/NAK/CNP frames are "
                          "always sent before the QPs' data; the class decides which PFC pause "
                          "holds them at the NIC. Default -1. The HPCC simulator's "
                          "ACK_HIGH_PRIO 1 keeps ACK/NAK in the data's class at switches but "
                          "queues them in the NIC's class 0, which its switches never pause "
                          "[HPCC-CFG ACK_HIGH_PRIO]; 7 here is such a never-paused NIC class.",
                          IntegerValue(-1), MakeIntegerAccessor(&RdmaNic::m_ackEgressClass),
                          MakeIntegerChecker<int16_t>(-1, 7))
            .AddAttribute("EcnCapable",
                          "Mark data packets ECT(0) so switches can signal congestion (required "
                          "by DCQCN). Default true.",
                          BooleanValue(true), MakeBooleanAccessor(&RdmaNic::m_ecnCapable),
                          MakeBooleanChecker())
            .AddAttribute("ComputeIcrc",
                          "Compute the real RoCEv2 ICRC of every packet (for captures). Costs "
                          "a copy and a CRC per packet; default false writes a zero ICRC.",
                          BooleanValue(false), MakeBooleanAccessor(&RdmaNic::m_computeIcrc),
                          MakeBooleanChecker())
            .AddAttribute("Ttl", "IPv4 TTL of transmitted packets. Default 64 (Linux default).",
                          UintegerValue(64), MakeUintegerAccessor(&RdmaNic::m_ttl),
                          MakeUintegerChecker<uint8_t>(1))
            .AddAttribute(
                "Framing",
                "How the NIC's data, ACK/NAK and CNP frames count on the wire. RoceV2 "
                "(default): the real frame (Ethernet + 802.1Q, IPv4, UDP, BTH and its "
                "extension headers, payload, ICRC) plus the port's WireOverhead, 1086 bytes "
                "per 1000 bytes of payload, exact serialization times. HpccSim: the packet "
                "sizes of the HPCC ns-3 simulator (alibaba-edu/High-Precision-Congestion-"
                "Control): a data packet takes its payload + 48 bytes (1048 per 1000; its "
                "fct.txt standalone FCTs count these 48 bytes per packet), an ACK/NAK, and a "
                "CNP, 60 bytes, each plus the INT trailer it carries, with serialization "
                "times truncated to whole nanoseconds as that simulator's DataRate "
                "arithmetic does [HPCC-SIM-FRAMING]. Frames keep their real bytes (headers "
                "parse, pcap shows them); only the bytes the links, queues, buffers, byte "
                "counters and the transmit pacer count change (DcbFrameRecord::wireBytes). "
                "HpccConfigTranslator sets HpccSim for the HPCC simulator's config.txt.",
                EnumValue(FRAMING_ROCE_V2), MakeEnumAccessor(&RdmaNic::m_framing),
                MakeEnumChecker(FRAMING_ROCE_V2, "RoceV2", FRAMING_HPCC_SIM, "HpccSim"))
            .AddAttribute(
                "PathEntropy",
                "Chooses each data packet's UDP source port, the entropy the switches' ECMP "
                "hash reads (an RdmaPathEntropy: ns3::ObliviousPathEntropy, a fresh value per "
                "packet; ns3::RepsPathEntropy, REPS's recycled values). One object per NIC. "
                "Default none: every packet of a QP carries the QP's fixed port, as RoCE NICs "
                "do (IBTA Annex A17). A NIC with one echoes, in each ACK/NAK, the source port "
                "(as the ACK's own source port, REPS section 3.1) and the ECN mark (as CE in "
                "the ACK's IPv4 ECN field) of the data packet that drew it.",
                PointerValue(),
                MakePointerAccessor(&RdmaNic::SetPathEntropy, &RdmaNic::GetPathEntropy),
                MakePointerChecker<RdmaPathEntropy>())
            .AddTraceSource("Completion", "A work completion was generated.",
                            MakeTraceSourceAccessor(&RdmaNic::m_completionTrace),
                            "ns3::RdmaNic::CompletionTracedCallback")
            .AddTraceSource("DataPlaced", "Payload written to host memory: (qpn, address, bytes).",
                            MakeTraceSourceAccessor(&RdmaNic::m_dataPlacedTrace),
                            "ns3::RdmaNic::DataPlacedTracedCallback")
            .AddTraceSource("MessageReceived",
                            "The last packet of an incoming WRITE or SEND was executed: "
                            "(qpn, message bytes).",
                            MakeTraceSourceAccessor(&RdmaNic::m_messageReceivedTrace),
                            "ns3::RdmaNic::MessageReceivedTracedCallback");
    return tid;
}

RdmaNic::RdmaNic()
{
    m_qpFactory.SetTypeId(RdmaQueuePair::GetTypeId());
}

RdmaNic::~RdmaNic() = default;

void
RdmaNic::DoDispose()
{
    m_wakeEvent.Cancel();
    m_requestGate = Callback<void, const RdmaInboundRequest&>();
    for (auto& qp : m_qps)
    {
        if (qp)
        {
            qp->Dispose();
        }
    }
    m_qps.clear();
    if (m_scheduler)
    {
        m_scheduler->Dispose();
    }
    m_scheduler = nullptr;
    m_cache = nullptr;
    m_entropy = nullptr;
    if (m_rx)
    {
        m_rx->Dispose();
        m_rx = nullptr;
    }
    if (m_tx)
    {
        m_tx->Dispose();
        m_tx = nullptr;
    }
    if (m_cnpFirmware)
    {
        m_cnpFirmware->Dispose();
        m_cnpFirmware = nullptr;
    }
    if (m_device)
    {
        m_device->SetTxSource(nullptr);
    }
    m_device = nullptr;
    m_ccPrototype = nullptr;
    m_lossPrototype = nullptr;
    Object::DoDispose();
}

void
RdmaNic::Setup(Ptr<DcbNetDevice> device, Ipv4Address address)
{
    m_device = device;
    m_addresses.assign(1, address);
    if (m_rx)
    {
        m_rx->SetDevice(device);
    }
    device->SetTxSource(this);
    device->SetDcbFrameReceiveCallback(MakeCallback(&RdmaNic::ReceiveFrame, this));
    Ptr<DcbChannel> ch = device->GetDcbChannel();
    Ptr<DcbNetDevice> peer = ch ? ch->GetPeer(device) : nullptr;
    m_gatewayMac =
        peer ? Mac48Address::ConvertFrom(peer->GetAddress()) : Mac48Address::GetBroadcast();
    m_deviceMac = Mac48Address::ConvertFrom(device->GetAddress());
}

Ptr<RdmaRxPipeline>
RdmaNic::GetRxPipeline()
{
    if (!m_rx)
    {
        m_rx = CreateObject<RdmaRxPipeline>();
        m_rx->SetDevice(m_device);
    }
    return m_rx;
}

std::string
RdmaNic::SetHostModel(Ptr<HostModel> host, const std::string& rnic, const std::string& memory)
{
    const uint32_t nic = host ? host->GetResourceId(rnic) : HostModel::NONE;
    const uint32_t mem = host ? host->GetResourceId(memory) : HostModel::NONE;
    if (nic == HostModel::NONE || !DynamicCast<RnicPort>(host->GetResource(nic)))
    {
        return "RdmaNic::SetHostModel: '" + rnic + "' is not an RnicPort of the host model";
    }
    if (mem == HostModel::NONE || host->IsLink(mem) || host->GetPath(nic, mem).empty())
    {
        return "RdmaNic::SetHostModel: no DMA path from '" + rnic + "' to '" + memory + "'";
    }
    const std::string error = GetRxPipeline()->CheckConfig();
    if (!error.empty())
    {
        return "ns3::RdmaRxPipeline: " + error;
    }
    m_rx->SetHostModel(host, nic, mem);
    m_tx = CreateObject<RdmaTxPipeline>();
    m_tx->Setup(this, host, nic, mem);
    m_hostRnic = nic;
    m_hostMemory = mem;
    for (auto& qp : m_qps)
    {
        if (qp)
        {
            qp->GetLossRecovery()->SetHostDma(host, nic, mem);
        }
    }
    return "";
}

std::string
RdmaNic::SetQueuePairHostTarget(uint32_t qpn, const std::string& target)
{
    Ptr<HostModel> host = m_rx ? m_rx->GetHostModel() : nullptr;
    const uint32_t id = host ? host->GetResourceId(target) : HostModel::NONE;
    if (!host || !GetQueuePair(qpn) || id == HostModel::NONE || host->IsLink(id))
    {
        return "RdmaNic::SetQueuePairHostTarget: needs SetHostModel, an existing QP and a "
               "device of the host model, not '" +
               target + "'";
    }
    m_rx->SetQueuePairTarget(qpn, id);
    m_tx->SetQueuePairTarget(qpn, id);
    return "";
}

Ptr<RdmaTxPipeline>
RdmaNic::GetTxPipeline() const
{
    return m_tx;
}

Ptr<HostModel>
RdmaNic::GetHostModel() const
{
    return m_tx ? m_rx->GetHostModel() : nullptr;
}

uint32_t
RdmaNic::GetHostRnic() const
{
    return m_hostRnic;
}

uint32_t
RdmaNic::GetHostMemory() const
{
    return m_hostMemory;
}

Ptr<DcbNetDevice>
RdmaNic::GetDevice() const
{
    return m_device;
}

Ipv4Address
RdmaNic::GetAddress() const
{
    return m_addresses.empty() ? Ipv4Address() : m_addresses.front();
}

void
RdmaNic::AddAddress(Ipv4Address address)
{
    NS_ABORT_MSG_IF(m_addresses.empty(), "RdmaNic::AddAddress before Setup");
    if (!HasAddress(address))
    {
        m_addresses.push_back(address);
    }
}

const std::vector<Ipv4Address>&
RdmaNic::GetAddresses() const
{
    return m_addresses;
}

bool
RdmaNic::HasAddress(Ipv4Address address) const
{
    // A handful of aliases: a linear scan beats any map.
    for (const Ipv4Address& a : m_addresses)
    {
        if (a == address)
        {
            return true;
        }
    }
    return false;
}

void
RdmaNic::SetQpScheduler(Ptr<QpScheduler> scheduler)
{
    m_scheduler = scheduler;
    m_scheduler->Attach(this);
}

Ptr<QpScheduler>
RdmaNic::GetQpScheduler() const
{
    return m_scheduler;
}

void
RdmaNic::SetCacheModel(Ptr<RnicCacheModel> cache)
{
    m_cache = cache;
}

Ptr<RnicCacheModel>
RdmaNic::GetCacheModel() const
{
    return m_cache;
}

void
RdmaNic::SetPathEntropy(Ptr<RdmaPathEntropy> entropy)
{
    m_entropy = entropy;
    m_entropyEcho.assign(entropy ? m_qps.size() : 0, 0);
    if (entropy && !m_qps.empty())
    {
        entropy->AddConnection(static_cast<uint32_t>(m_qps.size() - 1));
    }
}

Ptr<RdmaPathEntropy>
RdmaNic::GetPathEntropy() const
{
    return m_entropy;
}

DataRate
RdmaNic::GetLineRate() const
{
    return m_device ? m_device->GetDataRate() : DataRate("100Gbps");
}

void
RdmaNic::SetCongestionControl(Ptr<RdmaCongestionOps> prototype)
{
    m_ccPrototype = prototype;
}

void
RdmaNic::SetLossRecovery(Ptr<RdmaLossRecovery> prototype)
{
    m_lossPrototype = prototype;
}

void
RdmaNic::SetQueuePairAttribute(const std::string& name, const AttributeValue& value)
{
    m_qpFactory.Set(name, value);
}

Ptr<RdmaQueuePair>
RdmaNic::CreateQueuePair(Ipv4Address remote)
{
    NS_ABORT_MSG_IF(!m_device, "RdmaNic::CreateQueuePair before Setup");
    return CreateQueuePair(GetAddress(), remote);
}

Ptr<RdmaQueuePair>
RdmaNic::CreateQueuePair(Ipv4Address local, Ipv4Address remote)
{
    NS_ABORT_MSG_IF(!m_device, "RdmaNic::CreateQueuePair before Setup");
    NS_ABORT_MSG_IF(!HasAddress(local),
                    "RdmaNic::CreateQueuePair: " << local << " is not an address of this NIC");
    return CreateQueuePair(local, remote, ReserveQpn());
}

uint32_t
RdmaNic::ReserveQpn()
{
    const uint32_t qpn = FIRST_QPN + static_cast<uint32_t>(m_qps.size());
    NS_ABORT_MSG_IF(qpn > RoceBthHeader::QP_MASK, "RdmaNic: out of 24-bit QP numbers");
    m_qps.emplace_back();
    if (m_entropy)
    {
        m_entropy->AddConnection(qpn - FIRST_QPN);
        m_entropyEcho.push_back(0);
    }
    return qpn;
}

Ptr<RdmaQueuePair>
RdmaNic::CreateQueuePair(Ipv4Address local, Ipv4Address remote, uint32_t qpn)
{
    NS_ABORT_MSG_IF(!m_device, "RdmaNic::CreateQueuePair before Setup");
    NS_ABORT_MSG_IF(!HasAddress(local),
                    "RdmaNic::CreateQueuePair: " << local << " is not an address of this NIC");
    NS_ABORT_MSG_IF(qpn < FIRST_QPN || qpn - FIRST_QPN >= m_qps.size() || m_qps[qpn - FIRST_QPN],
                    "RdmaNic::CreateQueuePair: QP number " << qpn << " is not reserved");
    if (!m_scheduler)
    {
        ObjectFactory f(m_schedulerType.GetName());
        SetQpScheduler(f.Create<QpScheduler>());
    }
    GetCongestionControl();
    if (!m_lossPrototype)
    {
        ObjectFactory f(m_lossType.GetName());
        m_lossPrototype = f.Create<RdmaLossRecovery>();
    }
    const Time cnpTime = m_ccPrototype->GetCnpGenerationTime();
    if (cnpTime.IsStrictlyPositive() && !m_cnpFirmware)
    {
        m_cnpFirmware = CreateObject<RdmaFirmwareCnpQueue>();
        m_cnpFirmware->Configure(cnpTime, m_ccPrototype->GetCnpGenerationQueue(),
                                 MakeCallback(&RdmaNic::EmitCnp, this));
    }
    Ptr<RdmaQueuePair> qp = m_qpFactory.Create<RdmaQueuePair>();
    qp->Setup(this, qpn, local, remote, m_ccPrototype->Fork(), m_lossPrototype->Fork());
    m_qps[qpn - FIRST_QPN] = qp;
    ++m_liveQps;
    if (m_tx)
    {
        qp->GetLossRecovery()->SetHostDma(m_rx->GetHostModel(), m_hostRnic, m_hostMemory);
    }
    return qp;
}

Ptr<RdmaQueuePair>
RdmaNic::GetQueuePair(uint32_t qpn) const
{
    if (qpn < FIRST_QPN || qpn - FIRST_QPN >= m_qps.size())
    {
        return nullptr;
    }
    return m_qps[qpn - FIRST_QPN];
}

uint32_t
RdmaNic::GetNQueuePairs() const
{
    return static_cast<uint32_t>(m_qps.size());
}

uint32_t
RdmaNic::GetNLiveQueuePairs() const
{
    return m_liveQps;
}

void
RdmaNic::ReleaseQueuePair(uint32_t qpn)
{
    Ptr<RdmaQueuePair> qp = GetQueuePair(qpn);
    NS_ABORT_MSG_IF(!qp, "RdmaNic::ReleaseQueuePair: no queue pair " << qpn);
    NS_ABORT_MSG_IF(qp->IsInActiveList(),
                    "RdmaNic::ReleaseQueuePair: queue pair " << qpn << " is in the scheduler");
    qp->Dispose();
    m_qps[qpn - FIRST_QPN] = nullptr;
    --m_liveQps;
}

Ptr<RdmaCongestionOps>
RdmaNic::GetCongestionControl()
{
    if (!m_ccPrototype)
    {
        ObjectFactory f(m_ccType.GetName());
        m_ccPrototype = f.Create<RdmaCongestionOps>();
    }
    return m_ccPrototype;
}

uint32_t
RdmaNic::GetQueuePairMtu() const
{
    // An unconfigured QP from the factory holds the attribute values new QPs get.
    return m_qpFactory.Create<RdmaQueuePair>()->GetMtu();
}

bool
RdmaNic::IsCnpIdle(uint32_t qpn) const
{
    return !m_cnpFirmware || !m_cnpFirmware->IsWaiting(qpn);
}

uint32_t
RdmaNic::GetEncapsulationBytes() const
{
    if (m_framing == FRAMING_HPCC_SIM)
    {
        return HPCC_SIM_DATA_HEADER_BYTES - RoceBthHeader::SERIALIZED_SIZE;
    }
    return ENCAPSULATION_HEADER_BYTES + 24; // + preamble/SFD, FCS, IFG on the wire
}

RdmaWireSize
RdmaNic::GetWireSize(Ptr<const Packet> packet) const
{
    if (m_framing == FRAMING_ROCE_V2)
    {
        return RdmaWireSize{packet->GetSize() + ENCAPSULATION_HEADER_BYTES + 24, false};
    }
    RoceBthHeader bth;
    packet->PeekHeader(bth);
    return RdmaWireSize{FramingWireBytes(packet, bth.GetOpcode(), bth.GetIntHops()), true};
}

uint16_t
RdmaNic::FramingWireBytes(Ptr<const Packet> packet, RoceOpcode op, uint8_t intHops) const
{
    if (m_framing == FRAMING_ROCE_V2)
    {
        return 0;
    }
    const uint32_t intBytes = intHops ? IntTrailer::SizeFor(intHops) : 0;
    if (op == RoceOpcode::Acknowledge || op == RoceOpcode::Cnp || op == RoceOpcode::ReadRequest)
    {
        return static_cast<uint16_t>(HPCC_SIM_CONTROL_BYTES + intBytes);
    }
    // The payload without the INT trailer, as PayloadBytes(packet, bth) counts it.
    const uint32_t bytes = PayloadBytes(packet, op);
    const uint32_t payload = bytes > intBytes ? bytes - intBytes : 0;
    return static_cast<uint16_t>(HPCC_SIM_DATA_HEADER_BYTES + payload + intBytes);
}

uint64_t
RdmaNic::GetDroppedNoQp() const
{
    return m_droppedNoQp;
}

// ------------------------------------------------------------------ transmit

uint32_t
RdmaNic::PayloadBytes(Ptr<const Packet> packet, RoceOpcode op)
{
    // Payload = what follows the BTH and its extension headers; nothing for a READ request.
    if (op == RoceOpcode::ReadRequest || op == RoceOpcode::Acknowledge)
    {
        return 0;
    }
    const uint32_t headers = RoceBthHeader::SERIALIZED_SIZE +
                             (RoceBthHeader::HasReth(op) ? RETH_BYTES : 0) +
                             (RoceBthHeader::HasAeth(op) ? AETH_BYTES : 0) +
                             (RoceBthHeader::HasImmDt(op) ? IMM_DT_BYTES : 0);
    const uint32_t size = packet->GetSize();
    return size > headers ? size - headers : 0;
}

uint32_t
RdmaNic::PayloadBytes(Ptr<const Packet> packet, const RoceBthHeader& bth)
{
    return WithoutIntTrailer(PayloadBytes(packet, bth.GetOpcode()), bth.GetIntHops());
}

uint32_t
RdmaNic::PayloadBytes(Ptr<const Packet> packet)
{
    RoceBthHeader bth;
    packet->PeekHeader(bth);
    return PayloadBytes(packet, bth);
}

void
RdmaNic::NotifyTxWork(RdmaQueuePair* qp)
{
    m_scheduler->NotifyTxWork(qp);
    if (m_tx)
    {
        m_tx->Kick();
    }
    if (m_device)
    {
        m_device->NotifyTxReady();
    }
}

bool
RdmaNic::HasTxWork() const
{
    // Whatever becomes sendable later says so through NotifyTxWork or Wake.
    return (m_scheduler && !m_scheduler->IsIdle()) || (m_tx && m_tx->HoldsFrames());
}

Ptr<Packet>
RdmaNic::PullFrame(uint8_t pausedMask, uint8_t& tc, DcbFrameRecord& record)
{
    if (m_tx)
    {
        return m_tx->PullFrame(pausedMask, tc, record);
    }
    return DequeueFrame(pausedMask, tc, nullptr, nullptr, nullptr, &record);
}

Ptr<Packet>
RdmaNic::DequeueFrame(uint8_t pausedMask, uint8_t& tc, uint32_t* qpn, uint32_t* payload,
                      bool* readsWqe, DcbFrameRecord* record)
{
    if (!m_scheduler)
    {
        return nullptr;
    }
    const Time now = Simulator::Now();
    Time earliest = Time::Max();
    RdmaQueuePair* qp = nullptr;
    Ptr<Packet> p = m_scheduler->Dequeue(pausedMask, qp, earliest);
    if (p)
    {
        tc = qp->GetTrafficClass();
        if (payload)
        {
            RoceBthHeader bth;
            p->PeekHeader(bth);
            *qpn = qp->GetQpn();
            *payload = PayloadBytes(p, bth);
            if (readsWqe)
            {
                const RoceOpcode op = bth.GetOpcode();
                *readsWqe = RoceBthHeader::IsFirstOrOnly(op) &&
                            !RoceBthHeader::IsReadResponse(op) && !m_scheduler->WqeAlreadyRead(qp);
            }
        }
        const uint16_t sport =
            m_entropy ? m_entropy->Select(qp->GetQpn() - FIRST_QPN) : qp->GetUdpSourcePort();
        return Encapsulate(qp, p, qp->GetDscp(),
                           m_ecnCapable ? Ipv4Header::ECN_ECT0 : Ipv4Header::ECN_NotECT, sport,
                           record);
    }
    if (earliest != Time::Max() &&
        (!m_wakeEvent.IsRunning() || Simulator::GetDelayLeft(m_wakeEvent) > earliest - now))
    {
        m_wakeEvent.Cancel();
        m_wakeEvent = Simulator::Schedule(earliest - now, &RdmaNic::Wake, this);
    }
    return nullptr;
}

void
RdmaNic::Wake()
{
    if (m_tx)
    {
        m_tx->Kick(); // read ahead even while the port is busy sending
    }
    m_device->NotifyTxReady();
}

void
RdmaNic::RequestCnp(RdmaQueuePair* qp)
{
    if (!m_cnpFirmware)
    {
        qp->SendCnp();
        return;
    }
    m_cnpFirmware->Submit(qp->GetQpn());
}

void
RdmaNic::EmitCnp(uint32_t qpn)
{
    Ptr<RdmaQueuePair> qp = GetQueuePair(qpn);
    if (qp && !qp->IsInError())
    {
        qp->SendCnp();
    }
}

Ptr<RdmaFirmwareCnpQueue>
RdmaNic::GetCnpFirmware() const
{
    return m_cnpFirmware;
}

void
RdmaNic::SendControl(RdmaQueuePair* qp, Ptr<Packet> packet, bool cnp)
{
    const uint8_t dscp = cnp              ? m_cnpDscp
                         : m_ackDscp >= 0 ? static_cast<uint8_t>(m_ackDscp)
                                          : qp->GetDscp();
    uint16_t sport = qp->GetUdpSourcePort();
    uint8_t ecn = Ipv4Header::ECN_NotECT;
    const uint32_t index = qp->GetQpn() - FIRST_QPN;
    if (!cnp && index < m_entropyEcho.size())
    {
        // The echo of the last WRITE/SEND packet received, the one that drew this ACK/NAK:
        // its entropy as the ACK's source port (REPS section 3.1: the ACK reuses the value,
        // no new header field) and its CE mark as CE in the ACK's ECN field (ACKs are not
        // ECN-capable, so no switch writes the field: a labelled roce-lab choice standing in
        // for Ultra Ethernet's ECN-echo flag in its ACK header). Once only: a second ACK/NAK
        // no new packet drew (selective repeat may send two for one arrival) goes out CE on
        // the QP's own port, which a sender does not recycle; echoing the value twice would
        // put two copies of it into the sender's REPS buffer.
        const uint32_t echo = m_entropyEcho[index];
        const bool fresh = (echo & ENTROPY_ECHO_SET) != 0;
        sport = fresh ? static_cast<uint16_t>(echo) : sport;
        ecn = fresh && !(echo & ENTROPY_ECHO_CE) ? Ipv4Header::ECN_NotECT : Ipv4Header::ECN_CE;
        m_entropyEcho[index] = echo & ~ENTROPY_ECHO_SET;
    }
    DcbFrameRecord record;
    Ptr<Packet> frame = Encapsulate(qp, packet, dscp, ecn, sport, &record);
    const uint8_t tc = !cnp && m_ackEgressClass >= 0 ? static_cast<uint8_t>(m_ackEgressClass)
                                                     : static_cast<uint8_t>(dscp >> 3);
    m_device->EnqueueFrame(frame, record, tc, 0);
}

Ptr<Packet>
RdmaNic::Encapsulate(RdmaQueuePair* qp, Ptr<Packet> packet, uint8_t dscp, uint8_t ecn,
                     uint16_t sport, DcbFrameRecord* record) const
{
    uint8_t bth[DcbFrameRecord::BTH_RESV8A + 1];
    uint16_t wireBytes = 0; // the Framing's size, before the headers below are added
    if (record && packet->CopyData(bth, sizeof(bth)) < sizeof(bth))
    {
        record = nullptr; // too short for a BTH: the first hop parses what there is
    }
    else if (record)
    {
        // From the BTH bytes just copied: the opcode (byte 0) and the INT hop capacity.
        wireBytes = FramingWireBytes(
            packet, static_cast<RoceOpcode>(bth[0]),
            static_cast<uint8_t>(bth[DcbFrameRecord::BTH_RESV8A] & RoceBthHeader::INT_HOPS_MASK));
    }
    packet->AddTrailer(RoceIcrcTrailer());
    DcbFrameRecord r;
    r.ethSrc = m_deviceMac;
    r.ethDst = m_gatewayMac;
    r.pcp = static_cast<uint8_t>(dscp >> 3);
    r.dscp = dscp;
    r.ecn = ecn;
    r.ipBytes = static_cast<uint16_t>(packet->GetSize() + DcbFrameRecord::IPV4_BYTES +
                                      DcbFrameRecord::UDP_BYTES);
    r.ttl = m_ttl;
    r.protocol = IP_PROTOCOL_UDP;
    r.src = qp->GetLocalAddress().Get();
    r.dst = qp->GetRemoteAddress().Get();
    r.sport = sport;
    r.dport = ROCE_V2_UDP_PORT;
    if (m_computeIcrc)
    {
        // The ICRC covers the IP and UDP headers: write the frame, then its CRC over
        // everything after the Ethernet header except the trailer itself.
        packet->AddHeader(RoceOuterHeader(r));
        std::vector<uint8_t> bytes(packet->GetSize());
        packet->CopyData(bytes.data(), bytes.size());
        constexpr uint32_t ETH = DcbFrameRecord::ETH_BYTES + DcbFrameRecord::VLAN_BYTES;
        RoceIcrcTrailer icrc;
        packet->RemoveTrailer(icrc);
        icrc.SetIcrc(RoceIcrcTrailer::ComputeIcrc(
            bytes.data() + ETH, bytes.size() - ETH - RoceIcrcTrailer::SERIALIZED_SIZE));
        packet->AddTrailer(icrc);
    }
    else
    {
        packet->AddHeader(RoceOuterHeader(r));
    }
    if (record)
    {
        // What DcbFrameRecord::Parse would read from these bytes (RoceNicRecordTest).
        r.flags = DcbFrameRecord::PARSED | DcbFrameRecord::TAGGED | DcbFrameRecord::IPV4;
        r.etherType = ETHERTYPE_IPV4;
        r.ReadIntFields(bth[DcbFrameRecord::BTH_RESV8A], packet);
        r.wireBytes = wireBytes;
        *record = r;
    }
    return packet;
}

// ------------------------------------------------------------------ receive

void
RdmaNic::ReceiveFrame(Ptr<DcbNetDevice> device, Ptr<Packet> frame, const DcbFrameRecord& record)
{
    if (record.etherType != ETHERTYPE_IPV4)
    {
        return;
    }
    // IsIpv4 false: the IPv4 EtherType without a whole IPv4 header (cut short, another version).
    if (!record.IsIpv4() || record.protocol != IP_PROTOCOL_UDP ||
        !HasAddress(Ipv4Address(record.dst)))
    {
        m_droppedNoQp++;
        return;
    }
    // A frame too short for UDP ports parsed with port 0 and stops here.
    if (record.dport != ROCE_V2_UDP_PORT)
    {
        m_droppedNoQp++;
        return;
    }
    // Switches left the header bytes stale (the record is current): strip them unread,
    // IPv4 options included.
    frame->RemoveAtStart(record.EthernetBytes() + record.IpHeaderBytes() +
                         DcbFrameRecord::UDP_BYTES);
    ReceiveRoce(frame, record.ecn == Ipv4Header::ECN_CE, record.ipBytes + ETHERNET_VLAN_BYTES,
                record.pcp, record.ttl, record.sport);
}

void
RdmaNic::ReceiveRoce(Ptr<Packet> packet, bool ce, uint32_t frameBytes, uint8_t pcp, uint8_t ttl,
                     uint16_t sport)
{
    packet->RemoveAtEnd(RoceIcrcTrailer::SERIALIZED_SIZE); // unread: nothing checks it
    // The three BTH fields needed to find the QP and the path, copied from its first eight
    // bytes: the QP deserializes the whole BTH, so it is parsed once per frame.
    uint8_t head[BTH_HEAD_BYTES] = {};
    packet->CopyData(head, BTH_HEAD_BYTES);
    const RoceOpcode op = static_cast<RoceOpcode>(head[0]);
    const uint8_t intHops = head[RoceBthHeader::RESV8A_OFFSET] & RoceBthHeader::INT_HOPS_MASK;
    const uint32_t destQp =
        (static_cast<uint32_t>(head[5]) << 16) | (static_cast<uint32_t>(head[6]) << 8) | head[7];
    Ptr<RdmaQueuePair> qp = GetQueuePair(destQp);
    if (!qp)
    {
        m_droppedNoQp++;
        return;
    }
    if (m_entropy && destQp - FIRST_QPN < m_entropyEcho.size())
    {
        // Two slots per QP, no look-up: the sender side learns from the echo an ACK/NAK
        // carries; the receiver side keeps the last WRITE/SEND packet's for its next ACK.
        if (op == RoceOpcode::Acknowledge)
        {
            m_entropy->NotifyAck(destQp - FIRST_QPN, sport, ce);
        }
        else if (RoceBthHeader::IsWrite(op) || RoceBthHeader::IsSend(op))
        {
            m_entropyEcho[destQp - FIRST_QPN] =
                sport | (ce ? ENTROPY_ECHO_CE : 0) | ENTROPY_ECHO_SET;
        }
    }
    if (!m_requestGate.IsNull() &&
        (op == RoceOpcode::ReadRequest || RoceBthHeader::IsWrite(op) || RoceBthHeader::IsSend(op)))
    {
        m_requestGate(RdmaInboundRequest{destQp, op, packet, ce, frameBytes, pcp, ttl});
        return;
    }
    if (m_rx && m_rx->IsActive() &&
        (RoceBthHeader::IsWrite(op) || RoceBthHeader::IsSend(op) ||
         RoceBthHeader::IsReadResponse(op)))
    {
        m_rx->Enqueue(qp, packet, ce, WithoutIntTrailer(PayloadBytes(packet, op), intHops),
                      frameBytes, pcp);
        return;
    }
    // Hops from the TTL decrement, assuming the peer NIC starts from the same Ttl.
    qp->Receive(packet, ce, ttl < m_ttl ? static_cast<uint8_t>(m_ttl - ttl) : 0);
}

void
RdmaNic::SetRequestGate(Callback<void, const RdmaInboundRequest&> gate)
{
    m_requestGate = gate;
}

void
RdmaNic::DeliverRequest(const RdmaInboundRequest& r)
{
    Ptr<RdmaQueuePair> qp = GetQueuePair(r.qpn);
    if (!qp)
    {
        m_droppedNoQp++;
        return;
    }
    // As ReceiveRoce: data packets through the receive pipeline when it is active.
    if (m_rx && m_rx->IsActive() && r.op != RoceOpcode::ReadRequest)
    {
        m_rx->Enqueue(qp, r.packet, r.ce, PayloadBytes(r.packet), r.frameBytes, r.pcp);
        return;
    }
    qp->Receive(r.packet, r.ce, r.ttl < m_ttl ? static_cast<uint8_t>(m_ttl - r.ttl) : 0);
}

void
RdmaNic::NotifyCompletion(const RdmaCompletion& completion)
{
    m_completionTrace(completion);
}

void
RdmaNic::NotifyDataPlaced(uint32_t qpn, uint64_t address, uint32_t bytes)
{
    m_dataPlacedTrace(qpn, address, bytes);
}

void
RdmaNic::NotifyMessageReceived(uint32_t qpn, uint64_t bytes)
{
    m_messageReceivedTrace(qpn, bytes);
}

} // namespace ns3
