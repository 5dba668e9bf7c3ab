/*
 * Reads the "steps" of a hand-written job (compute, collectives, sends) and checks them.
 */
#ifndef JOB_STEP_READER_H
#define JOB_STEP_READER_H

#include "ns3/job-step-compiler.h"
#include "ns3/json-schema-reader.h"
#include "ns3/nstime.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * A job's "steps" (doc/dc-experiment.md, "Jobs"): a non-empty array of steps, each an
 * object with one of the keys
 * - "compute": duration (> 0): a calc on every rank, of duration / CalcUnit units (the
 *   duration must be a whole number of the executor's CalcUnit, so that it is exact);
 * - "collective": "allreduce" | "reduce_scatter" | "allgather" | "alltoall", with "bytes"
 *   (each rank's buffer, at least one byte per rank; the tree: per chunk), "algorithm"
 *   ("ring"; allreduce: "ring" or "tree"; all-to-all: "linear_shift"), for the tree
 *   "chunks" (the pipeline's chunks: default 8, or bytes if fewer) and, for allreduce and
 *   reduce_scatter, "reduce" (duration, default 0s: the reduction of each received chunk);
 * - "send": {"from": rank, "to": rank, "bytes": N};
 * - "pipeline": {"bytes": N, "compute": duration (default 0s: each rank's stage)}.
 * Every problem is an ExperimentConfigError at the JSON pointer of the field, naming what
 * is accepted. JobStepCompiler turns the steps into a GoalSchedule.
 */
class JobStepReader
{
  public:
    /** The most operations the steps of a job may compile to (about 100 B each). */
    static constexpr uint64_t MAX_OPS = 50000000;

    /**
     * Read \p steps (at \p pointer) of a job of \p ranks ranks whose executor's CalcUnit is
     * \p calcUnit.
     * \param[out] effective the steps in config.json's form (every default written)
     * \throw ExperimentConfigError
     */
    static std::vector<JobStep> Read(const JsonSchemaReader& reader, const nlohmann::json& steps,
                                     const std::string& pointer, uint32_t ranks, Time calcUnit,
                                     nlohmann::ordered_json& effective);
};

} // namespace ns3

#endif /* JOB_STEP_READER_H */
