#include "maestro-qp-manager.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/channel.h"
#include "ns3/dcb-switch.h"
#include "ns3/ethernet-vlan-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/protocol-numbers.h"
#include "ns3/rdma-helper.h"
#include "ns3/roce-bth-header.h"
#include "ns3/simulator.h"
#include "ns3/udp-header.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MaestroQpManager");
NS_OBJECT_ENSURE_REGISTERED(MaestroQpManager);

namespace
{
constexpr uint32_t MAX_HOPS = 32;
constexpr uint64_t PROBE_BYTES = 2; //!< SOSR'21 §4.1: "a small probe message (e.g., 2Byte)"
constexpr uint64_t PROBE_WR_ID = ~uint64_t(0); //!< path-selection probes (not passed on)
} // namespace

TypeId
MaestroQpManager::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MaestroQpManager")
            .SetParent<Object>()
            .SetGroupName("Multipath")
            .AddConstructor<MaestroQpManager>()
            .AddAttribute("NumPaths",
                          "Virtual paths (QPs) per peer. Default 4: the core paths of the "
                          "Maestro testbed, enough to fill the RNIC (SOSR'21 §6.3).",
                          UintegerValue(4), MakeUintegerAccessor(&MaestroQpManager::m_numPaths),
                          MakeUintegerChecker<uint32_t>(1, 1024))
            .AddAttribute("CandidateFactor",
                          "Candidate QPs opened first, as a multiple of NumPaths. Default 2: "
                          "\"twice as large as the number of (target) paths\" (SOSR'21 §4.1).",
                          UintegerValue(2),
                          MakeUintegerAccessor(&MaestroQpManager::m_candidateFactor),
                          MakeUintegerChecker<uint32_t>(1, 64))
            .AddAttribute("MaxCandidates",
                          "Most candidate QPs opened per peer before giving up on more "
                          "distinct paths. Default 64: well below the few hundred QPs an RNIC "
                          "keeps without throughput loss (SOSR'21 §6.3, Kalia ATC'16).",
                          UintegerValue(64),
                          MakeUintegerAccessor(&MaestroQpManager::m_maxCandidates),
                          MakeUintegerChecker<uint32_t>(1, 65536))
            .AddAttribute("ProbeCandidates",
                          "Where the ECMP hash includes the UDP source port, learn each "
                          "candidate QP's 5-tuple (and its ACKs') by capturing a 2-byte probe "
                          "WRITE at the hosts' ports, as the paper does with tcpdump "
                          "(SOSR'21 §4.1); the paths are then ready only once the probes "
                          "have left (ready callback). Default false: read the 5-tuple from "
                          "the QP at once (same result; the driver's port is deterministic).",
                          BooleanValue(false), MakeBooleanAccessor(&MaestroQpManager::m_probe),
                          MakeBooleanChecker());
    return tid;
}

MaestroQpManager::MaestroQpManager()
    : m_numPaths(4)
    , m_candidateFactor(2)
    , m_maxCandidates(64)
    , m_oracle(MakeCallback(&MaestroQpManager::EcmpPath))
{
}

void
MaestroQpManager::DoDispose()
{
    m_paths.clear();
    m_cands.clear();
    m_local = nullptr;
    m_remote = nullptr;
    m_sink = CompletionSink();
    m_receiveSink = CompletionSink();
    m_reconnected = Callback<void, uint32_t>();
    m_readyCallback = Callback<void, uint32_t>();
    if (m_local)
    {
        StopSniffing();
    }
    m_cands.clear();
    Object::DoDispose();
}

void
MaestroQpManager::SetPathOracle(PathOracle oracle)
{
    m_oracle = oracle;
}

void
MaestroQpManager::SetCompletionSink(CompletionSink sink)
{
    m_sink = sink;
}

std::vector<uint64_t>
MaestroQpManager::EcmpPath(Ptr<DcbNetDevice> port, Ipv4Address src, Ipv4Address dst, uint16_t sport)
{
    std::vector<uint64_t> links;
    Ptr<NetDevice> dev = port;
    for (uint32_t hop = 0; hop < MAX_HOPS; ++hop)
    {
        Ptr<Channel> ch = dev->GetChannel();
        if (!ch || ch->GetNDevices() != 2)
        {
            return {};
        }
        Ptr<NetDevice> peer = ch->GetDevice(0) == dev ? ch->GetDevice(1) : ch->GetDevice(0);
        Ptr<Node> node = peer->GetNode();
        Ptr<DcbSwitch> sw = node->GetObject<DcbSwitch>();
        if (!sw)
        {
            return links; // reached the destination host
        }
        const int64_t out = sw->SelectPort(src, dst, IP_PROTOCOL_UDP, sport, ROCE_V2_UDP_PORT);
        if (out < 0)
        {
            return {};
        }
        links.push_back((static_cast<uint64_t>(node->GetId()) << 32) | static_cast<uint64_t>(out));
        dev = sw->GetPort(static_cast<uint32_t>(out));
    }
    return {};
}

