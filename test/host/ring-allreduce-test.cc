// RingAllreduce, the one ring collective (Maestro/QP rings and DFabric racks), with no network:
// its step schedule (pipelined vs lockstep), its traces and its step gate, over hops that
// take a scripted time per message; and the gate over DFabric rack hops.
#include "ns3/dfabric-rack-hop.h"
#include "ns3/enum.h"
#include "ns3/ring-allreduce.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

/// A hop whose k-th message takes times[k mod size] (µs) to be placed.
class ScriptedHop : public RingHop
{
  public:
    std::vector<uint64_t> times;
    std::vector<std::pair<uint64_t, uint64_t>> sent; //!< (bytes, offset) of each message

  private:
    void DoSend(uint64_t bytes, uint64_t offset) override
    {
        const Time t = MicroSeconds(times[sent.size() % times.size()]);
        sent.emplace_back(bytes, offset);
        Simulator::Schedule(t, &ScriptedHop::NotifyDone, this);
    }
};

/// A hop whose first \p slow messages take 10 µs and whose later ones are done within Send
/// (NotifyDone called from DoSend), as a QP in the error state flushes a work request at once.
class FailingHop : public RingHop
{
  public:
    uint32_t slow{1};
    uint32_t sent{0};

  private:
    void DoSend(uint64_t /* bytes */, uint64_t /* offset */) override
    {
        if (sent++ < slow)
        {
            Simulator::Schedule(MicroSeconds(10), &FailingHop::NotifyDone, this);
            return;
        }
        NotifyDone();
    }
};

void
RecordIteration(std::vector<uint32_t>* out, uint32_t iteration, Time /* communication */)
{
    out->push_back(iteration);
}

/// A ring of ScriptedHops: hop w's message times are times[w].
std::vector<Ptr<RingHop>>
MakeHops(const std::vector<std::vector<uint64_t>>& times, std::vector<Ptr<ScriptedHop>>* out)
{
    std::vector<Ptr<RingHop>> hops;
    for (const auto& t : times)
    {
        Ptr<ScriptedHop> h = CreateObject<ScriptedHop>();
        h->times = t;
        hops.push_back(h);
        if (out)
        {
            out->push_back(h);
        }
    }
    return hops;
}

void
RecordStep(std::vector<Time>* out, uint32_t /* iteration */, uint32_t /* step */, Time since)
{
    out->push_back(since);
}

void
Release(Callback<void> done)
{
    done();
}

/// The gate under test: holds each arrival for delay; records (step, rank, bytes).
void
DelayGate(Time delay, std::vector<std::tuple<uint32_t, uint32_t, uint64_t>>* calls, uint32_t step,
          uint32_t rank, uint64_t bytes, Callback<void> done)
{
    calls->emplace_back(step, rank, bytes);
    Simulator::Schedule(delay, &Release, done);
}

/// A gate that holds only rank 2's arrivals, the others' it releases at once (re-entrantly).
void
RankTwoGate(Time delay, uint32_t /* step */, uint32_t rank, uint64_t /* bytes */,
            Callback<void> done)
{
    if (rank == 2)
    {
        Simulator::Schedule(delay, &Release, done);
        return;
    }
    done();
}

class RingAllreduceTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    /// Run one iteration of a ring over hops of the given times; \return its step times.
    static std::vector<Time> Run(RingAllreduce::Schedule schedule,
                                 const std::vector<std::vector<uint64_t>>& times,
                                 RingAllreduce::StepGate gate = RingAllreduce::StepGate(),
                                 Time* total = nullptr)
    {
        Ptr<RingAllreduce> ring = CreateObject<RingAllreduce>();
        ring->SetAttribute("Schedule", EnumValue(schedule));
        ring->SetAttribute("ModelSize", UintegerValue(4000));
        ring->SetHops(MakeHops(times, nullptr));
        ring->SetStepGate(gate);
        std::vector<Time> steps;
        ring->TraceConnectWithoutContext("StepDone", MakeBoundCallback(&RecordStep, &steps));
        ring->Start();
        Simulator::Run();
        EXPECT_EQ(ring->GetCommunicationTimes().size(), 1u);
        if (total)
        {
            *total = ring->GetCommunicationTimes().at(0);
        }
        Simulator::Destroy();
        return steps;
    }

    static std::vector<Time> Micros(const std::vector<uint64_t>& us)
    {
        std::vector<Time> t;
        for (uint64_t u : us)
        {
            t.push_back(MicroSeconds(u));
        }
        return t;
    }
};

