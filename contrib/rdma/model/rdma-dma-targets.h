/*
 * Which host-graph device a NIC's DMAs for a queue pair go to: one default (host memory) and
 * per-QP overrides (e.g. a GPU for GPUDirect RDMA). Shared by the transmit (payload reads)
 * and receive (payload writes) pipelines; a dense vector indexed by QPN, no map on the
 * per-packet path.
 */
#ifndef RDMA_DMA_TARGETS_H
#define RDMA_DMA_TARGETS_H

#include "ns3/host-model.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class RdmaDmaTargets
{
  public:
    /** \param firstQpn the lowest QPN the NIC hands out (index 0 of the table) */
    explicit RdmaDmaTargets(uint32_t firstQpn);

    /** The target of every queue pair without an override (a HostModel resource index). */
    void SetDefault(uint32_t target);
    /** Queue pair \p qpn's DMAs go to \p target instead of the default. */
    void Set(uint32_t qpn, uint32_t target);
    /** \return the target of queue pair \p qpn's DMAs */
    uint32_t Get(uint32_t qpn) const;

  private:
    uint32_t m_firstQpn;
    uint32_t m_default{HostModel::NONE};
    std::vector<uint32_t> m_perQp; //!< index = qpn - m_firstQpn; NONE = default
};

} // namespace ns3

#endif