std::vector<uint64_t>
MaestroQpManager::CorePath(const Ptr<RdmaQueuePair>& qp) const
{
    std::vector<uint64_t> links = m_oracle(m_local->GetDevice(), qp->GetLocalAddress(),
                                           qp->GetRemoteAddress(), qp->GetUdpSourcePort());
    return links;
}

std::vector<uint64_t>
MaestroQpManager::ReversePath(const Ptr<RdmaQueuePair>& peer) const
{
    // ACKs and CNPs of the VP travel on the responder QP's 5-tuple: a path whose
    // reverse direction crosses a failed link fails as well, so keep both.
    std::vector<uint64_t> links = m_oracle(m_remote->GetDevice(), peer->GetLocalAddress(),
                                           peer->GetRemoteAddress(), peer->GetUdpSourcePort());
    if (!links.empty())
    {
        links.pop_back(); // the leaf-to-host link is shared by every path
    }
    return links;
}

bool
MaestroQpManager::IsSymmetric(const std::vector<uint64_t>& forward,
                              const std::vector<uint64_t>& reverse)
{
    // the ACKs cross only switches that the data crosses
    return std::all_of(reverse.begin(), reverse.end(),
                       [&](uint64_t r)
                       {
                           return std::any_of(forward.begin(), forward.end(),
                                              [&](uint64_t f) { return (f >> 32) == (r >> 32); });
                       });
}

bool
MaestroQpManager::SourcePortHashed() const
{
    // The "known router hash" (SOSR'21 §4.1): ask the first-hop switch whether its
    // ECMP hash includes the UDP source port.
    Ptr<Channel> ch = m_local->GetDevice()->GetChannel();
    if (!ch || ch->GetNDevices() != 2)
    {
        return true;
    }
    Ptr<NetDevice> peer =
        ch->GetDevice(0) == m_local->GetDevice() ? ch->GetDevice(1) : ch->GetDevice(0);
    Ptr<DcbSwitch> sw = peer->GetNode()->GetObject<DcbSwitch>();
    return !sw || sw->HashesSourcePort();
}

uint32_t
MaestroQpManager::Connect(Ptr<RdmaNic> local, Ptr<RdmaNic> remote)
{
    NS_ABORT_MSG_IF(m_local, "MaestroQpManager::Connect called twice");
    m_local = local;
    m_remote = remote;
    local->TraceConnectWithoutContext("Completion",
                                      MakeCallback(&MaestroQpManager::OnCompletion, this));
    remote->TraceConnectWithoutContext("Completion",
                                       MakeCallback(&MaestroQpManager::OnRemoteCompletion, this));

    // Virtual NIC address pairs (SOSR'21 §4.1, Fig. 4): every (local vNIC, remote
    // vNIC) pair is a different 5-tuple for the switches' ECMP hash (or a key for a
    // pinned route). A NIC without aliases has one pair, and the paths then differ
    // only by the driver-assigned UDP source port.
    m_pairs.clear();
    for (const Ipv4Address& l : local->GetAddresses())
    {
        for (const Ipv4Address& r : remote->GetAddresses())
        {
            m_pairs.emplace_back(l, r);
        }
    }
    m_aPriori = !SourcePortHashed();
    if (m_aPriori)
    {
        // Step 1 of §4.1: the hash ignores the source port, so the addresses alone
        // decide the path. Compute every pair's path in both directions from the
        // known hash; QPs are opened only on the pairs that Select keeps.
        for (const auto& pr : m_pairs)
        {
            Candidate c;
            c.addresses = pr;
            c.links = m_oracle(local->GetDevice(), pr.first, pr.second, 0);
            c.reverse = m_oracle(remote->GetDevice(), pr.second, pr.first, 0);
            if (!c.reverse.empty())
            {
                c.reverse.pop_back();
            }
            c.known = true;
            m_cands.push_back(c);
        }
        return Select();
    }
    // Steps 2-4 of §4.1: the source port (chosen by the driver) is hashed too.
    // Open candidate QPs over the address pairs in turn (CandidateFactor x NumPaths
    // first), learn each one's 5-tuple, and open NumPaths more while too few
    // distinct (and mutually disjoint) core paths are covered.
    m_target = std::min(m_maxCandidates, m_candidateFactor * m_numPaths);
    if (m_probe)
    {
        // The paper's way: a 2-byte probe on every candidate, its headers (and those
        // of the responder's ACK) captured at the hosts' ports, as tcpdump does.
        local->GetDevice()->TraceConnectWithoutContext(
            "PhyTxBegin", MakeCallback(&MaestroQpManager::OnSniffLocal, this));
        remote->GetDevice()->TraceConnectWithoutContext(
            "PhyTxBegin", MakeCallback(&MaestroQpManager::OnSniffRemote, this));
        m_sniffing = true;
        m_tracesConnected = true;
        OpenCandidates();
        return 0; // the paths follow when the probes have been seen (ready callback)
    }
    // Without probes the 5-tuple is read from each QP (the driver's port function,
    // RdmaHelper::UdpSourcePort, is deterministic): the same result, at once.
    while (true)
    {
        OpenCandidates();
        if (EnoughCandidates() || m_target >= m_maxCandidates)
        {
            break;
        }
        m_target = std::min(m_maxCandidates, m_target + m_numPaths);
    }
    return Select();
}

