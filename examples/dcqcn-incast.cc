// dcqcn-incast: DCQCN (Zhu et al., SIGCOMM'15) sharing one bottleneck among incast senders.
//
//   h1..hN -- s0 -- h0        N senders WRITE 1 MB each into h0 over 100 Gb/s links
//
// What to look at: the switch marks ECN (RED between Kmin and Kmax) on the queue to h0;
// h0's NIC answers marked packets with CNPs; each sender's DCQCN cuts its rate R_C by
// alpha/2 per CNP and climbs back (fast recovery, additive and hyper increase). The
// program samples every sender's rate each 20 us: the rates fall from line rate towards
// 100/N Gb/s and the flows finish close together. Compare --cc=ns3::RdmaNoCongestionControl:
// no CNPs, the queue is held by PFC instead.
#include "../scratch/log-notice.h"

#include "ns3/command-line.h"
#include "ns3/experiment-config.h"
#include "ns3/rdma-helper.h"
#include "ns3/simulator.h"
#include "ns3/topology-builder.h"

#include <cstdio>
#include <string>
#include <vector>

using namespace ns3;

namespace
{
/** Prints each sender's current DCQCN rate, every 20 us while any flow runs. */
void
PrintRates(const std::vector<Ptr<RdmaQueuePair>>* qps, int samples)
{
    std::printf("%8.0f us ", Simulator::Now().GetPicoSeconds() / 1e6);
    for (const auto& qp : *qps)
    {
        std::printf(" %6.1f", qp->GetCcState().m_rate.GetBitRate() / 1e9);
    }
    std::printf("  Gb/s\n");
    if (samples > 1)
    {
        Simulator::Schedule(MicroSeconds(20), &PrintRates, qps, samples - 1);
    }
}

void
OnCompletion(uint32_t* done, Time* last, const RdmaCompletion& c)
{
    if (!c.receive && c.status == RdmaWcStatus::Success)
    {
        ++*done;
        *last = c.completionTime;
    }
}
} // namespace

int
main(int argc, char** argv)
{
    NoticeLoggingCompiledOut(argv[0]);
    Time::SetResolution(Time::PS);
    uint32_t senders = 4;
    std::string cc = "ns3::RdmaDcqcn";
    CommandLine cmd(__FILE__);
    cmd.AddValue("senders", "number of senders", senders);
    cmd.AddValue("cc", "congestion control TypeId", cc);
    cmd.Parse(argc, argv);

    const ExperimentConfig config = ExperimentConfig::LoadString(
        R"({"topology": {"type": "incast", "senders": )" + std::to_string(senders) +
            R"(}, "cc": {"type": ")" + cc + R"("},
            "flows": [{"src": "h1", "dst": "h0", "bytes": 1}]})",
        "dcqcn-incast");
    TopologyBuilder fabric(config);
    fabric.Build();

    std::vector<Ptr<RdmaQueuePair>> qps;
    uint32_t done = 0;
    Time last;
    for (uint32_t h = 1; h <= senders; ++h)
    {
        fabric.GetNic(h)->TraceConnectWithoutContext(
            "Completion", MakeBoundCallback(&OnCompletion, &done, &last));
        auto [qp, peer] = RdmaHelper::Connect(fabric.GetNic(h), fabric.GetNic(0));
        RdmaWorkRequest wr;
        wr.wrId = h;
        wr.verb = RdmaVerb::Write;
        wr.length = 1000000;
        Simulator::Schedule(MicroSeconds(1), &RdmaQueuePair::PostSend, qp, wr);
        qps.push_back(qp);
    }
    Simulator::Schedule(MicroSeconds(1), &PrintRates, &qps, 8);
    Simulator::Stop(MilliSeconds(10));
    Simulator::Run();

    uint64_t cnps = 0;
    for (const auto& qp : qps)
    {
        cnps += qp->GetCounters().cnpsReceived;
    }
    std::printf("%u of %u flows finished by %.1f us; CNPs received by the senders: %llu\n", done,
                senders, last.GetPicoSeconds() / 1e6, static_cast<unsigned long long>(cnps));
    Simulator::Destroy();
    return done == senders ? 0 : 1;
}
