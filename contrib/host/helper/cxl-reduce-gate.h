/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CXL_REDUCE_GATE_H
#define CXL_REDUCE_GATE_H

#include "ns3/callback.h"
#include "ns3/cpu-load-store-source.h"
#include "ns3/dfabric-rack-helper.h"
#include "ns3/object.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup host
 * The reduction of a ring allreduce as CPU loads (DFabric C2, section 4.6): a ring step's hop
 * into rank r counts as done only once rank r's CPU has loaded the received segment from
 * where it lies (the memory pool, or the node's local memory) with synchronous cache-line
 * loads. Plugs into a ring's SetStepGate (Gate has its signature). By default only the
 * reduce-scatter steps (the first P - 1 of 2(P - 1)) load: in the allgather the received
 * segment is the result, forwarded by reference or by the NIC pool's DMA, not by the CPU.
 */
class CxlReduceGate : public Object
{
  public:
    static TypeId GetTypeId();
    CxlReduceGate();

    /**
     * Add the next rank (ranks in ring order): its CPU's load source and the memories its
     * received segments lie in (resource indices of the source's graph); rank r's segment of
     * step s is loaded from memories[(s + r) mod memories.size()] (one segment per device, the
     * ranks' segments spread over the pool's devices).
     */
    void AddRank(Ptr<CpuLoadStoreSource> cpu, const std::vector<uint32_t>& memories);
    /**
     * Add every compute node of racks as a rank, in the ring's order: a node with a CPU
     * (DfabricRackHelper::SetCpus) loads from its rack's memory pool when the rack has one,
     * else from its own memory; a node without one (a rack built without CPUs) passes.
     * \return the ranks that load.
     */
    uint32_t AddRacks(const std::vector<DfabricRack>& racks);
    uint32_t GetRanks() const;
    /// A ring's step gate: rank loads bytes of step's segment, then done is called.
    void Gate(uint32_t step, uint32_t rank, uint64_t bytes, Callback<void> done);
    /// \return Gate as a callback (the object must outlive the ring's use of it).
    Callback<void, uint32_t, uint32_t, uint64_t, Callback<void>> GetCallback();

  protected:
    void DoDispose() override;

  private:
    struct Rank
    {
        Ptr<CpuLoadStoreSource> cpu; //!< null: the rank does not load
        std::vector<uint32_t> memories;
    };

    std::vector<Rank> m_ranks;
    bool m_allgatherLoads;
};

} // namespace ns3

#endif /* CXL_REDUCE_GATE_H */
