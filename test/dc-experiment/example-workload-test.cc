// Where to add a new workload (doc/architecture.md): an ExperimentWorkload that writes one
// 1 MB message from h1 to h0 on a QP pair of its own and is done at its completion. The run
// waits for it (past the flow's end) and stops at its completion, long before stop_time.
#include "topology-config.h"

#include "ns3/experiment-runner.h"
#include "ns3/rdma-helper.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>

namespace ns3
{
namespace
{

class OneWrite : public ExperimentWorkload
{
  public:
    void Start(ExperimentRunContext& context) override
    {
        Ptr<RdmaNic> from = context.GetTopology().GetNic(1);
        from->TraceConnectWithoutContext("Completion", MakeCallback(&OneWrite::OnDone, this));
        RdmaWorkRequest wr;
        wr.wrId = 1u << 30; // not a flow id: FlowWorkload ignores its completion
        wr.verb = RdmaVerb::Write;
        wr.length = 1000000;
        RdmaHelper::Connect(from, context.GetTopology().GetNic(0)).first->PostSend(wr);
    }

    bool IsDone() const override { return !end.IsZero(); }

    void OnDone(const RdmaCompletion& c)
    {
        end = c.wrId == 1u << 30 ? Simulator::Now() : end;
        NotifyDone(); // IsDone() from now on
    }

    Time end;
};

TEST(ExampleWorkloadTest, TheRunWaitsForAnAddedWorkloadAndStopsWhenItIsDone)
{
    const ExperimentConfig config =
        test::LoadTopology(R"({"type": "dumbbell", "hosts_per_side": 1})", "example-workload.json");
    OneWrite write;
    {
        ExperimentRunner runner(config, ROCE_LAB_BINARY_DIR "/test-output/example-workload");
        runner.AddWorkload(&write);
        runner.Run();
        EXPECT_GT(write.end, runner.GetFlowResults()[0].finish); // the flow did not end the run
        EXPECT_EQ(runner.GetEndTime(), write.end);               // the workload's completion did
    }
    Simulator::Destroy();
}

} // namespace
} // namespace ns3
