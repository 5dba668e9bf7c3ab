// What a NIC reads from host memory besides payload goes through the node's host model: the
// fetch schedulers' WQE batches and cache fills, the transmit pipeline's per-work-request WQE
// reads and the Gen1 receive-side QPC cache's fills load the host's PCIe links, so a DMA that
// competes with them finishes later; without the host model (or without the reads) it does not.
#include "ns3/cached-qp-scheduler.h"
#include "ns3/dcb-helper.h"
#include "ns3/host-model.h"
#include "ns3/host-preset-helper.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-rx-qpc-cache.h"
#include "ns3/rdma-tx-pipeline.h"
#include "ns3/rnic-cache-model.h"
#include "ns3/simulator.h"
#include "ns3/srnic-qp-scheduler.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint64_t BACKGROUND = 65536; //!< bytes of the competing DMA read

/// A plain server whose RNIC sits on PCIe Gen3 x1 (~7.9 Gb/s): small reads load it visibly.
Ptr<HostModel>
NarrowHost()
{
    Ptr<HostModel> host = HostPresetHelper().CreatePlainServer();
    host->GetResource("pcie-rnic0")->SetAttribute("Generation", UintegerValue(3));
    host->GetResource("pcie-rnic0")->SetAttribute("Lanes", UintegerValue(1));
    return host;
}

/// Sums the bytes of the DMAs a host model completes.
struct DmaBytes
{
    uint64_t bytes{0};
    uint64_t dmas{0};

    void Add(uint32_t /* initiator */, uint32_t /* target */, uint64_t b, Time /* latency */)
    {
        bytes += b;
        dmas++;
    }
};

/// Latency of a competing DMA read of BACKGROUND bytes, rnic0 <- mem0, started at 0.
struct Background
{
    Time latency;

    void Start(Ptr<HostModel> host)
    {
        host->RequestDma(host->GetResourceId("rnic0"), host->GetResourceId("mem0"),
                         HostModel::DMA_READ, BACKGROUND, MakeCallback(&Background::Done, this));
    }

    void Done(Time l) { latency = l; }
};

/// Two NICs back to back at 100 Gb/s, 1 KB MTU.
struct Pair
{
    Ptr<RdmaNic> a;
    Ptr<RdmaNic> b;

    explicit Pair(RdmaHelper& rdma)
    {
        DcbHelper dcb;
        dcb.SetDeviceAttribute("DataRate", DataRateValue(DataRate("100Gbps")));
        dcb.SetChannelAttribute("Delay", TimeValue(NanoSeconds(500)));
        rdma.SetQueuePairAttribute("Mtu", UintegerValue(1024));
        NodeContainer hosts(2);
        dcb.Install(hosts.Get(0), hosts.Get(1));
        a = rdma.Install(hosts.Get(0), Ipv4Address("10.0.0.1"));
        b = rdma.Install(hosts.Get(1), Ipv4Address("10.0.0.2"));
    }
};

/// Post \p n WRITEs of \p bytes on one new QP from \p p.a to \p p.b.
void
PostWrites(Pair& p, uint32_t n, uint32_t bytes, RdmaVerb verb = RdmaVerb::Write)
{
    Ptr<RdmaQueuePair> qa = RdmaHelper::Connect(p.a, p.b).first;
    RdmaWorkRequest wr;
    wr.verb = verb;
    wr.length = bytes;
    for (uint32_t i = 0; i < n; ++i)
    {
        wr.wrId = i;
        qa->PostSend(wr);
    }
}

class HostFetchTrafficTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }
};

/// SRNIC: each turn's batch of WQEs is one DMA read of min(8, unsent) x 64 B on the host path.
/// The scheduler alone is on the host model, so its fetches are the only host traffic.
struct SrnicRun
{
    Time background;
    uint64_t wqeBytes{0};
    uint64_t fetchBytes{0};
    uint64_t fetches{0};
    uint64_t hostDmaBytes{0};
};

