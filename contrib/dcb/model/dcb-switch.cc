#include "dcb-switch.h"

#include "dcb-channel.h"
#include "ecmp-hash.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/ipv4-header.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/protocol-numbers.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcbSwitch");
NS_OBJECT_ENSURE_REGISTERED(DcbSwitch);

TypeId
DcbSwitch::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcbSwitch")
            .SetParent<Object>()
            .SetGroupName("Dcb")
            .AddConstructor<DcbSwitch>()
            .AddAttribute("EcmpSeed",
                          "Seed mixed into this switch's ECMP hash; 0 = use the node id, so "
                          "that switches in different tiers hash differently (avoids ECMP "
                          "polarization).",
                          UintegerValue(0), MakeUintegerAccessor(&DcbSwitch::m_ecmpSeed),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("EcmpSeedSalt",
                          "With EcmpSeed 0: a number mixed into every switch's node-id seed, "
                          "so that each switch hashes differently from today and still "
                          "independently of the others: another draw of the flows' ECMP "
                          "paths, for measuring how much a result depends on path placement. "
                          "0 (default): the node-id seeds unchanged. A non-zero EcmpSeed, the "
                          "same at every switch, polarizes instead. Read at Setup.",
                          UintegerValue(0), MakeUintegerAccessor(&DcbSwitch::m_ecmpSeedSalt),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("EcmpHashSourcePort",
                          "Include the UDP/TCP source port in the ECMP hash. Default true: the "
                          "5-tuple hash of the Maestro testbed's ToRs (SOSR'21 §6); false "
                          "hashes addresses and destination port only, the case where "
                          "Maestro maps virtual NIC address pairs to paths a priori (§4.1).",
                          BooleanValue(true), MakeBooleanAccessor(&DcbSwitch::m_hashSourcePort),
                          MakeBooleanChecker())
            .AddAttribute("LoadBalancer",
                          "Picks each packet's port in an ECMP group of two or more ports "
                          "(per-packet spraying, flowlets, adaptive routing; one object per "
                          "switch). Null (default): ECMP, the 5-tuple hash modulo the group "
                          "size. SelectPort then returns the balancer's pick for a packet now.",
                          PointerValue(), MakePointerAccessor(&DcbSwitch::m_loadBalancer),
                          MakePointerChecker<DcbLoadBalancer>())
            .AddTraceSource("Drop",
                            "A frame was dropped: (the packet after its Ethernet header, IPv4 "
                            "with TTL and ECN as at the drop and checksum 0; reason).",
                            MakeTraceSourceAccessor(&DcbSwitch::m_dropTrace),
                            "ns3::DcbSwitch::DropTracedCallback");
    return tid;
}

DcbSwitch::DcbSwitch()
{
    for (uint32_t d = 0; d < m_dscpToTc.size(); ++d)
    {
        m_dscpToTc[d] = static_cast<uint8_t>(d >> 3);
    }
    m_groups.emplace_back(); // group 0: no route
    m_groupOffset.push_back(0);
}

DcbSwitch::~DcbSwitch() = default;

void
DcbSwitch::DoDispose()
{
    for (const Ptr<DcbNetDevice>& port : m_ports)
    {
        port->SetFrameSink(nullptr);
    }
    m_ports.clear();
    m_ecnMarkers.clear();
    m_buffer = nullptr;
    Object::DoDispose();
}

std::string
DcbSwitch::Setup()
{
    Ptr<Node> node = GetObject<Node>();
    NS_ABORT_MSG_IF(!node, "DcbSwitch must be aggregated to a Node before Setup()");
    // The salt is spread by the golden-ratio constant so that salted seeds do not
    // coincide with other switches' unsalted ones (node ids are small).
    m_nodeSeed = node->GetId() + 1 + m_ecmpSeedSalt * 0x9E3779B1u;
    m_ports.clear();
    m_peerMac.clear();
    m_portMac.clear();
    std::vector<BufferPortInfo> info;
    for (uint32_t i = 0; i < node->GetNDevices(); ++i)
    {
        Ptr<DcbNetDevice> dev = DynamicCast<DcbNetDevice>(node->GetDevice(i));
        NS_ABORT_MSG_IF(!dev, "DcbSwitch on node " << node->GetId() << ": device " << i
                                                   << " is not a DcbNetDevice");
        NS_ABORT_MSG_IF(dev->GetIfIndex() != i, "DcbSwitch: port index must equal ifIndex");
        m_ports.push_back(dev);
        Ptr<DcbChannel> ch = dev->GetDcbChannel();
        Ptr<DcbNetDevice> peer = ch ? ch->GetPeer(dev) : nullptr;
        m_peerMac.push_back(peer ? Mac48Address::ConvertFrom(peer->GetAddress())
                                 : Mac48Address::GetBroadcast());
        m_portMac.push_back(Mac48Address::ConvertFrom(dev->GetAddress()));
        info.push_back(BufferPortInfo{dev->GetDataRate(), ch ? ch->GetDelay() : Time(0),
                                      static_cast<uint32_t>(dev->GetMtu())});
        dev->SetFrameSink(this);
        dev->SetDequeueCallback(MakeCallback(&DcbSwitch::OnDequeue, this));
    }
    m_ecnMarkers.resize(m_ports.size());
    for (uint32_t p = 0; p < m_ports.size(); ++p)
    {
        SetEcnMarker(p, m_ecnMarkers[p]); // (re)binds dequeue marking to the port
    }
    m_stormDrop.assign(m_ports.size(), 0);
    m_portDscpToTc.resize(m_ports.size() * m_dscpToTc.size());
    for (uint32_t p = 0; p < m_ports.size(); ++p)
    {
        std::copy(m_dscpToTc.begin(), m_dscpToTc.end(),
                  m_portDscpToTc.begin() + p * m_dscpToTc.size());
    }
    NS_ABORT_MSG_IF(!m_buffer, "DcbSwitch on node " << node->GetId() << ": no BufferManager");
    m_buffer->SetPfcCallback(MakeCallback(&DcbSwitch::OnPfc, this));
    return m_buffer->Setup(info);
}

uint32_t
DcbSwitch::GetNPorts() const
{
    return static_cast<uint32_t>(m_ports.size());
}

Ptr<DcbNetDevice>
DcbSwitch::GetPort(uint32_t port) const
{
    return m_ports.at(port);
}

void
DcbSwitch::SetBufferManager(Ptr<BufferManager> manager)
{
    m_buffer = manager;
}

Ptr<BufferManager>
DcbSwitch::GetBufferManager() const
{
    return m_buffer;
}

void
DcbSwitch::SetEcnMarker(uint32_t port, Ptr<EcnMarker> marker)
{
    if (m_ecnMarkers.size() <= port)
    {
        m_ecnMarkers.resize(port + 1);
    }
    m_ecnMarkers[port] = marker;
    if (port < m_ports.size())
    {
        const bool atDequeue = marker && marker->MarksAtDequeue();
        m_ports[port]->SetDequeueFrameCallback(atDequeue
                                                   ? MakeCallback(&DcbSwitch::MarkAtDequeue, this)
                                                   : DcbNetDevice::DequeueFrameCallback());
    }
}

void
DcbSwitch::MarkAtDequeue(uint32_t port, uint8_t tc, Ptr<Packet> frame, DcbFrameRecord* record)
{
    if (!record->IsParsed())
    {
        *record = DcbFrameRecord::Parse(frame); // queued on the port with Enqueue, no record
    }
    if (!record->IsIpv4() || record->ecn == Ipv4Header::ECN_NotECT)
    {
        return; // not IPv4, or not ECN-capable
    }
    if (!m_ecnMarkers[port]->ShouldMark(tc, m_ports[port]->GetQueueBytes(tc)))
    {
        return;
    }
    record->ecn = Ipv4Header::ECN_CE;
    record->flags |= DcbFrameRecord::DIRTY;
}

Ptr<EcnMarker>
DcbSwitch::GetEcnMarker(uint32_t port) const
{
    return port < m_ecnMarkers.size() ? m_ecnMarkers[port] : nullptr;
}

void
DcbSwitch::SetDscpToTc(uint8_t dscp, uint8_t tc)
{
    NS_ABORT_MSG_IF(dscp >= 64 || tc >= 8, "DcbSwitch: DSCP must be < 64 and class < 8");
    m_dscpToTc[dscp] = tc;
    for (size_t p = 0; p < m_ports.size(); ++p)
    {
        m_portDscpToTc[p * m_dscpToTc.size() + dscp] = tc;
    }
}

void
DcbSwitch::SetDscpToTc(uint32_t port, uint8_t dscp, uint8_t tc)
{
    NS_ABORT_MSG_IF(dscp >= 64 || tc >= 8, "DcbSwitch: DSCP must be < 64 and class < 8");
    NS_ABORT_MSG_IF(port >= m_ports.size(), "DcbSwitch: no port " << port << " (Setup first)");
    m_portDscpToTc[port * m_dscpToTc.size() + dscp] = tc;
}

uint8_t
DcbSwitch::GetDscpToTc(uint32_t port, uint8_t dscp) const
{
    return port < m_ports.size() ? m_portDscpToTc[port * m_dscpToTc.size() + (dscp & 63)]
                                 : m_dscpToTc[dscp & 63];
}

void
DcbSwitch::SetAddressRange(Ipv4Address base, uint32_t count)
{
    m_addressBase = base.Get();
    m_routeOfAddress.assign(count, 0);
    m_routeEntry.assign(count, 0);
}

void
DcbSwitch::SetRoute(Ipv4Address dst, const std::vector<uint32_t>& ports)
{
    const uint32_t index = dst.Get() - m_addressBase;
    NS_ABORT_MSG_IF(index >= m_routeOfAddress.size(),
                    "DcbSwitch::SetRoute: " << dst << " outside the address range");
    std::vector<uint32_t> sorted = ports;
    std::sort(sorted.begin(), sorted.end());
    NS_ABORT_MSG_IF(sorted.size() > 255, "DcbSwitch::SetRoute: an ECMP group of "
                                             << sorted.size() << " ports (at most 255)");
    NS_ABORT_MSG_IF(!sorted.empty() && sorted.back() >= (1u << 24),
                    "DcbSwitch::SetRoute: port " << sorted.back() << " out of range");
    // Groups are few (one per distinct next-hop set); a linear search at set-up is cheap.
    auto it = std::find(m_groups.begin(), m_groups.end(), sorted);
    if (it == m_groups.end())
    {
        m_groups.push_back(sorted);
        m_groupOffset.push_back(static_cast<uint32_t>(m_groupPorts.size()));
        if (sorted.size() > 1)
        {
            m_groupPorts.insert(m_groupPorts.end(), sorted.begin(), sorted.end());
        }
        it = m_groups.end() - 1;
    }
    const uint32_t group = static_cast<uint32_t>(it - m_groups.begin());
    m_routeOfAddress[index] = group;
    const uint32_t n = static_cast<uint32_t>(sorted.size());
    const uint32_t value = n == 1 ? sorted[0] : m_groupOffset[group];
    NS_ABORT_MSG_IF(value >= (1u << 24), "DcbSwitch::SetRoute: forwarding table full");
    m_routeEntry[index] = n == 0 ? 0 : ((value << 8) | n);
}

const std::vector<uint32_t>&
DcbSwitch::GetRoute(Ipv4Address dst) const
{
    const uint32_t index = dst.Get() - m_addressBase;
    if (index >= m_routeOfAddress.size())
    {
        return m_groups[0];
    }
    return m_groups[m_routeOfAddress[index]];
}

void
DcbSwitch::SetPinnedRoute(Ipv4Address src, Ipv4Address dst, uint32_t port)
{
    const uint64_t key = (uint64_t(src.Get()) << 32) | dst.Get();
    auto it = std::lower_bound(m_pins.begin(), m_pins.end(), std::make_pair(key, uint32_t(0)));
    if (it != m_pins.end() && it->first == key)
    {
        it->second = port;
        return;
    }
    m_pins.insert(it, std::make_pair(key, port));
}

void
DcbSwitch::ClearPinnedRoute(Ipv4Address src, Ipv4Address dst)
{
    const uint64_t key = (uint64_t(src.Get()) << 32) | dst.Get();
    auto it = std::lower_bound(m_pins.begin(), m_pins.end(), std::make_pair(key, uint32_t(0)));
    if (it != m_pins.end() && it->first == key)
    {
        m_pins.erase(it);
    }
}

uint32_t
DcbSwitch::GetNPinnedRoutes() const
{
    return static_cast<uint32_t>(m_pins.size());
}

void
DcbSwitch::SetStormDrop(uint32_t port, uint8_t tc, bool drop)
{
    if (m_stormDrop.size() <= port)
    {
        m_stormDrop.resize(port + 1, 0);
    }
    const uint8_t bit = static_cast<uint8_t>(1u << (tc & 7));
    m_stormDrop[port] = drop ? (m_stormDrop[port] | bit) : (m_stormDrop[port] & ~bit);
    if (drop && port < m_ports.size())
    {
        // Drain what is queued: each frame goes through OnDequeue (buffer release).
        const uint32_t n = m_ports[port]->DropQueued(tc);
        m_drops[DROP_PFC_WATCHDOG] += n;
    }
}

bool
DcbSwitch::IsStormDrop(uint32_t port, uint8_t tc) const
{
    return port < m_stormDrop.size() && ((m_stormDrop[port] >> (tc & 7)) & 1);
}

uint32_t
DcbSwitch::Seed() const
{
    return m_ecmpSeed != 0 ? m_ecmpSeed : m_nodeSeed;
}

uint32_t
DcbSwitch::HashFlow(Ipv4Address src, Ipv4Address dst, uint8_t protocol, uint16_t sport,
                    uint16_t dport) const
{
    return Hash(src.Get(), dst.Get(), protocol, sport, dport);
}

uint32_t
DcbSwitch::Hash(uint32_t src, uint32_t dst, uint8_t protocol, uint16_t sport, uint16_t dport) const
{
    // Key: source, destination (host order), protocol, source port (0 unless hashed),
    // destination port, seed: 17 bytes, MurmurHash3 with the seed ns-3's Murmur3 uses.
    constexpr uint32_t NS3_MURMUR3_SEED = 0x8BADF00D;
    uint8_t key[17];
    const uint32_t seed = Seed();
    std::memcpy(key, &src, 4);
    std::memcpy(key + 4, &dst, 4);
    key[8] = protocol;
    const uint16_t hashedSport = m_hashSourcePort ? sport : 0;
    std::memcpy(key + 9, &hashedSport, 2);
    std::memcpy(key + 11, &dport, 2);
    std::memcpy(key + 13, &seed, 4);
    return Murmur3Hash32(key, sizeof(key), NS3_MURMUR3_SEED);
}

bool
DcbSwitch::HashesSourcePort() const
{
    return m_hashSourcePort;
}

int64_t
DcbSwitch::SelectPort(Ipv4Address src, Ipv4Address dst, uint8_t protocol, uint16_t sport,
                      uint16_t dport) const
{
    return Route(src.Get(), dst.Get(), protocol, sport, dport);
}

int64_t
DcbSwitch::Route(uint32_t src, uint32_t dst, uint8_t protocol, uint16_t sport, uint16_t dport) const
{
    if (!m_pins.empty())
    {
        const uint64_t key = (uint64_t(src) << 32) | dst;
        auto it = std::lower_bound(m_pins.begin(), m_pins.end(), std::make_pair(key, uint32_t(0)));
        if (it != m_pins.end() && it->first == key)
        {
            return it->second;
        }
    }
    const uint32_t index = dst - m_addressBase;
    if (index >= m_routeEntry.size())
    {
        return -1;
    }
    const uint32_t entry = m_routeEntry[index];
    const uint32_t n = entry & 0xff;
    if (n <= 1)
    {
        return n == 0 ? -1 : int64_t(entry >> 8);
    }
    const uint32_t base = entry >> 8;
    if (m_loadBalancer)
    {
        const uint32_t hash = Hash(src, dst, protocol, sport, dport);
        const DcbEcmpGroup group{&m_groupPorts[base], n, base};
        return m_groupPorts[base + m_loadBalancer->Select(*this, group, hash, Simulator::Now())];
    }
    return m_groupPorts[base + Hash(src, dst, protocol, sport, dport) % n];
}

void
DcbSwitch::ReceiveFrame(Ptr<DcbNetDevice> port, Ptr<Packet> frame, const DcbFrameRecord& in)
{
    DcbPacketRef ref(frame);
    AcceptFrame(PeekPointer(port), ref, in, in.CountedBytes(*frame));
}

void
DcbSwitch::AcceptFrame(DcbNetDevice* port, DcbPacketRef& ref, const DcbFrameRecord& in,
                       uint32_t bytes)
{
    if (!in.IsIpv4() || !in.IsTagged())
    {
        if (!in.IsIpv4())
        {
            DropFrame(ref.Release(), in, DROP_NOT_IPV4); // another EtherType, or a runt
            return;
        }
        // Untagged: tagged here (VID 0; the PCP is set with the class below) and written at
        // once, so that the frame counts and serializes 4 bytes longer from here on; then it
        // takes the path of every tagged frame. The drops below strip the tag with the rest
        // of the Ethernet header.
        DcbFrameRecord tagged = in;
        tagged.flags |= DcbFrameRecord::TAGGED | DcbFrameRecord::DIRTY;
        tagged.vid = 0;
        tagged.Materialize(ref.Get());
        AcceptFrame(port, ref, tagged, tagged.CountedBytes(*ref.Peek()));
        return;
    }
    DcbFrameRecord r = in;
    const uint32_t inPort = port->GetIfIndex();
    const int64_t out = Route(r.src, r.dst, r.protocol, r.sport, r.dport);
    if (out < 0)
    {
        DropFrame(ref.Release(), r, DROP_NO_ROUTE);
        return;
    }
    if (r.ttl <= 1)
    {
        DropFrame(ref.Release(), r, DROP_TTL_EXPIRED);
        return;
    }
    r.ttl--;
    const uint8_t tc = m_portDscpToTc[inPort * m_dscpToTc.size() + (r.dscp & 63)];
    const uint32_t outPort = static_cast<uint32_t>(out);
    if (((m_stormDrop[outPort] | m_stormDrop[inPort]) >> tc) & 1)
    {
        DropFrame(ref.Release(), r, DROP_PFC_WATCHDOG);
        return;
    }
    // Tagged in, tagged out: the frame keeps its size (or its wire-size override).
    if (!m_buffer->Admit(inPort, outPort, tc, bytes))
    {
        DropFrame(ref.Release(), r, DROP_BUFFER);
        return;
    }
    const Ptr<DcbNetDevice>& outDev = m_ports[outPort];
    const Ptr<EcnMarker>& marker = m_ecnMarkers[outPort];
    if (marker && r.ecn != Ipv4Header::ECN_NotECT && !marker->MarksAtDequeue() &&
        marker->ShouldMark(tc, outDev->GetQueueBytes(tc)))
    {
        r.ecn = Ipv4Header::ECN_CE;
    }
    r.ethSrc = m_portMac[outPort];
    r.ethDst = m_peerMac[outPort];
    r.pcp = tc;
    r.flags |= DcbFrameRecord::DIRTY;
    m_forwarded++;
    outDev->EnqueueFrame(std::move(ref), r, bytes, tc, inPort);
}

void
DcbSwitch::DropFrame(Ptr<Packet> frame, const DcbFrameRecord& record, DropReason reason)
{
    m_drops[reason]++;
    if (m_dropTrace.IsEmpty())
    {
        return;
    }
    // The trace gets the packet after its Ethernet header (a runt: what there is of it); an
    // IPv4 packet with the record's TTL and ECN written and checksum 0, as before records.
    const uint32_t eth = record.etherType == ETHERTYPE_VLAN
                             ? DcbFrameRecord::ETH_BYTES + DcbFrameRecord::VLAN_BYTES
                             : record.EthernetBytes();
    frame->RemoveAtStart(std::min(eth, frame->GetSize()));
    if (record.IsIpv4())
    {
        record.WriteIpv4Header(frame, false);
    }
    m_dropTrace(frame, reason);
}

void
DcbSwitch::OnDequeue(uint32_t outPort, uint32_t inPort, uint8_t tc, uint32_t bytes)
{
    m_buffer->Release(inPort, outPort, tc, bytes);
}

void
DcbSwitch::OnPfc(uint32_t port, uint8_t pg, bool xoff)
{
    m_ports[port]->SetPfcXoff(pg, xoff);
}

uint64_t
DcbSwitch::GetDrops(DropReason reason) const
{
    return m_drops[reason];
}

uint64_t
DcbSwitch::GetForwarded() const
{
    return m_forwarded;
}

} // namespace ns3
