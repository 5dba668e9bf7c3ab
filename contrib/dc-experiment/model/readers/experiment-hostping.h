/*
 * The "monitors"/"hostping" section of an experiment file: Hostping's hardware
 * monitor (NSDI'23 §4.2, §5) on chosen hosts.
 */
#ifndef EXPERIMENT_HOSTPING_H
#define EXPERIMENT_HOSTPING_H

#include "ns3/experiment-component.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Which hosts get an ns3::HostpingMonitor, with which attributes (doc/dc-experiment.md,
 * "Monitors"); HostpingRunMonitor attaches them and writes hostping.csv.
 */
struct ExperimentHostping
{
    bool enabled{false};
    std::vector<uint32_t> hosts; //!< host indices, ascending
    ExperimentComponent monitor; //!< ns3::HostpingMonitor attributes the file sets
};

} // namespace ns3

#endif /* EXPERIMENT_HOSTPING_H */