SrnicRun
RunSrnic(bool hostModel, uint32_t wqeBytes)
{
    RdmaHelper rdma;
    rdma.SetQpScheduler("ns3::SrnicQpScheduler");
    rdma.SetQpSchedulerAttribute("WqeBytes", UintegerValue(wqeBytes));
    Pair p(rdma);
    Ptr<SrnicQpScheduler> s = DynamicCast<SrnicQpScheduler>(p.a->GetQpScheduler());
    Ptr<HostModel> host = NarrowHost();
    DmaBytes dma;
    host->TraceConnectWithoutContext("DmaComplete", MakeCallback(&DmaBytes::Add, &dma));
    if (hostModel)
    {
        s->SetHostModel(host, host->GetResourceId("rnic0"), host->GetResourceId("mem0"));
    }
    Background bg;
    bg.Start(host);
    PostWrites(p, 2000, 64);
    Simulator::Run();
    SrnicRun r;
    r.background = bg.latency;
    r.wqeBytes = s->GetHostWqeBytes();
    r.fetchBytes = s->GetHostFetchBytes();
    r.fetches = s->GetFetches();
    r.hostDmaBytes = dma.bytes - BACKGROUND;
    Simulator::Destroy();
    return r;
}

TEST_F(HostFetchTrafficTest, SrnicWqeBatchesAreDmaReadsOnTheHostPcie)
{
    const SrnicRun alone = RunSrnic(false, 64);
    const SrnicRun loaded = RunSrnic(true, 64);
    // Control: without a host model nothing is read and the competing read runs alone.
    EXPECT_EQ(alone.wqeBytes, 0u);
    EXPECT_EQ(alone.hostDmaBytes, 0u);
    // 2000 one-packet WRITEs, at most 8 per turn: at least 250 fetches of up to 512 B, and
    // every WQE is read at least once. No cache model: WQEs are all the fetch reads.
    EXPECT_GE(loaded.fetches, 250u);
    EXPECT_GE(loaded.wqeBytes, 2000u * 64);
    EXPECT_LE(loaded.wqeBytes, loaded.fetches * 8 * 64);
    EXPECT_EQ(loaded.fetchBytes, loaded.wqeBytes);
    EXPECT_EQ(loaded.hostDmaBytes, loaded.wqeBytes); // every byte crossed the host model
    // Alone the 64 KB read takes ~80 us on Gen3 x1; the batches take a share (~193 us).
    EXPECT_GT(loaded.background.GetNanoSeconds(), alone.background.GetNanoSeconds() * 1.5)
        << "alone " << alone.background.As(Time::US) << ", with the WQE batches "
        << loaded.background.As(Time::US);
    // Smaller WQEs load it less: the effect is the bytes, not the DMA count.
    const SrnicRun small = RunSrnic(true, 8);
    EXPECT_LT(small.background, loaded.background);
}

/// ConnectX: the WQE-cache fill reads a QP's WQE on a miss; a work request that opens on a hit
/// is read by the transmit pipeline; no WQE is read twice.
TEST_F(HostFetchTrafficTest, CachedSchedulerReadsEveryWqeOnce)
{
    RdmaHelper rdma;
    rdma.SetQpScheduler("ns3::CachedQpScheduler");
    rdma.SetCacheModel("ns3::RnicCacheModel");
    Pair p(rdma);
    Ptr<CachedQpScheduler> s = DynamicCast<CachedQpScheduler>(p.a->GetQpScheduler());
    Ptr<HostModel> host = NarrowHost();
    ASSERT_EQ(p.a->SetHostModel(host, "rnic0", "mem0"), "");
    s->SetHostModel(host, host->GetResourceId("rnic0"), host->GetResourceId("mem0"));
    const uint32_t n = 100;
    PostWrites(p, n, 64);
    Simulator::Run();
    Ptr<RnicCacheModel> cache = p.a->GetCacheModel();
    // One QP, a cache far larger: only the first turn misses (QPC 375 + MTT 8 + WQE 64 B).
    EXPECT_EQ(cache->GetMisses(RnicCacheModel::WQE), 1u);
    EXPECT_EQ(s->GetHostFetchBytes(), 375u + 8 + 64);
    EXPECT_EQ(s->GetHostWqeBytes(), 0u); // ConnectX reads WQEs as cache fills, not batches
    const RdmaTxCounters& tx = p.a->GetTxPipeline()->GetCounters();
    EXPECT_EQ(tx.wqeReads, n - 1); // the first WQE came with the miss's fill
    EXPECT_EQ(tx.wqeReadBytes, (n - 1) * 64u);
}

