#include "pfc-watchdog.h"

#include "dcb-switch.h"
#include "sonic-buffer-config.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(PfcWatchdog);

namespace
{
constexpr uint32_t N_CLS = 8;
} // namespace

TypeId
PfcWatchdog::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfcWatchdog")
            .SetParent<Object>()
            .SetGroupName("Dcb")
            .AddConstructor<PfcWatchdog>()
            .AddAttribute("PollInterval",
                          "Interval between two polls of the PFC counters. Default 200 ms: "
                          "sonic-utilities `pfcwd start_default` (200 ms x ceil(ports/32), "
                          "range 100-1000 ms).",
                          TimeValue(MilliSeconds(200)), MakeTimeAccessor(&PfcWatchdog::m_poll),
                          MakeTimeChecker(MilliSeconds(1)))
            .AddAttribute("DetectionTime",
                          "Time a queue must stay paused by a storm before it is declared "
                          "stormed. Default 200 ms (pfcwd start_default; orchagent accepts "
                          "100-5000 ms).",
                          TimeValue(MilliSeconds(200)), MakeTimeAccessor(&PfcWatchdog::m_detection),
                          MakeTimeChecker())
            .AddAttribute("RestorationTime",
                          "Time without PFC frames after which a stormed queue is restored. "
                          "Default 200 ms (pfcwd start_default; orchagent accepts 100-60000 ms).",
                          TimeValue(MilliSeconds(200)),
                          MakeTimeAccessor(&PfcWatchdog::m_restoration), MakeTimeChecker())
            .AddAttribute("Action",
                          "Mitigation of a stormed queue. Default drop (sonic-swss "
                          "pfcwdorch: \"drop action is default\").",
                          EnumValue(DROP), MakeEnumAccessor(&PfcWatchdog::m_action),
                          MakeEnumChecker(DROP, "drop", FORWARD, "forward", ALERT, "alert"))
            .AddAttribute("Classes",
                          "Classes watched (bit mask). Default 0x18: SONiC pfcwd_sw_enable "
                          "\"3,4\".",
                          UintegerValue(0x18), MakeUintegerAccessor(&PfcWatchdog::m_classes),
                          MakeUintegerChecker<uint8_t>())
            .AddTraceSource("StormDetected", "A queue entered the storm state: (port, class).",
                            MakeTraceSourceAccessor(&PfcWatchdog::m_stormDetectedTrace),
                            "ns3::PfcWatchdog::StormCallback")
            .AddTraceSource("StormRestored", "A stormed queue was restored: (port, class).",
                            MakeTraceSourceAccessor(&PfcWatchdog::m_stormRestoredTrace),
                            "ns3::PfcWatchdog::StormCallback");
    return tid;
}

PfcWatchdog::PfcWatchdog() = default;
PfcWatchdog::~PfcWatchdog() = default;

void
PfcWatchdog::DoDispose()
{
    m_pollEvent.Cancel();
    m_switch = nullptr;
    m_queues.clear();
    Object::DoDispose();
}

void
PfcWatchdog::ConfigureFromSonic(const SonicBufferConfig& config)
{
    m_fromSonic = true;
    m_poll = MilliSeconds(config.watchdogPollMs);
    m_sonicTemplate.assign(config.ports.size() * N_CLS, QueueWatch());
    for (size_t p = 0; p < config.ports.size(); ++p)
    {
        const SonicPortBuffer& port = config.ports[p];
        if (!port.watchdog)
        {
            continue;
        }
        const Action action = port.watchdogAction == "forward" ? FORWARD
                              : port.watchdogAction == "alert" ? ALERT
                                                               : DROP;
        for (uint32_t c = 0; c < N_CLS; ++c)
        {
            QueueWatch& q = m_sonicTemplate[p * N_CLS + c];
            q.watched = (port.pfcEnable >> c) & 1;
            q.action = action;
            q.detection = MilliSeconds(port.detectionMs);
            q.restoration = MilliSeconds(port.restorationMs);
        }
    }
}