void
MaestroQpManager::OpenCandidates()
{
    while (m_cands.size() < m_target)
    {
        Candidate c;
        c.addresses = m_pairs[m_cands.size() % m_pairs.size()];
        c.qps = RdmaHelper::Connect(m_local, c.addresses.first, m_remote, c.addresses.second);
        ++m_candidates;
        if (!m_probe)
        {
            c.links = CorePath(c.qps.first);
            c.reverse = ReversePath(c.qps.second);
            c.known = true;
        }
        m_cands.push_back(c);
        if (m_probe)
        {
            // listed first: the probe's first frame may be captured within PostSend
            RdmaWorkRequest wr;
            wr.wrId = PROBE_WR_ID; // its completion may come after the QP became a path
            wr.verb = RdmaVerb::Write;
            wr.length = PROBE_BYTES;
            m_cands.back().qps.first->PostSend(wr);
        }
    }
}

void
MaestroQpManager::OnSniff(bool atLocal, Ptr<const Packet> frame)
{
    // Runs only while probing (the traces are disconnected afterwards).
    if (!m_sniffing)
    {
        return;
    }
    Ptr<Packet> p = frame->Copy();
    EthernetVlanHeader eth;
    Ipv4Header ip;
    UdpHeader udp;
    RoceBthHeader bth;
    if (p->RemoveHeader(eth) == 0 || eth.GetEtherType() != ETHERTYPE_IPV4 ||
        p->RemoveHeader(ip) == 0 || ip.GetProtocol() != IP_PROTOCOL_UDP ||
        p->RemoveHeader(udp) == 0 || udp.GetDestinationPort() != ROCE_V2_UDP_PORT ||
        p->PeekHeader(bth) == 0)
    {
        return;
    }
    Ptr<RdmaNic> to = atLocal ? m_remote : m_local;
    if (!to->HasAddress(ip.GetDestination()))
    {
        return;
    }
    for (Candidate& c : m_cands)
    {
        const Ptr<RdmaQueuePair>& dest = atLocal ? c.qps.second : c.qps.first;
        if (dest->GetQpn() != bth.GetDestQp())
        {
            continue;
        }
        if (atLocal && !c.forwardSeen)
        {
            c.links = m_oracle(m_local->GetDevice(), ip.GetSource(), ip.GetDestination(),
                               udp.GetSourcePort());
            c.forwardSeen = true;
        }
        else if (!atLocal && !c.reverseSeen)
        {
            c.reverse = m_oracle(m_remote->GetDevice(), ip.GetSource(), ip.GetDestination(),
                                 udp.GetSourcePort());
            if (!c.reverse.empty())
            {
                c.reverse.pop_back();
            }
            c.reverseSeen = true;
        }
        c.known = c.forwardSeen && c.reverseSeen;
        break;
    }
    if (std::any_of(m_cands.begin(), m_cands.end(), [](const Candidate& c) { return !c.known; }))
    {
        return;
    }
    if (!EnoughCandidates() && m_target < m_maxCandidates)
    {
        m_target = std::min(m_maxCandidates, m_target + m_numPaths);
        OpenCandidates();
        return;
    }
    // Not from inside the trace being disconnected: right after it.
    m_sniffing = false;
    Simulator::ScheduleNow(&MaestroQpManager::FinishProbing, this);
}

