/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "hostping-monitor.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HostpingMonitor");
NS_OBJECT_ENSURE_REGISTERED(HostpingMonitor);

TypeId
HostpingMonitor::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::HostpingMonitor")
            .SetParent<Object>()
            .SetGroupName("Host")
            .AddConstructor<HostpingMonitor>()
            .AddAttribute("StatusPeriod",
                          "How often the host's idle status is checked. Default 5 min "
                          "(Hostping §5: 'checks the host status every five minutes').",
                          TimeValue(Minutes(5)), MakeTimeAccessor(&HostpingMonitor::m_statusPeriod),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("MetricsPeriod",
                          "How often the abnormal metrics are collected. Default 1 s "
                          "(Hostping §5).",
                          TimeValue(Seconds(1)),
                          MakeTimeAccessor(&HostpingMonitor::m_metricsPeriod),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("IdleThroughput",
                          "An RNIC is idle below this fraction of its line rate. Default 0.05 "
                          "(Hostping §5: Thp_idle is 5% of the RNIC line rate).",
                          DoubleValue(0.05), MakeDoubleAccessor(&HostpingMonitor::m_idleThroughput),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("PauseRatio",
                          "Tx pause duration ratio that triggers a run. Default 0.03 "
                          "(Hostping §5: PFC_idle is 3%, 30 ms paused per second).",
                          DoubleValue(0.03), MakeDoubleAccessor(&HostpingMonitor::m_pauseRatio),
                          MakeDoubleChecker<double>(0, 1))
            .AddTraceSource("Trigger", "The Hostping engine was triggered: (reason, rnic).",
                            MakeTraceSourceAccessor(&HostpingMonitor::m_triggerTrace),
                            "ns3::HostpingMonitor::TriggerTracedCallback");
    return tid;
}

HostpingMonitor::HostpingMonitor() = default;

HostpingMonitor::~HostpingMonitor() = default;

void
HostpingMonitor::DoDispose()
{
    Stop();
    m_rnics.clear();
    m_gpuIdle = Callback<bool>();
    m_trigger = Callback<void, uint8_t, uint32_t>();
    Object::DoDispose();
}

uint32_t
HostpingMonitor::AddRnic(SampleCallback sample)
{
    m_rnics.push_back(sample);
    return m_rnics.size() - 1;
}

void
HostpingMonitor::SetGpuIdleCallback(Callback<bool> idle)
{
    m_gpuIdle = idle;
}

void
HostpingMonitor::SetTriggerCallback(Callback<void, uint8_t, uint32_t> trigger)
{
    m_trigger = trigger;
}

void
HostpingMonitor::Start()
{
    m_lastStatus.clear();
    for (auto& s : m_rnics)
    {
        m_lastStatus.push_back(s());
    }
    m_lastMetrics = m_lastStatus;
    m_metrics.assign(m_rnics.size(), HostpingRnicMetrics());
    m_statusEvent = Simulator::Schedule(m_statusPeriod, &HostpingMonitor::CheckStatus, this);
    m_metricsEvent = Simulator::Schedule(m_metricsPeriod, &HostpingMonitor::CheckMetrics, this);
}

void
HostpingMonitor::Stop()
{
    m_statusEvent.Cancel();
    m_metricsEvent.Cancel();
}

uint32_t
HostpingMonitor::GetTriggerCount() const
{
    return m_triggers;
}

uint32_t
HostpingMonitor::GetNRnics() const
{
    return m_rnics.size();
}

const HostpingRnicMetrics&
HostpingMonitor::GetMetrics(uint32_t rnic) const
{
    NS_ASSERT_MSG(rnic < m_metrics.size(), "no RNIC " << rnic << " (or not started)");
    return m_metrics[rnic];
}

void
HostpingMonitor::CheckStatus()
{
    bool idle = m_gpuIdle.IsNull() || m_gpuIdle();
    for (uint32_t i = 0; i < m_rnics.size(); ++i)
    {
        const HostpingRnicSample now = m_rnics[i]();
        const double rate = (now.bytes - m_lastStatus[i].bytes) * 8.0 / m_statusPeriod.GetSeconds();
        m_metrics[i].throughput = rate / now.lineRate.GetBitRate();
        idle = idle && rate < m_idleThroughput * now.lineRate.GetBitRate();
        m_lastStatus[i] = now;
    }
    if (idle)
    {
        Trigger(IDLE, 0);
    }
    m_statusEvent = Simulator::Schedule(m_statusPeriod, &HostpingMonitor::CheckStatus, this);
}

void
HostpingMonitor::CheckMetrics()
{
    for (uint32_t i = 0; i < m_rnics.size(); ++i)
    {
        const HostpingRnicSample now = m_rnics[i]();
        const HostpingRnicSample& last = m_lastMetrics[i];
        const double ratio =
            (now.txPaused - last.txPaused).GetSeconds() / m_metricsPeriod.GetSeconds();
        HostpingRnicMetrics& m = m_metrics[i];
        m.throughput = (now.bytes - last.bytes) * 8.0 / m_metricsPeriod.GetSeconds() /
                       now.lineRate.GetBitRate();
        m.pauseRatio = ratio;
        m.drops = now.drops - last.drops;
        if (now.drops > last.drops)
        {
            Trigger(DROPS, i);
        }
        else if (ratio > m_pauseRatio)
        {
            Trigger(PAUSE_RATIO, i);
        }
        m_lastMetrics[i] = now;
    }
    m_metricsEvent = Simulator::Schedule(m_metricsPeriod, &HostpingMonitor::CheckMetrics, this);
}

void
HostpingMonitor::Trigger(Reason reason, uint32_t rnic)
{
    m_triggers++;
    m_triggerTrace(reason, rnic);
    if (!m_trigger.IsNull())
    {
        m_trigger(reason, rnic);
    }
}

} // namespace ns3
