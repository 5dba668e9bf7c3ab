/*
 * Applies an experiment's "faults" section to the built network and records
 * what it did (for FaultLogWriter: faults.csv).
 */
#ifndef FAULT_INJECTOR_H
#define FAULT_INJECTOR_H

#include "experiment-composer.h"

#include "ns3/class-loss-error-model.h"
#include "ns3/dcb-net-device.h"
#include "ns3/dcb-routing-helper.h"
#include "ns3/fault-plan.h"
#include "ns3/ipv4-address.h"
#include "ns3/rdma-pcie-throttle.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Installs the random-loss models of a FaultPlan on the links' receiving devices
 * and schedules its timed faults:
 *
 * - link_down / link_up: both ends of the cable go down (DcbNetDevice::SetLinkUp),
 *   dropping what is queued, sent or received. Routing reacts in two steps. At once, a
 *   switch at an end of the link detects the loss of signal and removes that port from
 *   each of its ECMP groups that keeps another port (a group left with no other port
 *   keeps it: those packets are dropped at the dead port); at link_up the ports return
 *   to those groups. Remote switches learn of it only through the routing protocol:
 *   the event's convergence delay later (FaultEvent::convergence), every switch's
 *   routes are recomputed from the topology without the links then down
 *   (DcbRoutingHelper::UpdateRoutes), as eBGP in a Clos fabric (RFC 7938) withdraws the
 *   prefixes reached through the failed link; until then a remote switch keeps hashing
 *   flows onto paths through it, whose packets are dropped. After link_up, the same
 *   recomputation with the link puts the routes back. "reroute": false: no switch
 *   reacts at all. Recovery of what was lost is the transport's.
 * - link_rate: both ends run at the new rate from the next frame on.
 * - host_rate: the same on a host's only link (NIC <-> ToR).
 * - pcie_rate: the host NIC's PCIe writes of received payload to memory run at the new
 *   rate (RdmaPcieThrottle on its receive pipeline, activated at the fault): with more
 *   arriving than that, the NIC's receive buffer fills and the NIC pauses the ToR with
 *   PFC (lossless classes) or drops (lossy ones). A host given an intra-host model
 *   ("nodes", contrib/host) is refused at load (/faults/events/i/host, FaultPlan::CheckNodes):
 *   its DMA goes through that model. The throttle joins any other receive-pipeline
 *   stage (a QPC cache, processing units) at the first fault.
 * - nic_down / nic_up: the host end of its link stops (the NIC neither sends nor
 *   receives; its transport keeps running, so its QPs retransmit into the void and
 *   may exceed their retry count); the switch end stays up and keeps forwarding to it.
 *
 * Each loss model draws from its own random stream (AssignStreams), so a run is
 * the same for the same seed. Every fault and what it did is recorded (GetRecords,
 * GetLossLinks) for FaultLogWriter, which writes faults.csv and the run README's lines.
 */
class FaultInjector : public ExperimentComposer
{
  public:
    /** A timed fault that happened, and what it did. */
    struct Record
    {
        Time time;
        std::string kind;
        std::string target;
        std::string detail;
    };

    /** One link's random loss ("faults" "loss" entry \p entry) and its frame counts. */
    struct LossLink
    {
        uint32_t entry; //!< index in FaultPlan::losses
        uint32_t link;  //!< topology link
        uint64_t framesSeen;
        uint64_t framesLost;
    };

    FaultInjector(const ExperimentConfig& config, const TopologyBuilder& topology);

    /** Refuses faults in a distributed run. */
    void CheckConfig(const ExperimentRunContext& context) override;
    /**
     * Install the loss models and schedule the timed faults (after Build), with the
     * streams from ExperimentConfig::FAULT_STREAM on.
     */
    void Compose(ExperimentRunContext& context) override;
    /**
     * Check that each pcie_rate fault can act on its host as composed ("nodes" attached
     * host models in Compose, which runs after this composer's).
     * \throw ExperimentConfigError at /faults/events/i/host
     */
    void Install(ExperimentRunContext& context) override;
    /** \return the number of streams used, starting at \p stream. */
    int64_t AssignStreams(int64_t stream);

    /** \return true when the experiment gives any fault. */
    bool IsActive() const;
    /** \return frames lost to random loss so far, over all links. */
    uint64_t GetLostFrames() const;

    /** \return each lossy link, in FaultPlan::losses order, with its frame counts so far. */
    std::vector<LossLink> GetLossLinks() const;
    /** \return the timed faults that happened, in the order they were applied. */
    const std::vector<Record>& GetRecords() const;

  private:
    struct LinkEnds
    {
        Ptr<DcbNetDevice> device[2];        //!< at topology link end a, b
        uint32_t port[2];                   //!< the device's index among its node's devices
        std::vector<Ipv4Address> pruned[2]; //!< addresses whose route lost the port at the end
        bool rerouted{false};               //!< down with "reroute": the routing learns of it
        bool withdrawn{false};              //!< the routing has withdrawn it (converged down)
    };

    struct LossModel
    {
        uint32_t entry;
        uint32_t link;
        Ptr<ClassLossErrorModel> model[2]; //!< receiving at end a, b
    };

    void Apply(uint32_t event);
    /**
     * Remove (\p down) the port of end \p end of \p link from the ECMP groups of the
     * switch there, or give it back to the groups it was removed from.
     * \return what changed ("" at a host end)
     */
    std::string UpdateRoutes(uint32_t link, uint32_t end, bool down);
    /**
     * The routing has converged after link_down or link_up \p event: recompute every
     * switch's routes without the links it has withdrawn, and record what changed.
     */
    void Converge(uint32_t event);
    /** \return what \p changes did, switch by switch ("s1 withdrew port 2 from 4 routes"). */
    std::string DescribeChanges(const std::vector<DcbRoutingHelper::RouteChange>& changes) const;
    uint32_t HostLink(uint32_t host) const;

    const ExperimentConfig& m_config;
    const TopologyBuilder& m_topology;
    std::vector<LinkEnds> m_ends; //!< per topology link
    std::vector<LossModel> m_losses;
    std::vector<Record> m_records;             //!< timed faults as they happened
    std::vector<Ptr<RdmaPcieThrottle>> m_pcie; //!< per host: null without a pcie_rate fault
    std::vector<bool> m_pcieInstalled;         //!< per host: its throttle acts (first fault)
};

} // namespace ns3

#endif /* FAULT_INJECTOR_H */