void
MaestroQpManager::FinishProbing()
{
    StopSniffing();
    Select();
}

void
MaestroQpManager::OnSniffLocal(Ptr<const Packet> frame)
{
    OnSniff(true, frame);
}

void
MaestroQpManager::OnSniffRemote(Ptr<const Packet> frame)
{
    OnSniff(false, frame);
}

void
MaestroQpManager::StopSniffing()
{
    m_sniffing = false;
    if (!m_tracesConnected)
    {
        return;
    }
    m_tracesConnected = false;
    m_local->GetDevice()->TraceDisconnectWithoutContext(
        "PhyTxBegin", MakeCallback(&MaestroQpManager::OnSniffLocal, this));
    m_remote->GetDevice()->TraceDisconnectWithoutContext(
        "PhyTxBegin", MakeCallback(&MaestroQpManager::OnSniffRemote, this));
}

bool
MaestroQpManager::EnoughCandidates() const
{
    std::set<std::vector<uint64_t>> distinct;
    std::set<uint64_t> used;
    uint32_t disjoint = 0;
    for (const Candidate& c : m_cands)
    {
        std::vector<uint64_t> all = CoreOf(c.links);
        distinct.insert(all);
        all.insert(all.end(), c.reverse.begin(), c.reverse.end());
        // pairwise disjoint in both directions, greedily
        if (IsSymmetric(c.links, c.reverse) &&
            std::none_of(all.begin(), all.end(), [&](uint64_t l) { return used.count(l); }))
        {
            used.insert(all.begin(), all.end());
            ++disjoint;
        }
    }
    return distinct.size() >= m_numPaths && disjoint >= m_numPaths;
}

std::vector<uint64_t>
MaestroQpManager::CoreOf(std::vector<uint64_t> links)
{
    // The last link (leaf to destination host) is shared by every path; a core path
    // is what comes before it.
    if (!links.empty())
    {
        links.pop_back();
    }
    return links;
}

uint32_t
MaestroQpManager::Select()
{
    // Greedy: first candidates sharing no inter-switch link with a kept path, then
    // candidates with a distinct (overlapping) core path.
    std::set<uint64_t> usedLinks;
    std::set<std::vector<uint64_t>> kept;
    for (int pass = 0; pass < 4 && m_paths.size() < m_numPaths; ++pass)
    {
        for (Candidate& c : m_cands)
        {
            if (m_paths.size() >= m_numPaths)
            {
                break;
            }
            const std::vector<uint64_t> cp = CoreOf(c.links);
            if (c.links.empty() || kept.count(cp))
            {
                continue;
            }
            auto clear = [&](const std::vector<uint64_t>& l) {
                return std::none_of(l.begin(), l.end(),
                                    [&](uint64_t x) { return usedLinks.count(x) > 0; });
            };
            // pass 0: symmetric and disjoint both ways; 1: disjoint both ways;
            // 2: forward disjoint; 3: distinct
            const bool both = clear(cp) && clear(c.reverse);
            if ((pass == 0 && !(both && IsSymmetric(c.links, c.reverse))) || (pass == 1 && !both) ||
                (pass == 2 && !clear(cp)))
            {
                continue;
            }
            if (!c.qps.first)
            {
                c.qps =
                    RdmaHelper::Connect(m_local, c.addresses.first, m_remote, c.addresses.second);
                ++m_candidates;
                NS_ASSERT_MSG(CorePath(c.qps.first) == c.links,
                              "the a-priori path of a vNIC pair changed with its source port");
            }
            kept.insert(cp);
            usedLinks.insert(cp.begin(), cp.end());
            usedLinks.insert(c.reverse.begin(), c.reverse.end());
            m_paths.push_back({c.qps.first, c.qps.second, c.links, c.reverse});
        }
    }
    for (uint32_t vp = 0; vp < m_paths.size(); ++vp)
    {
        MapQp(m_paths[vp], vp);
    }
    NS_LOG_INFO(m_paths.size() << " virtual paths from " << m_candidates << " QPs over "
                               << m_pairs.size() << " address pairs");
    m_cands.clear();
    m_ready = true;
    const uint32_t n = static_cast<uint32_t>(m_paths.size());
    if (!m_readyCallback.IsNull())
    {
        m_readyCallback(n);
    }
    return n;
}

