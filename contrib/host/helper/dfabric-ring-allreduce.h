/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DFABRIC_RING_ALLREDUCE_H
#define DFABRIC_RING_ALLREDUCE_H

#include "dfabric-rack-helper.h"

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup host
 * Ring allreduce across DFabric racks at the host-DMA level (DFabric section 2.2, Fig. 2).
 *
 * Ranks are the compute nodes, rack by rack (rack 0's cn0..cnH-1, then rack 1's, ...), in one
 * ring. An allreduce of S bytes over P ranks takes 2(P-1) synchronous steps; in each step every
 * rank passes S/P bytes to the next rank, and the step ends when every hop has. A hop inside a
 * rack passes a reference over the CXL fabric and moves no data (DFabric section 4.3). A hop
 * between racks goes through both NIC pools: the sending rack's pool reads the chunk from the
 * sender's buffer (DMA_READ) while the receiving rack's pool writes it into the receiver's
 * buffer (DMA_WRITE); buffers lie in the memory pool when the rack has one (interleaved over
 * its devices), else in the node's local memory. The fabric between the racks is assumed
 * uncongested and the two halves of a hop run concurrently (cut-through NICs); the hop ends
 * when both have. Reduction compute and CXL.mem loads by the CPUs are not modelled here; a
 * step gate (SetStepGate, e.g. CxlReduceGate) adds them: then a hop counts as done only once
 * the receiving rank's gate calls done (inside a rack at once, between racks after both halves).
 */
class DfabricRingAllreduce : public Object
{
  public:
    /// Trace signature: step index (0-based), time the step took.
    typedef void (*StepTracedCallback)(uint32_t, Time);

    static TypeId GetTypeId();
    DfabricRingAllreduce();

    void AddRack(const DfabricRack& rack);
    /// Start an allreduce of bytes; done gets its duration.
    void Start(uint64_t bytes, Callback<void, Time> done);
    /// \return the number of ranks (compute nodes over all racks).
    uint32_t GetRanks() const;
    /// Step gate: (step, receiving rank, bytes, done); a hop ends when its gate calls done.
    typedef Callback<void, uint32_t, uint32_t, uint64_t, Callback<void>> StepGate;
    /// Hold every hop until gate(step, receiving rank, bytes, done) calls done (null: none).
    void SetStepGate(StepGate gate);

  protected:
    void DoDispose() override;

  private:
    void StartStep();
    void OnHopHalfDone();
    static void OnInterRackHalf(DfabricRingAllreduce* ring, uint32_t toRack);

    std::vector<DfabricRack> m_racks;
    uint64_t m_chunk;
    uint32_t m_step;
    uint32_t m_steps;
    uint32_t m_outstanding;
    Time m_start;
    Time m_stepStart;
    Callback<void, Time> m_done;
    StepGate m_gate;
    std::vector<uint32_t> m_halves; //!< per receiving rack: halves of its inter-rack hop left
    TracedCallback<uint32_t, Time> m_stepComplete;
};

} // namespace ns3

#endif /* DFABRIC_RING_ALLREDUCE_H */