void
PfcWatchdog::Install(Ptr<DcbSwitch> sw, Time start)
{
    NS_ABORT_MSG_IF(!sw || sw->GetNPorts() == 0, "PfcWatchdog::Install: switch not set up");
    m_switch = sw;
    const uint32_t n = sw->GetNPorts();
    m_queues.assign(n * N_CLS, QueueWatch());
    for (uint32_t p = 0; p < n; ++p)
    {
        for (uint32_t c = 0; c < N_CLS; ++c)
        {
            QueueWatch& q = m_queues[p * N_CLS + c];
            if (m_fromSonic)
            {
                if (p * N_CLS + c < m_sonicTemplate.size())
                {
                    q = m_sonicTemplate[p * N_CLS + c];
                }
            }
            else
            {
                q.watched = (m_classes >> c) & 1;
                q.action = m_action;
                q.detection = m_detection;
                q.restoration = m_restoration;
            }
            q.timeLeft = q.detection;
        }
    }
    m_pollEvent.Cancel();
    m_pollEvent = Simulator::Schedule(start + m_poll, &PfcWatchdog::Poll, this);
}

void
PfcWatchdog::Poll()
{
    const uint32_t n = m_switch->GetNPorts();
    for (uint32_t p = 0; p < n; ++p)
    {
        Ptr<DcbNetDevice> dev = m_switch->GetPort(p);
        const uint8_t pausedMask = dev->GetPausedMask();
        for (uint8_t c = 0; c < N_CLS; ++c)
        {
            QueueWatch& q = m_queues[p * N_CLS + c];
            if (!q.watched)
            {
                continue;
            }
            const DcbClassCounters& k = dev->GetCounters(c);
            const bool paused = (pausedMask >> c) & 1;
            const uint64_t pfcRx = k.pfcXoffReceived + k.pfcXonReceived;
            if (!q.stormed)
            {
                const bool storm = paused && q.prevPaused && k.pfcXoffReceived > q.prevXoffRx &&
                                   k.pauseOnsets == q.prevOnsets;
                if (!storm)
                {
                    q.timeLeft = q.detection;
                }
                else if (q.timeLeft <= m_poll)
                {
                    Storm(p, c, q);
                }
                else
                {
                    q.timeLeft -= m_poll;
                }
            }
            else if (pfcRx != q.prevPfcRx)
            {
                q.timeLeft = q.restoration;
            }
            else if (q.timeLeft <= m_poll)
            {
                Restore(p, c, q);
            }
            else
            {
                q.timeLeft -= m_poll;
            }
            q.prevPaused = paused;
            q.prevXoffRx = k.pfcXoffReceived;
            q.prevPfcRx = pfcRx;
            q.prevOnsets = k.pauseOnsets;
        }
    }
    m_pollEvent = Simulator::Schedule(m_poll, &PfcWatchdog::Poll, this);
}

void
PfcWatchdog::Storm(uint32_t port, uint8_t cls, QueueWatch& q)
{
    q.stormed = true;
    q.storms++;
    q.timeLeft = q.restoration;
    m_detected++;
    m_stormDetectedTrace(port, cls);
    if (q.action == ALERT)
    {
        return;
    }
    if (q.action == DROP)
    {
        m_switch->SetStormDrop(port, cls, true); // drain first: resuming would send the head
    }
    m_switch->GetPort(port)->SetPfcIgnored(cls, true);
}

void
PfcWatchdog::Restore(uint32_t port, uint8_t cls, QueueWatch& q)
{
    q.stormed = false;
    q.timeLeft = q.detection;
    m_restored++;
    m_stormRestoredTrace(port, cls);
    m_switch->GetPort(port)->SetPfcIgnored(cls, false);
    m_switch->SetStormDrop(port, cls, false);
}

bool
PfcWatchdog::IsStormed(uint32_t port, uint8_t cls) const
{
    return m_queues.at(port * N_CLS + (cls & 7)).stormed;
}

uint64_t
PfcWatchdog::GetStormsDetected() const
{
    return m_detected;
}

uint64_t
PfcWatchdog::GetStormsRestored() const
{
    return m_restored;
}

uint64_t
PfcWatchdog::GetStormsDetected(uint32_t port, uint8_t cls) const
{
    return m_queues.at(port * N_CLS + (cls & 7)).storms;
}

} // namespace ns3
