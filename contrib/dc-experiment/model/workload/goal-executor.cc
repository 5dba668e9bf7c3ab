#include "goal-executor.h"

#include "ns3/abort.h"
#include "ns3/experiment-config-error.h"
#include "ns3/simulator.h"

#include <utility>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(GoalExecutor);

TypeId
GoalExecutor::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::GoalExecutor")
            .SetParent<Object>()
            .SetGroupName("DcExperiment")
            .AddConstructor<GoalExecutor>()
            .AddAttribute("CalcUnit",
                          "Simulated time of one unit of a calc operation's amount. Default 1 "
                          "ns: LogGOPSim, whose GOAL schedules these are, counts calc in "
                          "nanoseconds (as ATLAHS's traces do).",
                          TimeValue(NanoSeconds(1)), MakeTimeAccessor(&GoalExecutor::m_calcUnit),
                          MakeTimeChecker(Seconds(0)))
            .AddTraceSource("OpDone",
                            "An operation completed: its index in the schedule, its start and "
                            "its end.",
                            MakeTraceSourceAccessor(&GoalExecutor::m_opDoneTrace),
                            "ns3::GoalExecutor::OpDoneCallback");
    return tid;
}

GoalExecutor::GoalExecutor()
    : m_calcUnit(NanoSeconds(1))
{
}

void
GoalExecutor::DoDispose()
{
    m_transport = nullptr;
    m_done = MakeNullCallback<void>();
    Object::DoDispose();
}

void
GoalExecutor::Setup(GoalSchedule schedule, std::vector<uint32_t> hostOfRank,
                    Ptr<GoalTransport> transport)
{
    NS_ABORT_MSG_IF(m_started, "GoalExecutor::Setup after Start");
    if (hostOfRank.size() != schedule.GetNRanks())
    {
        throw ExperimentConfigError(schedule.GetName(), "expected a host for each of the " +
                                                            std::to_string(schedule.GetNRanks()) +
                                                            " ranks, got " +
                                                            std::to_string(hostOfRank.size()));
    }
    const int64_t unit = m_calcUnit.GetTimeStep();
    const uint32_t n = schedule.GetNOps();
    for (uint32_t op = 0; op < n; ++op)
    {
        const GoalOp& o = schedule.GetOp(op);
        if (o.kind == GoalOpKind::Calc && unit > 0 &&
            o.size > static_cast<uint64_t>(Time::Max().GetTimeStep() / unit))
        {
            throw ExperimentConfigError(schedule.GetName(), o.line, 1,
                                        "calc " + std::to_string(o.size) + " times CalcUnit " +
                                            std::to_string(m_calcUnit.GetSeconds()) +
                                            " s is past the simulator's time range");
        }
    }
    m_schedule = std::move(schedule);
    m_hostOfRank = std::move(hostOfRank);
    m_transport = transport;
    m_transport->SetNotifications(MakeCallback(&GoalExecutor::OnSent, this),
                                  MakeCallback(&GoalExecutor::OnArrived, this));
    const uint32_t ranks = m_schedule.GetNRanks();
    m_waitStart.resize(n);
    m_waitEnd.resize(n);
    for (uint32_t op = 0; op < n; ++op)
    {
        m_waitStart[op] = m_schedule.GetNStartPredecessors(op);
        m_waitEnd[op] = m_schedule.GetNEndPredecessors(op);
    }
    m_opStart.assign(n, Time::Max());
    m_opEnd.assign(n, Time::Max());
    m_match.assign(n, UINT32_MAX);
    m_rankLeft.resize(ranks);
    for (uint32_t r = 0; r < ranks; ++r)
    {
        m_rankLeft[r] = m_schedule.GetFirstOp(r + 1) - m_schedule.GetFirstOp(r);
    }
    m_rankFinish.assign(ranks, Time(0));
    m_posted.assign(ranks, {});
    m_unexpected.assign(ranks, {});
    m_ready.clear();
    m_ready.reserve(n);
    m_readyHead = 0;
    m_left = n;
}

void
GoalExecutor::SetDoneCallback(Callback<void> done)
{
    m_done = done;
}

void
GoalExecutor::Start()
{
    NS_ABORT_MSG_IF(m_started, "GoalExecutor::Start called twice");
    NS_ABORT_MSG_IF(!m_transport && m_schedule.GetNOps() > 0, "GoalExecutor::Start before Setup");
    m_started = true;
    m_start = Simulator::Now();
    m_lastEnd = m_start;
    for (Time& t : m_rankFinish)
    {
        t = m_start;
    }
    if (m_left == 0)
    {
        if (!m_done.IsNull())
        {
            m_done();
        }
        return;
    }
    for (uint32_t op = 0; op < m_schedule.GetNOps(); ++op)
    {
        if (m_waitStart[op] == 0 && m_waitEnd[op] == 0)
        {
            MakeReady(op);
        }
    }
    Drain();
}

void
GoalExecutor::MakeReady(uint32_t op)
{
    m_ready.push_back(op);
}

void
GoalExecutor::Drain()
{
    if (m_draining)
    {
        return; // the outer Drain starts what was made ready
    }
    m_draining = true;
    while (m_readyHead < m_ready.size())
    {
        Begin(m_ready[m_readyHead++]);
    }
    m_ready.clear();
    m_readyHead = 0;
    m_draining = false;
}

