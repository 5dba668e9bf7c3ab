/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "host-model.h"

#include "cpu-socket.h"
#include "rnic-port.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HostModel");
NS_OBJECT_ENSURE_REGISTERED(HostModel);

TypeId
HostModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::HostModel")
            .SetParent<Object>()
            .SetGroupName("Host")
            .AddConstructor<HostModel>()
            .AddTraceSource("DmaComplete", "A DMA completed: initiator, target, bytes, latency.",
                            MakeTraceSourceAccessor(&HostModel::m_dmaComplete),
                            "ns3::HostModel::DmaTracedCallback");
    return tid;
}

HostModel::HostModel()
    : m_nextId(1)
    , m_lastUpdate(Seconds(0))
{
}

HostModel::~HostModel() = default;

void
HostModel::DoDispose()
{
    m_event.Cancel();
    m_streams.clear();
    for (auto& r : m_resources)
    {
        r->SetChangeCallback(Callback<void>());
    }
    m_resources.clear();
    m_rnic.clear();
    m_cpu.clear();
    Object::DoDispose();
}

uint32_t
HostModel::AddResource(const std::string& name, Ptr<HostResource> r, bool isLink)
{
    NS_ABORT_MSG_IF(!r, "HostModel: null resource '" << name << "'");
    NS_ABORT_MSG_IF(m_byName.count(name), "HostModel: duplicate resource name '" << name << "'");
    uint32_t id = m_resources.size();
    r->SetResourceName(name);
    r->SetChangeCallback(MakeCallback(&HostModel::OnResourceChanged, this));
    m_resources.push_back(r);
    m_isLink.push_back(isLink);
    m_rnic.push_back(DynamicCast<RnicPort>(r));
    m_cpu.push_back(DynamicCast<CpuSocket>(r));
    m_byName[name] = id;
    m_adjacency.emplace_back();
    // Paths are indexed by (a, b) over all resources: drop them when the graph grows.
    m_hopCache.assign(m_resources.size() * m_resources.size(), {});
    m_pathCache.assign(m_resources.size() * m_resources.size(), {});
    m_pathKnown.assign(m_resources.size() * m_resources.size(), false);
    return id;
}

uint32_t
HostModel::AddDevice(const std::string& name, Ptr<HostResource> device)
{
    return AddResource(name, device, false);
}

uint32_t
HostModel::AddLink(const std::string& name, Ptr<HostResource> link, const std::string& a,
                   const std::string& b)
{
    uint32_t ia = GetResourceId(a);
    uint32_t ib = GetResourceId(b);
    NS_ABORT_MSG_IF(ia == NONE || ib == NONE || m_isLink[ia] || m_isLink[ib],
                    "HostModel: link '" << name << "' must join two devices, not '" << a
                                        << "' and '" << b << "'");
    uint32_t id = AddResource(name, link, true);
    m_adjacency[ia].push_back({ib, id, 0});
    m_adjacency[ib].push_back({ia, id, 1});
    return id;
}

void
HostModel::Connect(const std::string& a, const std::string& b)
{
    uint32_t ia = GetResourceId(a);
    uint32_t ib = GetResourceId(b);
    NS_ABORT_MSG_IF(ia == NONE || ib == NONE || m_isLink[ia] || m_isLink[ib],
                    "HostModel: Connect needs two devices, not '" << a << "' and '" << b << "'");
    m_adjacency[ia].push_back({ib, NONE, 0});
    m_adjacency[ib].push_back({ia, NONE, 1});
    m_pathKnown.assign(m_pathKnown.size(), false);
}

uint32_t
HostModel::GetResourceCount() const
{
    return m_resources.size();
}

uint32_t
HostModel::GetResourceId(const std::string& name) const
{
    auto it = m_byName.find(name);
    return it == m_byName.end() ? NONE : it->second;
}

Ptr<HostResource>
HostModel::GetResource(uint32_t id) const
{
    NS_ABORT_MSG_UNLESS(id < m_resources.size(), "HostModel: no resource " << id);
    return m_resources[id];
}

Ptr<HostResource>
HostModel::GetResource(const std::string& name) const
{
    uint32_t id = GetResourceId(name);
    return id == NONE ? nullptr : m_resources[id];
}

const std::string&
HostModel::GetResourceName(uint32_t id) const
{
    return GetResource(id)->GetResourceName();
}

bool
HostModel::IsLink(uint32_t id) const
{
    return m_isLink.at(id);
}

std::vector<uint32_t>
HostModel::GetDevices(TypeId tid) const
{
    std::vector<uint32_t> out;
    for (uint32_t i = 0; i < m_resources.size(); ++i)
    {
        TypeId type = m_resources[i]->GetInstanceTypeId();
        if (!m_isLink[i] && (type == tid || type.IsChildOf(tid)))
        {
            out.push_back(i);
        }
    }
    return out;
}

