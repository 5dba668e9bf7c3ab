/*
 * JSON experiment file: topology, component attributes, flows and monitors,
 * validated up front with errors that name the file, JSON pointer and range.
 */
#ifndef EXPERIMENT_CONFIG_H
#define EXPERIMENT_CONFIG_H

#include "command-line-attributes.h"
#include "experiment-component.h"
#include "experiment-config-error.h"

#include "ns3/attribute.h"
#include "ns3/data-rate.h"
#include "ns3/ecn-link-rate-table.h"
#include "ns3/experiment-collective.h"
#include "ns3/experiment-host-dma-flow.h"
#include "ns3/experiment-hostping.h"
#include "ns3/experiment-job.h"
#include "ns3/experiment-topology.h"
#include "ns3/fault-plan.h"
#include "ns3/node-composition.h"
#include "ns3/nstime.h"
#include "ns3/pcap-selection.h"
#include "ns3/pfc-safety-config-reader.h"
#include "ns3/protocol-numbers.h"
#include "ns3/rdma-work-request.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * One flow: \p bytes move from host src to host dst over one QP. For WRITE and
 * SEND the work requests are posted at src; for READ at dst (dst reads src's
 * memory). Without messageBytes the flow is one message of \p bytes; with it the
 * flow is a message stream: messages of messageBytes (the last one may be
 * shorter) of which at most \p outstanding are posted and not yet completed,
 * a new one posted as each completes, as a benchmark such as ndperf or ib_write_bw
 * with a send-queue depth does.
 */
struct ExperimentFlow
{
    uint32_t id;
    uint32_t src;
    uint32_t dst;
    uint64_t bytes; //!< the flow's total bytes
    Time start;
    uint8_t priority; //!< 0..7; the QPs use DSCP priority*8+2
    RdmaVerb verb;
    std::string origin;       //!< JSON pointer of the flow or flow set that made it
    uint64_t messageBytes{0}; //!< message size of a stream; 0: one message of bytes
    uint32_t outstanding{1};  //!< stream: messages posted and not completed, at most
    uint16_t dport{
        ROCE_V2_UDP_PORT}; //!< UDP dport in HPCC-format outputs: an HPCC flow file's column

    /** \return true if the flow is a message stream (messageBytes set). */
    bool IsStream() const { return messageBytes != 0; }

    /** \return the number of messages (1 unless a stream). */
    uint64_t GetMessageCount() const
    {
        return IsStream() ? (bytes + messageBytes - 1) / messageBytes : 1;
    }

    /** \return the size of message \p index (0-based). */
    uint64_t GetMessageBytes(uint64_t index) const
    {
        return IsStream() ? std::min(messageBytes, bytes - index * messageBytes) : bytes;
    }
};

/** \ingroup dc-experiment Sampling monitors; a zero interval disables one. */
struct ExperimentMonitors
{
    Time queueInterval{0};
    Time queueStart{0}; //!< queues.csv sampled from here ("queue_start")
    Time queueEnd{0};   //!< ... to here ("queue_end"); 0: to the end of the run
    Time rateInterval{0};
    Time bufferInterval{0};     //!< buffers.csv: occupancy and watermarks
    bool clearWatermarks{true}; //!< "periodic" (cleared after each sample) or "persistent"
    /** "hostping": Hostping's hardware monitor on chosen hosts. */
    ExperimentHostping hostping;
};

/**
 * \ingroup dc-experiment
 * Optional output files ("outputs"), written beside the standard ones.
 */
struct ExperimentOutputs
{
    bool hpcc{false}; //!< fct.txt and pfc.txt in the HPCC simulator's columns (HpccOutputWriter)
    bool pfcEvents{false}; //!< pfc_events.csv: every PFC frame sent (PfcEventWriter)
};

/**
 * \ingroup dc-experiment
 * A validated experiment. The schema is documented in doc/dc-experiment.md.
 *
 * Every error is found at load time and reported as an ExperimentConfigError;
 * nothing is half-applied. Attribute values are checked against the TypeIds'
 * checkers, so the objects built from them will accept them.
 */
class ExperimentConfig
{
  public:
    /**
     * Highest flow size and message size accepted, bytes; also the cap on a stream's
     * outstanding x message bytes (keeps the PSNs in flight far below the 24-bit window).
     */
    static constexpr uint64_t MAX_FLOW_BYTES = 1ULL << 30;
    /**
     * Highest total of a message stream, bytes (2^50: 1 PiB, beyond any run; a stream
     * meant to outlast the run sets a large total and stops at stop_time).
     */
    static constexpr uint64_t MAX_STREAM_BYTES = 1ULL << 50;
    /** Highest "outstanding" of a stream (a send queue deeper than any RNIC's). */
    static constexpr uint64_t MAX_OUTSTANDING = 65536;
    /**
     * The top-level key naming the directory the file's relative paths are relative to
     * (default: the file's own). ./roce-lab writes it into input.json, the edited copy of
     * an experiment written elsewhere, so that every path field (JsonSchemaReader::
     * ResolvePath) names the same file as in the original.
     */
    static constexpr const char* PATHS_RELATIVE_TO = "paths_relative_to";

