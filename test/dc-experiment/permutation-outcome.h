/*
 * The load-balancing scenario tests' measure of one run of the shipped permutation
 * (configs/load-balancing-permutation.json: 16 hosts, 100 Gb/s links, 500 us, flows longer
 * than the run): the experiment run into its output directory, then what flows.csv says.
 */
#ifndef ROCE_LAB_TEST_PERMUTATION_OUTCOME_H
#define ROCE_LAB_TEST_PERMUTATION_OUTCOME_H

#include "output-file-reader.h"

#include "ns3/experiment-config.h"
#include "ns3/experiment-runner.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{
namespace test
{

/** What a run of the permutation gives. */
struct PermutationOutcome
{
    double fraction{0};        //!< payload delivered / (16 flows x 100 Gb/s x 500 us)
    double slowest{0};         //!< the same for the slowest flow alone
    uint64_t reordered{0};     //!< out-of-order arrivals over all flows
    uint64_t maxDistance{0};   //!< largest reorder distance over the flows
    uint64_t retransmitted{0}; //!< over all flows

    static constexpr double HOSTS = 16;
    static constexpr double LINK_BPS = 100e9;
    static constexpr double RUN_S = 500e-6;

    /**
     * Run \p j (named \p name, into OutputDir(\p name)), then Simulator::Destroy(); print
     * and \return its outcome. \p reorderColumns: flows.csv has the reordering columns (a
     * load balancer or NIC entropy is on).
     */
    static PermutationOutcome Run(const nlohmann::json& j, const std::string& name,
                                  bool reorderColumns)
    {
        const ExperimentConfig config = ExperimentConfig::LoadString(j.dump(), name + ".json");
        const std::string dir = OutputDir(name);
        {
            ExperimentRunner runner(config, dir);
            runner.Run();
        }
        Simulator::Destroy();
        PermutationOutcome o;
        double bytes = 0;
        double slowest = 1e300;
        for (const auto& row : Table(dir + "/flows.csv"))
        {
            bytes += std::stod(row.at("delivered_bytes"));
            slowest = std::min(slowest, std::stod(row.at("delivered_bytes")));
            o.retransmitted += std::stoull(row.at("retransmitted_packets"));
            if (reorderColumns)
            {
                o.reordered += std::stoull(row.at("reordered_packets"));
                o.maxDistance =
                    std::max<uint64_t>(o.maxDistance, std::stoull(row.at("max_reorder_distance")));
            }
        }
        o.fraction = bytes * 8 / (HOSTS * LINK_BPS * RUN_S);
        o.slowest = slowest * 8 / (LINK_BPS * RUN_S);
        std::cout << name << ": fraction " << o.fraction << ", slowest " << o.slowest
                  << ", reordered " << o.reordered << ", max distance " << o.maxDistance
                  << ", retransmitted " << o.retransmitted << std::endl;
        return o;
    }
};

} // namespace test
} // namespace ns3

#endif
