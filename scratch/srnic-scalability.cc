// SRNIC (NSDI'23) Fig. 9, Fig. 10a and Fig. 11 on two NICs back to back.
//   fig9:  16 threads of 512 B SENDs over N QPs (1024 B MTU): goodput against N for
//          each profile, and the normalized connection scalability (performant QPs per
//          MB of SRAM) of SRNIC over CX-6.
//   fig10a: one QP, messages of rising size: message rate and goodput.
//   fig11: one QP of 4 KB WRITEs (perftest, 128 posted), CC off, i.i.d. loss of data
//          packets: goodput against the loss rate beside the analytic selective-repeat
//          (line x (1 - p), and with lost resends left to RtoHigh) and go-back-N
//          (measured go-back distance) goodputs.
// Usage: srnic-scalability [--figure=fig9|fig10a|fig11] [--qps=128,1024,16384]
//        [--sizes=64,...] [--loss=0,0.001,0.01] [--profiles=Srnic,Cx6] [--measure=500us]
//        [--out=DIR (fig11 writes DIR/fig11.csv; default stdout)]
//        [--host-pcie-gen=N (attach a plain-server host model whose RNIC sits on PCIe
//         Gen N x16, so payload and SRNIC slow-path transfers are DMAs on it; 0: none)]
#include "log-notice.h"

#include "ns3/closed-loop-window.h"
#include "ns3/core-module.h"
#include "ns3/dcb-helper.h"
#include "ns3/error-model.h"
#include "ns3/host-preset-helper.h"
#include "ns3/json-schema-reader.h"
#include "ns3/point-progress.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-nic-profile.h"
#include "ns3/rdma-srnic-selective-repeat.h"

#include <algorithm>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>
#include <vector>

using namespace ns3;

namespace
{
/// A completion sink calling *function (ns-3 < 3.37 builds no Callback from a lambda).
void
CallSink(std::function<void(const RdmaCompletion&)>* function, const RdmaCompletion& c)
{
    (*function)(c);
}

/// Posts a receive of *request on qp: message k of its ClosedLoopWindow.
void
PostReceive(Ptr<RdmaQueuePair> qp, const RdmaRecvRequest* request, uint64_t /* k */)
{
    qp->PostRecv(*request);
}

/// Posts *request on qp: message k of its ClosedLoopWindow.
void
PostRequest(Ptr<RdmaQueuePair> qp, const RdmaWorkRequest* request, uint64_t /* k */)
{
    qp->PostSend(*request);
}

template <typename T>
std::vector<T>
ParseList(const std::string& s, const char* option, T min = 0)
{
    std::vector<T> v;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ','))
    {
        std::stringstream is(item);
        T x{};
        if (!(is >> x) || !is.eof() || x < 0)
        {
            std::cerr << "srnic-scalability: --" << option << ": '" << item
                      << "' is not a non-negative number\n";
            std::exit(2);
        }
        if (x < min)
        {
            std::cerr << "srnic-scalability: --" << option << ": '" << item
                      << "' is below the smallest accepted value, " << min << "\n";
            std::exit(2);
        }
        v.push_back(x);
    }
    return v;
}

struct Result
{
    double gbps{0};
    double mrps{0};
    double txGbps{0};      //!< payload sent, first sends and resends
    double goBack{0};      //!< packets resent per NAK received
    double pciePercent{0}; //!< SRNIC slow-path PCIe bytes over delivered payload
    uint64_t timeouts{0};  //!< retransmission timeouts of the sending QP
    Time rtoStall;         //!< selective repeat: RtoHigh (zero when lost resends are detected)
    uint64_t window{0};    //!< selective repeat: BdpCap, packets
};

/**
 * Goodput and message rate of \p nQps QPs each keeping \p depth messages of \p verb
 * posted; data packets towards the second NIC are lost with probability \p loss and,
 * when \p loss is not negative, congestion control is off (Fig. 11).
 */
