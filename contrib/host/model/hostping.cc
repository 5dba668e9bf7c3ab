/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "hostping.h"

#include "gpu-device.h"
#include "memory-channel.h"
#include "rnic-port.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Hostping");
NS_OBJECT_ENSURE_REGISTERED(Hostping);

TypeId
Hostping::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::Hostping")
            .SetParent<Object>()
            .SetGroupName("Host")
            .AddConstructor<Hostping>()
            .AddAttribute("SmallMessage",
                          "Small probe message in bytes (latency probe). Default 1 B "
                          "(Hostping §4.1.1).",
                          UintegerValue(1), MakeUintegerAccessor(&Hostping::m_smallBytes),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("LargeMessage",
                          "Large probe message in bytes (bandwidth probe). Default 128 KiB, "
                          "Hostping's size for 200 Gb/s RNICs (§4.1.1).",
                          UintegerValue(128 * 1024), MakeUintegerAccessor(&Hostping::m_largeBytes),
                          MakeUintegerChecker<uint64_t>(2))
            .AddAttribute("ProcessingTime",
                          "T_proc: post, doorbell, WQE fetch and completion polling, added to "
                          "every probe. Default 2 us, an assumption; it cancels out of the "
                          "bandwidth (large minus small).",
                          TimeValue(MicroSeconds(2)), MakeTimeAccessor(&Hostping::m_processing),
                          MakeTimeChecker())
            .AddAttribute("ProbeTimeout",
                          "A probe not done by then counts as zero bandwidth (failed link). "
                          "Default 1 ms.",
                          TimeValue(MilliSeconds(1)), MakeTimeAccessor(&Hostping::m_timeout),
                          MakeTimeChecker())
            .AddAttribute("AbnormalBandwidth",
                          "Abnormal_bw: a path is abnormal when its bandwidth is below the "
                          "baseline by more than this fraction. Default 0.1, an assumption "
                          "(the paper does not state its value).",
                          DoubleValue(0.1), MakeDoubleAccessor(&Hostping::m_abnormalBandwidth),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("AbnormalLatency",
                          "A path's latency is abnormal when above the baseline by more than "
                          "this fraction. Default 0.2, an assumption.",
                          DoubleValue(0.2), MakeDoubleAccessor(&Hostping::m_abnormalLatency),
                          MakeDoubleChecker<double>(0));
    return tid;
}

Hostping::Hostping()
    : m_current(0)
    , m_dma(0)
{
}

void
Hostping::DoDispose()
{
    m_timeoutEvent.Cancel();
    m_host = nullptr;
    m_done = DoneCallback();
    Object::DoDispose();
}

void
Hostping::SetHost(Ptr<HostModel> host)
{
    m_host = host;
}

void
Hostping::Start(DoneCallback done)
{
    NS_ABORT_MSG_UNLESS(m_host, "Hostping: SetHost first");
    m_done = done;
    m_pairs.clear();
    m_results.clear();
    std::vector<uint32_t> endpoints = m_host->GetDevices(GpuDevice::GetTypeId());
    auto memories = m_host->GetDevices(MemoryChannel::GetTypeId());
    endpoints.insert(endpoints.end(), memories.begin(), memories.end());
    for (uint32_t rnic : m_host->GetDevices(RnicPort::GetTypeId()))
    {
        for (uint32_t ep : endpoints)
        {
            m_pairs.emplace_back(rnic, ep);
        }
    }
    m_current = 0;
    Simulator::ScheduleNow(&Hostping::StartProbe, this);
}

void
Hostping::StartProbe()
{
    if (m_current >= m_pairs.size())
    {
        m_done(m_results);
        return;
    }
    auto [rnic, ep] = m_pairs[m_current];
    m_results.push_back({rnic, ep, Seconds(0), Seconds(0), DataRate(0), false});
    m_timeoutEvent = Simulator::Schedule(m_timeout, &Hostping::OnTimeout, this);
    m_dma = m_host->RequestDma(rnic, ep, HostModel::DMA_LOOPBACK, m_smallBytes,
                               MakeCallback(&Hostping::OnSmallDone, this));
}

void
Hostping::OnSmallDone(Time latency)
{
    auto [rnic, ep] = m_pairs[m_current];
    m_results.back().smallLatency = m_processing + latency;
    m_dma = m_host->RequestDma(rnic, ep, HostModel::DMA_LOOPBACK, m_largeBytes,
                               MakeCallback(&Hostping::OnLargeDone, this));
}

void
Hostping::OnLargeDone(Time latency)
{
    m_timeoutEvent.Cancel();
    HostpingProbe& p = m_results.back();
    p.largeLatency = m_processing + latency;
    double dt = (p.largeLatency - p.smallLatency).GetSeconds();
    p.bandwidth = DataRate(static_cast<uint64_t>((m_largeBytes - m_smallBytes) * 8.0 / dt));
    p.completed = true;
    Next();
}

void
Hostping::OnTimeout()
{
    m_host->CancelDma(m_dma);
    Next();
}

void
Hostping::Next()
{
    ++m_current;
    StartProbe();
}

HostpingDiagnosis
Hostping::Diagnose(const std::vector<HostpingProbe>& baseline,
                   const std::vector<HostpingProbe>& measured) const
{
    NS_ABORT_MSG_UNLESS(baseline.size() == measured.size(),
                        "Hostping: baseline and measurement differ in size");
    uint32_t n = m_host->GetResourceCount();
    HostpingDiagnosis d;
    d.status.assign(n, HostLinkStatus::UNCERTAIN);
    d.abnormalCount.assign(n, 0);
    std::vector<std::vector<uint32_t>> markedBy(n);
    std::vector<std::vector<uint32_t>> links(measured.size());
    for (uint32_t j = 0; j < measured.size(); ++j)
    {
        const auto& m = measured[j];
        const auto& b = baseline[j];
        NS_ABORT_MSG_UNLESS(m.rnic == b.rnic && m.endpoint == b.endpoint,
                            "Hostping: baseline lists other pairs");
        d.pathAbnormal.push_back(!m.completed ||
                                 m.bandwidth.GetBitRate() <
                                     (1 - m_abnormalBandwidth) * b.bandwidth.GetBitRate());
        d.latencyAbnormal.push_back(!m.completed ||
                                    m.smallLatency > b.smallLatency * (1 + m_abnormalLatency));
        // The links of a path: every resource after the probing RNIC itself.
        const auto& path = m_host->GetPath(m.rnic, m.endpoint);
        links[j].assign(path.begin() + 1, path.end());
    }
    // Algorithm 1, lines 3-5: links on normal paths are normal.
    for (uint32_t j = 0; j < measured.size(); ++j)
    {
        if (!d.pathAbnormal[j])
        {
            for (uint32_t l : links[j])
            {
                d.status[l] = HostLinkStatus::NORMAL;
            }
        }
    }
    // Lines 6-17.
    for (uint32_t j = 0; j < measured.size(); ++j)
    {
        if (!d.pathAbnormal[j])
        {
            continue;
        }
        uint32_t rnic = measured[j].rnic;
        auto mark = [&](uint32_t l)
        {
            if (std::find(markedBy[l].begin(), markedBy[l].end(), rnic) == markedBy[l].end())
            {
                markedBy[l].push_back(rnic);
                ++d.abnormalCount[l];
            }
        };
        bool allNormal = true;
        for (uint32_t l : links[j])
        {
            if (d.status[l] == HostLinkStatus::UNCERTAIN)
            {
                d.status[l] = HostLinkStatus::ABNORMAL;
                mark(l);
            }
            else if (d.status[l] == HostLinkStatus::ABNORMAL)
            {
                mark(l);
            }
            allNormal = allNormal && d.status[l] == HostLinkStatus::NORMAL;
        }
        if (allNormal)
        {
            for (uint32_t l : links[j])
            {
                d.status[l] = HostLinkStatus::GRAY;
            }
        }
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        if (d.status[i] == HostLinkStatus::ABNORMAL)
        {
            d.abnormalLinks.push_back(i);
        }
        else if (d.status[i] == HostLinkStatus::GRAY)
        {
            d.grayLinks.push_back(i);
        }
    }
    return d;
}

} // namespace ns3
