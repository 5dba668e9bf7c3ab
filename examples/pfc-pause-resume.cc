// pfc-pause-resume: PFC (IEEE 802.1Qbb) pausing a sender and letting it go again.
//
//   h1 --\
//   h2 ---- s0 -- h0        three 100 Gb/s senders into one receiver, small buffer
//   h3 --/
//
// What to look at: the switch's ingress ports fill past their XOFF threshold and send
// PFC XOFF to the senders' NICs; each NIC's transmitter stops in that class ("paused"),
// then resumes on XON (or when the pause quanta run out). The program prints each
// sender's pause and resume times and its total paused time; without PFC (lossless
// class off) the buffer would drop instead. Try --buffer=4MB: fewer or no pauses.
// The same timeline comes from any experiment with "outputs": {"pfc_events": true}.
#include "../scratch/log-notice.h"

#include "ns3/command-line.h"
#include "ns3/dcb-net-device.h"
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
/** Prints one pause state change of host \p host's transmitter (at most \p *left lines). */
void
OnPauseState(uint32_t host, int* left, uint8_t cls, bool paused)
{
    if ((*left)-- > 0)
    {
        std::printf("%9.3f us  h%u class %u %s\n", Simulator::Now().GetPicoSeconds() / 1e6, host,
                    unsigned{cls}, paused ? "PAUSED (XOFF received)" : "resumed");
    }
}
} // namespace

int
main(int argc, char** argv)
{
    NoticeLoggingCompiledOut(argv[0]);
    Time::SetResolution(Time::PS);
    std::string buffer = "500KB";
    CommandLine cmd(__FILE__);
    cmd.AddValue("buffer", "the switch's shared buffer", buffer);
    cmd.Parse(argc, argv);

    // The fabric from a few lines of experiment JSON (the same schema as roce-run's files).
    const ExperimentConfig config = ExperimentConfig::LoadString(
        R"({"topology": {"type": "incast", "senders": 3}, "buffer": {"BufferSize": ")" + buffer +
            R"("}, "cc": {"type": "ns3::RdmaNoCongestionControl"},
            "flows": [{"src": "h1", "dst": "h0", "bytes": 1}]})",
        "pfc-pause-resume");
    TopologyBuilder fabric(config);
    fabric.Build();

    int left = 12;
    const Time start = MicroSeconds(1);
    std::vector<Ptr<RdmaQueuePair>> qps;
    for (uint32_t h = 1; h <= 3; ++h)
    {
        // The sender's own port: the transmitter that PFC pauses.
        fabric.GetNic(h)->GetDevice()->TraceConnectWithoutContext(
            "PauseState", MakeBoundCallback(&OnPauseState, h, &left));
        auto [qp, peer] = RdmaHelper::Connect(fabric.GetNic(h), fabric.GetNic(0));
        RdmaWorkRequest wr;
        wr.wrId = h;
        wr.verb = RdmaVerb::Write;
        wr.length = 2000000;
        Simulator::Schedule(start, &RdmaQueuePair::PostSend, qp, wr);
        qps.push_back(qp);
    }
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();

    uint64_t onsets = 0;
    for (uint32_t h = 1; h <= 3; ++h)
    {
        const DcbClassCounters& c = fabric.GetNic(h)->GetDevice()->GetCounters(3);
        std::printf(
            "h%u: paused %llu times, %.2f us in all; %llu retransmissions\n", h,
            static_cast<unsigned long long>(c.pauseOnsets), c.pausedTime.GetPicoSeconds() / 1e6,
            static_cast<unsigned long long>(qps[h - 1]->GetCounters().retransmittedPackets));
        onsets += c.pauseOnsets;
    }
    std::printf("pauses: %llu\n", static_cast<unsigned long long>(onsets));
    Simulator::Destroy();
    return 0;
}