/// A cache too small for the QPs: every turn misses and refills the WQE; the pipeline reads
/// none itself.
TEST_F(HostFetchTrafficTest, CachedSchedulerMissesReadWqesAsFills)
{
    RdmaHelper rdma;
    rdma.SetQpScheduler("ns3::CachedQpScheduler");
    rdma.SetCacheModel("ns3::RnicCacheModel");
    rdma.SetCacheModelAttribute("EffectiveQpcEntries", UintegerValue(1));
    rdma.SetCacheModelAttribute("WqeCacheBytes", UintegerValue(64));
    rdma.SetCacheModelAttribute("MttCacheBytes", UintegerValue(8));
    Pair p(rdma);
    Ptr<CachedQpScheduler> s = DynamicCast<CachedQpScheduler>(p.a->GetQpScheduler());
    Ptr<HostModel> host = NarrowHost();
    ASSERT_EQ(p.a->SetHostModel(host, "rnic0", "mem0"), "");
    s->SetHostModel(host, host->GetResourceId("rnic0"), host->GetResourceId("mem0"));
    for (uint32_t q = 0; q < 4; ++q)
    {
        PostWrites(p, 10, 64);
    }
    Simulator::Run();
    Ptr<RnicCacheModel> cache = p.a->GetCacheModel();
    const uint64_t misses = cache->GetMisses(RnicCacheModel::WQE);
    EXPECT_GE(misses, 30u); // four QPs in round robin through a one-entry cache
    EXPECT_EQ(s->GetHostFetchBytes(), misses * (375u + 8 + 64));
    const RdmaTxCounters& tx = p.a->GetTxPipeline()->GetCounters();
    EXPECT_EQ(tx.wqeReads, 40u - misses); // work requests that opened on a (rare) hit
}

/// Round robin (no fetch model): the transmit pipeline reads each work request's WQE. READ
/// requests carry no payload, so the WQE reads are all the requester reads from its host
/// (500 x 64 B = 32 KB against the 64 KB read: ~80 us alone, ~119 us with them).
struct RoundRobinRun
{
    Time background;
    uint64_t wqeReads{0};
    uint64_t payloadReads{0};
};

RoundRobinRun
RunRoundRobinReads(uint32_t wqeBytes)
{
    RdmaHelper rdma;
    Pair p(rdma);
    Ptr<HostModel> host = NarrowHost();
    EXPECT_EQ(p.a->SetHostModel(host, "rnic0", "mem0"), "");
    p.a->GetTxPipeline()->SetAttribute("WqeBytes", UintegerValue(wqeBytes));
    Background bg;
    bg.Start(host);
    PostWrites(p, 500, 64, RdmaVerb::Read);
    Simulator::Run();
    RoundRobinRun r;
    r.background = bg.latency;
    r.wqeReads = p.a->GetTxPipeline()->GetCounters().wqeReads;
    r.payloadReads = p.a->GetTxPipeline()->GetCounters().dmaReads;
    Simulator::Destroy();
    return r;
}

