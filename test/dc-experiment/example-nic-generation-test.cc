// Example: a NIC generation is a profile file, not a class. nic-profiles/gen1.json sets every
// knob of ns3::RdmaDcqcn (the one DCQCN TypeId) as Azure's Gen1 NIC runs them;
// merged into an experiment it makes every NIC a Gen1 NIC (gen2-gen3.json: a ConnectX-4+).
// doc/architecture.md points here.
#include "../rdma/dcqcn-profile.h"
#include "output-file-reader.h"

#include "ns3/experiment-runner.h"
#include "ns3/nic-profile.h"
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
        // The profile says every knob of the one DCQCN TypeId, and the NIC got each value.
        EXPECT_EQ(cc->GetInstanceTypeId(), RdmaDcqcn::GetTypeId());
        const auto attributes = test::DcqcnProfileAttributes(profile);
        EXPECT_EQ(attributes.size(), RdmaDcqcn::GetTypeId().GetAttributeN());
        for (const auto& [name, value] : attributes)
        {
            TypeId::AttributeInformation info;
            RdmaDcqcn::GetTypeId().LookupAttributeByName(name, &info);
            StringValue mine;
            cc->GetAttribute(name, mine);
            EXPECT_EQ(mine.Get(), value->SerializeToString(info.checker)) << name;
        }
        Simulator::Destroy();
    }
}

} // namespace
} // namespace ns3