TEST_F(RingAllreduceTest, StepsSegmentsAndIterations)
{
    // 4 ranks, 4001 bytes: 2(N-1) = 6 steps of ceil(4001 / 4) = 1001 bytes; rank w sends
    // segment (k + w) mod N in step k; allgather is the last N-1 steps alone.
    std::vector<Ptr<ScriptedHop>> hops;
    Ptr<RingAllreduce> ring = CreateObject<RingAllreduce>();
    ring->SetAttribute("ModelSize", UintegerValue(4001));
    ring->SetAttribute("Iterations", UintegerValue(2));
    ring->SetAttribute("ComputeTime", TimeValue(MicroSeconds(5)));
    ring->SetHops(MakeHops({{10}, {10}, {10}, {10}}, &hops));
    EXPECT_EQ(ring->GetRanks(), 4u);
    EXPECT_EQ(ring->GetNSteps(), 6u);
    EXPECT_EQ(ring->GetSegmentBytes(), 1001u);
    ring->Start();
    Simulator::Run();
    EXPECT_EQ(ring->GetCommunicationTimes(),
              std::vector<Time>({MicroSeconds(60), MicroSeconds(60)}));
    EXPECT_EQ(Simulator::Now(), MicroSeconds(5 + 60 + 5 + 60));
    ASSERT_EQ(hops[1]->sent.size(), 12u);
    for (uint32_t k = 0; k < 12; ++k)
    {
        EXPECT_EQ(hops[1]->sent[k].first, 1001u);
        EXPECT_EQ(hops[1]->sent[k].second, ((k % 6 + 1) % 4) * 1001u);
    }
    Simulator::Destroy();

    Ptr<RingAllreduce> gather = CreateObject<RingAllreduce>();
    gather->SetAttribute("Pattern", EnumValue(RingAllreduce::ALLGATHER));
    gather->SetHops(MakeHops({{10}, {10}, {10}}, nullptr));
    EXPECT_EQ(gather->GetNSteps(), 2u);
    gather->Start();
    Simulator::Run();
    EXPECT_EQ(gather->GetCommunicationTimes().at(0), MicroSeconds(20));
}

TEST_F(RingAllreduceTest, PipelinedOverlapsWhatLockstepSerializes)
{
    // Hop 0's first message and hop 2's second take 20 us, every other 10 us. Lockstep waits
    // for the slowest hop of every step: 20 + 20 + 4 x 10. Pipelined, rank 2's slow step 1
    // overlaps rank 0's slow step 0 (rank 2 needs only rank 1's step 0): 70 us.
    const std::vector<std::vector<uint64_t>> times = {
        {20, 10, 10, 10, 10, 10}, {10}, {10, 20, 10, 10, 10, 10}, {10}};
    Time lockstep;
    Time pipelined;
    EXPECT_EQ(Run(RingAllreduce::LOCKSTEP, times, RingAllreduce::StepGate(), &lockstep),
              Micros({20, 40, 50, 60, 70, 80}));
    EXPECT_EQ(lockstep, MicroSeconds(80));
    EXPECT_EQ(Run(RingAllreduce::PIPELINED, times, RingAllreduce::StepGate(), &pipelined),
              Micros({20, 30, 40, 50, 60, 70}));
    EXPECT_EQ(pipelined, MicroSeconds(70));
}

TEST_F(RingAllreduceTest, StepGateHoldsEachArrival)
{
    // Control: no gate, 6 steps of 10 us. A gate of 5 us at every receiving rank adds 5 us
    // to every step under either schedule; it sees each (step, receiving rank) once, with
    // the segment's bytes.
    const std::vector<std::vector<uint64_t>> times = {{10}, {10}, {10}, {10}};
    for (auto schedule : {RingAllreduce::LOCKSTEP, RingAllreduce::PIPELINED})
    {
        Time control;
        Time gated;
        EXPECT_EQ(Run(schedule, times, RingAllreduce::StepGate(), &control),
                  Micros({10, 20, 30, 40, 50, 60}));
        std::vector<std::tuple<uint32_t, uint32_t, uint64_t>> calls;
        EXPECT_EQ(
            Run(schedule, times, MakeBoundCallback(&DelayGate, MicroSeconds(5), &calls), &gated),
            Micros({15, 30, 45, 60, 75, 90}));
        EXPECT_EQ(gated - control, 6 * MicroSeconds(5));
        ASSERT_EQ(calls.size(), 24u);
        std::vector<uint32_t> seen(24, 0);
        for (const auto& [step, rank, bytes] : calls)
        {
            EXPECT_EQ(bytes, 1000u);
            ASSERT_LT(step, 6u);
            ASSERT_LT(rank, 4u);
            ++seen[step * 4 + rank];
        }
        EXPECT_EQ(seen, std::vector<uint32_t>(24, 1));
    }
    // A gate that releases the other ranks from inside the call and rank 2 after 0 s changes
    // nothing; one that holds rank 2 for 5 us delays every lockstep step by 5 us.
    Time lockstep;
    EXPECT_EQ(Run(RingAllreduce::LOCKSTEP, times, MakeBoundCallback(&RankTwoGate, Seconds(0))),
              Micros({10, 20, 30, 40, 50, 60}));
    Run(RingAllreduce::LOCKSTEP, times, MakeBoundCallback(&RankTwoGate, MicroSeconds(5)),
        &lockstep);
    EXPECT_EQ(lockstep, MicroSeconds(90));
}