TEST_F(HostFetchTrafficTest, RoundRobinNicReadsEachWqeThroughTheHost)
{
    const RoundRobinRun none = RunRoundRobinReads(0);
    const RoundRobinRun wqes = RunRoundRobinReads(64);
    EXPECT_EQ(none.wqeReads, 0u);
    EXPECT_EQ(wqes.wqeReads, 500u);
    EXPECT_EQ(wqes.payloadReads, 0u); // READ requests: no payload
    EXPECT_GT(wqes.background.GetNanoSeconds(), none.background.GetNanoSeconds() * 1.3)
        << "without WQE reads " << none.background.As(Time::US) << ", with "
        << wqes.background.As(Time::US);
}

/// Gen1 receive QPC cache: with a host model a miss reads the context (EntryBytes) by DMA and
/// costs the path's round trip; without one it costs MissPenalty and reads nothing.
TEST_F(HostFetchTrafficTest, RxQpcCacheMissesReadContextsThroughTheHost)
{
    RdmaHelper rdma;
    Pair p(rdma);
    Ptr<HostModel> host = NarrowHost();
    DmaBytes dma;
    host->TraceConnectWithoutContext("DmaComplete", MakeCallback(&DmaBytes::Add, &dma));
    Ptr<RdmaRxQpcCache> cache = CreateObject<RdmaRxQpcCache>();
    cache->Install(p.b);
    const uint32_t qpn = RdmaNic::FIRST_QPN;
    // No host model: MissPenalty (1.1 us), nothing read.
    EXPECT_EQ(cache->ServiceDelay(qpn, 1024), NanoSeconds(1100));
    EXPECT_EQ(cache->ServiceDelay(qpn, 1024), Time(0));
    EXPECT_EQ(cache->GetHostFillBytes(), 0u);
    ASSERT_EQ(p.b->SetHostModel(host, "rnic0", "mem0"), "");
    const Time rtt =
        host->GetPathLatency(host->GetResourceId("rnic0"), host->GetResourceId("mem0"));
    ASSERT_NE(rtt, NanoSeconds(1100));
    EXPECT_EQ(cache->ServiceDelay(qpn + 1, 1024), rtt);
    EXPECT_EQ(cache->ServiceDelay(qpn + 1, 1024), Time(0)); // a hit reads nothing
    EXPECT_EQ(cache->GetHostFillBytes(), 375u);
    Simulator::Run();
    EXPECT_EQ(dma.bytes, 375u);
    EXPECT_EQ(dma.dmas, 1u);
}

/// Many misses at once load the link: a competing read finishes later than with all hits.
Time
RxMissesBackground(uint32_t entries)
{
    RdmaHelper rdma;
    Pair p(rdma);
    Ptr<HostModel> host = NarrowHost();
    Ptr<RdmaRxQpcCache> cache = CreateObject<RdmaRxQpcCache>();
    cache->SetAttribute("Entries", UintegerValue(entries));
    cache->Install(p.b);
    EXPECT_EQ(p.b->SetHostModel(host, "rnic0", "mem0"), "");
    for (uint32_t q = 0; q < 8; ++q)
    {
        cache->ServiceDelay(RdmaNic::FIRST_QPN + q, 1024); // warm: 8 cold misses either way
    }
    Background bg;
    bg.Start(host);
    for (uint32_t i = 0; i < 400; ++i)
    {
        cache->ServiceDelay(RdmaNic::FIRST_QPN + i % 8, 1024); // 8 QPs interleaved
    }
    Simulator::Run();
    const Time latency = bg.latency;
    Simulator::Destroy();
    return latency;
}

TEST_F(HostFetchTrafficTest, RxQpcCacheMissesCompeteWithPayloadDma)
{
    const Time hits = RxMissesBackground(64);  // 8 QPs fit: every lookup hits
    const Time misses = RxMissesBackground(4); // LRU of 4 over 8 QPs in a cycle: all miss
    // 400 x 375 B = 150 KB of contexts against the 64 KB read: ~84 us with hits, ~265 us.
    EXPECT_GT(misses.GetNanoSeconds(), hits.GetNanoSeconds() * 2)
        << "all hits " << hits.As(Time::US) << ", all misses " << misses.As(Time::US);
}

} // namespace