    /**
     * Check a message stream: \p messageBytes in [1, MAX_FLOW_BYTES] and at most \p
     * bytes, \p bytes at most MAX_STREAM_BYTES, \p outstanding in [1, MAX_OUTSTANDING]
     * and outstanding x messageBytes at most MAX_FLOW_BYTES.
     * \return "" if valid, else the reason (for an error naming the field)
     * \param field set to the offending field: "bytes", "message_bytes" or "outstanding"
     */
    static std::string CheckStream(uint64_t bytes, uint64_t messageBytes, uint64_t outstanding,
                                   std::string& field);
    /**
     * First random stream of the workload generators (WorkloadGenerator::AssignStreams,
     * at the experiment's seed; the "workload" uses 3), far from the switches' (0..).
     */
    static constexpr int64_t WORKLOAD_STREAM = 1LL << 40;
    /** First ns-3 random stream of the fault injector's loss models (2 per lossy link). */
    static constexpr int64_t FAULT_STREAM = 1LL << 41;
    /** First random stream of the NICs' entropy ("load_balancing" "entropy"), 1 per NIC. */
    static constexpr int64_t ENTROPY_STREAM = 1LL << 42;

    /**
     * Load and validate \p path: a JSON experiment, or an HPCC-simulator configuration file
     * (recognized by its content, HpccConfigTranslator), translated to JSON first.
     * An attribute that \p commandLine sets (--ns3::Type::Attribute=value, already
     * applied by ns3::CommandLine) keeps that value where the file sets it too; a warning
     * names each such override.
     * \throw ExperimentConfigError
     */
    static ExperimentConfig LoadFile(const std::string& path,
                                     const CommandLineAttributes& commandLine = {});
    /**
     * Validate the JSON text \p text; \p name is the file name used in errors.
     * \throw ExperimentConfigError
     */
    static ExperimentConfig LoadString(const std::string& text, const std::string& name,
                                       const CommandLineAttributes& commandLine = {});

    /** \return the file name given at load time. */
    const std::string& GetSource() const;
    uint32_t GetSeed() const;
    Time GetStopTime() const;
    bool GetProgress() const;
    /** \return the ns-3 event scheduler's TypeId name ("scheduler"). */
    const std::string& GetScheduler() const;
    const ExperimentTopology& GetTopology() const;
    const ExperimentComponent& GetNic() const;
    const ExperimentComponent& GetSwitch() const;
    const ExperimentComponent& GetLink() const;
    const ExperimentComponent& GetBuffer() const;
    /**
     * \return the buffer of switch \p sw (index into the topology's switches):
     * its "buffer_switches" entry by name, else by role, else "buffer".
     */
    const ExperimentComponent& GetBuffer(uint32_t sw) const;
    /**
     * \return the load balancer of switch \p sw (index into the topology's switches): its
     * "load_balancing" entry by name, else by role; nullptr for ECMP (no entry, or no section)
     */
    const ExperimentComponent* GetLoadBalancer(uint32_t sw) const;
    /**
     * \return the NIC entropy of host \p host: its "load_balancing" entry with "hosts" and
     * "entropy"; nullptr for the QP's fixed source port (no such entry)
     */
    const ExperimentComponent* GetPathEntropy(uint32_t host) const;
    /** \return true if a switch or NIC balances load ("load_balancing" is given). */
    bool HasLoadBalancing() const;
    /** \return the ECN marker; typeName "none" disables marking. */
    const ExperimentComponent& GetEcn() const;
    /**
     * \return the ECN thresholds per link rate ("/ecn/by_link_rate", EcnLinkRateTable), in
     * rate order; a switch port whose rate is not listed keeps GetEcn()'s.
     */
    const std::vector<EcnLinkRateEntry>& GetEcnByLinkRate() const;
    const ExperimentComponent& GetCongestionControl() const;
    /**
     * \return the congestion control of host \p host: its own in the node composition
     * (NodeComposition::GetCongestionControl: its "cc_hosts" entry, a NIC generation mix,
     * e.g. Gen1 and Gen2/Gen3 NICs in one region; or its "nodes" NIC profile's) or "cc".
     */
    const ExperimentComponent& GetCongestionControl(uint32_t host) const;
    const ExperimentComponent& GetLossRecovery() const;
    const ExperimentComponent& GetQueuePair() const;
    /** \return every flow, explicit ones first, then those of the flow sets; id = index. */
    const std::vector<ExperimentFlow>& GetFlows() const;
    const ExperimentMonitors& GetMonitors() const;
    const ExperimentOutputs& GetOutputs() const;
    /** \return which PFC safety parts are on (deadlock monitor, watchdog). */
    const ExperimentPfcSafety& GetPfcSafety() const;
    /** \return the deadlock monitor's attributes ("monitors"/"deadlock"). */
    const ExperimentComponent& GetDeadlockMonitor() const;
    /** \return the PFC watchdog's attributes ("pfc_watchdog"). */
    const ExperimentComponent& GetPfcWatchdog() const;
    /** \return the "faults" section (empty when not given). */
    const FaultPlan& GetFaults() const;
    /** \return the "collectives" section (empty when not given). */
    const std::vector<ExperimentCollective>& GetCollectives() const;
    /** \return the "jobs" section: GOAL schedules on chosen hosts (empty when not given). */
    const std::vector<ExperimentJob>& GetJobs() const;
    /** \return the "host_dma_flows" section, one entry per stream (empty when not given). */
    const std::vector<ExperimentHostDmaFlow>& GetHostDmaFlows() const;
    /**
     * \return each host's composition: "cc_hosts" and the "nodes" section (empty when
     * neither is given)
     */
    const NodeComposition& GetNodes() const;
    /** \return the ports that write pcap files ("pcap"; empty when absent). */
    const PcapSelection& GetPcap() const;
    /**
     * \return the flows of "flows_file" that start at or after the stop time and do not
     * start (with its "late_flows": "not_started"; GetFlows() does not hold them)
     */
    const std::vector<ExperimentFlow>& GetNotStartedFlows() const;

