#include "dfabric-rack-reader.h"

#include "ns3/dfabric-rack-helper.h"

#include <algorithm>

namespace ns3
{

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

namespace
{

/** The keys of a "dfabric_rack" object (DfabricRackHelper::Configure's, less "hosts"). */
const std::vector<std::string> RACK_KEYS = {
    "nic_pool_size", "memory_pool_devices", "nic",      "cxl_link", "switch",
    "local_memory",  "pool_memory",         "nic_pool", "cpu"};

/** \return the switch that host \p h's only link goes to. */
uint32_t
TorOf(const ExperimentTopology& topology, uint32_t h)
{
    const uint32_t n = static_cast<uint32_t>(topology.hosts.size());
    for (const ExperimentLink& l : topology.links)
    {
        if (l.a == h && l.b >= n)
        {
            return l.b - n;
        }
        if (l.b == h && l.a >= n)
        {
            return l.a - n;
        }
    }
    return UINT32_MAX;
}

} // namespace

OrderedJson
DfabricRackReader::ReadEntry(const JsonSchemaReader& reader, const Json& value,
                             const std::string& pointer, std::size_t entry,
                             const std::vector<uint32_t>& selected, NodeComposition& c)
{
    if (value.is_string() && value.get<std::string>() == "none")
    {
        for (uint32_t h : selected)
        {
            c.hosts[h].dfabricRack = -1;
        }
        return "none";
    }
    if (!value.is_object())
    {
        reader.Fail(pointer, "expected \"none\" or an object of DFabric rack keys (" +
                                 JsonSchemaReader::JoinNames(RACK_KEYS) + ")");
    }
    reader.CheckKeys(value, pointer, RACK_KEYS);
    // DfabricRackHelper checks the values (ranges, attribute names and values, and what
    // the setters refuse, such as 3 CXL lanes).
    DfabricRackHelper probe;
    probe.Configure(value, reader, pointer);
    for (uint32_t h : selected)
    {
        NodeSpec& s = c.hosts[h];
        Json merged =
            s.dfabricRack >= 0 ? c.dfabricRacks[s.dfabricRack].description : Json::object();
        for (auto it = value.begin(); it != value.end(); ++it)
        {
            merged[it.key()] = it.value();
        }
        auto found = std::find_if(c.dfabricRacks.begin(), c.dfabricRacks.end(),
                                  [&](const NodeDfabricRack& r)
                                  { return r.description == merged && r.pointer == pointer; });
        if (found == c.dfabricRacks.end())
        {
            c.dfabricRacks.push_back(NodeDfabricRack{merged, pointer, entry});
            found = c.dfabricRacks.end() - 1;
        }
        s.dfabricRack = static_cast<int32_t>(found - c.dfabricRacks.begin());
    }
    return OrderedJson::parse(value.dump());
}

std::vector<DfabricRackReader::Rack>
DfabricRackReader::GetRacks(const JsonSchemaReader& reader, const ExperimentTopology& topology,
                            const NodeComposition& c)
{
    std::vector<Rack> racks;
    for (uint32_t h = 0; h < c.hosts.size(); ++h)
    {
        const int32_t d = c.hosts[h].dfabricRack;
        if (d < 0)
        {
            continue;
        }
        const uint32_t tor = TorOf(topology, h);
        auto rack =
            std::find_if(racks.begin(), racks.end(), [tor](const Rack& r) { return r.tor == tor; });
        if (rack == racks.end())
        {
            racks.push_back(Rack{tor, {h}, d});
            continue;
        }
        if (c.dfabricRacks[rack->description].description != c.dfabricRacks[d].description)
        {
            const uint32_t first = rack->hosts.front();
            // At the later of the two entries: the one that split the rack.
            const NodeDfabricRack& a = c.dfabricRacks[rack->description];
            const NodeDfabricRack& b = c.dfabricRacks[d];
            reader.Fail(a.entry > b.entry ? a.pointer : b.pointer,
                        "hosts " + topology.hosts[first] + " and " + topology.hosts[h] +
                            " are compute nodes of one DFabric rack (the hosts under " +
                            topology.switches[tor] + ") but their \"dfabric_rack\" differ: " +
                            c.dfabricRacks[rack->description].description.dump() + " and " +
                            c.dfabricRacks[d].description.dump() +
                            " (give the hosts of a ToR the same rack)");
        }
        rack->hosts.push_back(h);
    }
    std::sort(racks.begin(), racks.end(),
              [](const Rack& a, const Rack& b) { return a.tor < b.tor; });
    return racks;
}

void
DfabricRackReader::Check(const JsonSchemaReader& reader, const ExperimentTopology& topology,
                         const NodeComposition& c,
                         const std::vector<ExperimentCollective>& collectives)
{
    const std::vector<Rack> racks = GetRacks(reader, topology, c);
    for (const ExperimentCollective& e : collectives)
    {
        if (!e.overDfabric)
        {
            continue;
        }
        const std::string hp = JsonSchemaReader::Child(e.pointer, "hosts");
        std::vector<uint32_t> visited; // ToRs whose rack the ring has left
        uint32_t current = UINT32_MAX;
        for (uint32_t h : e.hosts)
        {
            if (h >= c.hosts.size() || c.hosts[h].dfabricRack < 0)
            {
                reader.Fail(hp, "host " + topology.hosts[h] +
                                    " is in no DFabric rack: a collective over \"dfabric\" "
                                    "runs between DFabric racks (give its hosts a "
                                    "\"dfabric_rack\" in \"nodes\")");
            }
            const uint32_t tor = TorOf(topology, h);
            if (tor == current)
            {
                continue;
            }
            if (std::find(visited.begin(), visited.end(), tor) != visited.end())
            {
                reader.Fail(hp, "the ring comes back to the DFabric rack under " +
                                    topology.switches[tor] + " at host " + topology.hosts[h] +
                                    ": list each rack's hosts one after the other (a hop "
                                    "inside a rack passes a reference, one between racks "
                                    "goes through both NIC pools)");
            }
            if (current != UINT32_MAX)
            {
                visited.push_back(current);
            }
            current = tor;
        }
    }
}

} // namespace ns3
