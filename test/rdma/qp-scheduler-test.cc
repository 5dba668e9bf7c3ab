// QP schedulers, the on-chip cache model and NIC profiles; SRNIC Fig. 9 and Fig. 10a
// at a CI-small setting (two NICs back to back).
#include "../function-callback.h"

#include "ns3/boolean.h"
#include "ns3/cached-qp-scheduler.h"
#include "ns3/dcb-helper.h"
#include "ns3/json-schema-reader.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-nic-profile.h"
#include "ns3/rnic-cache-model.h"
#include "ns3/round-robin-qp-scheduler.h"
#include "ns3/simulator.h"
#include "ns3/srnic-qp-scheduler.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <iostream>
#include <vector>

using namespace ns3;

namespace
{

struct Rates
{
    double gbps;
    double mrps;
};

/**
 * Two NICs back to back at 100 Gb/s; \p nQps QPs each keeping \p depth SENDs of
 * \p bytes posted (and as many receives). \return receiver goodput and message rate
 * over \p measure after a warm-up.
 */
Rates
RunSends(RdmaHelper& rdma, uint32_t nQps, uint32_t bytes, uint32_t depth, Time measure,
         RdmaVerb verb = RdmaVerb::Send)
{
    DcbHelper dcb;
    dcb.SetDeviceAttribute("DataRate", DataRateValue(DataRate("100Gbps")));
    dcb.SetChannelAttribute("Delay", TimeValue(NanoSeconds(500)));
    rdma.SetQueuePairAttribute("Mtu", UintegerValue(1024));
    NodeContainer hosts(2);
    dcb.Install(hosts.Get(0), hosts.Get(1));
    Ptr<RdmaNic> a = rdma.Install(hosts.Get(0), Ipv4Address("10.0.0.1"));
    Ptr<RdmaNic> b = rdma.Install(hosts.Get(1), Ipv4Address("10.0.0.2"));
    std::vector<Ptr<RdmaQueuePair>> tx;
    std::vector<Ptr<RdmaQueuePair>> rx;
    for (uint32_t i = 0; i < nQps; ++i)
    {
        auto [qa, qb] = RdmaHelper::Connect(a, b);
        tx.push_back(qa);
        rx.push_back(qb);
    }
    const Time warmup = MicroSeconds(50) + NanoSeconds(20) * nQps;
    uint64_t rxBytes = 0;
    uint64_t rxMessages = 0;
    RdmaWorkRequest wr;
    wr.verb = verb;
    wr.length = bytes;
    const RdmaRecvRequest rr{0, bytes};
    std::function<void(const RdmaCompletion&)> onCompletion = [&](const RdmaCompletion& c)
    {
        const uint32_t i = c.qpn - RdmaNic::FIRST_QPN;
        if (c.receive)
        {
            rx[i]->PostRecv(rr);
        }
        else
        {
            tx[i]->PostSend(wr);
        }
        // Sender completions measure WRITEs and SENDs alike (same message count).
        if (!c.receive && Simulator::Now() >= warmup && c.status == RdmaWcStatus::Success)
        {
            rxBytes += c.bytes;
            rxMessages++;
        }
    };
    Callback<void, const RdmaCompletion&> cb = MakeFunctionCallback(&onCompletion);
    a->TraceConnectWithoutContext("Completion", cb);
    b->TraceConnectWithoutContext("Completion", cb);
    for (uint32_t i = 0; i < nQps; ++i)
    {
        for (uint32_t d = 0; d < depth; ++d)
        {
            rx[i]->PostRecv(rr);
            tx[i]->PostSend(wr);
        }
    }
    Simulator::Stop(warmup + measure);
    Simulator::Run();
    Simulator::Destroy();
    return Rates{rxBytes * 8.0 / measure.GetSeconds() / 1e9,
                 rxMessages / measure.GetSeconds() / 1e6};
}

Rates
RunProfile(const std::string& profile, uint32_t nQps, uint32_t bytes, uint32_t depth)
{
    RdmaHelper rdma;
    EXPECT_NO_THROW(rdma.SetProfile(profile, JsonSchemaReader("test"), ""));
    return RunSends(rdma, nQps, bytes, depth, MicroSeconds(100));
}

TEST(RnicCacheModel, LruEvictsLeastRecentlyUsedAndCountsPcieBytes)
{
    Ptr<RnicCacheModel> c = CreateObject<RnicCacheModel>();
    c->SetAttribute("EffectiveQpcEntries", UintegerValue(2));
    c->SetAttribute("QpcEntryBytes", UintegerValue(210));
    EXPECT_EQ(c->GetEntries(RnicCacheModel::QPC), 2u);
    EXPECT_FALSE(c->Access(RnicCacheModel::QPC, 0));
    EXPECT_FALSE(c->Access(RnicCacheModel::QPC, 1));
    EXPECT_TRUE(c->Access(RnicCacheModel::QPC, 0));  // 1 is now least recent
    EXPECT_FALSE(c->Access(RnicCacheModel::QPC, 2)); // evicts 1
    EXPECT_TRUE(c->Access(RnicCacheModel::QPC, 0));
    EXPECT_FALSE(c->Access(RnicCacheModel::QPC, 1));
    EXPECT_EQ(c->GetHits(RnicCacheModel::QPC), 2u);
    EXPECT_EQ(c->GetMisses(RnicCacheModel::QPC), 4u);
    EXPECT_EQ(c->GetPcieReadBytes(), 4u * 210u);
    // Capacity from bytes when not overridden: 2 MiB / 375 B.
    Ptr<RnicCacheModel> d = CreateObject<RnicCacheModel>();
    EXPECT_EQ(d->GetEntries(RnicCacheModel::QPC), (2u << 20) / 375u);
    d->SetAttribute("WqeCacheBytes", UintegerValue(0));
    EXPECT_FALSE(d->Access(RnicCacheModel::WQE, 3));
    EXPECT_FALSE(d->Access(RnicCacheModel::WQE, 3)); // nothing kept
}

TEST(RdmaNicProfile, KnownNamesAndClearErrorForUnknown)
{
    for (const std::string& name : RdmaNicProfile::Names())
    {
        RdmaNicProfile p;
        ASSERT_NO_THROW(p = RdmaNicProfile::Lookup(name, JsonSchemaReader("test"), "")) << name;
        EXPECT_FALSE(p.source.empty());
        RdmaHelper h;
        EXPECT_NO_THROW(h.SetProfile(name, JsonSchemaReader("test"), ""));
    }
    RdmaNicProfile srnic;
    srnic = RdmaNicProfile::Lookup("Srnic", JsonSchemaReader("test"), "");
    EXPECT_FALSE(srnic.pfcExpected);
    EXPECT_EQ(srnic.sendHeaderBytes, 66u);
    EXPECT_EQ(srnic.writeHeaderBytes, 78u);
    std::string error;
    try
    {
        RdmaNicProfile::Lookup("cx7", JsonSchemaReader("where.json"), "/preset");
    }
    catch (const ConfigError& e)
    {
        error = e.what();
    }
    EXPECT_NE(error.find("where.json: /preset: "), std::string::npos) << error;
    EXPECT_NE(error.find("cx7"), std::string::npos);
    EXPECT_NE(error.find("Srnic"), std::string::npos);
}

TEST(QpScheduler, DefaultIsRoundRobinAndProfilesInstallTheirs)
{
    {
        RdmaHelper rdma;
        DcbHelper dcb;
        NodeContainer hosts(2);
        dcb.Install(hosts.Get(0), hosts.Get(1));
        Ptr<RdmaNic> a = rdma.Install(hosts.Get(0), Ipv4Address("10.0.0.1"));
        a->CreateQueuePair(Ipv4Address("10.0.0.2"));
        EXPECT_TRUE(DynamicCast<RoundRobinQpScheduler>(a->GetQpScheduler()));
        EXPECT_FALSE(a->GetCacheModel());
        rdma.SetProfile("Srnic", JsonSchemaReader("test"), "");
        Ptr<RdmaNic> b = rdma.Install(hosts.Get(1), Ipv4Address("10.0.0.2"));
        EXPECT_TRUE(DynamicCast<SrnicQpScheduler>(b->GetQpScheduler()));
        ASSERT_TRUE(b->GetCacheModel());
        EXPECT_GE(b->GetCacheModel()->GetEntries(RnicCacheModel::QPC), 16384u); // 4.4 MB / 210 B
        Simulator::Destroy();
    }
}

// SRNIC Fig. 9: SRNIC stays flat as QPs grow; CX-6 collapses past its ~256-QP cache.
TEST(SrnicScenario, Fig9ConnectionScalability)
{
    const Rates srnicFew = RunProfile("Srnic", 128, 512, 4);
    const Rates srnicMany = RunProfile("Srnic", 2048, 512, 4);
    const Rates cxFew = RunProfile("Cx6", 128, 512, 4);
    const Rates cxMany = RunProfile("Cx6", 2048, 512, 4);
    std::cout << "Fig. 9 (512 B SENDs): SRNIC " << srnicFew.gbps << " -> " << srnicMany.gbps
              << " Gb/s, CX-6 " << cxFew.gbps << " -> " << cxMany.gbps
              << " Gb/s (128 -> 2048 QPs); paper: SRNIC ~97 flat, CX-6 97 -> ~52\n";
    // 512 B payload in 594 B on the wire: 86 Gb/s of goodput at 100 Gb/s.
    EXPECT_GT(srnicFew.gbps, 80);
    EXPECT_GT(cxFew.gbps, 80);
    EXPECT_GT(srnicMany.gbps, 0.95 * srnicFew.gbps);
    EXPECT_LT(cxMany.gbps, 0.7 * cxFew.gbps);
    EXPECT_GT(cxMany.gbps, 0.4 * cxFew.gbps);
}

// SRNIC Fig. 10a: one QP is bounded by 8 WQEs per 1.1 us PCIe round trip (7.27 Mrps).
TEST(SrnicScenario, Fig10aMessageRateBoundByWqeFetch)
{
    const Rates small = RunProfile("Srnic", 1, 64, 64);
    const Rates large = RunProfile("Srnic", 1, 4096, 64);
    const Rates ideal = RunProfile("Irn", 1, 64, 64);
    RdmaHelper sixteen;
    sixteen.SetProfile("Srnic", JsonSchemaReader("test"), "");
    sixteen.SetQpSchedulerAttribute("WqesPerFetch", UintegerValue(16));
    const Rates wider = RunSends(sixteen, 1, 64, 64, MicroSeconds(100));
    std::cout << "Fig. 10a: SRNIC 64 B " << small.mrps << " Mrps (bound 7.27, paper 6.6), "
              << "4 KB " << large.gbps << " Gb/s; round robin without fetches " << ideal.mrps
              << " Mrps; 16 WQEs per fetch " << wider.mrps << " Mrps\n";
    EXPECT_GT(small.mrps, 6.0);
    EXPECT_LE(small.mrps, 8.0 / 1.1 + 0.05);
    EXPECT_GT(large.gbps, 90); // line rate from 4 KB messages (4096 of 4178 B on the wire)
    EXPECT_GT(ideal.mrps, 3 * small.mrps);
    EXPECT_GT(wider.mrps, 1.8 * small.mrps);
}

// SRNIC section 4.4.1: the header extensions cost 0.7 % (SEND) and 1.8 % (WRITE) of
// goodput at 1024 B MTU: 8 and 20 more bytes on 1024 + 62 + 24 wire bytes per packet.
TEST(SrnicScenario, HeaderExtensionGoodputCost)
{
    double ratio[2];
    for (RdmaVerb verb : {RdmaVerb::Send, RdmaVerb::Write})
    {
        double gbps[2];
        for (bool ext : {false, true})
        {
            RdmaHelper rdma;
            rdma.SetCongestionControl("ns3::RdmaNoCongestionControl");
            rdma.SetQueuePairAttribute("SrnicHeaderExtensions", BooleanValue(ext));
            gbps[ext] = RunSends(rdma, 1, 16384, 8, MilliSeconds(2), verb).gbps;
        }
        ratio[verb == RdmaVerb::Write] = gbps[1] / gbps[0];
    }
    std::cout << "SRNIC header extensions: SEND " << (1 - ratio[0]) * 100 << " %, WRITE "
              << (1 - ratio[1]) * 100 << " % goodput loss (paper 0.7 / 1.8)\n";
    EXPECT_NEAR(1 - ratio[0], 1 - 1110.0 / 1118.0, 0.002);
    // 16 KB WRITEs: the first packet has a RETH (4 B extension), 15 carry 20 B.
    EXPECT_NEAR(1 - ratio[1], 1 - 1110.0 / (1110.0 + (4 + 15 * 20) / 16.0), 0.002);
}

// READ responses echo the request's address and PSN offset (20 B each, SRNIC section
// 4.4.1): 16 KB READs lose 20 of every ~1110 wire bytes, like WRITE.
TEST(SrnicScenario, HeaderExtensionGoodputCostOfRead)
{
    double gbps[2];
    for (bool ext : {false, true})
    {
        RdmaHelper rdma;
        rdma.SetCongestionControl("ns3::RdmaNoCongestionControl");
        rdma.SetQueuePairAttribute("SrnicHeaderExtensions", BooleanValue(ext));
        gbps[ext] = RunSends(rdma, 1, 16384, 8, MilliSeconds(2), RdmaVerb::Read).gbps;
    }
    std::cout << "SRNIC header extensions: READ " << (1 - gbps[1] / gbps[0]) * 100
              << " % goodput loss (" << gbps[0] << " -> " << gbps[1] << " Gb/s)\n";
    // 16 responses of 1024 B, two with an AETH: 16 x 1110 + 8 wire bytes, +16 x 20.
    const double plain = 16 * 1110.0 + 8;
    EXPECT_NEAR(1 - gbps[1] / gbps[0], 1 - plain / (plain + 16 * 20), 0.002);
}

} // namespace