    /**
     * \return the configuration with every default filled in, including the
     * values of all settable attributes of each component; loading it again
     * gives the same experiment.
     */
    const nlohmann::ordered_json& EffectiveJson() const;

    /**
     * \return warnings for the user, one line each: what the files read do not
     * model (e.g. one line naming the SONiC config_db tables and fields ignored).
     */
    const std::vector<std::string>& GetWarnings() const;

  private:
    friend class ExperimentConfigParser;
    ExperimentConfig() = default;

    std::string m_source;
    uint32_t m_seed{1};
    Time m_stopTime;
    bool m_progress{true};
    std::string m_scheduler;
    ExperimentTopology m_topology;
    ExperimentComponent m_nic;
    ExperimentComponent m_switch;
    ExperimentComponent m_link;
    ExperimentComponent m_buffer;
    std::vector<ExperimentComponent> m_bufferSwitches; //!< "buffer_switches" entries
    std::vector<int32_t> m_bufferOfSwitch;             //!< entry of each switch, -1: "buffer"
    std::vector<ExperimentComponent> m_loadBalancers;  //!< "load_balancing" entries
    std::vector<int32_t> m_loadBalancerOfSwitch;       //!< entry of each switch, -1: ECMP
    std::vector<ExperimentComponent> m_pathEntropies;  //!< "load_balancing" "entropy" entries
    std::vector<int32_t> m_pathEntropyOfHost;          //!< entry of each host, -1: fixed port
    ExperimentComponent m_ecn;
    std::vector<EcnLinkRateEntry> m_ecnByLinkRate; //!< "/ecn/by_link_rate"
    ExperimentComponent m_cc;
    ExperimentComponent m_lossRecovery;
    ExperimentComponent m_qp;
    std::vector<ExperimentFlow> m_flows;
    std::vector<ExperimentFlow> m_notStartedFlows; //!< "flows_file" flows after stop_time
    ExperimentMonitors m_monitors;
    ExperimentOutputs m_outputs;
    ExperimentPfcSafety m_pfcSafety;
    ExperimentComponent m_deadlockMonitor;
    ExperimentComponent m_pfcWatchdog;
    FaultPlan m_faults;
    NodeComposition m_nodes;                         //!< "cc_hosts" and "nodes"
    std::vector<ExperimentCollective> m_collectives; //!< "collectives"
    std::vector<ExperimentJob> m_jobs;               //!< "jobs"
    PcapSelection m_pcap;
    nlohmann::ordered_json m_effective;
    std::vector<std::string> m_warnings;
    /** "host_dma_flows", one entry per stream */
    std::vector<ExperimentHostDmaFlow> m_hostDmaFlows;
};

} // namespace ns3

#endif /* EXPERIMENT_CONFIG_H */
