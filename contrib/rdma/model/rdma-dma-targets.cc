#include "rdma-dma-targets.h"

namespace ns3
{

RdmaDmaTargets::RdmaDmaTargets(uint32_t firstQpn)
    : m_firstQpn(firstQpn)
{
}

void
RdmaDmaTargets::SetDefault(uint32_t target)
{
    m_default = target;
}

void
RdmaDmaTargets::Set(uint32_t qpn, uint32_t target)
{
    const uint32_t i = qpn - m_firstQpn;
    if (i >= m_perQp.size())
    {
        m_perQp.resize(i + 1, HostModel::NONE);
    }
    m_perQp[i] = target;
}

uint32_t
RdmaDmaTargets::Get(uint32_t qpn) const
{
    const uint32_t i = qpn - m_firstQpn;
    return i < m_perQp.size() && m_perQp[i] != HostModel::NONE ? m_perQp[i] : m_default;
}

} // namespace ns3
