/*
 * Oblivious packet spraying from the NIC: a fresh entropy value for every data packet.
 */
#ifndef OBLIVIOUS_PATH_ENTROPY_H
#define OBLIVIOUS_PATH_ENTROPY_H

#include "rdma-path-entropy.h"

namespace ns3
{

/**
 * \ingroup rdma
 * Oblivious packet spraying (OPS) at the sender: every data packet carries a value drawn
 * uniformly from the entropy range, from the NIC's own seeded stream, whatever came back
 * (REPS paper, arXiv 2407.21625, section 2.2 "OPS"; Ultra Ethernet 1.0's per-packet
 * entropy). No per-connection state.
 */
class ObliviousPathEntropy : public RdmaPathEntropy
{
  public:
    static TypeId GetTypeId();
    ObliviousPathEntropy();
    ~ObliviousPathEntropy() override;

  private:
    uint16_t DoSelect(uint32_t connection) override;
};

} // namespace ns3

#endif /* OBLIVIOUS_PATH_ENTROPY_H */
