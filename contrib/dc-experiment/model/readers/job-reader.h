/*
 * Reads "jobs": GOAL schedule files mapped onto hosts, as workloads of an experiment.
 */
#ifndef JOB_READER_H
#define JOB_READER_H

#include "experiment-component-reader.h"
#include "experiment-job.h"

#include "ns3/experiment-topology.h"
#include "ns3/json-schema-reader.h"
#include "ns3/nstime.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * "jobs": [{"name", "goal": file | "steps": [...], "hosts": selection, "iterations",
 * "start", "executor": {GoalExecutor attributes}}, ...]. The GOAL file (relative to the
 * experiment file) is read and checked now (GoalScheduleReader: its errors name the file,
 * line and column); "hosts" (HostSelection's grammar) must select one host per rank of it,
 * rank r running on the r-th host selected. "steps" (JobStepReader) are compiled now
 * (JobStepCompiler) over as many ranks as "hosts" selects, with the executor's CalcUnit.
 */
class JobReader
{
  public:
    /** The most iterations of one job. */
    static constexpr uint64_t MAX_ITERATIONS = 1000000;

    /**
     * Read "jobs" (\p section, null when absent: none, \p effective untouched).
     * \param stop the run's stop_time: a job starts before it
     * \throw ExperimentConfigError
     */
    static std::vector<ExperimentJob> Read(const JsonSchemaReader& reader,
                                           const nlohmann::json* section,
                                           const std::string& pointer,
                                           const ExperimentTopology& topology,
                                           const ExperimentComponentReader& components, Time stop,
                                           nlohmann::ordered_json& effective);
};

} // namespace ns3

#endif /* JOB_READER_H */
