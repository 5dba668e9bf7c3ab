/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DFABRIC_RACK_HOP_H
#define DFABRIC_RACK_HOP_H

#include "dfabric-rack-helper.h"

#include "ns3/event-id.h"
#include "ns3/ring-hop.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup host
 * A ring hop between DFabric compute nodes at the host-DMA level (DFabric section 2.2,
 * Fig. 2), for RingAllreduce. Ranks are the compute nodes, rack by rack (rack 0's
 * cn0..cnH-1, then rack 1's, ...). A hop inside a rack passes a reference over the CXL
 * fabric and moves no data (DFabric section 4.3): it is placed at once. A hop between
 * racks goes through both NIC pools: the sending rack's pool reads the segment from the
 * sender's buffer (DMA_READ) while the receiving rack's pool writes it into the receiver's
 * buffer (DMA_WRITE); buffers lie in the memory pool when the rack has one (interleaved
 * over its devices), else in the node's local memory. The fabric between the racks is
 * assumed uncongested and the two halves run concurrently (cut-through NICs); the hop is
 * placed when both have completed. Reduction compute and CXL.mem loads by the CPUs are not
 * modelled (RingAllreduce's step gate is where they go).
 */
class DfabricRackHop : public RingHop
{
  public:
    static TypeId GetTypeId();

    /**
     * \return the N hops of a ring over the compute nodes of \p racks, rank by rank (hop i
     *         from rank i to rank i + 1 mod N). Aborts on a rack with no graph, NIC pool or
     *         node.
     */
    static std::vector<Ptr<RingHop>> MakeRing(const std::vector<DfabricRack>& racks);
    /**
     * \return the time of an allreduce of \p bytes over the ring of \p racks with every hop
     *         at a compute node's CXL link rate (the "optimal" of DFabric Fig. 2):
     *         2 (P - 1) (bytes / P) at the rate of rack 0's "cxl-cn0", in microseconds
     */
    static double GetOptimalMicros(const std::vector<DfabricRack>& racks, uint64_t bytes);
    /** \return a hop inside one rack (a reference, no data). */
    static Ptr<DfabricRackHop> InsideRack();
    /** \return a hop from the last node of \p from to the first node of \p to (two DMAs). */
    static Ptr<DfabricRackHop> Between(const DfabricRack& from, const DfabricRack& to);

  protected:
    void DoDispose() override;

  private:
    void DoSend(uint64_t bytes, uint64_t offset) override;
    void OnHalfDone();

    Ptr<NicPool> m_sendPool;             //!< null: a hop inside a rack
    Ptr<NicPool> m_receivePool;          //!< the receiving rack's pool
    std::vector<uint32_t> m_source;      //!< memories the sending pool reads
    std::vector<uint32_t> m_destination; //!< memories the receiving pool writes
    uint32_t m_outstanding{0};           //!< halves of the message in flight
    EventId m_reference;                 //!< a hop inside a rack: its placement
};

} // namespace ns3

#endif /* DFABRIC_RACK_HOP_H */
