// Small fabrics for RDMA component and scenario tests.
#ifndef RDMA_TEST_FABRIC_H
#define RDMA_TEST_FABRIC_H

#include "ns3/data-rate.h"
#include "ns3/dcb-helper.h"
#include "ns3/dcb-routing-helper.h"
#include "ns3/node-container.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-nic.h"

#include <string>
#include <vector>

namespace ns3
{

/** Hosts with RDMA NICs around one or more DcbSwitches. */
struct RdmaTestFabric
{
    NodeContainer hosts;
    NodeContainer switches;
    std::vector<Ptr<RdmaNic>> nics;

    static Ipv4Address HostAddress(uint32_t i)
    {
        return Ipv4Address(Ipv4Address("10.0.0.1").Get() + i);
    }

    /** \p nHosts hosts on one switch. */
    static RdmaTestFabric Star(uint32_t nHosts, const std::string& rate, Time delay, DcbHelper& dcb,
                               const RdmaHelper& rdma)
    {
        RdmaTestFabric f;
        f.hosts.Create(nHosts);
        f.switches.Create(1);
        dcb.SetDeviceAttribute("DataRate", DataRateValue(DataRate(rate)));
        dcb.SetChannelAttribute("Delay", TimeValue(delay));
        for (uint32_t i = 0; i < nHosts; ++i)
        {
            dcb.Install(f.hosts.Get(i), f.switches.Get(0));
        }
        f.Finish(dcb, rdma);
        return f;
    }

    /** Two-tier leaf-spine: every leaf linked to every spine. */
    static RdmaTestFabric LeafSpine(uint32_t leaves, uint32_t spines, uint32_t hostsPerLeaf,
                                    const std::string& rate, Time delay, DcbHelper& dcb,
                                    const RdmaHelper& rdma)
    {
        RdmaTestFabric f;
        f.hosts.Create(leaves * hostsPerLeaf);
        f.switches.Create(leaves + spines);
        dcb.SetDeviceAttribute("DataRate", DataRateValue(DataRate(rate)));
        dcb.SetChannelAttribute("Delay", TimeValue(delay));
        for (uint32_t i = 0; i < leaves * hostsPerLeaf; ++i)
        {
            dcb.Install(f.hosts.Get(i), f.switches.Get(i / hostsPerLeaf));
        }
        for (uint32_t l = 0; l < leaves; ++l)
        {
            for (uint32_t s = 0; s < spines; ++s)
            {
                dcb.Install(f.switches.Get(l), f.switches.Get(leaves + s));
            }
        }
        f.Finish(dcb, rdma);
        return f;
    }

    void Finish(DcbHelper& dcb, const RdmaHelper& rdma)
    {
        for (uint32_t s = 0; s < switches.GetN(); ++s)
        {
            dcb.InstallSwitch(switches.Get(s));
        }
        std::vector<DcbRoutingHelper::HostAddress> addresses;
        for (uint32_t i = 0; i < hosts.GetN(); ++i)
        {
            nics.push_back(rdma.Install(hosts.Get(i), HostAddress(i)));
            addresses.push_back({HostAddress(i), hosts.Get(i)});
        }
        DcbRoutingHelper::PopulateRoutes(addresses);
        DcbHelper::AssignStreams(switches, 1);
    }

    Ptr<DcbSwitch> Switch(uint32_t i) const { return switches.Get(i)->GetObject<DcbSwitch>(); }

    /** Sum of XOFF frames sent by all switch ports in class \p cls. */
    uint64_t SwitchXoffSent(uint8_t cls) const
    {
        uint64_t n = 0;
        for (uint32_t s = 0; s < switches.GetN(); ++s)
        {
            Ptr<DcbSwitch> sw = Switch(s);
            for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
            {
                n += sw->GetPort(p)->GetCounters(cls).pfcXoffSent;
            }
        }
        return n;
    }

    /** Sum of drops of every reason at every switch. */
    uint64_t SwitchDrops() const
    {
        uint64_t n = 0;
        for (uint32_t s = 0; s < switches.GetN(); ++s)
        {
            for (uint8_t r = 0; r < DcbSwitch::N_DROP_REASONS; ++r)
            {
                n += Switch(s)->GetDrops(static_cast<DcbSwitch::DropReason>(r));
            }
        }
        return n;
    }
};

} // namespace ns3

#endif /* RDMA_TEST_FABRIC_H */
