// two-host-write: the smallest RoCEv2 network, built with the helpers directly.
//
//   h0 --100G, 1us-- s0 --100G, 1us-- h1
//
// h0 WRITEs 1 MB into h1's memory over one reliable-connected queue pair; the
// program prints the flow completion time (the requester's completion, i.e. the
// ACK of the last packet back at h0). For experiments described in JSON files
// use scratch/roce-run instead.
#include "../scratch/log-notice.h"

#include "ns3/command-line.h"
#include "ns3/data-rate.h"
#include "ns3/dcb-helper.h"
#include "ns3/dcb-routing-helper.h"
#include "ns3/node-container.h"
#include "ns3/rdma-helper.h"
#include "ns3/simulator.h"

#include <cstdio>

using namespace ns3;

namespace
{
/** Records the requester's completion of the WRITE. */
void
OnCompletion(Time* finish, const RdmaCompletion& completion)
{
    if (!completion.receive && completion.status == RdmaWcStatus::Success)
    {
        *finish = completion.completionTime;
    }
}
} // namespace

int
main(int argc, char** argv)
{
    NoticeLoggingCompiledOut(argv[0]);
    Time::SetResolution(Time::PS); // a 1 KB frame at 100 Gb/s lasts 82 ns

    uint64_t bytes = 1000000;
    CommandLine cmd(__FILE__);
    cmd.AddValue("bytes", "message size in bytes", bytes);
    cmd.Parse(argc, argv);

    // 1. Nodes, and the links between them (DataRate and Delay per link).
    NodeContainer hosts(2);
    NodeContainer sw(1);
    DcbHelper dcb;
    dcb.SetDeviceAttribute("DataRate", DataRateValue(DataRate("100Gbps")));
    dcb.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
    dcb.Install(hosts.Get(0), sw.Get(0));
    dcb.Install(hosts.Get(1), sw.Get(0));
    // 2. The switch, once all its links exist (buffer manager, ECN, PFC).
    dcb.InstallSwitch(sw.Get(0));

    // 3. RDMA NICs with DCQCN, and routes to their (contiguous) addresses.
    RdmaHelper rdma;
    rdma.SetCongestionControl("ns3::RdmaDcqcn");
    const Ipv4Address a0("10.0.0.1");
    const Ipv4Address a1("10.0.0.2");
    Ptr<RdmaNic> nic0 = rdma.Install(hosts.Get(0), a0);
    Ptr<RdmaNic> nic1 = rdma.Install(hosts.Get(1), a1);
    DcbRoutingHelper::PopulateRoutes({{a0, hosts.Get(0)}, {a1, hosts.Get(1)}});

    // 4. A connected QP pair, and a WRITE posted at t = 10 us.
    auto [qp0, qp1] = RdmaHelper::Connect(nic0, nic1);
    Time finish(0);
    nic0->TraceConnectWithoutContext("Completion", MakeBoundCallback(&OnCompletion, &finish));
    RdmaWorkRequest wr;
    wr.wrId = 1;
    wr.verb = RdmaVerb::Write;
    wr.length = bytes;
    const Time start = MicroSeconds(10);
    Simulator::Schedule(start, &RdmaQueuePair::PostSend, qp0, wr);

    Simulator::Stop(MilliSeconds(100));
    Simulator::Run();
    if (finish.IsZero())
    {
        std::printf("the WRITE did not complete\n");
        Simulator::Destroy();
        return 1;
    }
    const Time fct = finish - start;
    // Goodput counts payload only; headers and ACK round trip make it < 100 Gb/s.
    std::printf("WRITE of %llu bytes: FCT %.3f us, goodput %.2f Gb/s, %llu retransmissions\n",
                static_cast<unsigned long long>(bytes), fct.GetPicoSeconds() / 1e6,
                bytes * 8.0 / (fct.GetPicoSeconds() / 1e12) / 1e9,
                static_cast<unsigned long long>(qp0->GetCounters().retransmittedPackets));
    Simulator::Destroy();
    return 0;
}
