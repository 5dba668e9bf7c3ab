#include "transport-compatibility.h"

#include "experiment-config-error.h"
#include "experiment-config.h"

namespace ns3
{

namespace
{

/** \return the boolean attribute \p name of \p component, or \p fallback when absent. */
bool
BoolAttribute(const ExperimentComponent& component, const std::string& name, bool fallback)
{
    for (const ExperimentAttribute& a : component.attributes)
    {
        if (a.name == name)
        {
            return a.value->SerializeToString(nullptr) == "true";
        }
    }
    return fallback;
}

const char* EXTENSIONS = "SrnicHeaderExtensions";

} // namespace

std::vector<TransportCompatibility::HostTransport>
TransportCompatibility::PerHost(const ExperimentConfig& config)
{
    HostTransport base;
    base.srnicExtensions = BoolAttribute(config.GetQueuePair(), EXTENSIONS, false);
    base.source = "the experiment's /qp";
    std::vector<HostTransport> hosts(config.GetTopology().hosts.size(), base);
    const NodeComposition& nodes = config.GetNodes();
    for (uint32_t h = 0; h < nodes.hosts.size() && h < hosts.size(); ++h)
    {
        if (nodes.hosts[h].nicProfile < 0)
        {
            continue;
        }
        const NodeNicProfile& p = nodes.nicProfiles[nodes.hosts[h].nicProfile];
        // A profile's "qp" attributes apply on top of the experiment's (NodeComposer).
        hosts[h].srnicExtensions = BoolAttribute(p.qp, EXTENSIONS, base.srnicExtensions);
        hosts[h].source = "nic_profile \"" + p.name + "\"";
    }
    return hosts;
}

void
TransportCompatibility::CheckPair(const JsonSchemaReader& reader, const ExperimentConfig& config,
                                  const std::vector<HostTransport>& hosts, uint32_t a, uint32_t b,
                                  const std::string& pointer, const std::string& what)
{
    if (hosts[a].srnicExtensions == hosts[b].srnicExtensions)
    {
        return;
    }
    const std::vector<std::string>& names = config.GetTopology().hosts;
    const auto describe = [&](uint32_t h)
    {
        return names[h] + " (" + hosts[h].source + ": SRNIC header extensions " +
               (hosts[h].srnicExtensions ? "on" : "off") + ")";
    };
    const std::string reason = what + " connects " + describe(a) + " and " + describe(b) +
                               ": these transports cannot interoperate (a NIC without the "
                               "extensions reads them as payload and places data at wrong "
                               "addresses); give both hosts NIC profiles with the same "
                               "qp/SrnicHeaderExtensions (\"nodes\")";
    if (!pointer.empty() && pointer.front() != '/')
    {
        // A flow of a trace file: its origin is "file:line".
        throw ExperimentConfigError(pointer, "", reason);
    }
    reader.Fail(pointer, reason);
}

void
TransportCompatibility::Check(const JsonSchemaReader& reader, const ExperimentConfig& config)
{
    const std::vector<HostTransport> hosts = PerHost(config);
    bool uniform = true;
    for (const HostTransport& h : hosts)
    {
        uniform = uniform && h.srnicExtensions == hosts.front().srnicExtensions;
    }
    if (uniform)
    {
        return; // the common case: nothing to check per flow
    }
    for (const ExperimentFlow& f : config.GetFlows())
    {
        CheckPair(reader, config, hosts, f.src, f.dst, f.origin, "flow " + std::to_string(f.id));
    }
    for (const ExperimentCollective& c : config.GetCollectives())
    {
        if (c.overDfabric)
        {
            continue; // the racks' NIC pools, not the hosts' NICs
        }
        // A message stream uses its first two hosts; a ring, each host and its successor.
        const std::size_t hops = c.type == "message_stream" ? 1 : c.hosts.size();
        for (std::size_t w = 0; w < hops; ++w)
        {
            CheckPair(reader, config, hosts, c.hosts[w], c.hosts[(w + 1) % c.hosts.size()],
                      c.pointer, "collective \"" + c.name + "\"");
        }
    }
}

} // namespace ns3