Result
Run(const std::string& profile, uint32_t nQps, uint32_t bytes, uint32_t depth, Time measure,
    RdmaVerb verb = RdmaVerb::Send, double loss = -1, uint32_t pcieGen = 0)
{
    DcbHelper dcb;
    dcb.SetDeviceAttribute("DataRate", DataRateValue(DataRate("100Gbps")));
    dcb.SetChannelAttribute("Delay", TimeValue(NanoSeconds(500)));
    RdmaHelper rdma;
    try
    {
        rdma.SetProfile(profile, JsonSchemaReader("--profiles"), "");
    }
    catch (const ConfigError& e)
    {
        std::cerr << "srnic-scalability: " << e.what() << "\n";
        std::exit(2);
    }
    rdma.SetQueuePairAttribute("Mtu", UintegerValue(1024));
    if (loss >= 0)
    {
        rdma.SetCongestionControl("ns3::RdmaNoCongestionControl");
    }
    NodeContainer hosts(2);
    dcb.Install(hosts.Get(0), hosts.Get(1));
    Ptr<RdmaNic> a = rdma.Install(hosts.Get(0), Ipv4Address("10.0.0.1"));
    Ptr<RdmaNic> b = rdma.Install(hosts.Get(1), Ipv4Address("10.0.0.2"));
    for (Ptr<RdmaNic> nic : {a, b})
    {
        if (pcieGen == 0)
        {
            break;
        }
        Ptr<HostModel> host = HostPresetHelper().CreatePlainServer();
        host->GetResource("pcie-rnic0")->SetAttribute("Generation", UintegerValue(pcieGen));
        const std::string error = nic->SetHostModel(host, "rnic0", "mem0");
        if (!error.empty())
        {
            std::cerr << "srnic-scalability: --host-pcie-gen: " << error << "\n";
            std::exit(2);
        }
    }
    if (loss > 0)
    {
        Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
        em->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
        em->SetRate(loss);
        em->AssignStreams(7);
        b->GetDevice()->SetAttribute("ReceiveErrorModel", PointerValue(em));
    }
    std::vector<Ptr<RdmaQueuePair>> senders;
    std::vector<Ptr<RdmaQueuePair>> receivers;
    for (uint32_t i = 0; i < nQps; ++i)
    {
        auto [qa, qb] = RdmaHelper::Connect(a, b);
        senders.push_back(qa);
        receivers.push_back(qb);
    }
    const Time warmup = MicroSeconds(100) + NanoSeconds(20) * nQps;
    uint64_t rxBytes = 0;
    uint64_t rxMessages = 0;
    RdmaWorkRequest wr;
    wr.verb = verb;
    wr.length = bytes;
    const RdmaRecvRequest rr{0, bytes};
    // Each QP closed-loop: `depth` messages posted and `depth` receives, each completed one
    // replaced at once; the first ones posted round robin over the QPs.
    std::vector<ClosedLoopWindow> receives;
    std::vector<ClosedLoopWindow> sends;
    for (uint32_t i = 0; i < nQps; ++i)
    {
        receives.emplace_back(depth, ClosedLoopWindow::UNLIMITED,
                              MakeBoundCallback(&PostReceive, receivers[i], &rr));
        sends.emplace_back(depth, ClosedLoopWindow::UNLIMITED,
                           MakeBoundCallback(&PostRequest, senders[i], &wr));
    }
    std::function<void(const RdmaCompletion&)> onCompletion = [&](const RdmaCompletion& c)
    {
        const uint32_t i = c.qpn - RdmaNic::FIRST_QPN;
        c.receive ? receives[i].Complete() : sends[i].Complete();
        // Delivered messages: receive completions, or WRITE completions at the requester.
        const bool delivered = verb == RdmaVerb::Write ? !c.receive : c.receive;
        const bool counted = delivered && Simulator::Now() >= warmup;
        rxBytes += counted ? c.bytes : 0;
        rxMessages += counted ? 1 : 0;
    };
    Callback<void, const RdmaCompletion&> cb = MakeBoundCallback(&CallSink, &onCompletion);
    a->TraceConnectWithoutContext("Completion", cb);
    b->TraceConnectWithoutContext("Completion", cb);
    for (uint32_t round = 0; round < depth; ++round)
    {
        for (uint32_t i = 0; i < nQps; ++i)
        {
            receives[i].StartOne();
            sends[i].StartOne();
        }
    }
    RdmaQpCounters start;
    uint64_t pcieStart = 0;
    auto pcie = [&]()
    {
        uint64_t sum = 0;
        for (auto& qp : {senders[0], receivers[0]})
        {
            auto srnic = DynamicCast<RdmaSrnicSelectiveRepeat>(qp->GetLossRecovery());
            sum += srnic ? srnic->GetPcieLossBytes() : 0;
        }
        return sum;
    };
    Simulator::Schedule(warmup,
                        [&]()
                        {
                            start = senders[0]->GetCounters();
                            pcieStart = pcie();
                        });
    Simulator::Stop(warmup + measure);
    Simulator::Run();
    const RdmaQpCounters& end = senders[0]->GetCounters();
    const double s = measure.GetSeconds();
    Result r;
    r.gbps = rxBytes * 8.0 / s / 1e9;
    r.mrps = rxMessages / s / 1e6;
    r.txGbps = (end.payloadBytesSent - start.payloadBytesSent) * 8.0 / s / 1e9;
    const uint64_t naks = end.naksReceived - start.naksReceived;
    r.goBack = naks ? double(end.retransmittedPackets - start.retransmittedPackets) / naks : 0;
    r.pciePercent = rxBytes ? 100.0 * (pcie() - pcieStart) / rxBytes : 0;
    r.timeouts = end.timeouts - start.timeouts;
    if (auto sr = DynamicCast<RdmaSelectiveRepeat>(senders[0]->GetLossRecovery()))
    {
        r.rtoStall = sr->GetLostResendStall();
        r.window = sr->GetBdpCap();
    }
    Simulator::Destroy();
    return r;
}

