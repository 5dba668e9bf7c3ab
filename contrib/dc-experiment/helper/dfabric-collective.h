/*
 * A collective "over": "dfabric": DfabricRingAllreduce between DFabric racks, iteration by
 * iteration, with MaestroCollective's traces.
 */
#ifndef DFABRIC_COLLECTIVE_H
#define DFABRIC_COLLECTIVE_H

#include "ns3/cxl-reduce-gate.h"
#include "ns3/dfabric-ring-allreduce.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Runs a ring allreduce over DFabric racks (contrib/host DfabricRingAllreduce: synchronous
 * steps, a hop inside a rack passes a reference, a hop between racks is a DMA read by the
 * sending rack's NIC pool and a DMA write by the receiving one's) for Iterations
 * iterations, each after a ComputeTime phase, and reports them with the trace signatures
 * of MaestroCollective (StepDone, IterationDone), so that CollectiveWorkload writes them
 * into collectives.csv and summary.json like the other rings.
 */
class DfabricCollective : public Object
{
  public:
    static TypeId GetTypeId();
    DfabricCollective();

    /** The ring's racks (DfabricRackSet::GetRing), at least two ranks in all. */
    void SetRacks(const std::vector<DfabricRack>& racks);
    /** Start the first iteration's compute phase now. */
    void Start();

    uint64_t GetModelBytes() const;
    /** \return the bytes each rank passes per step: ceil(ModelSize / ranks). */
    uint64_t GetSegmentBytes() const;
    /** \return the communication time of each finished iteration. */
    const std::vector<Time>& GetCommunicationTimes() const;
    /**
     * \return the allreduce's time with every hop at a compute node's CXL link rate (the
     *         "optimal" of DFabric Fig. 2): 2 (P - 1) (ModelSize / P) bytes at that rate,
     *         in microseconds
     */
    double GetOptimalMicros() const;

  protected:
    void DoDispose() override;

  private:
    void StartCommunication();
    void OnStep(uint32_t step, Time took);
    void OnDone(Time took);

    Ptr<DfabricRingAllreduce> m_ring;
    Ptr<CxlReduceGate> m_gate; //!< CPU loads of reduced segments, when the racks have CPUs
    std::vector<DfabricRack> m_racks;
    uint64_t m_modelBytes;
    uint32_t m_iterations;
    Time m_computeTime;
    uint32_t m_iteration{0};
    Time m_commStart;
    std::vector<Time> m_times;
    TracedCallback<uint32_t, Time> m_iterationDoneTrace;
    TracedCallback<uint32_t, uint32_t, Time> m_stepDoneTrace;
};

} // namespace ns3

#endif /* DFABRIC_COLLECTIVE_H */
