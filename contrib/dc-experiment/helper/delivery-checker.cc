#include "delivery-checker.h"

#include "experiment-runner.h"

#include "ns3/callback.h"

#include <algorithm>

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

const PlacementDigest&
DeliveryChecker::GetDigest(uint32_t flow) const
{
    return m_digests.at(flow);
}

nlohmann::ordered_json
DeliveryChecker::Summarize(const std::vector<ExperimentFlow>& flows,
                           const std::vector<ExperimentFlowResult>& results, std::size_t max)
{
    nlohmann::ordered_json violations = nlohmann::ordered_json::array();
    uint64_t count = 0;
    for (uint32_t id = 0; id < results.size(); ++id)
    {
        const ExperimentFlowResult& r = results[id];
        const uint64_t expected = flows[id].bytes;
        const uint64_t missing = expected - std::min(expected, r.deliveredBytes);
        const bool atMostOnce = r.duplicateBytes == 0 && r.outsideBytes == 0;
        if (r.finished ? atMostOnce && missing == 0 : atMostOnce)
        {
            continue;
        }
        ++count;
        if (violations.size() >= max)
        {
            continue;
        }
        // The digest's own words (PlacementDigest::Describe), less its list of holes,
        // which only the receiver's rank of a distributed run has.
        std::string reason;
        const auto add = [&reason](const std::string& part)
        { reason += (reason.empty() ? "" : "; ") + part; };
        if (missing > 0)
        {
            add(std::to_string(missing) + " bytes never placed");
        }
        if (r.duplicateBytes > 0)
        {
            add(std::to_string(r.duplicateBytes) +
                " bytes placed more than once, first at offset " +
                std::to_string(r.firstDuplicateOffset));
        }
        if (r.outsideBytes > 0)
        {
            add(std::to_string(r.outsideBytes) + " bytes placed outside [0, " +
                std::to_string(expected) + ")");
        }
        violations.push_back(nlohmann::ordered_json{
            {"flow", id},
            {"finished", r.finished},
            {"reason", reason},
        });
    }
    return nlohmann::ordered_json{
        {"checked", results.size()},
        {"violation_count", count},
        {"violations", violations},
    };
}

} // namespace ns3