const std::vector<HostModel::Hop>&
HostModel::GetHops(uint32_t a, uint32_t b)
{
    uint32_t n = m_resources.size();
    NS_ABORT_MSG_UNLESS(a < n && b < n && !m_isLink[a] && !m_isLink[b],
                        "HostModel: paths join devices");
    uint32_t key = a * n + b;
    if (m_pathKnown[key])
    {
        return m_hopCache[key];
    }
    // Breadth-first search: fewest hops, ties broken by insertion order (deterministic).
    // PCIe hierarchies are trees, so the path is normally unique.
    std::vector<uint32_t> parent(n, NONE);
    std::vector<const Adjacency*> via(n, nullptr);
    std::deque<uint32_t> queue{a};
    parent[a] = a;
    while (!queue.empty() && parent[b] == NONE)
    {
        uint32_t u = queue.front();
        queue.pop_front();
        for (const auto& adj : m_adjacency[u])
        {
            if (parent[adj.neighbour] == NONE)
            {
                parent[adj.neighbour] = u;
                via[adj.neighbour] = &adj;
                queue.push_back(adj.neighbour);
            }
        }
    }
    std::vector<Hop> hops;
    if (parent[b] != NONE)
    {
        for (uint32_t v = b; v != a; v = parent[v])
        {
            hops.push_back({v, 0});
            if (via[v]->link != NONE)
            {
                hops.push_back({via[v]->link, via[v]->direction});
            }
        }
        hops.push_back({a, 0});
        std::reverse(hops.begin(), hops.end());
    }
    m_hopCache[key] = hops;
    m_pathCache[key].clear();
    for (const auto& h : hops)
    {
        m_pathCache[key].push_back(h.resource);
    }
    m_pathKnown[key] = true;
    return m_hopCache[key];
}

const std::vector<uint32_t>&
HostModel::GetPath(uint32_t a, uint32_t b)
{
    GetHops(a, b);
    return m_pathCache[a * m_resources.size() + b];
}

Time
HostModel::GetPathLatency(uint32_t a, uint32_t b)
{
    Time sum = Seconds(0);
    for (const auto& h : GetHops(a, b))
    {
        sum += m_resources[h.resource]->GetLatency();
    }
    return sum;
}

DataRate
HostModel::GetPathCapacity(uint32_t a, uint32_t b)
{
    const auto& hops = GetHops(a, b);
    if (hops.empty())
    {
        return DataRate(0);
    }
    uint64_t smallest = std::numeric_limits<uint64_t>::max();
    for (const auto& h : hops)
    {
        smallest = std::min(smallest, m_resources[h.resource]->GetCapacity().GetBitRate());
    }
    return DataRate(smallest);
}

DataRate
HostModel::GetDmaRateLimit(uint32_t rnic, uint32_t target, DmaKind kind)
{
    NS_ABORT_MSG_UNLESS(IsInitiator(rnic),
                        "HostModel: DMA initiator must be an RnicPort or a CpuSocket");
    Stream probe{};
    probe.cap = std::numeric_limits<double>::infinity();
    probe.initiator = rnic;
    probe.target = target;
    probe.kind = kind;
    double limit =
        std::min(GetStreamCap(probe), double(GetPathCapacity(rnic, target).GetBitRate()));
    if (kind == DMA_LOOPBACK)
    {
        // Aggregate resources carry both the read and the write-back.
        for (const auto& h : GetHops(rnic, target))
        {
            const auto& r = m_resources[h.resource];
            if (r->GetSharing() == HostResource::AGGREGATE)
            {
                limit = std::min(limit, r->GetCapacity().GetBitRate() / 2.0);
            }
        }
    }
    return DataRate(static_cast<uint64_t>(limit));
}

bool
HostModel::IsInitiator(uint32_t id) const
{
    return id < m_rnic.size() && (m_rnic[id] || m_cpu[id]);
}

double
HostModel::GetStreamCap(const Stream& s)
{
    if (const auto& cpu = m_cpu[s.initiator])
    {
        // Loads and stores alike: CXL.mem stores are synchronous, not posted.
        return std::min(
            s.cap, double(cpu->GetBudgetRate(GetPathLatency(s.initiator, s.target)).GetBitRate()));
    }
    const auto& rnic = m_rnic[s.initiator];
    double cap = std::min(s.cap, double(rnic->GetLineRate().GetBitRate()));
    if (s.kind != DMA_WRITE)
    {
        double budget = rnic->GetBudgetRate(GetPathLatency(s.initiator, s.target)).GetBitRate();
        cap = std::min(cap, budget);
    }
    return cap;
}

