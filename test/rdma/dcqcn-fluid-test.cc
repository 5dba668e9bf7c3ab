// Scenario test: the simulator's DCQCN (ns3::RdmaDcqcn, SIGCOMM'15 reaction point)
// against the fixed point of the DCQCN fluid model (Zhu et al., "ECN or Delay:
// Lessons Learnt from Analysis of DCQCN and TIMELY", CoNEXT'16; spec section 3.8;
// analysis/dcqcn_fluid.py integrates the same equations). N long flows share one
// 40 Gb/s bottleneck with RED 40 KB / 400 KB / 1 %. At the fixed point every flow
// sends C/N and the queue sits where RED marks with the probability p* that balances
// the rate cuts (one per CNP window with a mark) against the rate increases:
//   alpha* a^2 = R_AI R tau^2 (b + d)(c + e),  q* = Kmin + (p*/Pmax)(Kmax - Kmin),
// with a = 1-(1-p)^(tau R), alpha* = 1-(1-p)^(tau' R), b = p/((1-p)^-B - 1),
// c = b (1-p)^(F B), d = p/((1-p)^-(T R) - 1), e = d (1-p)^(F T R) (rates in
// packets/s, B in packets). g drops out of the fixed point (it sets only how fast
// alpha gets there), as does the cut's factor 1/2; R_AI, T, B, F and tau' set p*.
// That fixed point is a mean-field approximation: at N = 4 and 8 the simulator's queue
// sits 15-25 % above it, and so does a stochastic model of the same DCQCN rules
// (analysis/dcqcn_stochastic.py); those N are checked against the latter (see
// StochasticReference and contrib/rdma/doc/dcqcn-generations.md).
#include "rdma-test-fabric.h"

