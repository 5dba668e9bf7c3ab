#include "dfabric-rack-set.h"

#include "ns3/abort.h"
#include "ns3/dfabric-rack-reader.h"

namespace ns3
{

DfabricRackSet::DfabricRackSet(const ExperimentConfig& config)
{
    const NodeComposition& nodes = config.GetNodes();
    const JsonSchemaReader reader(config.GetSource());
    m_rackOf.assign(nodes.hosts.size(), -1);
    m_node.assign(nodes.hosts.size(), 0);
    for (const DfabricRackReader::Rack& r :
         DfabricRackReader::GetRacks(reader, config.GetTopology(), nodes))
    {
        DfabricRackHelper helper;
        // Checked when the experiment file was read (DfabricRackReader).
        const NodeDfabricRack& rack = nodes.dfabricRacks[r.description];
        helper.Configure(rack.description, reader, rack.pointer);
        helper.SetHosts(static_cast<uint32_t>(r.hosts.size()));
        for (uint32_t i = 0; i < r.hosts.size(); ++i)
        {
            m_rackOf[r.hosts[i]] = static_cast<int32_t>(m_racks.size());
            m_node[r.hosts[i]] = i;
        }
        m_racks.push_back(helper.Create());
    }
}

std::vector<DfabricRack>
DfabricRackSet::GetRing(const std::vector<uint32_t>& hosts) const
{
    std::vector<DfabricRack> ring;
    int32_t current = -1;
    for (uint32_t h : hosts)
    {
        const int32_t r = m_rackOf.at(h);
        NS_ABORT_MSG_IF(r < 0, "host " << h << " is in no DFabric rack");
        if (r != current)
        {
            DfabricRack view = m_racks[r];
            view.cnMemory.clear();
            ring.push_back(view);
            current = r;
        }
        ring.back().cnMemory.push_back(m_racks[r].cnMemory[m_node[h]]);
    }
    return ring;
}

} // namespace ns3