void
HostModel::BuildConstraints(Stream& s)
{
    bool read = s.kind != DMA_WRITE;
    bool write = s.kind != DMA_READ;
    for (const auto& h : GetHops(s.initiator, s.target))
    {
        uint32_t base = 2 * h.resource;
        const auto& r = m_resources[h.resource];
        if (r->GetSharing() == HostResource::AGGREGATE)
        {
            s.constraints.emplace_back(base, (read ? 1 : 0) + (write ? 1 : 0));
            continue;
        }
        // Duplex: a link by the physical direction of the data; a device by whether data
        // flows towards the initiator (0, read) or away from it (1, write).
        uint8_t towardInitiator = m_isLink[h.resource] ? 1 - h.direction : 0;
        uint8_t awayFromInitiator = m_isLink[h.resource] ? h.direction : 1;
        if (read)
        {
            s.constraints.emplace_back(base + towardInitiator, 1);
        }
        if (write)
        {
            s.constraints.emplace_back(base + awayFromInitiator, 1);
        }
    }
}

uint64_t
HostModel::RequestDma(const std::string& rnic, const std::string& target, DmaKind kind,
                      uint64_t bytes, DmaCallback done)
{
    uint32_t a = GetResourceId(rnic);
    uint32_t b = GetResourceId(target);
    NS_ABORT_MSG_IF(a == NONE || b == NONE,
                    "HostModel: unknown DMA endpoint '" << rnic << "' or '" << target << "'");
    return RequestDma(a, b, kind, bytes, done);
}

uint64_t
HostModel::RequestDma(uint32_t rnic, uint32_t target, DmaKind kind, uint64_t bytes,
                      DmaCallback done)
{
    return RequestDma(rnic, target, kind, bytes, done, TransferCallback());
}

uint64_t
HostModel::RequestDma(uint32_t rnic, uint32_t target, DmaKind kind, uint64_t bytes,
                      DmaCallback done, TransferCallback transferred)
{
    NS_ABORT_MSG_UNLESS(IsInitiator(rnic),
                        "HostModel: DMA initiator must be an RnicPort or a CpuSocket");
    NS_ABORT_MSG_IF(GetHops(rnic, target).empty(), "HostModel: no path from "
                                                       << GetResourceName(rnic) << " to "
                                                       << GetResourceName(target));
    Advance();
    Stream s{};
    s.id = m_nextId++;
    s.initiator = rnic;
    s.target = target;
    s.kind = kind;
    s.bytes = bytes;
    s.remaining = bytes;
    s.rate = 0;
    s.cap = std::numeric_limits<double>::infinity();
    s.start = Simulator::Now();
    s.done = done;
    s.transferred = transferred;
    BuildConstraints(s);
    if (bytes == 0)
    {
        Complete(s);
        return s.id;
    }
    m_streams.push_back(std::move(s));
    Allocate();
    ScheduleNext();
    return m_streams.back().id;
}

bool
HostModel::CancelDma(uint64_t id)
{
    auto it = std::find_if(m_streams.begin(), m_streams.end(),
                           [id](const Stream& s) { return s.id == id; });
    if (it == m_streams.end())
    {
        return false;
    }
    Advance();
    m_streams.erase(it);
    Allocate();
    ScheduleNext();
    return true;
}

bool
HostModel::SetDmaRateCap(uint64_t id, DataRate rate)
{
    auto it = std::find_if(m_streams.begin(), m_streams.end(),
                           [id](const Stream& s) { return s.id == id; });
    if (it == m_streams.end())
    {
        return false;
    }
    Advance();
    it->cap = rate.GetBitRate();
    Allocate();
    ScheduleNext();
    return true;
}

DataRate
HostModel::GetDmaRate(uint64_t id) const
{
    for (const auto& s : m_streams)
    {
        if (s.id == id)
        {
            return DataRate(static_cast<uint64_t>(s.rate));
        }
    }
    return DataRate(0);
}

uint32_t
HostModel::GetActiveDmaCount() const
{
    return m_streams.size();
}

uint32_t
HostModel::GetActiveDmaCount(uint32_t device) const
{
    uint32_t n = 0;
    for (const Stream& s : m_streams)
    {
        n += s.initiator == device || s.target == device ? 1 : 0;
    }
    return n;
}

void
HostModel::OnResourceChanged()
{
    Advance();
    Allocate();
    ScheduleNext();
}

void
HostModel::Advance()
{
    double dt = (Simulator::Now() - m_lastUpdate).GetSeconds();
    m_lastUpdate = Simulator::Now();
    for (auto& s : m_streams)
    {
        s.remaining = std::max(0.0, s.remaining - s.rate * dt / 8.0);
    }
}

