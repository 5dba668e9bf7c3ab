// host-pushback: a receiving host whose PCIe link is slower than the network pushes back.
//
//   h1 --100G-- s0 --100G-- h0 [rnic0 -PCIe Gen4 xLANES- rp0 - rc0 - mem0]
//
// What to look at: h0's RNIC writes every received payload to host memory by DMA over
// its PCIe link (contrib/host). With the link cut to a few lanes (a degraded or
// mis-trained slot, Hostping NSDI'23) DMA writes drain slower than 100 Gb/s arrive, the
// RNIC's receive buffer fills, and the NIC sends PFC XOFF to the switch: the network
// slows down to the host's speed instead of dropping. The program prints goodput and the
// PFC frames h0 sent; with --lanes=16 (healthy) there is no pushback.
#include "../scratch/log-notice.h"

#include "ns3/command-line.h"
#include "ns3/dcb-net-device.h"
#include "ns3/experiment-config.h"
#include "ns3/host-model.h"
#include "ns3/host-preset-helper.h"
#include "ns3/rdma-helper.h"
#include "ns3/simulator.h"
#include "ns3/topology-builder.h"
#include "ns3/uinteger.h"

#include <cstdio>

using namespace ns3;

namespace
{
void
OnCompletion(Time* finish, const RdmaCompletion& c)
{
    if (!c.receive && c.status == RdmaWcStatus::Success)
    {
        *finish = c.completionTime;
    }
}
} // namespace

int
main(int argc, char** argv)
{
    NoticeLoggingCompiledOut(argv[0]);
    Time::SetResolution(Time::PS);
    uint32_t lanes = 2;
    CommandLine cmd(__FILE__);
    cmd.AddValue("lanes", "PCIe lanes of h0's RNIC link (Gen4; 16 is healthy)", lanes);
    cmd.Parse(argc, argv);

    const ExperimentConfig config = ExperimentConfig::LoadString(
        R"({"topology": {"type": "incast", "senders": 1},
            "flows": [{"src": "h1", "dst": "h0", "bytes": 1}]})",
        "host-pushback");
    TopologyBuilder fabric(config);
    fabric.Build();

    // h0 gets a host: its RNIC, a PCIe link of LANES lanes, root port, root complex, memory.
    Ptr<HostModel> host = HostPresetHelper().CreatePlainServer();
    host->GetResource("pcie-rnic0")->SetAttribute("Lanes", UintegerValue(lanes));
    fabric.GetHost(0)->AggregateObject(host);
    const std::string error = fabric.GetNic(0)->SetHostModel(host, "rnic0", "mem0");
    if (!error.empty())
    {
        std::printf("host model: %s\n", error.c_str());
        return 1;
    }

    auto [qp, peer] = RdmaHelper::Connect(fabric.GetNic(1), fabric.GetNic(0));
    Time finish(0);
    fabric.GetNic(1)->TraceConnectWithoutContext("Completion",
                                                 MakeBoundCallback(&OnCompletion, &finish));
    RdmaWorkRequest wr;
    wr.verb = RdmaVerb::Write;
    wr.length = 4000000;
    const Time start = MicroSeconds(1);
    Simulator::Schedule(start, &RdmaQueuePair::PostSend, qp, wr);
    Simulator::Stop(MilliSeconds(50));
    Simulator::Run();

    uint64_t xoff = 0;
    for (uint8_t cls = 0; cls < 8; ++cls)
    {
        xoff += fabric.GetNic(0)->GetDevice()->GetCounters(cls).pfcXoffSent;
    }
    const double us = (finish - start).GetPicoSeconds() / 1e6;
    std::printf("PCIe Gen4 x%u: WRITE of %llu bytes in %.1f us, goodput %.2f Gb/s\n", lanes,
                static_cast<unsigned long long>(wr.length), us, wr.length * 8.0 / us / 1e3);
    std::printf("PFC XOFF frames sent by h0's NIC: %llu\n", static_cast<unsigned long long>(xoff));
    Simulator::Destroy();
    return finish.IsZero() ? 1 : 0;
}
