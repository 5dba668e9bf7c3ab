#include "experiment-config-parser.h"

#include "host-selection.h"

#include "ns3/collective-workload-reader.h"
#include "ns3/congestion-control-reader.h"
#include "ns3/dfabric-rack-reader.h"
#include "ns3/flow-list-reader.h"
#include "ns3/flow-set-reader.h"
#include "ns3/host-dma-flow-reader.h"
#include "ns3/hostping-monitor-reader.h"
#include "ns3/ipv4-header.h"
#include "ns3/job-reader.h"
#include "ns3/json-attribute-converter.h"
#include "ns3/load-balancing-reader.h"
#include "ns3/monitors-reader.h"
#include "ns3/node-composition-reader.h"
#include "ns3/outputs-reader.h"
#include "ns3/pfc-safety-config-reader.h"
#include "ns3/poisson-workload-reader.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/roce-bth-header.h"
#include "ns3/roce-icrc-trailer.h"
#include "ns3/roce-imm-dt-header.h"
#include "ns3/roce-reth-header.h"
#include "ns3/roce-srnic-ext-header.h"
#include "ns3/switch-buffer-assignment.h"
#include "ns3/topology-types.h"
#include "ns3/udp-header.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <optional>

namespace ns3
{

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

ExperimentConfigParser::ExperimentConfigParser(const JsonSchemaReader& reader,
                                               ExperimentConfig& config,
                                               const CommandLineAttributes& commandLine)
    : m_reader(reader)
    , m_config(config)
    , m_components(reader, commandLine, config.m_warnings)
    , m_commandLine(commandLine)
{
}

std::vector<Ptr<WorkloadGenerator>>
ExperimentConfigParser::Parse(const Json& root)
{
    m_reader.CheckKeys(root, "",
                       {"description",
                        "seed",
                        "stop_time",
                        "progress",
                        "scheduler",
                        "topology",
                        "nic",
                        "switch",
                        "link",
                        "buffer",
                        "buffer_switches",
                        "load_balancing",
                        "ecn",
                        "cc",
                        "cc_hosts",
                        "loss_recovery",
                        "qp",
                        "flows",
                        "flow_sets",
                        "flows_file",
                        "workload",
                        "monitors",
                        "pfc_watchdog",
                        "outputs",
                        "faults",
                        "nodes",
                        "collectives",
                        "jobs",
                        "host_dma_flows",
                        "pcap",
                        "plots",
                        "non_default_attributes",
                        ExperimentConfig::PATHS_RELATIVE_TO});
    OrderedJson& eff = m_config.m_effective;
    if (JsonSchemaReader::Find(root, "description"))
    {
        eff["description"] = m_reader.GetString(root, "", "description", std::nullopt, {});
    }
    m_config.m_seed =
        static_cast<uint32_t>(m_reader.GetUint(root, "", "seed", 1, 1, 4294967295ULL));
    m_config.m_stopTime = m_reader.GetTime(root, "", "stop_time", "100ms", NanoSeconds(1));
    m_config.m_progress = m_reader.GetBool(root, "", "progress", true);
    eff["seed"] = m_config.m_seed;
    eff["stop_time"] = JsonAttributeConverter::FormatTime(m_config.m_stopTime);
    eff["progress"] = m_config.m_progress;
    // The event queue changes only the speed: every ns-3 scheduler orders events
    // by (time, insertion order), so outputs are the same with each of them. The
    // default, dcb's PrefetchHeapScheduler, is the fastest measured (performance.md).
    m_config.m_scheduler = m_reader.GetString(
        root, "", "scheduler", "ns3::PrefetchHeapScheduler",
        {"ns3::PrefetchHeapScheduler", "ns3::PriorityQueueScheduler", "ns3::MapScheduler",
         "ns3::HeapScheduler", "ns3::CalendarScheduler", "ns3::ListScheduler"});
    eff["scheduler"] = m_config.m_scheduler;

    const Json* topo = JsonSchemaReader::Find(root, "topology");
    if (!topo)
    {
        m_reader.Fail("/topology",
                      "missing required field \"topology\" (an object with \"type\": " +
                          TopologyTypes::Describe() + ")");
    }
    const ExperimentTopology& topology = m_config.m_topology =
        ExperimentTopology::Parse(m_reader, *topo, "/topology", eff["topology"]);
    m_config.m_warnings.insert(m_config.m_warnings.end(), topology.warnings.begin(),
                               topology.warnings.end());
    const HostSelection hosts(m_reader, topology);

    // Components: a TypeId and its attributes each (ExperimentComponentReader).
    eff["nic"] = m_components.Read(JsonSchemaReader::Find(root, "nic"), "/nic", "ns3::RdmaNic", "",
                                   {{"CongestionControl", "choose it with /cc/type"},
                                    {"LossRecovery", "choose it with /loss_recovery/type"},
                                    {"PathEntropy", "choose it with a /load_balancing entry's "
                                                    "\"entropy\""}},
                                   m_config.m_nic);
    eff["switch"] = m_components.Read(JsonSchemaReader::Find(root, "switch"), "/switch",
                                      "ns3::DcbSwitch", "", {}, m_config.m_switch);
    eff["link"] =
        m_components.Read(JsonSchemaReader::Find(root, "link"), "/link", "ns3::DcbNetDevice", "",
                          {{"DataRate", "link rates come from /topology"}}, m_config.m_link);
    ParseBuffers(root);
    // "load_balancing": a DcbLoadBalancer per switch role or switch, an RdmaPathEntropy per
    // host; absent: ECMP on the QPs' fixed source ports.
    OrderedJson loadBalancing;
    LoadBalancingReader::Read(
        m_reader, JsonSchemaReader::Find(root, "load_balancing"), "/load_balancing", topology,
        hosts, m_components, m_config.m_loadBalancers, m_config.m_loadBalancerOfSwitch,
        m_config.m_pathEntropies, m_config.m_pathEntropyOfHost, loadBalancing);
    if (!loadBalancing.is_null())
    {
        eff["load_balancing"] = loadBalancing;
    }
    {
        // "/ecn" less its "by_link_rate" table, which EcnLinkRateTable reads.
        const Json* ecn = JsonSchemaReader::Find(root, "ecn");
        Json attributes = ecn ? *ecn : Json::object();
        Json byRate; // null: absent
        if (attributes.is_object() && attributes.contains(EcnLinkRateTable::KEY))
        {
            byRate = attributes[EcnLinkRateTable::KEY];
            attributes.erase(EcnLinkRateTable::KEY);
        }
        eff["ecn"] = m_components.Read(ecn ? &attributes : nullptr, "/ecn", "ns3::RedEcnMarker",
                                       "ns3::EcnMarker", {}, m_config.m_ecn);
        OrderedJson table = OrderedJson::object();
        m_config.m_ecnByLinkRate = EcnLinkRateTable::Parse(
            m_reader, byRate.is_null() ? nullptr : &byRate,
            JsonSchemaReader::Child("/ecn", EcnLinkRateTable::KEY), m_config.m_ecn, topology,
            m_commandLine, table, m_config.m_warnings);
        if (!table.empty())
        {
            eff["ecn"][EcnLinkRateTable::KEY] = table;
        }
    }
    eff["cc"] = m_components.Read(JsonSchemaReader::Find(root, "cc"), "/cc", "ns3::RdmaDcqcn",
                                  "ns3::RdmaCongestionOps", {}, m_config.m_cc);
    // "cc_hosts": each host's own congestion control, into the node composition ("nodes"
    // completes it below).
    OrderedJson ccHosts;
    CongestionControlReader::ReadHosts(m_reader, JsonSchemaReader::Find(root, "cc_hosts"),
                                       "/cc_hosts", topology, hosts, m_components, m_config.m_nodes,
                                       ccHosts);
    if (!ccHosts.is_null())
    {
        eff["cc_hosts"] = ccHosts;
    }
    CongestionControlReader::Check(m_reader, *topo, eff["topology"], topology, m_config.m_cc,
                                   m_config.m_nodes);
    eff["loss_recovery"] =
        m_components.Read(JsonSchemaReader::Find(root, "loss_recovery"), "/loss_recovery",
                          "ns3::RdmaGoBackN", "ns3::RdmaLossRecovery", {}, m_config.m_lossRecovery);
    eff["qp"] =
        m_components.Read(JsonSchemaReader::Find(root, "qp"), "/qp", "ns3::RdmaQueuePair", "",
                          {{"Dscp", "each flow's priority p sets DSCP 8p+2"}}, m_config.m_qp);
    CheckLinkMtu();

    // Workloads, in the order their flows are numbered; they run after parsing.
    const Time stop = m_config.m_stopTime;
    std::vector<Ptr<WorkloadGenerator>> workloads;
    workloads.push_back(FlowListReader::ReadFlows(m_reader, JsonSchemaReader::Find(root, "flows"),
                                                  "/flows", hosts, topology, stop, eff["flows"]));
    workloads.push_back(FlowSetReader::Read(m_reader, JsonSchemaReader::Find(root, "flow_sets"),
                                            "/flow_sets", hosts, topology, stop, eff["flow_sets"]));
    workloads.push_back(FlowListReader::ReadFlowsFile(
        m_reader, JsonSchemaReader::Find(root, "flows_file"), "/flows_file", topology, stop,
        eff["flows_file"], m_config.m_warnings, m_config.m_notStartedFlows));
    if (Ptr<PoissonFlowGenerator> poisson =
            PoissonWorkloadReader::Read(m_reader, JsonSchemaReader::Find(root, "workload"),
                                        "/workload", topology, stop, eff["workload"]))
    {
        workloads.push_back(poisson);
    }
    // "collectives": ring collectives over Maestro or QPs (CollectiveWorkloadReader).
    OrderedJson collectives;
    m_config.m_collectives = CollectiveWorkloadReader::Read(
        m_reader, JsonSchemaReader::Find(root, "collectives"), "/collectives", topology,
        [this](const Json* s, const std::string& p, const std::string& t, const std::string& b,
               ExperimentComponent& c) { return m_components.Read(s, p, t, b, {}, c); },
        collectives);
    if (!collectives.is_null())
    {
        eff["collectives"] = collectives;
    }
    // "jobs": GOAL schedule files run on chosen hosts (JobReader, JobWorkload).
    OrderedJson jobs;
    m_config.m_jobs = JobReader::Read(m_reader, JsonSchemaReader::Find(root, "jobs"), "/jobs",
                                      topology, m_components, stop, jobs);
    if (!jobs.is_null())
    {
        eff["jobs"] = jobs;
    }
    // Their streams: the experiment's seed; the run ns-3's --RngRun gives (read, not set).
    for (const Ptr<WorkloadGenerator>& w : workloads)
    {
        w->SetAttribute("Seed", UintegerValue(m_config.m_seed));
        w->SetAttribute("Run", UintegerValue(RngSeedManager::GetRun()));
    }

    MonitorsReader::Read(m_reader, JsonSchemaReader::Find(root, "monitors"), "/monitors",
                         m_config.m_monitors, eff["monitors"]);
    PfcSafetyConfigReader::Read(
        m_reader, root,
        [this](const Json* s, const std::string& p, const std::string& t, ExperimentComponent& c)
        { m_config.m_effective[p.substr(1)] = m_components.Read(s, p, t, "", {}, c); },
        m_config.m_effective, m_config.m_pfcSafety, m_config.m_deadlockMonitor,
        m_config.m_pfcWatchdog);
    // "outputs": optional files in other tools' formats (HpccOutputWriter).
    OutputsReader::ReadOutputs(m_reader, JsonSchemaReader::Find(root, "outputs"),
                               m_config.m_outputs, eff["outputs"]);
    // "pcap": packet captures of chosen ports (PcapSelection).
    m_config.m_pcap = PcapSelection::Read(m_reader, JsonSchemaReader::Find(root, "pcap"), "/pcap",
                                          topology, eff["pcap"]);
    // "faults": random loss and timed faults (FaultPlan; applied by FaultInjector).
    m_config.m_faults = FaultPlan::Parse(m_reader, JsonSchemaReader::Find(root, "faults"),
                                         "/faults", topology, m_config.m_stopTime, eff["faults"]);
    // "nodes": per-host NIC profile, host model and NIC cache (NodeCompositionReader), into
    // the composition "cc_hosts" began.
    OrderedJson nodes;
    NodeCompositionReader::Read(
        m_reader, JsonSchemaReader::Find(root, "nodes"), "/nodes", topology,
        [this](const Json* s, const std::string& p, const std::string& t, const std::string& b,
               ExperimentComponent& c) { return m_components.Read(s, p, t, b, {}, c); },
        m_config.m_nodes, nodes);
    if (!nodes.is_null())
    {
        eff["nodes"] = nodes;
    }
    // Every fault must act: refuse those the composed hosts would ignore.
    m_config.m_faults.CheckNodes(m_reader, topology, m_config.m_nodes);
    // "monitors"/"hostping": Hostping's monitor on hosts, by default those with host models.
    m_config.m_monitors.hostping = HostpingMonitorReader::Read(
        m_reader, JsonSchemaReader::Find(root, "monitors"), topology, m_config.m_nodes,
        [this](const Json* s, const std::string& p, const std::string& t, ExperimentComponent& c)
        { return m_components.Read(s, p, t, "", {}, c); },
        eff["monitors"]["hostping"]);
    // DFabric racks of "nodes" and the collectives "over": "dfabric" between them.
    DfabricRackReader::Check(m_reader, topology, m_config.m_nodes, m_config.m_collectives);
    // "host_dma_flows": DMA streams inside the hosts' models (HostDmaFlowReader).
    OrderedJson dmaFlows;
    m_config.m_hostDmaFlows = HostDmaFlowReader::Read(
        m_reader, JsonSchemaReader::Find(root, "host_dma_flows"), "/host_dma_flows", topology,
        m_config.m_nodes,
        [this](const Json* s, const std::string& p, const std::string& t, const std::string& b,
               ExperimentComponent& c) { return m_components.Read(s, p, t, b, {}, c); },
        m_config.m_stopTime, dmaFlows);
    if (!dmaFlows.is_null())
    {
        eff["host_dma_flows"] = dmaFlows;
    }
    // "plots": figures ./roce-lab run makes after the run.
    OrderedJson plots;
    OutputsReader::ReadPlots(m_reader, JsonSchemaReader::Find(root, "plots"), plots);
    if (!plots.is_null())
    {
        eff["plots"] = plots;
    }
    // "non_default_attributes": what a run's config.json records about its objects
    // (ExperimentRunner); reloading that file ignores it, the sections above
    // configure the same objects.
    if (const Json* recorded = JsonSchemaReader::Find(root, "non_default_attributes"))
    {
        m_reader.RequireObject(*recorded, "/non_default_attributes");
    }
    return workloads;
}

/** "buffer" (with "config_db") and "buffer_switches" (SwitchBufferAssignment). */
void
ExperimentConfigParser::ParseBuffers(const Json& root)
{
    const Json* buffer = JsonSchemaReader::Find(root, "buffer");
    std::vector<std::string> unmodelled;
    const Json resolved = buffer ? SwitchBufferAssignment::ResolveConfigDb(
                                       m_reader, *buffer, "/buffer",
                                       "ns3::DynamicThresholdBufferManager", &unmodelled)
                                 : Json();
    m_config.m_effective["buffer"] = m_components.Read(buffer ? &resolved : nullptr, "/buffer",
                                                       "ns3::DynamicThresholdBufferManager",
                                                       "ns3::BufferManager", {}, m_config.m_buffer);
    auto parse = [this](const Json* section, const std::string& pointer,
                        const std::string& defaultType, ExperimentComponent& out,
                        OrderedJson& effective) {
        effective = m_components.Read(section, pointer, defaultType, "ns3::BufferManager", {}, out);
    };
    OrderedJson effective;
    SwitchBufferAssignment::Parse(m_reader, JsonSchemaReader::Find(root, "buffer_switches"),
                                  "/buffer_switches", m_config.m_topology,
                                  m_config.m_buffer.typeName, parse, m_config.m_bufferSwitches,
                                  m_config.m_bufferOfSwitch, effective, &unmodelled);
    if (!m_config.m_bufferSwitches.empty())
    {
        m_config.m_effective["buffer_switches"] = effective;
    }
    // One line for the run, however many sections and files.
    std::string line;
    for (const std::string& part : unmodelled)
    {
        line += (line.empty() ? "" : "; ") + part;
    }
    if (!line.empty())
    {
        m_config.m_warnings.push_back("SONiC config_db tables and fields not modelled (ignored): " +
                                      line);
    }
}

/**
 * The ports' Mtu (largest frame payload, i.e. IP packet) must carry the largest
 * packet a queue pair sends: IPv4 + UDP + BTH + RETH + ImmDt (+ the SRNIC
 * extension header when enabled) + qp Mtu payload bytes + ICRC. Nothing below
 * that limit would be enforced on the wire, so it is an error here.
 */
void
ExperimentConfigParser::CheckLinkMtu() const
{
    const OrderedJson& eff = m_config.m_effective;
    const uint64_t linkMtu = eff.at("link").at("Mtu").get<uint64_t>();
    const uint64_t qpMtu = eff.at("qp").at("Mtu").get<uint64_t>();
    uint64_t ext = 0;
    if (eff.at("qp").value("SrnicHeaderExtensions", false))
    {
        using Kind = RoceSrnicExtHeader::Kind;
        for (Kind k : {Kind::Send, Kind::Write, Kind::WriteReth, Kind::Echo, Kind::Read})
        {
            ext = std::max<uint64_t>(ext, RoceSrnicExtHeader::SizeOf(k));
        }
    }
    const uint64_t headers =
        Ipv4Header().GetSerializedSize() + UdpHeader().GetSerializedSize() +
        RoceBthHeader().GetSerializedSize() + RoceRethHeader().GetSerializedSize() +
        RoceImmDtHeader().GetSerializedSize() + ext + RoceIcrcTrailer().GetSerializedSize();
    if (linkMtu < qpMtu + headers)
    {
        m_reader.Fail("/link/Mtu",
                      "the ports' Mtu " + std::to_string(linkMtu) +
                          " B cannot carry the queue pairs' packets: /qp/Mtu " +
                          std::to_string(qpMtu) + " B of payload + " + std::to_string(headers) +
                          " B of IPv4, UDP, BTH, RETH, ImmDt" + (ext ? ", SRNIC extension" : "") +
                          " and ICRC need at least " + std::to_string(qpMtu + headers) +
                          " (allowed: [" + std::to_string(qpMtu + headers) +
                          ", 65535]; or lower /qp/Mtu, 256..4096)");
    }
}

} // namespace ns3