void
GoalExecutor::Begin(uint32_t op)
{
    m_opStart[op] = Simulator::Now();
    for (uint32_t next : m_schedule.GetStartSuccessors(op))
    {
        if (--m_waitStart[next] == 0 && m_waitEnd[next] == 0)
        {
            MakeReady(next);
        }
    }
    const GoalOp& o = m_schedule.GetOp(op);
    switch (o.kind)
    {
        case GoalOpKind::Calc:
            Simulator::Schedule(TimeStep(m_calcUnit.GetTimeStep() * static_cast<int64_t>(o.size)),
                                &GoalExecutor::OnCalcDone, this, op);
            break;
        case GoalOpKind::Send:
            if (m_hostOfRank[o.rank] == m_hostOfRank[o.peer])
            {
                Arrive(op);
                Complete(op);
            }
            else
            {
                m_transport->Post(GoalMessage{o.size, op, o.rank, o.peer, m_hostOfRank[o.rank],
                                              m_hostOfRank[o.peer], o.tag});
            }
            break;
        case GoalOpKind::Recv:
        {
            std::vector<uint32_t>& waiting = m_unexpected[o.rank];
            for (auto it = waiting.begin(); it != waiting.end(); ++it)
            {
                if (Matches(op, *it))
                {
                    const uint32_t send = *it;
                    waiting.erase(it);
                    Take(op, send);
                    return;
                }
            }
            m_posted[o.rank].push_back(op);
            break;
        }
    }
}

bool
GoalExecutor::Matches(uint32_t recv, uint32_t send) const
{
    const GoalOp& r = m_schedule.GetOp(recv);
    const GoalOp& s = m_schedule.GetOp(send);
    return (r.peer == GoalOp::ANY || r.peer == s.rank) && (r.tag == GoalOp::ANY || r.tag == s.tag);
}

void
GoalExecutor::Take(uint32_t recv, uint32_t send)
{
    m_match[recv] = send;
    m_match[send] = recv;
    Complete(recv);
}

void
GoalExecutor::Arrive(uint32_t send)
{
    const uint32_t dst = m_schedule.GetOp(send).peer;
    std::vector<uint32_t>& posted = m_posted[dst];
    for (auto it = posted.begin(); it != posted.end(); ++it)
    {
        if (Matches(*it, send))
        {
            const uint32_t recv = *it;
            posted.erase(it);
            Take(recv, send);
            return;
        }
    }
    m_unexpected[dst].push_back(send);
}

void
GoalExecutor::Complete(uint32_t op)
{
    const Time now = Simulator::Now();
    m_opEnd[op] = now;
    m_lastEnd = now;
    const uint32_t rank = m_schedule.GetOp(op).rank;
    if (--m_rankLeft[rank] == 0)
    {
        m_rankFinish[rank] = now;
    }
    m_opDoneTrace(op, m_opStart[op], now);
    for (uint32_t next : m_schedule.GetEndSuccessors(op))
    {
        if (--m_waitEnd[next] == 0 && m_waitStart[next] == 0)
        {
            MakeReady(next);
        }
    }
    if (--m_left == 0 && !m_done.IsNull())
    {
        m_done();
    }
}

void
GoalExecutor::OnCalcDone(uint32_t op)
{
    Complete(op);
    Drain();
}

void
GoalExecutor::OnSent(uint32_t send)
{
    Complete(send);
    Drain();
}

void
GoalExecutor::OnArrived(uint32_t send)
{
    Arrive(send);
    Drain();
}

const GoalSchedule&
GoalExecutor::GetSchedule() const
{
    return m_schedule;
}

bool
GoalExecutor::IsDone() const
{
    return m_started && m_left == 0;
}

uint32_t
GoalExecutor::GetNCompleted() const
{
    return m_schedule.GetNOps() - m_left;
}

Time
GoalExecutor::GetStartTime() const
{
    return m_start;
}

Time
GoalExecutor::GetOpStart(uint32_t op) const
{
    return m_opStart[op];
}

Time
GoalExecutor::GetOpEnd(uint32_t op) const
{
    return m_opEnd[op];
}

uint32_t
GoalExecutor::GetMatch(uint32_t op) const
{
    return m_match[op];
}

Time
GoalExecutor::GetRankFinish(uint32_t rank) const
{
    return m_rankFinish[rank];
}

Time
GoalExecutor::GetMakespan() const
{
    return m_lastEnd - m_start;
}

std::string
GoalExecutor::DescribeStalled(uint32_t max) const
{
    std::string out;
    uint32_t shown = 0;
    uint32_t rest = 0;
    for (uint32_t op = 0; op < m_schedule.GetNOps(); ++op)
    {
        if (m_opEnd[op] != Time::Max())
        {
            continue;
        }
        if (shown == max)
        {
            ++rest;
            continue;
        }
        ++shown;
        const GoalOp& o = m_schedule.GetOp(op);
        std::string why;
        if (m_opStart[op] == Time::Max())
        {
            why = "waits for " + std::to_string(m_waitStart[op]) + " start(s) and " +
                  std::to_string(m_waitEnd[op]) + " completion(s)";
        }
        else if (o.kind == GoalOpKind::Recv)
        {
            why = "recv from " + (o.peer == GoalOp::ANY ? "any" : std::to_string(o.peer)) +
                  " tag " + (o.tag == GoalOp::ANY ? "any" : std::to_string(o.tag)) +
                  ": no matching message has arrived";
        }
        else if (o.kind == GoalOpKind::Send)
        {
            why = "send to " + std::to_string(o.peer) + ": the transport has not completed it";
        }
        else
        {
            why = "calc in progress";
        }
        out += m_schedule.Describe(op) + ": " + why + "\n";
    }
    if (rest > 0)
    {
        out += "and " + std::to_string(rest) + " more\n";
    }
    return out;
}

} // namespace ns3