// A hop done within Send (a flushed work request on a failed QP) is reported as an event of
// its own. Before, the done callback ran inside the ring's own OnStepDone, which then counted
// the iteration's end a second time: sim-fuzz seed 4242014318 (an SRNIC QP ring allreduce
// whose QP failed with retries exceeded) reported 4 of 2 iterations finished.
TEST_F(RingAllreduceTest, AHopDoneWithinSendEndsEachIterationOnce)
{
    for (const auto schedule : {RingAllreduce::PIPELINED, RingAllreduce::LOCKSTEP})
    {
        Ptr<RingAllreduce> ring = CreateObject<RingAllreduce>();
        ring->SetAttribute("Schedule", EnumValue(schedule));
        ring->SetAttribute("ModelSize", UintegerValue(4));
        ring->SetAttribute("Iterations", UintegerValue(2));
        std::vector<Ptr<RingHop>> hops;
        for (uint32_t w = 0; w < 2; ++w)
        {
            Ptr<FailingHop> h = CreateObject<FailingHop>();
            h->slow = 2 + w; // hop 0 fails from iteration 1's first step, hop 1 from its second
            hops.push_back(h);
        }
        ring->SetHops(hops);
        std::vector<uint32_t> iterations;
        ring->TraceConnectWithoutContext("IterationDone",
                                         MakeBoundCallback(&RecordIteration, &iterations));
        ring->Start();
        Simulator::Run();
        EXPECT_EQ(iterations, (std::vector<uint32_t>{0, 1})) << schedule;
        EXPECT_EQ(ring->GetCommunicationTimes().size(), 2u) << schedule;
        for (const Ptr<RingHop>& h : hops)
        {
            EXPECT_FALSE(h->IsBusy());
        }
        Simulator::Destroy();
    }
}

TEST_F(RingAllreduceTest, StepGateOverDfabricRacks)
{
    // The DFabric ring (two racks of four nodes, 4 MiB, lockstep): a 1 us gate at every
    // receiving node ends each of the 14 steps 1 us later and changes nothing else (each
    // step's DMAs start on idle pools either way); the control is the same ring ungated.
    DfabricRackHelper helper;
    helper.SetNicAttribute("LineRate", DataRateValue(DataRate("100Gbps")));
    helper.SetNicPoolSize(2);
    Time took[2];
    std::vector<std::tuple<uint32_t, uint32_t, uint64_t>> calls;
    for (uint32_t gated = 0; gated < 2; ++gated)
    {
        Ptr<RingAllreduce> ring = CreateObject<RingAllreduce>();
        ring->SetAttribute("Schedule", EnumValue(RingAllreduce::LOCKSTEP));
        ring->SetAttribute("ModelSize", UintegerValue(4 << 20));
        ring->SetHops(DfabricRackHop::MakeRing({helper.Create(), helper.Create()}));
        if (gated)
        {
            ring->SetStepGate(MakeBoundCallback(&DelayGate, MicroSeconds(1), &calls));
        }
        ring->Start();
        Simulator::Run();
        took[gated] = ring->GetCommunicationTimes().at(0);
        Simulator::Destroy();
    }
    EXPECT_GT(took[0], MicroSeconds(100)); // 14 hops of 512 KiB at 2 x 100 Gb/s: > 293 us
    EXPECT_EQ(took[1] - took[0], 14 * MicroSeconds(1));
    EXPECT_EQ(calls.size(), 14u * 8);
}

} // namespace
