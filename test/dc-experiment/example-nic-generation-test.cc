// Example: a NIC generation is a profile file, not a class. nic-profiles/gen1.json sets the
// DCQCN knobs (ns3::RdmaDcqcnFirmware exposes them all) as Azure's Gen1 NIC runs them;
// merged into an experiment it makes every NIC a Gen1 NIC (gen2-gen3.json: a ConnectX-4+).
// doc/architecture.md points here.
#include "output-file-reader.h"

#include "ns3/experiment-runner.h"
#include "ns3/nic-profile.h"
#include "ns3/rdma-dcqcn-firmware.h"
#include "ns3/rdma-dcqcn-gen1.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <gtest/gtest.h>

namespace ns3
{
namespace
{

TEST(ExampleNicGeneration, ProfilesGiveEveryNicTheGenerationsDcqcn)
{
    for (const std::string profile : {"gen1", "gen2-gen3"})
    {
        SCOPED_TRACE(profile);
        const ExperimentConfig c =
            NicProfile::Load(test::CONFIGS + "dumbbell-small.json",
                             test::CONFIGS + "nic-profiles/" + profile + ".json", {});
        ExperimentRunner runner(c, std::string(ROCE_LAB_BINARY_DIR) +
                                       "/test-output/example-nic-generation/" + profile);
        runner.Run();
        EXPECT_EQ(runner.GetFinishedFlows(), 3u);
        const bool gen1 = profile == "gen1";
        // Gen1's notification point is firmware: at most one CNP per 5 us per NIC.
        EXPECT_EQ(runner.GetTopology().GetNic(2)->GetCnpFirmware() != nullptr, gen1);
        Ptr<RdmaCongestionOps> cc = runner.GetTopology().GetNic(0)->GetCongestionControl();
        // The profile is the configuration of the TypeId kept for older files.
        const TypeId reference = gen1 ? RdmaDcqcnGen1::GetTypeId() : RdmaDcqcnFirmware::GetTypeId();
        Ptr<RdmaDcqcn> defaults = gen1 ? RdmaDcqcnGen1::Create() : RdmaDcqcnFirmware::Create();
        for (TypeId t = reference; t != RdmaCongestionOps::GetTypeId(); t = t.GetParent())
        {
            for (std::size_t i = 0; i < t.GetAttributeN(); ++i)
            {
                StringValue mine;
                StringValue theirs;
                cc->GetAttribute(t.GetAttribute(i).name, mine);
                defaults->GetAttribute(t.GetAttribute(i).name, theirs);
                EXPECT_EQ(mine.Get(), theirs.Get()) << t.GetAttribute(i).name;
            }
        }
        Simulator::Destroy();
    }
}

} // namespace
} // namespace ns3