/** Fig. 11 rows for \p profile: measured, and the analytic goodputs from the loss-free one. */
void
LossTolerance(std::ostream& out, const std::string& profile, const std::vector<double>& losses,
              Time measure, uint32_t pcieGen, PointProgress& progress)
{
    const double line = Run(profile, 1, 4096, 128, measure, RdmaVerb::Write, 0, pcieGen).gbps;
    progress.Done(profile + " loss-free reference");
    for (double p : losses)
    {
        const Result r = Run(profile, 1, 4096, 128, measure, RdmaVerb::Write, p, pcieGen);
        progress.Done(profile + " loss=" + std::to_string(p));
        // Selective repeat: every packet needs 1/(1 - p) sends. Go-back-N: each loss
        // costs K sends, K the measured packets resent per NAK (Bertsekas-Gallager).
        const double sr = line * (1 - p);
        const double gbn = line * (1 - p) / (1 - p + r.goBack * p);
        // Selective repeat whose lost resends (p^2 per packet) wait for RtoHigh: the
        // window (BdpCap packets) fills, then the link idles until the timeout.
        const double packetTime = 1024 * 8 / (line * 1e9);
        const double stall = std::max(0.0, r.rtoStall.GetSeconds() - double(r.window) * packetTime);
        const double between = p > 0 ? packetTime / (1 - p) / (p * p) : 0;
        const double srRto = p > 0 && stall > 0 ? sr * between / (between + stall) : sr;
        out << profile << "," << p << "," << r.gbps << "," << r.txGbps << "," << r.goBack << ","
            << sr << "," << gbn << "," << r.pciePercent << "," << srRto << ","
            << r.timeouts / measure.GetSeconds() / 1e3 << "\n";
    }
}
} // namespace

