#include "job-step-reader.h"

#include "ns3/goal-schedule-reader.h"
#include "ns3/json-attribute-converter.h"

#include <algorithm>
#include <map>
#include <set>

namespace ns3
{

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

namespace
{

/** The keys that name a step's kind, in the order errors list them. */
const std::vector<std::string> KINDS = {"compute", "collective", "send", "pipeline"};

/** The collectives, their algorithms (the first is the default) and kinds. */
struct Collective
{
    std::vector<std::pair<std::string, JobStepKind>> algorithms;
    bool reduces; //!< takes "reduce"
};

const std::map<std::string, Collective> COLLECTIVES = {
    {"allreduce", {{{"ring", JobStepKind::Allreduce}, {"tree", JobStepKind::TreeAllreduce}}, true}},
    {"reduce_scatter", {{{"ring", JobStepKind::ReduceScatter}}, true}},
    {"allgather", {{{"ring", JobStepKind::Allgather}}, false}},
    {"alltoall", {{{"linear_shift", JobStepKind::Alltoall}}, false}},
};

/**
 * The tree all-reduce's default chunk count: the depth of NCCL's pipeline, whose
 * connection buffers hold NCCL_STEPS = 8 chunks in flight (src/include/device.h).
 */
constexpr uint32_t DEFAULT_TREE_CHUNKS = 8;

/**
 * \return \p time in units of \p calcUnit; fail at \p pointer when it is not a whole
 * number of them.
 */
uint64_t
CalcAmount(const JsonSchemaReader& reader, Time time, Time calcUnit, const std::string& pointer)
{
    if (time.IsZero())
    {
        return 0;
    }
    const int64_t unit = calcUnit.GetTimeStep();
    if (unit <= 0)
    {
        reader.Fail(pointer, "the job's executor has CalcUnit 0, in which no calc takes time: "
                             "give executor/CalcUnit a duration that divides this one");
    }
    if (time.GetTimeStep() % unit != 0)
    {
        reader.Fail(pointer, JsonAttributeConverter::FormatTime(time) +
                                 " is not a whole number of the executor's CalcUnit (" +
                                 JsonAttributeConverter::FormatTime(calcUnit) +
                                 "): a calc counts whole units; give a multiple of it, or a "
                                 "finer executor/CalcUnit");
    }
    return static_cast<uint64_t>(time.GetTimeStep() / unit);
}

/** \return a message size ("bytes" of \p object at \p pointer): [1, 2^63]. */
uint64_t
Bytes(const JsonSchemaReader& reader, const Json& object, const std::string& pointer)
{
    return reader.GetUint(object, pointer, "bytes", std::nullopt, 1, GoalScheduleReader::MAX_SIZE);
}

/** Fail at \p pointer unless the job has at least 2 ranks. */
void
NeedTwoRanks(const JsonSchemaReader& reader, uint32_t ranks, const std::string& pointer)
{
    if (ranks < 2)
    {
        reader.Fail(pointer,
                    "needs at least 2 ranks; the job's \"hosts\" select " + std::to_string(ranks));
    }
}

/** Read step \p e (at \p p) of a job of \p ranks ranks; \p eff gets its effective form. */
JobStep
ReadStep(const JsonSchemaReader& reader, const Json& e, const std::string& p, uint32_t ranks,
         Time calcUnit, OrderedJson& eff)
{
    reader.RequireObject(e, p);
    std::vector<std::string> allKeys = KINDS;
    allKeys.insert(allKeys.end(), {"algorithm", "bytes", "reduce", "chunks"});
    reader.CheckKeys(e, p, allKeys);
    std::string kind;
    for (const std::string& k : KINDS)
    {
        if (!JsonSchemaReader::Find(e, k))
        {
            continue;
        }
        if (!kind.empty())
        {
            reader.Fail(JsonSchemaReader::Child(p, k),
                        "a step is one of " + JsonSchemaReader::JoinNames(KINDS) +
                            ": this one is already a \"" + kind + "\" step");
        }
        kind = k;
    }
    if (kind.empty())
    {
        reader.Fail(p, "a step has one of the keys " + JsonSchemaReader::JoinNames(KINDS) +
                           " (doc/dc-experiment.md, \"Jobs\")");
    }
    JobStep step;
    const std::string kp = JsonSchemaReader::Child(p, kind);
    if (kind == "compute")
    {
        reader.CheckKeys(e, p, {"compute"});
        const Time t = reader.GetTime(e, p, "compute", std::nullopt, Seconds(0));
        if (t.IsZero())
        {
            reader.Fail(kp, "a compute step takes time: expected a duration above 0s");
        }
        step.kind = JobStepKind::Compute;
        step.calc = CalcAmount(reader, t, calcUnit, kp);
        eff["compute"] = JsonAttributeConverter::FormatTime(t);
    }
    else if (kind == "collective")
    {
        std::set<std::string> names;
        for (const auto& [name, c] : COLLECTIVES)
        {
            names.insert(name);
        }
        const std::string name = reader.GetString(e, p, "collective", std::nullopt, names);
        const Collective& c = COLLECTIVES.at(name);
        std::vector<std::string> keys = {"collective", "algorithm", "bytes"};
        if (c.reduces)
        {
            keys.push_back("reduce");
        }
        if (c.algorithms.size() > 1)
        {
            keys.push_back("chunks");
        }
        reader.CheckKeys(e, p, keys);
        NeedTwoRanks(reader, ranks, kp);
        std::set<std::string> accepted;
        for (const auto& a : c.algorithms)
        {
            accepted.insert(a.first);
        }
        const std::string algorithm =
            reader.GetString(e, p, "algorithm", c.algorithms.front().first, accepted);
        for (const auto& a : c.algorithms)
        {
            step.kind = a.first == algorithm ? a.second : step.kind;
        }
        const bool tree = step.kind == JobStepKind::TreeAllreduce;
        if (!tree && JsonSchemaReader::Find(e, "chunks"))
        {
            reader.Fail(JsonSchemaReader::Child(p, "chunks"),
                        "\"chunks\" is the pipeline depth of \"algorithm\": \"tree\"; the " +
                            algorithm + " algorithm cuts the buffer into one chunk per rank");
        }
        step.bytes = Bytes(reader, e, p);
        if (tree)
        {
            // The default, for a buffer of fewer bytes than that: one chunk per byte.
            step.chunks = static_cast<uint32_t>(
                reader.GetUint(e, p, "chunks", std::min<uint64_t>(DEFAULT_TREE_CHUNKS, step.bytes),
                               1, JobStepReader::MAX_OPS));
            if (step.bytes < step.chunks)
            {
                reader.Fail(JsonSchemaReader::Child(p, "bytes"),
                            std::to_string(step.bytes) + " B in " + std::to_string(step.chunks) +
                                " chunks: expected at least one byte per chunk (the buffer is "
                                "cut into \"chunks\" chunks, bytes / chunks each, the last "
                                "with the remainder)");
            }
        }
        else if (step.bytes < ranks)
        {
            reader.Fail(JsonSchemaReader::Child(p, "bytes"),
                        std::to_string(step.bytes) + " B over " + std::to_string(ranks) +
                            " ranks: expected at least one byte per rank (each rank's buffer "
                            "is cut into one chunk per rank, bytes / ranks each, the last "
                            "with the remainder)");
        }
        eff["collective"] = name;
        eff["algorithm"] = algorithm;
        eff["bytes"] = step.bytes;
        if (tree)
        {
            eff["chunks"] = step.chunks;
        }
        if (c.reduces)
        {
            const Time reduce = reader.GetTime(e, p, "reduce", "0s", Seconds(0));
            step.calc = CalcAmount(reader, reduce, calcUnit, JsonSchemaReader::Child(p, "reduce"));
            eff["reduce"] = JsonAttributeConverter::FormatTime(reduce);
        }
    }
    else if (kind == "send")
    {
        reader.CheckKeys(e, p, {"send"});
        const Json& s = e.at("send");
        reader.CheckKeys(s, kp, {"from", "to", "bytes"});
        NeedTwoRanks(reader, ranks, kp);
        step.kind = JobStepKind::Send;
        step.from =
            static_cast<uint32_t>(reader.GetUint(s, kp, "from", std::nullopt, 0, ranks - 1));
        step.to = static_cast<uint32_t>(reader.GetUint(s, kp, "to", std::nullopt, 0, ranks - 1));
        if (step.to == step.from)
        {
            reader.Fail(JsonSchemaReader::Child(kp, "to"),
                        "a send goes to another rank than its \"from\" (" +
                            std::to_string(step.from) + ")");
        }
        step.bytes = Bytes(reader, s, kp);
        eff["send"] = {{"from", step.from}, {"to", step.to}, {"bytes", step.bytes}};
    }
    else // pipeline
    {
        reader.CheckKeys(e, p, {"pipeline"});
        const Json& s = e.at("pipeline");
        reader.CheckKeys(s, kp, {"bytes", "compute"});
        NeedTwoRanks(reader, ranks, kp);
        step.kind = JobStepKind::Pipeline;
        step.bytes = Bytes(reader, s, kp);
        const Time stage = reader.GetTime(s, kp, "compute", "0s", Seconds(0));
        step.calc = CalcAmount(reader, stage, calcUnit, JsonSchemaReader::Child(kp, "compute"));
        OrderedJson pipeline;
        pipeline["bytes"] = step.bytes;
        pipeline["compute"] = JsonAttributeConverter::FormatTime(stage);
        eff["pipeline"] = pipeline;
    }
    return step;
}

} // namespace

std::vector<JobStep>
JobStepReader::Read(const JsonSchemaReader& reader, const Json& steps, const std::string& pointer,
                    uint32_t ranks, Time calcUnit, OrderedJson& effective)
{
    if (!steps.is_array() || steps.empty())
    {
        reader.Fail(pointer, "expected a non-empty array of steps, each one of {\"compute\": "
                             "duration}, {\"collective\": name, \"bytes\": N, ...}, {\"send\": "
                             "{\"from\", \"to\", \"bytes\"}}, {\"pipeline\": {\"bytes\", ...}}");
    }
    std::vector<JobStep> out;
    OrderedJson eff = OrderedJson::array();
    uint64_t tags = 0;
    uint64_t ops = 0;
    for (std::size_t i = 0; i < steps.size(); ++i)
    {
        const std::string p = JsonSchemaReader::Child(pointer, i);
        OrderedJson entry = OrderedJson::object();
        const JobStep step = ReadStep(reader, steps[i], p, ranks, calcUnit, entry);
        tags += JobStepCompiler::CountTags(step, ranks);
        if (tags > uint64_t{GoalScheduleReader::MAX_TAG} + 1)
        {
            reader.Fail(p, "the steps up to this one use " + std::to_string(tags) +
                               " message tags, more than the 2^31 a GOAL schedule has");
        }
        // The step's operations, and at most one join per rank before it.
        const uint64_t add = JobStepCompiler::CountOps(step, ranks);
        ops = add > MAX_OPS || ops + add + ranks > MAX_OPS ? MAX_OPS + 1 : ops + add + ranks;
        if (ops > MAX_OPS)
        {
            reader.Fail(p, "the steps up to this one make more than " + std::to_string(MAX_OPS) +
                               " operations over " + std::to_string(ranks) +
                               " ranks (about 100 B each): fewer steps or ranks, or a GOAL "
                               "file");
        }
        out.push_back(step);
        eff.push_back(entry);
    }
    effective = eff;
    return out;
}

} // namespace ns3