void
MaestroQpManager::MapQp(const MaestroVirtualPath& path, uint32_t vp)
{
    const uint32_t index = path.qp->GetQpn() - RdmaNic::FIRST_QPN;
    if (m_vpOfQpn.size() <= index)
    {
        m_vpOfQpn.resize(index + 1, -1);
    }
    m_vpOfQpn[index] = static_cast<int32_t>(vp);
    const uint32_t peerIndex = path.peer->GetQpn() - RdmaNic::FIRST_QPN;
    if (m_vpOfPeerQpn.size() <= peerIndex)
    {
        m_vpOfPeerQpn.resize(peerIndex + 1, -1);
    }
    m_vpOfPeerQpn[peerIndex] = static_cast<int32_t>(vp);
}

bool
MaestroQpManager::Reconnect(uint32_t vp)
{
    NS_ABORT_MSG_IF(vp >= m_paths.size(), "MaestroQpManager::Reconnect: no virtual path " << vp);
    // Same vNIC pair and forward links, preferably with symmetric ACKs; the reverse
    // path is drawn again where the source port is hashed (the old one may be the
    // broken direction).
    const Ipv4Address localAddress = m_paths[vp].qp->GetLocalAddress();
    const Ipv4Address remoteAddress = m_paths[vp].qp->GetRemoteAddress();
    std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>> chosen;
    for (uint32_t tries = 0; tries < m_maxCandidates; ++tries)
    {
        auto qps = RdmaHelper::Connect(m_local, localAddress, m_remote, remoteAddress);
        ++m_candidates;
        if (CorePath(qps.first) != m_paths[vp].links)
        {
            continue;
        }
        const bool symmetric = IsSymmetric(m_paths[vp].links, ReversePath(qps.second));
        if (!chosen.first || symmetric)
        {
            chosen = qps;
        }
        if (symmetric || m_aPriori)
        {
            break;
        }
    }
    if (!chosen.first)
    {
        return false;
    }
    // late completions of the old QP pair are dropped
    m_vpOfQpn[m_paths[vp].qp->GetQpn() - RdmaNic::FIRST_QPN] = -1;
    m_vpOfPeerQpn[m_paths[vp].peer->GetQpn() - RdmaNic::FIRST_QPN] = -1;
    m_paths[vp].qp = chosen.first;
    m_paths[vp].peer = chosen.second;
    m_paths[vp].reverse = ReversePath(chosen.second);
    MapQp(m_paths[vp], vp);
    if (!m_reconnected.IsNull())
    {
        m_reconnected(vp);
    }
    return true;
}

void
MaestroQpManager::OnCompletion(const RdmaCompletion& c)
{
    if (c.receive)
    {
        return;
    }
    const uint32_t index = c.qpn - RdmaNic::FIRST_QPN;
    if (index >= m_vpOfQpn.size() || m_vpOfQpn[index] < 0 || m_sink.IsNull() ||
        c.wrId == PROBE_WR_ID)
    {
        return;
    }
    m_sink(static_cast<uint32_t>(m_vpOfQpn[index]), c);
}

void
MaestroQpManager::OnRemoteCompletion(const RdmaCompletion& c)
{
    if (!c.receive)
    {
        return;
    }
    const uint32_t index = c.qpn - RdmaNic::FIRST_QPN;
    if (index >= m_vpOfPeerQpn.size() || m_vpOfPeerQpn[index] < 0 || m_receiveSink.IsNull())
    {
        return;
    }
    m_receiveSink(static_cast<uint32_t>(m_vpOfPeerQpn[index]), c);
}

void
MaestroQpManager::SetReceiveSink(CompletionSink sink)
{
    m_receiveSink = sink;
}

void
MaestroQpManager::SetReconnectCallback(Callback<void, uint32_t> callback)
{
    m_reconnected = callback;
}

uint32_t
MaestroQpManager::GetNAddressPairs() const
{
    return static_cast<uint32_t>(m_pairs.size());
}

void
MaestroQpManager::SetReadyCallback(Callback<void, uint32_t> callback)
{
    m_readyCallback = callback;
}

bool
MaestroQpManager::IsReady() const
{
    return m_ready;
}

bool
MaestroQpManager::IsAPriori() const
{
    return m_aPriori;
}

uint32_t
MaestroQpManager::GetNPaths() const
{
    return static_cast<uint32_t>(m_paths.size());
}

const MaestroVirtualPath&
MaestroQpManager::GetPath(uint32_t vp) const
{
    return m_paths.at(vp);
}

Ptr<RdmaNic>
MaestroQpManager::GetLocalNic() const
{
    return m_local;
}

uint32_t
MaestroQpManager::GetNCandidates() const
{
    return m_candidates;
}

} // namespace ns3
