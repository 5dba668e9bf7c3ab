#include "maestro-message-stream.h"

#include "ns3/abort.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MaestroMessageStream);

TypeId
MaestroMessageStream::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MaestroMessageStream")
            .SetParent<Object>()
            .SetGroupName("Multipath")
            .AddConstructor<MaestroMessageStream>()
            .AddAttribute("MessageSize",
                          "Bytes of each WRITE message. Default 500 KB: large enough that each "
                          "message spreads over every path (the Fig. 12d/e reproduction's).",
                          UintegerValue(500000),
                          MakeUintegerAccessor(&MaestroMessageStream::m_size),
                          MakeUintegerChecker<uint64_t>(1, uint64_t(1) << 40))
            .AddAttribute("Outstanding",
                          "Messages kept in flight. Default 6: enough to keep 4 paths of a "
                          "40 Gb/s host busy while completions come back (the Fig. 12d/e "
                          "reproduction's).",
                          UintegerValue(6),
                          MakeUintegerAccessor(&MaestroMessageStream::m_outstanding),
                          MakeUintegerChecker<uint32_t>(1, 1024))
            .AddAttribute("Duration",
                          "A completion posts the next message while less than this has passed "
                          "since Start. Default 8 ms (4 steps of 2 ms, Fig. 12d/e scaled).",
                          TimeValue(MilliSeconds(8)),
                          MakeTimeAccessor(&MaestroMessageStream::m_duration),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("MessageDone", "A message of the stream completed.",
                            MakeTraceSourceAccessor(&MaestroMessageStream::m_messageDoneTrace),
                            "ns3::MaestroMessageStream::MessageDoneCallback");
    return tid;
}

MaestroMessageStream::MaestroMessageStream()
    : m_size(500000)
    , m_outstanding(6)
    , m_duration(MilliSeconds(8))
{
}

void
MaestroMessageStream::DoDispose()
{
    m_endpoint = nullptr;
    m_done = Callback<void>();
    m_loop = ClosedLoopWindow(); // its post callback points here
    Object::DoDispose();
}

void
MaestroMessageStream::SetEndpoint(Ptr<MaestroEndpoint> endpoint)
{
    NS_ABORT_MSG_IF(m_started, "MaestroMessageStream: SetEndpoint before Start");
    m_endpoint = endpoint;
    m_endpoint->TraceConnectWithoutContext("MessageCompleted",
                                           MakeCallback(&MaestroMessageStream::OnCompleted, this));
}

void
MaestroMessageStream::SetDoneCallback(Callback<void> done)
{
    m_done = done;
}

void
MaestroMessageStream::Start()
{
    NS_ABORT_MSG_IF(!m_endpoint, "MaestroMessageStream: SetEndpoint before Start");
    NS_ABORT_MSG_IF(m_started, "MaestroMessageStream: started twice");
    m_started = true;
    m_end = Simulator::Now() + m_duration;
    m_loop = ClosedLoopWindow(m_outstanding, ClosedLoopWindow::UNLIMITED,
                              MakeCallback(&MaestroMessageStream::Post, this));
    m_loop.Start();
}

void
MaestroMessageStream::Post(uint64_t k)
{
    RdmaWorkRequest wr;
    wr.length = m_size;
    wr.remoteAddr = (k % 64) * m_size;
    wr.wrId = k;
    m_endpoint->PostSend(wr);
}

void
MaestroMessageStream::OnCompleted(const MaestroMessageCompletion& c)
{
    m_failed += c.status != RdmaWcStatus::Success;
    m_messageDoneTrace(c);
    if (Simulator::Now() >= m_end)
    {
        m_loop.StopPosting();
    }
    m_loop.Complete(); // posts the next message before Duration is over
    if (Simulator::Now() >= m_end && IsDone() && !m_done.IsNull())
    {
        m_done();
    }
}

bool
MaestroMessageStream::IsDone() const
{
    return m_started && Simulator::Now() >= m_end && m_loop.GetCompleted() == m_loop.GetPosted();
}

uint64_t
MaestroMessageStream::GetNPosted() const
{
    return m_loop.GetPosted();
}

uint64_t
MaestroMessageStream::GetNCompleted() const
{
    return m_loop.GetCompleted();
}

uint64_t
MaestroMessageStream::GetNFailed() const
{
    return m_failed;
}

} // namespace ns3
