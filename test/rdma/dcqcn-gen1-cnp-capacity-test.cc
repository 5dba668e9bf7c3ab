// Component test of the Gen1 NIC's limited CNP-generation capacity (Azure NSDI'23
// section 7.2: the Gen1 NP runs in firmware with "limited processing capacity";
// DCQCN SIGCOMM'15: the ConnectX-3 Pro NP generates one CNP per 1-5 us). Two
// senders with 32 QPs each write into one receiver through a 40 Gb/s switch that
// marks every packet finding a queue, so all 64 QPs are marked at once. A Gen1
// receiver sends at most one CNP per FirmwareCnpTime over all its QPs, so the
// senders are cut later and less than behind the same NP with the capacity
// ignored (FirmwareCnpTime 0); a Gen2/Gen3 receiver (hardware NP) has no such cap.
#include "dcqcn-profile.h"
#include "rdma-test-fabric.h"

#include "ns3/double.h"
#include "ns3/queue-size.h"
#include "ns3/rdma-firmware-cnp-queue.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace ns3
{
namespace
{

/** Receiver NIC of the scenario. */
enum class Np
{
    GEN1,           //!< Gen1 profile defaults (firmware capacity on)
    GEN1_UNLIMITED, //!< Gen1 with FirmwareCnpTime 0 (capacity ignored)
    GEN2            //!< Gen2/Gen3 firmware profile (hardware NP)
};

struct CapacityResult
{
    uint64_t cnpsSent{0};      //!< CNPs the receiver sent over the run
    uint64_t cnpsSentEarly{0}; //!< ... in the first EARLY
    uint32_t qpsCutEarly{0};   //!< sender QPs that received a CNP in the first EARLY
    double meanRateGbps{0};    //!< R_C of the sender QPs, mean over QPs and time
    double meanQueueBytes{0};  //!< bottleneck queue, time average
    Time lastFirstCnp;         //!< when the last sender QP got its first CNP
    bool hasFirmware{false};   //!< the receiver NIC has a firmware CNP queue
    RdmaFirmwareCnpQueue::Counters firmware{};
};

constexpr uint32_t QPS_PER_SENDER = 32;
const Time EARLY = MicroSeconds(250);
const Time DURATION = MilliSeconds(2);

CapacityResult
RunCapacity(Np np)
{
    DcbHelper dcb;
    // Mark every ECN-capable packet that finds a queue (Kmin = Kmax = 0).
    dcb.SetEcnMarkerAttribute("Kmin", QueueSizeValue(QueueSize("0B")));
    dcb.SetEcnMarkerAttribute("Kmax", QueueSizeValue(QueueSize("0B")));
    // Senders: the paper's reaction point (a cut per CNP) with per-packet pacing, so
    // that every QP has packets in flight, and marked, in every CNP window.
    RdmaHelper paper;
    paper.SetCongestionControl("ns3::RdmaDcqcn");
    RdmaLeafSpineFabric f = BuildStar(3, "40Gbps", MicroSeconds(1), dcb, paper);
    if (np == Np::GEN1)
    {
        f.GetNics()[2]->SetCongestionControl(test::DcqcnOfProfile("gen1"));
    }
    else if (np == Np::GEN1_UNLIMITED)
    {
        Ptr<RdmaDcqcn> cc = test::DcqcnOfProfile("gen1");
        cc->SetAttribute("FirmwareCnpTime", TimeValue(Time(0)));
        f.GetNics()[2]->SetCongestionControl(cc);
    }
    else if (np == Np::GEN2)
    {
        f.GetNics()[2]->SetCongestionControl(test::DcqcnOfProfile("gen2-gen3"));
    }
    std::vector<Ptr<RdmaQueuePair>> senders;
    std::vector<Ptr<RdmaQueuePair>> receivers;
    for (uint32_t s = 0; s < 2; ++s)
    {
        for (uint32_t i = 0; i < QPS_PER_SENDER; ++i)
        {
            auto [q, r] = RdmaHelper::Connect(f.GetNics()[s], f.GetNics()[2]);
            RdmaWorkRequest wr;
            wr.verb = RdmaVerb::Write;
            wr.length = 1000000000ULL;
            q->PostSend(wr);
            senders.push_back(q);
            receivers.push_back(r);
        }
    }
    const auto cnpsSent = [&receivers]()
    {
        uint64_t n = 0;
        for (const auto& r : receivers)
        {
            n += r->GetCounters().cnpsSent;
        }
        return n;
    };
    CapacityResult res;
    const uint8_t tc = senders[0]->GetTrafficClass();
    Ptr<DcbSwitch> sw = f.GetSwitch(0);
    std::vector<bool> cut(senders.size(), false);
    double rateSum = 0;
    double queueSum = 0;
    uint64_t samples = 0;
    for (Time t = MicroSeconds(5); t < DURATION; t += MicroSeconds(5))
    {
        Simulator::Schedule(t,
                            [&, t]()
                            {
                                for (uint32_t i = 0; i < senders.size(); ++i)
                                {
                                    rateSum += senders[i]->GetCcState().m_rate.GetBitRate();
                                    if (!cut[i] && senders[i]->GetCounters().cnpsReceived > 0)
                                    {
                                        cut[i] = true;
                                        res.lastFirstCnp = t;
                                    }
                                }
                                for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
                                {
                                    queueSum += sw->GetPort(p)->GetQueueBytes(tc);
                                }
                                samples++;
                            });
    }
    Simulator::Schedule(EARLY,
                        [&]()
                        {
                            res.cnpsSentEarly = cnpsSent();
                            for (const auto& q : senders)
                            {
                                res.qpsCutEarly += q->GetCounters().cnpsReceived > 0 ? 1 : 0;
                            }
                        });
    Simulator::Schedule(DURATION,
                        [&]()
                        {
                            res.cnpsSent = cnpsSent();
                            res.meanRateGbps = rateSum / samples / senders.size() / 1e9;
                            res.meanQueueBytes = queueSum / samples;
                            Ptr<RdmaFirmwareCnpQueue> fw = f.GetNics()[2]->GetCnpFirmware();
                            res.hasFirmware = fw != nullptr;
                            if (fw)
                            {
                                res.firmware = fw->GetCounters();
                            }
                            Simulator::Stop();
                        });
    Simulator::Run();
    Simulator::Destroy();
    return res;
}

/** Emission times of a firmware CNP queue fed by a fixed request pattern. */
struct QueueRun
{
    std::vector<std::pair<uint32_t, Time>> emitted; //!< (qpn, time)
    RdmaFirmwareCnpQueue::Counters counters;
};

QueueRun
RunQueue(uint32_t slots, const std::vector<std::pair<uint32_t, Time>>& requests)
{
    QueueRun run;
    Ptr<RdmaFirmwareCnpQueue> q = CreateObject<RdmaFirmwareCnpQueue>();
    q->Configure(MicroSeconds(5), slots, MakeCallback(+[](QueueRun* r, uint32_t qpn) {
                                             r->emitted.emplace_back(qpn, Simulator::Now());
                                         }).Bind(&run));
    for (const auto& [qpn, t] : requests)
    {
        Simulator::Schedule(t, &RdmaFirmwareCnpQueue::Submit, q, qpn);
    }
    Simulator::Run();
    run.counters = q->GetCounters();
    q->Dispose();
    Simulator::Destroy();
    return run;
}

TEST(DcqcnGen1CnpCapacity, FirmwareServesOneCnpPerServiceTimeInOrderAndDropsWhenFull)
{
    // Six requests at once, two slots: the first goes at once, two wait (5 and
    // 10 us), three are lost; a request after the backlog has drained goes at once.
    std::vector<std::pair<uint32_t, Time>> req;
    for (uint32_t i = 0; i < 6; ++i)
    {
        req.emplace_back(0x100 + i, MicroSeconds(1));
    }
    req.emplace_back(0x200, MicroSeconds(30));
    const QueueRun run = RunQueue(2, req);
    ASSERT_EQ(run.emitted.size(), 4u);
    EXPECT_EQ(run.emitted[0], std::make_pair(0x100u, MicroSeconds(1)));
    EXPECT_EQ(run.emitted[1], std::make_pair(0x101u, MicroSeconds(6)));
    EXPECT_EQ(run.emitted[2], std::make_pair(0x102u, MicroSeconds(11)));
    EXPECT_EQ(run.emitted[3], std::make_pair(0x200u, MicroSeconds(30)));
    EXPECT_EQ(run.counters.requests, 7u);
    EXPECT_EQ(run.counters.generated, 4u);
    EXPECT_EQ(run.counters.dropped, 3u);
    EXPECT_EQ(run.counters.delayed, 2u);
    EXPECT_EQ(run.counters.peakBacklog, 2u);
    // No slots: whatever finds the firmware busy is lost; 4 us apart, every other one.
    std::vector<std::pair<uint32_t, Time>> spaced;
    for (uint32_t i = 0; i < 4; ++i)
    {
        spaced.emplace_back(0x100 + i, MicroSeconds(4 * i));
    }
    const QueueRun none = RunQueue(0, spaced);
    ASSERT_EQ(none.emitted.size(), 2u);
    EXPECT_EQ(none.emitted[1], std::make_pair(0x102u, MicroSeconds(8)));
}

void
Record(const std::string& name, const CapacityResult& r)
{
    ::testing::Test::RecordProperty(
        name, "cnps " + std::to_string(r.cnpsSent) + " early " + std::to_string(r.cnpsSentEarly) +
                  " qps_cut_early " + std::to_string(r.qpsCutEarly) + " mean_rate_gbps " +
                  std::to_string(r.meanRateGbps) + " fw_dropped " +
                  std::to_string(r.firmware.dropped) + " fw_delayed " +
                  std::to_string(r.firmware.delayed) + " mean_queue_kb " +
                  std::to_string(r.meanQueueBytes / 1e3) + " last_first_cnp_us " +
                  std::to_string(r.lastFirstCnp.GetMicroSeconds()));
}

TEST(DcqcnGen1CnpCapacity, Gen1FirmwareCapsCnpsSoSendersAreCutLaterAndLess)
{
    const CapacityResult gen1 = RunCapacity(Np::GEN1);
    const CapacityResult unlimited = RunCapacity(Np::GEN1_UNLIMITED);
    Record("gen1", gen1);
    Record("gen1_unlimited", unlimited);
    // The Gen1 default: one CNP per 5 us NIC-wide, whatever 64 marked QPs ask for.
    const double perCnpUs = 5.0;
    ASSERT_TRUE(gen1.hasFirmware);
    EXPECT_LE(gen1.cnpsSent, static_cast<uint64_t>(DURATION.GetMicroSeconds() / perCnpUs) + 1);
    EXPECT_LE(gen1.cnpsSentEarly, static_cast<uint64_t>(EARLY.GetMicroSeconds() / perCnpUs) + 1);
    EXPECT_EQ(gen1.cnpsSent, gen1.firmware.generated);
    EXPECT_GT(gen1.firmware.dropped, 0u); // the 16-slot FIFO overflowed
    EXPECT_GT(gen1.firmware.delayed, 0u);
    EXPECT_LE(gen1.firmware.peakBacklog, 16u);
    EXPECT_LE(gen1.qpsCutEarly, gen1.cnpsSentEarly);
    // So the senders' QPs are reached later: 64 distinct CNPs take at least 63 x 5 us.
    EXPECT_GE(gen1.lastFirstCnp, MicroSeconds(63 * perCnpUs));
    // Without the cap, every marked QP gets its CNP in its first window.
    EXPECT_FALSE(unlimited.hasFirmware);
    EXPECT_EQ(unlimited.qpsCutEarly, 2 * QPS_PER_SENDER);
    EXPECT_LE(unlimited.lastFirstCnp, MicroSeconds(100));
    EXPECT_GT(unlimited.cnpsSent, 4 * gen1.cnpsSent);
    // ... and cut more: the capped senders keep a much higher rate.
    EXPECT_GT(gen1.meanRateGbps, 4 * unlimited.meanRateGbps);
}

TEST(DcqcnGen1CnpCapacity, Gen2HardwareNpIsNotCapped)
{
    const CapacityResult gen2 = RunCapacity(Np::GEN2);
    Record("gen2", gen2);
    EXPECT_FALSE(gen2.hasFirmware);
    // A CNP per marked packet: far above one per 5 us.
    EXPECT_GT(gen2.cnpsSent, 5 * static_cast<uint64_t>(DURATION.GetMicroSeconds() / 5.0));
}

} // namespace
} // namespace ns3