int
main(int argc, char* argv[])
{
    NoticeLoggingCompiledOut(argv[0]);
    std::string figure = "fig9";
    std::string qps = "128,256,1024,4096,16384";
    std::string sizes = "64,256,1024,4096,16384";
    std::string loss = "0,0.0001,0.001,0.002,0.005,0.01,0.02";
    std::string profiles = "Srnic,Cx6";
    std::string outDir;
    Time measure = MicroSeconds(500);
    uint32_t pcieGen = 0;
    CommandLine cmd(__FILE__);
    cmd.AddValue("figure", "fig9 (QP scalability), fig10a (message rate), fig11 (loss)", figure);
    cmd.AddValue("qps", "fig9: comma-separated QP counts", qps);
    cmd.AddValue("sizes", "fig10a: comma-separated message sizes (bytes)", sizes);
    cmd.AddValue("loss", "fig11: comma-separated loss probabilities (0-1)", loss);
    cmd.AddValue("profiles", "comma-separated RdmaNicProfile names", profiles);
    cmd.AddValue("measure", "measurement time after the warm-up", measure);
    cmd.AddValue("out", "fig11: output directory for fig11.csv (default: stdout)", outDir);
    cmd.AddValue("host-pcie-gen",
                 "fig11: host model on both NICs with the RNIC on PCIe Gen N x16 (0: none)",
                 pcieGen);
    cmd.Parse(argc, argv);
    if (pcieGen > 5)
    {
        std::cerr << "srnic-scalability: --host-pcie-gen: " << pcieGen
                  << " is not a PCIe generation (1-5, or 0 for no host model)\n";
        return 2;
    }
    if (figure != "fig9" && figure != "fig10a" && figure != "fig11")
    {
        std::cerr << "srnic-scalability: --figure must be fig9, fig10a or fig11\n";
        return 2;
    }
    // Every list is checked before anything is printed or run.
    const auto qpCounts = ParseList<uint32_t>(qps, "qps", 1);
    const auto messageSizes = ParseList<uint32_t>(sizes, "sizes", 1);
    std::ofstream file;
    if (!outDir.empty())
    {
        SystemPath::MakeDirectories(outDir);
        file.open(outDir + "/fig11.csv");
        if (!file)
        {
            std::cerr << "srnic-scalability: --out: cannot write " << outDir << "/fig11.csv\n";
            return 2;
        }
    }
    std::ostream& out = outDir.empty() ? std::cout : file;
    std::stringstream ps(profiles);
    std::string profile;
    std::vector<std::pair<std::string, uint32_t>> performant;
    if (figure == "fig11")
    {
        const auto losses = ParseList<double>(loss, "loss");
        for (double p : losses)
        {
            if (p > 1)
            {
                std::cerr << "srnic-scalability: --loss: " << p << " is not a probability (0-1)\n";
                return 2;
            }
        }
        out << "profile,loss,goodput_gbps,tx_gbps,go_back_packets,sr_analytic_gbps,"
               "gbn_analytic_gbps,pcie_loss_percent,sr_rto_analytic_gbps,timeouts_per_ms\n";
        PointProgress progress("srnic-scalability", 0);
        while (std::getline(ps, profile, ','))
        {
            progress.AddPoints(1 + static_cast<uint32_t>(losses.size()));
            LossTolerance(out, profile, losses, measure, pcieGen, progress);
        }
        return 0;
    }
    PointProgress progress("srnic-scalability", 0);
    while (std::getline(ps, profile, ','))
    {
        progress.AddPoints(
            static_cast<uint32_t>(figure == "fig10a" ? messageSizes.size() : qpCounts.size()));
        if (figure == "fig10a")
        {
            std::cout << "profile,message_bytes,mrps,goodput_gbps\n";
            for (uint32_t size : messageSizes)
            {
                const Result r = Run(profile, 1, size, 64, measure);
                progress.Done(profile + " " + std::to_string(size) + " B");
                std::cout << profile << "," << size << "," << r.mrps << "," << r.gbps << "\n";
            }
            continue;
        }
        std::cout << "profile,qps,goodput_gbps\n";
        double first = 0;
        uint32_t best = 0;
        for (uint32_t n : qpCounts)
        {
            const Result r = Run(profile, n, 512, 4, measure);
            progress.Done(profile + " " + std::to_string(n) + " QPs");
            first = first > 0 ? first : r.gbps;
            best = r.gbps >= 0.9 * first ? n : best;
            std::cout << profile << "," << n << "," << r.gbps << "\n";
        }
        performant.emplace_back(profile, best);
    }
    if (performant.size() == 2)
    {
        // Normalized connection scalability: QPs kept at >= 90% of the goodput at the
        // smallest count, per MB of on-chip SRAM (SRNIC 4.4 MB, CX-5/6 2 MB; Table 2).
        auto perMb = [](const std::pair<std::string, uint32_t>& p)
        { return p.second / (p.first == "Srnic" ? 4.4 : 2.0); };
        std::cout << "normalized_scalability_ratio," << perMb(performant[0]) / perMb(performant[1])
                  << "\n";
    }
    return 0;
}
