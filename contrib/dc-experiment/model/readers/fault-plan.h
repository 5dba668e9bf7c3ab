/*
 * The "faults" section of an experiment file: random loss per link and traffic
 * class, and timed events (link down/up, rate degradation, a NIC that stops).
 */
#ifndef FAULT_PLAN_H
#define FAULT_PLAN_H

#include "node-composition.h"

#include "ns3/data-rate.h"
#include "ns3/experiment-topology.h"
#include "ns3/json-schema-reader.h"
#include "ns3/nstime.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Random loss on a set of links, in a set of traffic classes (both directions of
 * each link, each direction with its own state and random stream). Either
 * Bernoulli (every frame lost with probability \p rate) or the Gilbert-Elliott
 * two-state burst model: per frame of the selected classes, a good state moves to
 * bad with probability \p p, bad to good with \p r, and a frame is lost with
 * probability \p lossGood or \p lossBad in the state it finds.
 */
struct FaultLoss
{
    std::vector<uint32_t> links; //!< indices into ExperimentTopology::links
    uint8_t classMask{0xff};     //!< bit c: class (802.1p PCP) c is subject to loss
    bool gilbertElliott{false};
    double rate{0};      //!< Bernoulli loss probability
    double p{0};         //!< Gilbert-Elliott: P(good -> bad) per frame
    double r{1};         //!< Gilbert-Elliott: P(bad -> good) per frame
    double lossGood{0};  //!< Gilbert-Elliott: loss probability in the good state
    double lossBad{1};   //!< Gilbert-Elliott: loss probability in the bad state
    std::string pointer; //!< JSON pointer of the entry
};

/** \ingroup dc-experiment What a timed fault does. */
enum class FaultKind : uint8_t
{
    LinkDown, //!< both ends of a link go down (a cable cut)
    LinkUp,   //!< both ends come back
    LinkRate, //!< both ends of a link run at a new rate
    HostRate, //!< the host's only link (NIC <-> ToR) runs at a new rate
    PcieRate, //!< the host NIC's PCIe writes to memory run at a new rate (RdmaPcieThrottle)
    NicDown,  //!< the host's NIC stops responding: drops all it would send or receive
    NicUp,    //!< the NIC responds again
};

/** \ingroup dc-experiment One timed fault. */
struct FaultEvent
{
    Time time;
    FaultKind kind;
    uint32_t link{0};   //!< LinkDown, LinkUp, LinkRate: index into the topology's links
    uint32_t host{0};   //!< HostRate, PcieRate, NicDown, NicUp: host index
    DataRate rate;      //!< LinkRate, HostRate, PcieRate
    bool reroute{true}; //!< LinkDown: the ends prune the port from their ECMP groups
    /**
     * LinkDown (with reroute), LinkUp: the delay after which every switch's routes are
     * recomputed without (with) the link, as the routing protocol withdraws (advertises
     * again) the prefixes through it: FaultPlan::DEFAULT_CONVERGENCE unless given
     */
    Time convergence;
    std::string pointer;
};

/**
 * \ingroup dc-experiment
 * The validated "faults" section (doc/dc-experiment.md, "Faults").
 *
 * Links are named by their two end nodes, ["s0", "s4"] (every link between the two
 * if there are parallel ones); a loss entry's "links" is "fabric" (every
 * switch-switch link), "hosts" (every host link), "all", an array of such pairs, or
 * {"roles": [roleA, roleB]} (the switch-switch links between a switch of role A and
 * one of role B).
 */
struct FaultPlan
{
    std::vector<FaultLoss> losses;
    std::vector<FaultEvent> events; //!< in file order

    /**
     * The default routing convergence delay of link_down and link_up ("convergence"):
     * 1 s. RFC 7938 (BGP in large-scale data centers) §7: with eBGP sessions torn down
     * on the "link down" event (fast fallover) and timely RIB and FIB updates,
     * convergence is sub-second; the default takes that bound. A tuned fabric
     * converges faster: give the event its own "convergence".
     */
    static constexpr const char* DEFAULT_CONVERGENCE = "1s";

    /** \return true when the section gives no fault at all. */
    bool IsEmpty() const { return losses.empty() && events.empty(); }

    /** \return the name used for link \p link in faults.csv: "a<->b". */
    static std::string LinkName(const ExperimentTopology& topology, uint32_t link);
    /** \return the name of \p kind in the file and in faults.csv ("link_down", ...). */
    static std::string KindName(FaultKind kind);

    /**
     * Read the "faults" section \p section (nullptr: none) found at \p pointer.
     * \param stopTime events must happen before it
     * \param[out] effective the section with every default filled in
     * \throw ExperimentConfigError
     */
    static FaultPlan Parse(const JsonSchemaReader& reader, const nlohmann::json* section,
                           const std::string& pointer, const ExperimentTopology& topology,
                           Time stopTime, nlohmann::ordered_json& effective);

    /**
     * Refuse the faults that could not act on the hosts as "nodes" composes them: a
     * pcie_rate on a host with a host model (its DMA goes through the model, not the
     * NIC's receive-DMA throttle).
     * \throw ExperimentConfigError at /faults/events/i/host
     */
    void CheckNodes(const JsonSchemaReader& reader, const ExperimentTopology& topology,
                    const NodeComposition& nodes) const;

  private:
    /**
     * Refuse a link_up or nic_up of what is not down at its time, and a link_down or
     * nic_down of what is already down: it would change nothing.
     * \throw ExperimentConfigError at /faults/events/i/kind
     */
    static void CheckEventSequence(const JsonSchemaReader& reader,
                                   const ExperimentTopology& topology,
                                   const std::vector<FaultEvent>& events);
};

} // namespace ns3

#endif /* FAULT_PLAN_H */
