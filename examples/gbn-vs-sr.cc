// gbn-vs-sr: go-back-N against selective repeat when the network loses packets.
//
//   h1 -- s0 -- h0        h1 WRITEs 2 MB to h0; h0's port drops 1% of data frames
//
// What to look at: after a loss, go-back-N (commercial RNICs: the responder NAKs the
// first out-of-order packet and drops the rest) resends everything sent since the lost
// packet, about a bandwidth-delay product each time; selective repeat (IRN-style: the
// responder keeps out-of-order packets, the requester resends only the holes) resends
// about one packet per loss. The program runs the same transfer with both and prints
// each one's FCT, goodput and retransmitted packets. Try --loss=0.001 and --loss=0.05.
#include "../scratch/log-notice.h"

#include "ns3/command-line.h"
#include "ns3/dcb-net-device.h"
#include "ns3/error-model.h"
#include "ns3/experiment-config.h"
#include "ns3/pointer.h"
#include "ns3/rdma-helper.h"
#include "ns3/simulator.h"
#include "ns3/topology-builder.h"

#include <cstdio>
#include <string>

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

/** One 2 MB WRITE with loss recovery \p recovery; \return its retransmitted packets. */
uint64_t
Transfer(const std::string& recovery, double loss)
{
    const ExperimentConfig config = ExperimentConfig::LoadString(
        R"({"topology": {"type": "incast", "senders": 1},
            "loss_recovery": {"type": ")" +
            recovery + R"("}, "flows": [{"src": "h1", "dst": "h0", "bytes": 1}]})",
        "gbn-vs-sr");
    TopologyBuilder fabric(config);
    fabric.Build();
    // Data frames arriving at h0 are lost at random (ACKs and PFC are not).
    Ptr<RateErrorModel> drop = CreateObject<RateErrorModel>();
    drop->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
    drop->SetRate(loss);
    drop->AssignStreams(1);
    fabric.GetNic(0)->GetDevice()->SetAttribute("ReceiveErrorModel", PointerValue(drop));

    auto [qp, peer] = RdmaHelper::Connect(fabric.GetNic(1), fabric.GetNic(0));
    Time finish(0);
    fabric.GetNic(1)->TraceConnectWithoutContext("Completion",
                                                 MakeBoundCallback(&OnCompletion, &finish));
    RdmaWorkRequest wr;
    wr.verb = RdmaVerb::Write;
    wr.length = 2000000;
    const Time start = MicroSeconds(1);
    Simulator::Schedule(start, &RdmaQueuePair::PostSend, qp, wr);
    Simulator::Stop(MilliSeconds(50));
    Simulator::Run();
    const uint64_t resent = qp->GetCounters().retransmittedPackets;
    const double us = (finish - start).GetPicoSeconds() / 1e6;
    std::printf(
        "%-26s FCT %9.1f us, goodput %6.2f Gb/s, %5llu packets retransmitted, "
        "%llu frames dropped\n",
        recovery.c_str(), finish.IsZero() ? 0.0 : us,
        finish.IsZero() ? 0.0 : wr.length * 8.0 / us / 1e3, static_cast<unsigned long long>(resent),
        static_cast<unsigned long long>(fabric.GetNic(0)->GetDevice()->GetDroppedByErrorModel()));
    Simulator::Destroy();
    return finish.IsZero() ? UINT64_MAX : resent;
}
} // namespace

int
main(int argc, char** argv)
{
    NoticeLoggingCompiledOut(argv[0]);
    Time::SetResolution(Time::PS);
    double loss = 0.01;
    CommandLine cmd(__FILE__);
    cmd.AddValue("loss", "probability that a data frame arriving at h0 is dropped", loss);
    cmd.Parse(argc, argv);

    const uint64_t gbn = Transfer("ns3::RdmaGoBackN", loss);
    const uint64_t sr = Transfer("ns3::RdmaSelectiveRepeat", loss);
    std::printf("selective repeat resent %s packets than go-back-N\n",
                sr < gbn ? "fewer" : "not fewer");
    return 0;
}
