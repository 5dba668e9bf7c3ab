// Star and leaf-spine fabrics for RDMA component and scenario tests: thin shape
// functions over RdmaLeafSpineFabric (contrib/rdma/helper), and switch counters.
#ifndef RDMA_TEST_FABRIC_H
#define RDMA_TEST_FABRIC_H

#include "ns3/data-rate.h"
#include "ns3/dcb-helper.h"
#include "ns3/dcb-switch.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-leaf-spine-fabric.h"

#include <string>

namespace ns3
{

/** \p nHosts hosts on one switch, links of \p rate and \p delay, built with \p dcb and \p rdma. */
inline RdmaLeafSpineFabric
BuildStar(uint32_t nHosts, const std::string& rate, Time delay, const DcbHelper& dcb,
          const RdmaHelper& rdma)
{
    RdmaLeafSpineFabric f = RdmaLeafSpineFabric::Star(nHosts, DataRate(rate), delay);
    f.Build(dcb, rdma);
    return f;
}

/** Two-tier leaf-spine, every leaf linked to every spine, all links of \p rate and \p delay. */
inline RdmaLeafSpineFabric
BuildLeafSpine(uint32_t leaves, uint32_t spines, uint32_t hostsPerLeaf, const std::string& rate,
               Time delay, const DcbHelper& dcb, const RdmaHelper& rdma)
{
    RdmaLeafSpineFabric f =
        RdmaLeafSpineFabric::Uniform(leaves, spines, hostsPerLeaf, DataRate(rate), delay);
    f.Build(dcb, rdma);
    return f;
}

/** Sum of XOFF frames sent by all switch ports of \p f in class \p cls. */
inline uint64_t
SwitchXoffSent(const RdmaLeafSpineFabric& f, uint8_t cls)
{
    uint64_t n = 0;
    for (uint32_t s = 0; s < f.GetSwitches().GetN(); ++s)
    {
        Ptr<DcbSwitch> sw = f.GetSwitch(s);
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            n += sw->GetPort(p)->GetCounters(cls).pfcXoffSent;
        }
    }
    return n;
}

/** Sum of drops of every reason at every switch of \p f. */
inline uint64_t
SwitchDrops(const RdmaLeafSpineFabric& f)
{
    uint64_t n = 0;
    for (uint32_t s = 0; s < f.GetSwitches().GetN(); ++s)
    {
        for (uint8_t r = 0; r < DcbSwitch::N_DROP_REASONS; ++r)
        {
            n += f.GetSwitch(s)->GetDrops(static_cast<DcbSwitch::DropReason>(r));
        }
    }
    return n;
}

} // namespace ns3

#endif /* RDMA_TEST_FABRIC_H */
