/*
 * JSON experiment file: topology, component attributes, flows and monitors,
 * validated up front with errors that name the file, JSON pointer and range.
 */
#ifndef EXPERIMENT_CONFIG_H
#define EXPERIMENT_CONFIG_H

#include "experiment-config-error.h"
#include "experiment-topology.h"

#include "ns3/attribute.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/rdma-work-request.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

/** \ingroup dc-experiment One attribute value, checked against its TypeId. */
struct ExperimentAttribute
{
    std::string name;
    Ptr<AttributeValue> value;
};

/** \ingroup dc-experiment A pluggable component: its TypeId name and attributes. */
struct ExperimentComponent
{
    std::string typeName;                        //!< "" when the section has no "type"
    std::vector<ExperimentAttribute> attributes; //!< in file order (sorted by name)
    std::string pointer;                         //!< JSON pointer of the section
};

/**
 * \ingroup dc-experiment
 * One flow: \p bytes move from host src to host dst. For WRITE and SEND the
 * work request is posted at src; for READ it is posted at dst (dst reads src's
 * memory).
 */
struct ExperimentFlow
{
    uint32_t id;
    uint32_t src;
    uint32_t dst;
    uint64_t bytes;
    Time start;
    uint8_t priority; //!< 0..7; the QPs use DSCP priority*8+2
    RdmaVerb verb;
    std::string origin; //!< JSON pointer of the flow or flow set that made it
};

/** \ingroup dc-experiment Sampling monitors; a zero interval disables one. */
struct ExperimentMonitors
{
    Time queueInterval{0};
    Time rateInterval{0};
    Time bufferInterval{0};     //!< buffers.csv: occupancy and watermarks
    bool clearWatermarks{true}; //!< "periodic" (cleared after each sample) or "persistent"
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
    /** Highest flow size accepted, bytes (keeps PSN use far below the 24-bit window). */
    static constexpr uint64_t MAX_FLOW_BYTES = 1ULL << 30;
    /** First ns-3 random stream of the "workload" generator (3 streams; switches use 0..). */
    static constexpr int64_t WORKLOAD_STREAM = 1LL << 40;

    /** Load and validate \p path. \throw ExperimentConfigError */
    static ExperimentConfig LoadFile(const std::string& path);
    /**
     * Validate the JSON text \p text; \p name is the file name used in errors.
     * \throw ExperimentConfigError
     */
    static ExperimentConfig LoadString(const std::string& text, const std::string& name);

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
    /** \return the ECN marker; typeName "none" disables marking. */
    const ExperimentComponent& GetEcn() const;
    const ExperimentComponent& GetCongestionControl() const;
    /**
     * \return the congestion control of host \p host: its "cc_hosts" entry (a NIC
     * generation mix, e.g. Gen1 and Gen2/Gen3 NICs in one region) or "cc".
     */
    const ExperimentComponent& GetCongestionControl(uint32_t host) const;
    const ExperimentComponent& GetLossRecovery() const;
    const ExperimentComponent& GetQueuePair() const;
    /** \return every flow, explicit ones first, then those of the flow sets; id = index. */
    const std::vector<ExperimentFlow>& GetFlows() const;
    const ExperimentMonitors& GetMonitors() const;

    /**
     * \return the configuration with every default filled in, including the
     * values of all settable attributes of each component; loading it again
     * gives the same experiment.
     */
    const nlohmann::ordered_json& EffectiveJson() const;

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
    ExperimentComponent m_ecn;
    ExperimentComponent m_cc;
    std::vector<ExperimentComponent> m_ccHosts; //!< "cc_hosts" entries
    std::vector<int32_t> m_ccOfHost;            //!< entry of each host, -1: "cc"
    ExperimentComponent m_lossRecovery;
    ExperimentComponent m_qp;
    std::vector<ExperimentFlow> m_flows;
    ExperimentMonitors m_monitors;
    nlohmann::ordered_json m_effective;
};

} // namespace ns3

#endif /* EXPERIMENT_CONFIG_H */