#include "ns3/double.h"
#include "ns3/queue-size.h"
#include "ns3/rdma-dcqcn.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace ns3
{
namespace
{

/** Fluid-model parameters, in the model's units (packets, seconds). */
struct FluidParams
{
    double capacityPps;  //!< C, link capacity in packets/s
    uint32_t flows;      //!< N
    double tau;          //!< CNP window (s)
    double tauPrime;     //!< alpha timer (s)
    double timer;        //!< rate-increase timer T (s)
    double byteCounter;  //!< B in packets
    double fastRecovery; //!< F
    double rateAiPps;    //!< R_AI in packets/s
    double kmin;         //!< RED Kmin (bytes)
    double kmax;         //!< RED Kmax (bytes)
    double pmax;         //!< RED Pmax
};

struct FixedPoint
{
    double ratePps; //!< R* per flow
    double p;       //!< marking probability
    double alpha;   //!< alpha*
    double queue;   //!< q* in bytes (as RED counts them)
};

/**
 * Solve the fixed point of the fluid model's rate, target-rate and alpha equations
 * for p by bisection: h(p) = alpha a^2 - R_AI R tau^2 (b + d)(c + e) grows with p.
 */
FixedPoint
SolveFixedPoint(const FluidParams& m)
{
    const double r = m.capacityPps / m.flows;
    const auto h = [&m, r](double p)
    {
        const double lg = std::log1p(-p); // log(1 - p)
        const double a = -std::expm1(m.tau * r * lg);
        const double alpha = -std::expm1(m.tauPrime * r * lg);
        const double b = p / std::expm1(-m.byteCounter * lg);
        const double c = b * std::exp(m.fastRecovery * m.byteCounter * lg);
        const double d = p / std::expm1(-m.timer * r * lg);
        const double e = d * std::exp(m.fastRecovery * m.timer * r * lg);
        return alpha * a * a - m.rateAiPps * r * m.tau * m.tau * (b + d) * (c + e);
    };
    double lo = 1e-9;
    double hi = m.pmax;
    for (int i = 0; i < 200; ++i)
    {
        const double mid = 0.5 * (lo + hi);
        (h(mid) > 0 ? hi : lo) = mid;
    }
    const double p = 0.5 * (lo + hi);
    FixedPoint fp;
    fp.ratePps = r;
    fp.p = p;
    fp.alpha = -std::expm1(m.tauPrime * r * std::log1p(-p));
    fp.queue = m.kmin + p / m.pmax * (m.kmax - m.kmin);
    return fp;
}

struct SimResult
{
    std::vector<double> goodputGbps; //!< payload goodput per flow
    double meanQueueBytes{0};        //!< bottleneck queue, time average
    double marksPerPacket{0};        //!< CE marks at the switch / data packets sent
    double cnpsPerFlowPerSecond{0};  //!< CNPs the senders received, per flow
};

const char* const KMIN = "40KB";
const char* const KMAX = "400KB";
constexpr double PMAX = 0.01;
constexpr uint32_t WIRE_BYTES = 1110; //!< a 1024-B payload packet on the wire
constexpr uint32_t PAYLOAD_BYTES = 1024;

/**
 * N senders (ns3::RdmaDcqcn, attribute defaults except \p rateAi and \p g) into one
 * receiver through a 40 Gb/s switch (RED Kmin \p kmin, Kmax KMAX, Pmax PMAX); goodput, the
 * queue (sampled every 5 us), marks and CNPs over [from, to).
 */
SimResult
RunBottleneck(uint32_t flows, Time from, Time to, DataRate rateAi, const char* kmin = KMIN,
              double g = 1.0 / 256)
{
    DcbHelper dcb;
    dcb.SetEcnMarkerAttribute("Kmin", QueueSizeValue(QueueSize(kmin)));
    dcb.SetEcnMarkerAttribute("Kmax", QueueSizeValue(QueueSize(KMAX)));
    dcb.SetEcnMarkerAttribute("Pmax", DoubleValue(PMAX));
    RdmaHelper rdma;
    rdma.SetCongestionControl("ns3::RdmaDcqcn");
    rdma.SetCongestionControlAttribute("RateAI", DataRateValue(rateAi));
    rdma.SetCongestionControlAttribute("G", DoubleValue(g));
    RdmaLeafSpineFabric f = BuildStar(flows + 1, "40Gbps", MicroSeconds(1), dcb, rdma);
    std::vector<Ptr<RdmaQueuePair>> qps;
    for (uint32_t s = 0; s < flows; ++s)
    {
        qps.push_back(RdmaHelper::Connect(f.GetNics()[s], f.GetNics()[flows]).first);
        RdmaWorkRequest wr;
        wr.verb = RdmaVerb::Write;
        wr.length = 1000000000ULL;
        qps.back()->PostSend(wr);
    }
    const uint8_t tc = qps[0]->GetTrafficClass();
    Ptr<DcbSwitch> sw = f.GetSwitch(0);
    std::vector<uint64_t> sent0(flows, 0);
    uint64_t packets0 = 0;
    uint64_t cnps0 = 0;
    uint64_t marks0 = 0;
    const auto totals = [&](uint64_t& packets, uint64_t& cnps, uint64_t& marks)
    {
        packets = cnps = marks = 0;
        for (uint32_t s = 0; s < flows; ++s)
        {
            packets += qps[s]->GetCounters().dataPacketsSent;
            cnps += qps[s]->GetCounters().cnpsReceived;
        }
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            marks += sw->GetEcnMarker(p) ? sw->GetEcnMarker(p)->GetMarks(tc) : 0;
        }
    };
    double queueSum = 0;
    uint64_t samples = 0;
    const Time step = MicroSeconds(5);
    for (Time t = from; t < to; t += step)
    {
        Simulator::Schedule(t,
                            [&]()
                            {
                                for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
                                {
                                    queueSum += sw->GetPort(p)->GetQueueBytes(tc);
                                }
                                samples++;
                            });
    }
    Simulator::Schedule(from,
                        [&]()
                        {
                            for (uint32_t s = 0; s < flows; ++s)
                            {
                                sent0[s] = qps[s]->GetCounters().payloadBytesSent;
                            }
                            totals(packets0, cnps0, marks0);
                        });
    SimResult r;
    Simulator::Schedule(
        to,
        [&]()
        {
            for (uint32_t s = 0; s < flows; ++s)
            {
                const uint64_t b = qps[s]->GetCounters().payloadBytesSent - sent0[s];
                r.goodputGbps.push_back(b * 8.0 / (to - from).GetSeconds() / 1e9);
            }
            uint64_t packets = 0;
            uint64_t cnps = 0;
            uint64_t marks = 0;
            totals(packets, cnps, marks);
            r.marksPerPacket = static_cast<double>(marks - marks0) / (packets - packets0);
            r.cnpsPerFlowPerSecond = (cnps - cnps0) / (to - from).GetSeconds() / flows;
            Simulator::Stop();
        });
    Simulator::Run();
    Simulator::Destroy();
    r.meanQueueBytes = samples ? queueSum / samples : 0;
    return r;
}

/** The fluid model with the ns3::RdmaDcqcn attribute defaults, \p rateAi, N flows. */
FluidParams
ModelOf(uint32_t flows, DataRate rateAi)
{
    FluidParams m;
    m.capacityPps = 40e9 / (8.0 * WIRE_BYTES);
    m.flows = flows;
    m.tau = 50e-6;                     // CnpInterval
    m.tauPrime = 55e-6;                // AlphaUpdatePeriod
    m.timer = 55e-6;                   // RateIncreaseTimer
    m.byteCounter = 10e6 / WIRE_BYTES; // ByteCounter
    m.fastRecovery = 5;                // FastRecoveryTimes
    m.rateAiPps = rateAi.GetBitRate() / (8.0 * WIRE_BYTES);
    m.kmin = QueueSize(KMIN).GetValue();
    m.kmax = QueueSize(KMAX).GetValue();
    m.pmax = PMAX;
    return m;
}

struct Check
{
    double meanGbps;
    double minGbps;
    double maxGbps;
    double fluidGbps;
    double queueBytes;
    double fixedQueueBytes;
};

Check
Compare(const SimResult& sim, const FixedPoint& fp)
{
    Check c{};
    c.fluidGbps = fp.ratePps * 8.0 * PAYLOAD_BYTES / 1e9;
    c.minGbps = 1e9;
    for (double g : sim.goodputGbps)
    {
        c.meanGbps += g / sim.goodputGbps.size();
        c.minGbps = std::min(c.minGbps, g);
        c.maxGbps = std::max(c.maxGbps, g);
    }
    c.queueBytes = sim.meanQueueBytes;
    c.fixedQueueBytes = fp.queue;
    return c;
}

void
Record(const std::string& name, const Check& c)
{
    ::testing::Test::RecordProperty(
        name, "rate mean/min/max " + std::to_string(c.meanGbps) + "/" + std::to_string(c.minGbps) +
                  "/" + std::to_string(c.maxGbps) + " fluid " + std::to_string(c.fluidGbps) +
                  " Gb/s; queue " + std::to_string(c.queueBytes) + " fixed point " +
                  std::to_string(c.fixedQueueBytes) + " B");
}

// alpha moves towards its fixed point with time constant ~tau'/g = 14 ms; measured
// from 30 ms, when it is within ~10 % of its final value, over 60 ms.
const Time FROM = MilliSeconds(30);
const Time TO = MilliSeconds(90);

TEST(DcqcnFluidModel, FixedPointSolverAgreesWithTheIntegratedModel)
{
    // analysis/dcqcn_fluid.py integrates the delay-differential equations (Euler,
    // 0.5 us, 200 ms) and averages the second half: 71 / 115 / 222 KB for N = 2 / 4 / 8.
    // The model is stable there, so the average is its fixed point.
    EXPECT_NEAR(SolveFixedPoint(ModelOf(2, DataRate("40Mbps"))).queue, 71e3, 1.5e3);
    EXPECT_NEAR(SolveFixedPoint(ModelOf(4, DataRate("40Mbps"))).queue, 115e3, 1.5e3);
    EXPECT_NEAR(SolveFixedPoint(ModelOf(8, DataRate("40Mbps"))).queue, 222e3, 1.5e3);
    // The small-p closed form p* = [(R_AI/(tau' R^2))(1/B + 1/(T R))^2]^(1/3) drops
    // the (1-p)^(F T R) of the additive increase (0.52 at N = 4): it overstates p*.
    const FluidParams m = ModelOf(4, DataRate("40Mbps"));
    const double r = m.capacityPps / 4;
    const double closed = std::cbrt(m.rateAiPps / (m.tauPrime * r * r) *
                                    std::pow(1 / m.byteCounter + 1 / (m.timer * r), 2));
    EXPECT_GT(closed, 1.15 * SolveFixedPoint(m).p);
}

// N = 2, 30-90 ms. Measured: 18.41 Gb/s of goodput per flow against 18.45 (fluid),
// flows 17.7 / 19.1; queue 71.3 KB against the fixed point's 71.0 KB (seeds 2 and 3:
// +3.3 %, +0.5 %). Part coincidence: the marks per packet (0.00109) are 27 % above the
// fluid p* (0.00086), as at N = 4 and 8, but the queue is at or below Kmin 27 % of the
// time, which pulls its mean down to q* (the stochastic model: 75.5 KB).
TEST(DcqcnFluidModel, SimulatorSitsAtTheFluidFixedPoint)
{
    const uint32_t n = 2;
    const FixedPoint fp = SolveFixedPoint(ModelOf(n, DataRate("40Mbps")));
    const Check c = Compare(RunBottleneck(n, FROM, TO, DataRate("40Mbps")), fp);
    Record("n2", c);
    // The link is shared equally and fully used: the mean within 1 % of C/N, every
    // flow within 10 % of it.
    EXPECT_NEAR(c.meanGbps, c.fluidGbps, 0.01 * c.fluidGbps);
    EXPECT_GT(c.minGbps, 0.9 * c.fluidGbps);
    EXPECT_LT(c.maxGbps, 1.1 * c.fluidGbps);
    // The mean queue within 10 % of the fixed point.
    EXPECT_NEAR(c.queueBytes, c.fixedQueueBytes, 0.1 * c.fixedQueueBytes);
}

// The check can fail: a simulator whose additive increase is twice the model's
// (R_AI 80 Mb/s) holds a mean queue of 90.4 KB, 27 % above the 40 Mb/s fixed point
// (its own fixed point is 77.7 KB). Measured with other wrong models (not run here):
// RateIncreaseTimer 27.5 us +73 %; R_AI 20 Mb/s -9.6 % and g = 1/64 +10 %, 1/16 -9 %
// (g is not in the fixed point), which this check does not tell apart.
TEST(DcqcnFluidModel, TwiceTheAdditiveIncreaseFailsTheCheck)
{
    const uint32_t n = 2;
    const FixedPoint right = SolveFixedPoint(ModelOf(n, DataRate("40Mbps")));
    const Check c = Compare(RunBottleneck(n, FROM, TO, DataRate("80Mbps")), right);
    Record("n2_rai80", c);
    EXPECT_GT(c.queueBytes, 1.2 * right.queue);
    EXPECT_NEAR(c.meanGbps, c.fluidGbps, 0.01 * c.fluidGbps); // the rate alone cannot tell
}

/**
 * Reference for N = 4 and 8: analysis/dcqcn_stochastic.py closed --flows N (seeds 1-5,
 * 30-90 ms), which runs each flow's ns3::RdmaDcqcn reaction point and notification point
 * as the discrete state machines they are (a cut of alpha/2 per CNP, at most one CNP per
 * 50 us, timer and counter steps) with Bernoulli marks from RED(q) of one fluid queue.
 * The fluid model replaces those per-flow random events by their mean rates; at a fixed
 * marking probability that mean-field step alone puts p* 36-38 % below what the state
 * machines need to hold C/N (dcqcn_stochastic.py open), and the queue's swings through
 * RED's Kmin and Kmax bends shift the mean queue further (-8 % at N = 2, +1 % at N = 4,
 * -9 % at N = 8). The fluid model's own trajectory has no limit cycle (its time average
 * is q* to 1 KB, feedback delay 8 or 40 us), so the simulator is compared with the
 * stochastic model, and the fluid fixed point is only recorded.
 */
struct StochasticReference
{
    double queueBytes;           //!< mean queue (5-seed mean)
    double marksPerPacket;       //!< CE marks per data packet
    double cnpsPerFlowPerSecond; //!< CNPs each sender receives
};

// dcqcn_stochastic.py closed, seeds 1-5: queue 137.7-147.4 KB, marks 0.00285-0.00290,
// CNPs 2617-2696 /s.
const StochasticReference N4_REFERENCE{144.1e3, 0.002876, 2650};
// Seeds 1-5: queue 257-273 KB, CNPs 3415-3531 /s (marks 0.025-0.037 per packet: the
// queue passes Kmax, where RED marks every packet; not checked).
const StochasticReference N8_REFERENCE{264.0e3, 0.03192, 3455};

/**
 * The checks at N = 4 and 8 (see StochasticReference): the link shared equally and full
 * (mean goodput within 1 % of C/N, each flow within \p flowSpread), the mean queue and
 * the CNP rate within 10 % of the stochastic model's (its own seeds spread +-5 % and
 * +-2 %). Returns the check's numbers for the negative controls.
 */
Check
CheckAgainstStochasticModel(const std::string& name, uint32_t n, const SimResult& sim,
                            const StochasticReference& ref, double flowSpread)
{
    const FixedPoint fluid = SolveFixedPoint(ModelOf(n, DataRate("40Mbps")));
    const Check c = Compare(sim, fluid);
    Record(name, c);
    ::testing::Test::RecordProperty(name + "_stochastic",
                                    "queue " + std::to_string(ref.queueBytes) + " B, marks/pkt " +
                                        std::to_string(sim.marksPerPacket) + " (model " +
                                        std::to_string(ref.marksPerPacket) + "), CNP/s/flow " +
                                        std::to_string(sim.cnpsPerFlowPerSecond) + " (model " +
                                        std::to_string(ref.cnpsPerFlowPerSecond) + ")");
    EXPECT_NEAR(c.meanGbps, c.fluidGbps, 0.01 * c.fluidGbps);
    EXPECT_GT(c.minGbps, (1 - flowSpread) * c.fluidGbps);
    EXPECT_LT(c.maxGbps, (1 + flowSpread) * c.fluidGbps);
    EXPECT_NEAR(c.queueBytes, ref.queueBytes, 0.1 * ref.queueBytes);
    EXPECT_NEAR(sim.cnpsPerFlowPerSecond, ref.cnpsPerFlowPerSecond, 0.1 * ref.cnpsPerFlowPerSecond);
    return c;
}

// N = 4, 30-90 ms. Measured (seeds 1/2/3): queue 144.8 / 143.9 / 141.4 KB against the
// stochastic model's 144.1 (the fluid fixed point: 115 KB, +22 to +26 %); marks per
// packet 0.00284 / 0.00293 / 0.00287 against 0.00288 (fluid p*: 0.00209); CNPs 2679 /
// 2654 / 2617 per flow per second against 2650; alpha 0.154 / 0.153 / 0.152 (model 0.153).
TEST(DcqcnFluidModel, FourFlowsSitWhereTheStochasticModelSits)
{
    const SimResult sim = RunBottleneck(4, FROM, TO, DataRate("40Mbps"));
    CheckAgainstStochasticModel("n4", 4, sim, N4_REFERENCE, 0.1);
    // The queue stays in RED's slope (above Kmin 92-97 % of the time, never at Kmax),
    // so the marks per packet are the state machines' p* too.
    EXPECT_NEAR(sim.marksPerPacket, N4_REFERENCE.marksPerPacket, 0.1 * N4_REFERENCE.marksPerPacket);
}

// N = 8, 30-90 ms. Measured (seeds 1/2/3): queue 254.3 / 254.3 / 255.2 KB against the
// stochastic model's 264.0 (-3.5 %; the fluid fixed point: 222 KB, +15 %); CNPs 3421 /
// 3538 / 3417 against 3455; alpha 0.209 / 0.208 / 0.200 (model 0.188).
TEST(DcqcnFluidModel, EightFlowsSitWhereTheStochasticModelSits)
{
    CheckAgainstStochasticModel("n8", 8, RunBottleneck(8, FROM, TO, DataRate("40Mbps")),
                                N8_REFERENCE, 0.15);
}

// Negative controls at N = 4, each with one wrong DCQCN/RED parameter against the
// N = 4 reference. Kmin 80 KB: the state machines need the same p* (marks 0.00287,
// CNPs 2667/s, unchanged) but RED gives it 40 KB higher up: queue 171.8 KB, +19 %.
// g = 1/16: alpha follows each CNP 16 times faster, the cuts get deeper and the queue
// swings past Kmax (sd 94 KB against 58): marks 0.00469 per packet, +63 %, though the
// mean queue (137.2 KB, -5 %) and CNP rate (2558/s, -3.5 %) would pass.
TEST(DcqcnFluidModel, WrongKminOrGFailsTheFourFlowCheck)
{
    const SimResult kmin = RunBottleneck(4, FROM, TO, DataRate("40Mbps"), "80KB");
    Record("n4_kmin80", Compare(kmin, SolveFixedPoint(ModelOf(4, DataRate("40Mbps")))));
    EXPECT_GT(kmin.meanQueueBytes, 1.1 * N4_REFERENCE.queueBytes);
    const SimResult g = RunBottleneck(4, FROM, TO, DataRate("40Mbps"), KMIN, 1.0 / 16);
    Record("n4_g16", Compare(g, SolveFixedPoint(ModelOf(4, DataRate("40Mbps")))));
    EXPECT_GT(g.marksPerPacket, 1.1 * N4_REFERENCE.marksPerPacket);
}

} // namespace
} // namespace ns3
