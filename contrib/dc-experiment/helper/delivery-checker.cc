#include "delivery-checker.h"

#include "ns3/callback.h"

namespace ns3
{

DeliveryChecker::DeliveryChecker(const ExperimentConfig& config, const TopologyBuilder& topology)
    : m_config(config)
    , m_topology(topology)
{
    const auto& flows = config.GetFlows();
    m_digests.resize(flows.size());
    m_sendBase.assign(flows.size(), 0);
    m_flowOf.resize(topology.GetNHosts());
    for (const ExperimentFlow& f : flows)
    {
        m_digests[f.id].Reset(f.bytes);
    }
}

void
DeliveryChecker::AddFlow(uint32_t flow, uint32_t qpn)
{
    const uint32_t host = m_config.GetFlows()[flow].dst;
    std::vector<uint32_t>& table = m_flowOf[host];
    const uint32_t index = qpn - RdmaNic::FIRST_QPN;
    if (index >= table.size())
    {
        table.resize(index + 1, NONE);
    }
    table[index] = flow;
}

void
DeliveryChecker::Connect()
{
    for (uint32_t h = 0; h < m_flowOf.size(); ++h)
    {
        if (m_flowOf[h].empty())
        {
            continue;
        }
        Ptr<RdmaNic> nic = m_topology.GetNic(h);
        nic->TraceConnectWithoutContext("DataPlaced",
                                        MakeBoundCallback(&DeliveryChecker::OnPlaced, this, h));
        nic->TraceConnectWithoutContext("MessageReceived",
                                        MakeBoundCallback(&DeliveryChecker::OnMessage, this, h));
    }
}

void
DeliveryChecker::OnPlaced(DeliveryChecker* self, uint32_t host, uint32_t qpn, uint64_t address,
                          uint32_t bytes)
{
    const std::vector<uint32_t>& table = self->m_flowOf[host];
    const uint32_t index = qpn - RdmaNic::FIRST_QPN;
    const uint32_t flow = index < table.size() ? table[index] : NONE;
    if (flow == NONE)
    {
        return; // the QP of a flow sending from this host (READ responses are not placed here)
    }
    self->m_digests[flow].Place(self->m_sendBase[flow] + address, bytes);
}

void
DeliveryChecker::OnMessage(DeliveryChecker* self, uint32_t host, uint32_t qpn, uint64_t bytes)
{
    const std::vector<uint32_t>& table = self->m_flowOf[host];
    const uint32_t index = qpn - RdmaNic::FIRST_QPN;
    const uint32_t flow = index < table.size() ? table[index] : NONE;
    if (flow != NONE && self->m_config.GetFlows()[flow].verb == RdmaVerb::Send)
    {
        self->m_sendBase[flow] += bytes;
    }
}

uint64_t
DeliveryChecker::GetDeliveredBytes(uint32_t flow) const
{
    return m_digests.at(flow).GetCoveredBytes();
}

const PlacementDigest&
DeliveryChecker::GetDigest(uint32_t flow) const
{
    return m_digests.at(flow);
}

nlohmann::ordered_json
DeliveryChecker::Summarize(const std::vector<bool>& finished, std::size_t max) const
{
    nlohmann::ordered_json violations = nlohmann::ordered_json::array();
    uint64_t count = 0;
    for (uint32_t id = 0; id < m_digests.size(); ++id)
    {
        const PlacementDigest& d = m_digests[id];
        const bool ok = finished[id] ? d.IsExactlyOnce() : d.IsAtMostOnce();
        if (ok)
        {
            continue;
        }
        ++count;
        if (violations.size() < max)
        {
            violations.push_back(nlohmann::ordered_json{
                {"flow", id},
                {"finished", static_cast<bool>(finished[id])},
                {"reason", d.Describe()},
            });
        }
    }
    return nlohmann::ordered_json{
        {"checked", m_digests.size()},
        {"violation_count", count},
        {"violations", violations},
    };
}

} // namespace ns3
