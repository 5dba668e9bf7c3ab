#include "maestro-token-ring.h"

#include "ns3/abort.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MaestroTokenRing);

TypeId
MaestroTokenRing::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MaestroTokenRing")
            .SetParent<Object>()
            .SetGroupName("Multipath")
            .AddConstructor<MaestroTokenRing>()
            .AddAttribute("TokenSize", "Bytes of the token. Default 2 B (SOSR'21 §6.2).",
                          UintegerValue(2), MakeUintegerAccessor(&MaestroTokenRing::m_tokenSize),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("Rounds", "Times the token goes around the ring. Default 100.",
                          UintegerValue(100), MakeUintegerAccessor(&MaestroTokenRing::m_rounds),
                          MakeUintegerChecker<uint32_t>(1))
            .AddTraceSource("RoundDone", "The token came back to worker 0: (round, duration).",
                            MakeTraceSourceAccessor(&MaestroTokenRing::m_roundDoneTrace),
                            "ns3::MaestroTokenRing::RoundDoneCallback");
    return tid;
}

MaestroTokenRing::MaestroTokenRing()
    : m_tokenSize(2)
    , m_rounds(100)
{
}

void
MaestroTokenRing::DoDispose()
{
    m_links.clear();
    Object::DoDispose();
}

void
MaestroTokenRing::SetLinks(std::vector<Ptr<MaestroRingLink>> links)
{
    NS_ABORT_MSG_IF(links.size() < 2, "MaestroTokenRing: a ring needs at least 2 workers");
    m_links = std::move(links);
    for (uint32_t w = 0; w < m_links.size(); ++w)
    {
        m_links[w]->SetDoneCallback(MakeCallback(&MaestroTokenRing::OnPassed, this).Bind(w));
    }
}

void
MaestroTokenRing::Start()
{
    NS_ABORT_MSG_IF(m_links.empty(), "MaestroTokenRing: SetLinks before Start");
    m_roundStart = Simulator::Now();
    m_links[0]->Send(m_tokenSize, 0);
}

const std::vector<Time>&
MaestroTokenRing::GetRoundTimes() const
{
    return m_roundTimes;
}

void
MaestroTokenRing::OnPassed(uint32_t w, Time now)
{
    const uint32_t next = (w + 1) % m_links.size();
    if (next == 0)
    {
        m_roundTimes.push_back(now - m_roundStart);
        m_roundDoneTrace(static_cast<uint32_t>(m_roundTimes.size() - 1), now - m_roundStart);
        if (m_roundTimes.size() >= m_rounds)
        {
            return;
        }
        m_roundStart = now;
    }
    m_links[next]->Send(m_tokenSize, 0);
}

} // namespace ns3
