#include "fault-injector.h"

#include "ns3/dcb-channel.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/experiment-config-error.h"
#include "ns3/json-attribute-converter.h"
#include "ns3/link-rate-timeline.h"
#include "ns3/pointer.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-rx-pipeline.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cinttypes>
#include <iterator>
#include <stdexcept>

namespace ns3
{

FaultInjector::FaultInjector(const ExperimentConfig& config, const TopologyBuilder& topology)
    : m_config(config)
    , m_topology(topology)
{
}

bool
FaultInjector::IsActive() const
{
    return !m_config.GetFaults().IsEmpty();
}

uint32_t
FaultInjector::HostLink(uint32_t host) const
{
    return LinkRateTimeline::HostLink(m_config.GetTopology(), host);
}

void
FaultInjector::CheckConfig(const ExperimentRunContext& context)
{
    if (IsActive() && context.IsDistributed())
    {
        throw ExperimentConfigError(m_config.GetSource(), "/faults",
                                    "not available in distributed runs (a fault's routing "
                                    "reaction and its record would be split over the ranks)");
    }
}

void
FaultInjector::Compose(ExperimentRunContext& /* context */)
{
    if (!IsActive())
    {
        return;
    }
    // TopologyBuilder installs one device per link end, in link order: the device
    // index on a node counts that node's links so far (as a switch numbers its ports).
    const ExperimentTopology& topo = m_config.GetTopology();
    std::vector<uint32_t> next(topo.GetNNodes(), 0);
    m_ends.resize(topo.links.size());
    for (uint32_t i = 0; i < topo.links.size(); ++i)
    {
        const uint32_t nodes[2] = {topo.links[i].a, topo.links[i].b};
        for (uint32_t e = 0; e < 2; ++e)
        {
            const uint32_t port = next[nodes[e]]++;
            m_ends[i].port[e] = port;
            m_ends[i].device[e] =
                DynamicCast<DcbNetDevice>(m_topology.GetNode(nodes[e])->GetDevice(port));
            NS_ABORT_MSG_UNLESS(m_ends[i].device[e], "FaultInjector: no device for a link end");
        }
        NS_ABORT_MSG_UNLESS(m_ends[i].device[0]->GetDcbChannel() ==
                                m_ends[i].device[1]->GetDcbChannel(),
                            "FaultInjector: link ends on different channels");
    }
    const FaultPlan& plan = m_config.GetFaults();
    for (uint32_t k = 0; k < plan.losses.size(); ++k)
    {
        const FaultLoss& loss = plan.losses[k];
        for (uint32_t link : loss.links)
        {
            LossModel m{k, link, {}};
            for (uint32_t e = 0; e < 2; ++e)
            {
                m.model[e] = CreateObject<ClassLossErrorModel>();
                m.model[e]->SetAttribute("ClassMask", UintegerValue(loss.classMask));
                if (loss.gilbertElliott)
                {
                    m.model[e]->SetAttribute("Model",
                                             EnumValue(ClassLossErrorModel::GILBERT_ELLIOTT));
                    m.model[e]->SetAttribute("P", DoubleValue(loss.p));
                    m.model[e]->SetAttribute("R", DoubleValue(loss.r));
                    m.model[e]->SetAttribute("LossGood", DoubleValue(loss.lossGood));
                    m.model[e]->SetAttribute("LossBad", DoubleValue(loss.lossBad));
                }
                else
                {
                    m.model[e]->SetAttribute("Rate", DoubleValue(loss.rate));
                }
                m_ends[link].device[e]->SetAttribute("ReceiveErrorModel", PointerValue(m.model[e]));
            }
            m_losses.push_back(m);
        }
    }
    m_pcie.assign(m_topology.GetNHosts(), nullptr);
    m_pcieInstalled.assign(m_topology.GetNHosts(), false);
    for (uint32_t i = 0; i < plan.events.size(); ++i)
    {
        const FaultEvent& ev = plan.events[i];
        if (ev.kind == FaultKind::PcieRate && !m_pcie[ev.host])
        {
            m_pcie[ev.host] = CreateObject<RdmaPcieThrottle>();
        }
        Simulator::Schedule(ev.time, &FaultInjector::Apply, this, i);
    }
    AssignStreams(ExperimentConfig::FAULT_STREAM);
}

void
FaultInjector::Install(ExperimentRunContext& /* context */)
{
    const FaultPlan& plan = m_config.GetFaults();
    for (const FaultEvent& ev : plan.events)
    {
        if (ev.kind != FaultKind::PcieRate)
        {
            continue;
        }
        Ptr<RdmaRxPipeline> rx = m_topology.GetNic(ev.host)->GetRxPipeline();
        const std::string error = rx->GetHostModel()
                                      ? "the host has an intra-host model: degrade its PCIe links "
                                        "there instead of with pcie_rate"
                                      : rx->CheckConfig();
        if (!error.empty())
        {
            throw ExperimentConfigError(m_config.GetSource(), ev.pointer + "/host", error);
        }
    }
}

int64_t
FaultInjector::AssignStreams(int64_t stream)
{
    int64_t used = 0;
    for (LossModel& m : m_losses)
    {
        for (uint32_t e = 0; e < 2; ++e)
        {
            used += m.model[e]->AssignStreams(stream + used);
        }
    }
    return used;
}

uint64_t
FaultInjector::GetLostFrames() const
{
    uint64_t lost = 0;
    for (const LossModel& m : m_losses)
    {
        lost += m.model[0]->GetFramesLost() + m.model[1]->GetFramesLost();
    }
    return lost;
}

std::string
FaultInjector::UpdateRoutes(uint32_t link, uint32_t end, bool down)
{
    const ExperimentLink& l = m_config.GetTopology().links[link];
    const uint32_t node = end == 0 ? l.a : l.b;
    const uint32_t nHosts = m_topology.GetNHosts();
    if (node < nHosts)
    {
        return "";
    }
    Ptr<DcbSwitch> sw = m_topology.GetSwitch(node - nHosts);
    LinkEnds& ends = m_ends[link];
    const uint32_t port = ends.port[end];
    uint32_t changed = 0;
    if (down)
    {
        for (uint32_t h = 0; h < nHosts; ++h)
        {
            // The primary address and any virtual-NIC aliases ("nodes"/"virtual_nics").
            for (const Ipv4Address& dst : m_topology.GetNic(h)->GetAddresses())
            {
                std::vector<uint32_t> ports = sw->GetRoute(dst);
                const auto it = std::find(ports.begin(), ports.end(), port);
                if (it != ports.end() && ports.size() > 1)
                {
                    ports.erase(it);
                    sw->SetRoute(dst, ports);
                    ends.pruned[end].push_back(dst);
                    ++changed;
                }
            }
        }
    }
    else
    {
        for (const Ipv4Address& dst : ends.pruned[end])
        {
            std::vector<uint32_t> ports = sw->GetRoute(dst);
            if (std::find(ports.begin(), ports.end(), port) == ports.end())
            {
                ports.push_back(port);
                sw->SetRoute(dst, ports);
                ++changed;
            }
        }
        ends.pruned[end].clear();
    }
    return m_config.GetTopology().GetNodeName(node) +
           (down ? " removed port " : " restored port ") + std::to_string(port) +
           (down ? " from " : " to ") + std::to_string(changed) + " ECMP routes";
}

void
FaultInjector::Apply(uint32_t index)
{
    const FaultEvent& ev = m_config.GetFaults().events[index];
    const ExperimentTopology& topo = m_config.GetTopology();
    Record r{Simulator::Now(), FaultPlan::KindName(ev.kind), "", ""};
    switch (ev.kind)
    {
        case FaultKind::LinkDown:
        case FaultKind::LinkUp:
        {
            const bool down = ev.kind == FaultKind::LinkDown;
            LinkEnds& ends = m_ends[ev.link];
            r.target = FaultPlan::LinkName(topo, ev.link);
            ends.device[0]->SetLinkUp(!down);
            ends.device[1]->SetLinkUp(!down);
            if (down && !ev.reroute)
            {
                r.detail = "ECMP routes unchanged (\"reroute\": false)";
            }
            for (uint32_t e = 0; e < 2 && (!down || ev.reroute); ++e)
            {
                const std::string what = UpdateRoutes(ev.link, e, down);
                if (!what.empty())
                {
                    r.detail += (r.detail.empty() ? "" : "; ") + what;
                }
            }
            // The routing protocol hears of a down it sees, and of the link's return.
            if (down ? ev.reroute : ends.rerouted)
            {
                Simulator::Schedule(ev.convergence, &FaultInjector::Converge, this, index);
            }
            ends.rerouted = down && ev.reroute;
            break;
        }
        case FaultKind::LinkRate:
        case FaultKind::HostRate:
        {
            const uint32_t link = LinkRateTimeline::RateLink(topo, ev);
            LinkEnds& ends = m_ends[link];
            r.target = ev.kind == FaultKind::LinkRate ? FaultPlan::LinkName(topo, link)
                                                      : topo.hosts[ev.host];
            r.detail = JsonAttributeConverter::FormatDataRate(ends.device[0]->GetDataRate()) +
                       " -> " + JsonAttributeConverter::FormatDataRate(ev.rate) + " on " +
                       FaultPlan::LinkName(topo, link);
            ends.device[0]->SetDataRate(ev.rate);
            ends.device[1]->SetDataRate(ev.rate);
            break;
        }
        case FaultKind::PcieRate:
        {
            Ptr<RdmaPcieThrottle> pcie = m_pcie[ev.host];
            // The throttle's own record, not the pipeline's activity: another stage (a
            // QPC cache, processing units) may have activated the pipeline before.
            const bool first = !m_pcieInstalled[ev.host];
            r.target = topo.hosts[ev.host];
            r.detail = "NIC receive DMA " +
                       (first ? std::string("ideal")
                              : JsonAttributeConverter::FormatDataRate(pcie->GetRate())) +
                       " -> " + JsonAttributeConverter::FormatDataRate(ev.rate);
            pcie->SetRate(ev.rate);
            if (first)
            {
                const std::string error = pcie->Install(m_topology.GetNic(ev.host));
                if (!error.empty())
                {
                    // Checked at load and by Install(): a fault that cannot act ends the run
                    // rather than being recorded as if it had.
                    throw ExperimentConfigError(m_config.GetSource(), ev.pointer + "/host", error);
                }
                m_pcieInstalled[ev.host] = true;
            }
            break;
        }
        case FaultKind::NicDown:
        case FaultKind::NicUp:
        {
            const uint32_t link = HostLink(ev.host);
            const uint32_t end = topo.links[link].a == ev.host ? 0 : 1;
            r.target = topo.hosts[ev.host];
            r.detail = ev.kind == FaultKind::NicDown ? "drops all it sends and receives"
                                                     : "responds again";
            m_ends[link].device[end]->SetLinkUp(ev.kind == FaultKind::NicUp);
            break;
        }
    }
    m_records.push_back(r);
}

void
FaultInjector::Converge(uint32_t index)
{
    const FaultEvent& ev = m_config.GetFaults().events[index];
    const bool down = ev.kind == FaultKind::LinkDown;
    m_ends[ev.link].withdrawn = down;
    std::vector<Ptr<NetDevice>> withdrawn;
    for (const LinkEnds& ends : m_ends)
    {
        if (ends.withdrawn)
        {
            withdrawn.push_back(ends.device[0]);
            withdrawn.push_back(ends.device[1]);
        }
    }
    std::vector<DcbRoutingHelper::HostAddress> hosts;
    for (uint32_t h = 0; h < m_topology.GetNHosts(); ++h)
    {
        for (const Ipv4Address& address : m_topology.GetNic(h)->GetAddresses())
        {
            hosts.push_back({address, m_topology.GetNode(h)});
        }
    }
    const std::string changed = DescribeChanges(DcbRoutingHelper::UpdateRoutes(hosts, withdrawn));
    m_records.push_back(Record{Simulator::Now(), down ? "routes_withdrawn" : "routes_restored",
                               FaultPlan::LinkName(m_config.GetTopology(), ev.link),
                               JsonAttributeConverter::FormatTime(ev.convergence) + " after " +
                                   FaultPlan::KindName(ev.kind) + ": " +
                                   (changed.empty() ? "no route changed" : changed)});
}

std::string
FaultInjector::DescribeChanges(const std::vector<DcbRoutingHelper::RouteChange>& changes) const
{
    const ExperimentTopology& topo = m_config.GetTopology();
    const auto list = [](const std::vector<uint32_t>& ports)
    {
        std::string s = ports.size() > 1 ? "ports " : "port ";
        for (uint32_t i = 0; i < ports.size(); ++i)
        {
            s += (i > 0 ? "/" : "") + std::to_string(ports[i]); // no comma: a CSV field
        }
        return s;
    };
    std::string text;
    for (size_t i = 0; i < changes.size();)
    {
        // The changes come switch by switch: one clause per switch.
        size_t j = i;
        std::vector<uint32_t> removed;
        std::vector<uint32_t> added;
        for (; j < changes.size() && changes[j].node == changes[i].node; ++j)
        {
            const DcbRoutingHelper::RouteChange& c = changes[j];
            std::set_difference(c.before.begin(), c.before.end(), c.after.begin(), c.after.end(),
                                std::back_inserter(removed));
            std::set_difference(c.after.begin(), c.after.end(), c.before.begin(), c.before.end(),
                                std::back_inserter(added));
        }
        for (std::vector<uint32_t>* v : {&removed, &added})
        {
            std::sort(v->begin(), v->end());
            v->erase(std::unique(v->begin(), v->end()), v->end());
        }
        std::string name = "node " + std::to_string(changes[i].node->GetId());
        for (uint32_t n = 0; n < topo.GetNNodes(); ++n)
        {
            if (m_topology.GetNode(n) == changes[i].node)
            {
                name = topo.GetNodeName(n);
                break;
            }
        }
        const std::string routes = std::to_string(j - i) + (j - i > 1 ? " routes" : " route");
        text += (text.empty() ? "" : "; ") + name;
        if (added.empty())
        {
            text += " withdrew " + list(removed) + " from " + routes;
        }
        else if (removed.empty())
        {
            text += " added " + list(added) + " to " + routes;
        }
        else
        {
            text += " moved " + routes + " from " + list(removed) + " to " + list(added);
        }
        i = j;
    }
    return text;
}

std::vector<FaultInjector::LossLink>
FaultInjector::GetLossLinks() const
{
    std::vector<LossLink> links;
    for (const LossModel& m : m_losses)
    {
        links.push_back(LossLink{m.entry, m.link,
                                 m.model[0]->GetFramesSeen() + m.model[1]->GetFramesSeen(),
                                 m.model[0]->GetFramesLost() + m.model[1]->GetFramesLost()});
    }
    return links;
}

const std::vector<FaultInjector::Record>&
FaultInjector::GetRecords() const
{
    return m_records;
}

} // namespace ns3
