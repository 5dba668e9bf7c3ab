/*
 * One experiment run for the dc-experiment tests: a JSON experiment loaded as if it were a
 * file among the shipped configs (so its relative paths and profile names resolve), run
 * into an output directory, the simulator destroyed afterwards.
 */
#ifndef ROCE_LAB_TEST_SHIPPED_EXPERIMENT_RUN_H
#define ROCE_LAB_TEST_SHIPPED_EXPERIMENT_RUN_H

#include "output-file-reader.h"

#include "ns3/experiment-config.h"
#include "ns3/experiment-runner.h"
#include "ns3/simulator.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{
namespace test
{

/** \return \p j loaded as the file configs/\p asFile. */
inline ExperimentConfig
LoadAsShipped(const nlohmann::json& j, const std::string& asFile)
{
    return ExperimentConfig::LoadString(j.dump(), CONFIGS + asFile);
}

/**
 * Run \p j (loaded as configs/\p asFile) into \p dir, then Simulator::Destroy().
 * \return the number of flows that did not finish.
 */
inline uint64_t
RunAsShipped(const nlohmann::json& j, const std::string& asFile, const std::string& dir)
{
    uint64_t unfinished = 0;
    {
        const ExperimentConfig config = LoadAsShipped(j, asFile);
        ExperimentRunner runner(config, dir);
        runner.Run();
        unfinished = runner.GetFlowResults().size() - runner.GetFinishedFlows();
    }
    Simulator::Destroy();
    return unfinished;
}

} // namespace test
} // namespace ns3

#endif