void
HostModel::Allocate()
{
    // Max-min fair shares by progressive filling: every unfrozen stream's rate rises
    // together until a constraint saturates or a stream reaches its own cap.
    uint32_t nc = 2 * m_resources.size();
    std::vector<double> left(nc, 0.0);
    std::vector<double> weight(nc, 0.0);
    std::vector<double> caps(m_streams.size());
    std::vector<bool> frozen(m_streams.size(), false);
    for (uint32_t c = 0; c < nc; ++c)
    {
        left[c] = m_resources[c / 2]->GetCapacity().GetBitRate();
    }
    for (uint32_t i = 0; i < m_streams.size(); ++i)
    {
        caps[i] = GetStreamCap(m_streams[i]);
        for (const auto& [c, w] : m_streams[i].constraints)
        {
            weight[c] += w;
        }
    }
    double level = 0;
    uint32_t unfrozen = m_streams.size();
    while (unfrozen > 0)
    {
        double delta = std::numeric_limits<double>::infinity();
        for (uint32_t c = 0; c < nc; ++c)
        {
            if (weight[c] > 0)
            {
                delta = std::min(delta, std::max(0.0, left[c]) / weight[c]);
            }
        }
        for (uint32_t i = 0; i < m_streams.size(); ++i)
        {
            if (!frozen[i])
            {
                delta = std::min(delta, std::max(0.0, caps[i] - level));
            }
        }
        level += delta;
        for (uint32_t c = 0; c < nc; ++c)
        {
            left[c] -= delta * weight[c];
        }
        for (uint32_t i = 0; i < m_streams.size(); ++i)
        {
            if (frozen[i])
            {
                continue;
            }
            bool saturated = caps[i] - level <= 1e-9 * caps[i];
            for (const auto& [c, w] : m_streams[i].constraints)
            {
                saturated = saturated || left[c] <= 1e-6; // bit/s
            }
            if (saturated)
            {
                frozen[i] = true;
                --unfrozen;
                m_streams[i].rate = level;
                for (const auto& [c, w] : m_streams[i].constraints)
                {
                    weight[c] -= w;
                }
            }
        }
    }
}

void
HostModel::ScheduleNext()
{
    m_event.Cancel();
    double next = std::numeric_limits<double>::infinity();
    for (const auto& s : m_streams)
    {
        if (s.rate > 0)
        {
            next = std::min(next, s.remaining * 8.0 / s.rate);
        }
    }
    if (std::isfinite(next))
    {
        // Round up to the time resolution so that the stream has finished when it fires.
        Time delay =
            Time::FromDouble(std::ceil(next / Time(1).GetSeconds()), Time::GetResolution());
        m_event = Simulator::Schedule(delay, &HostModel::OnCompletionEvent, this);
    }
}

void
HostModel::OnCompletionEvent()
{
    Advance();
    std::vector<Stream> finished;
    for (auto it = m_streams.begin(); it != m_streams.end();)
    {
        if (it->remaining <= 1e-3)
        {
            finished.push_back(std::move(*it));
            it = m_streams.erase(it);
        }
        else
        {
            ++it;
        }
    }
    Allocate();
    ScheduleNext();
    for (auto& s : finished)
    {
        Complete(std::move(s));
    }
}

namespace
{
/// Runs a DMA's completion callback (ns-3 < 3.36 schedules no lambda).
void
NotifyDmaDone(HostModel::DmaCallback done, Time latency)
{
    done(latency);
}
} // namespace

void
HostModel::Complete(Stream s)
{
    Time rtt = GetPathLatency(s.initiator, s.target);
    Time tail = s.kind == DMA_WRITE ? rtt / 2 : rtt;
    if (const auto& cpu = m_cpu[s.initiator])
    {
        // A window of synchronous cache-line accesses. When the budget binds (rate x L =
        // budget) the fluid time bytes / rate already ends with the last line's return (n
        // lines take n / MaxOutstanding round trips); when bandwidth binds, the bottleneck
        // stays busy and the last line still needs its round trip after it (bytes / rate +
        // L). At the boundary the two differ by one L, the fluid model's granularity.
        const double inFlight = s.rate * rtt.GetSeconds() / 8.0;
        tail = inFlight >= cpu->GetBudget() * (1.0 - 1e-9) ? Seconds(0) : rtt;
    }
    Time latency = Simulator::Now() + tail - s.start;
    m_dmaComplete(s.initiator, s.target, s.bytes, latency);
    if (!s.done.IsNull())
    {
        Simulator::Schedule(tail, &NotifyDmaDone, s.done, latency);
    }
    if (!s.transferred.IsNull())
    {
        s.transferred();
    }
}

} // namespace ns3
