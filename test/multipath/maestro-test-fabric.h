// A two-leaf, m-spine fabric for Maestro scenario tests; hosts may have their own
// access-link rate and CC (the idea of test/rdma/rdma-test-fabric.h, not shared).
#ifndef MAESTRO_TEST_FABRIC_H
#define MAESTRO_TEST_FABRIC_H

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

struct MaestroTestHost
{
    uint32_t leaf;
    std::string rate;
    const RdmaHelper* rdma;
};

struct MaestroTestFabric
{
    NodeContainer hosts;
    NodeContainer switches; //!< leaves 0..1, then spines
    std::vector<Ptr<RdmaNic>> nics;

    static Ipv4Address HostAddress(uint32_t i)
    {
        return Ipv4Address(Ipv4Address("10.0.0.1").Get() + i);
    }

    static MaestroTestFabric Build(const std::vector<MaestroTestHost>& spec, uint32_t spines,
                                   const std::string& coreRate, Time delay, DcbHelper& dcb)
    {
        MaestroTestFabric f;
        f.hosts.Create(spec.size());
        f.switches.Create(2 + spines);
        dcb.SetChannelAttribute("Delay", TimeValue(delay));
        for (uint32_t i = 0; i < spec.size(); ++i)
        {
            dcb.SetDeviceAttribute("DataRate", DataRateValue(DataRate(spec[i].rate)));
            dcb.Install(f.hosts.Get(i), f.switches.Get(spec[i].leaf));
        }
        dcb.SetDeviceAttribute("DataRate", DataRateValue(DataRate(coreRate)));
        for (uint32_t l = 0; l < 2; ++l)
        {
            for (uint32_t s = 0; s < spines; ++s)
            {
                dcb.Install(f.switches.Get(l), f.switches.Get(2 + s));
            }
        }
        for (uint32_t s = 0; s < f.switches.GetN(); ++s)
        {
            dcb.InstallSwitch(f.switches.Get(s));
        }
        std::vector<DcbRoutingHelper::HostAddress> addresses;
        for (uint32_t i = 0; i < spec.size(); ++i)
        {
            f.nics.push_back(spec[i].rdma->Install(f.hosts.Get(i), HostAddress(i)));
            addresses.push_back({HostAddress(i), f.hosts.Get(i)});
        }
        DcbRoutingHelper::PopulateRoutes(addresses);
        DcbHelper::AssignStreams(f.switches, 1);
        return f;
    }
};

} // namespace ns3

#endif /* MAESTRO_TEST_FABRIC_H */
