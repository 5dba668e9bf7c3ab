#include "maestro-flowlet.h"

#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MaestroFlowlet);

TypeId
MaestroFlowlet::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MaestroFlowlet")
            .SetParent<MaestroLoadBalancer>()
            .SetGroupName("Multipath")
            .AddConstructor<MaestroFlowlet>()
            .AddAttribute("CnpBurst",
                          "CNPs on the current path that make the flowlet move. Default 4: "
                          "at DCQCN's one CNP per 50 us per flow (Zhu et al., SIGCOMM'15) "
                          "at least 200 us of sustained marking, not a single mark.",
                          UintegerValue(4), MakeUintegerAccessor(&MaestroFlowlet::m_cnpBurst),
                          MakeUintegerChecker<uint32_t>(1));
    return tid;
}

MaestroFlowlet::MaestroFlowlet()
    : m_cnpBurst(4)
{
}

uint64_t
MaestroFlowlet::GetNReassignments() const
{
    return m_reassignments;
}

int64_t
MaestroFlowlet::GetCurrentPath() const
{
    return m_current;
}

int64_t
MaestroFlowlet::DoSelectPath(const MaestroPathMonitor& monitor, uint64_t, uint64_t,
                             uint32_t liveLimit)
{
    const uint32_t n = monitor.GetNPaths();
    if (m_marks.size() != n)
    {
        m_marks.resize(n, 0);
    }
    if (m_current >= 0)
    {
        const MaestroPathState& cur = monitor.Get(static_cast<uint32_t>(m_current));
        if (cur.usable && cur.cnps - m_marks[m_current] < m_cnpBurst)
        {
            return Eligible(cur, liveLimit) ? m_current : -1; // stay: wait for room
        }
    }
    int64_t best = -1;
    uint64_t bestCnps = 0;
    const uint32_t first = m_current < 0 ? 0 : static_cast<uint32_t>(m_current) + 1;
    for (uint32_t k = 0; k < n; ++k)
    {
        const uint32_t vp = (first + k) % n;
        const MaestroPathState& p = monitor.Get(vp);
        if (!Eligible(p, liveLimit))
        {
            continue;
        }
        const uint64_t cnps = p.cnps - std::min(p.cnps, m_marks[vp]);
        if (best < 0 || cnps < bestCnps)
        {
            best = vp;
            bestCnps = cnps;
        }
    }
    if (best < 0)
    {
        return -1;
    }
    for (uint32_t vp = 0; vp < n; ++vp)
    {
        m_marks[vp] = monitor.Get(vp).cnps; // a new epoch
    }
    if (m_current >= 0 && best != m_current)
    {
        ++m_reassignments;
    }
    m_current = best;
    return best;
}

} // namespace ns3
