#include "job-reader.h"

#include "job-step-reader.h"

#include "ns3/goal-schedule-reader.h"
#include "ns3/host-selection.h"
#include "ns3/job-step-compiler.h"
#include "ns3/json-attribute-converter.h"

#include <algorithm>
#include <fstream>

namespace ns3
{

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

namespace
{

/** \return the schedule of the GOAL file "goal" of job \p e (at \p p); \p path gets it. */
std::shared_ptr<const GoalSchedule>
ReadGoal(const JsonSchemaReader& reader, const Json& e, const std::string& p, std::string& path)
{
    const std::string file = reader.GetString(e, p, "goal", std::nullopt, {});
    const std::string gp = JsonSchemaReader::Child(p, "goal");
    reader.CheckNoNul(e.at("goal"), gp);
    if (file.empty())
    {
        reader.Fail(gp, "expected the path of a GOAL schedule file, got an empty string");
    }
    path = reader.ResolvePath(file);
    if (!std::ifstream(path, std::ios::binary))
    {
        reader.Fail(gp, "cannot open the GOAL file \"" + path + "\"");
    }
    // Its own errors name the GOAL file, line and column.
    return std::make_shared<const GoalSchedule>(GoalScheduleReader::ReadFile(path));
}

} // namespace

std::vector<ExperimentJob>
JobReader::Read(const JsonSchemaReader& reader, const Json* section, const std::string& pointer,
                const ExperimentTopology& topology, const ExperimentComponentReader& components,
                Time stop, OrderedJson& effective)
{
    std::vector<ExperimentJob> out;
    if (!section)
    {
        return out;
    }
    if (!section->is_array() || section->empty())
    {
        reader.Fail(pointer, "expected a non-empty array of {\"goal\": file or \"steps\": [...], "
                             "\"hosts\": [...], \"iterations\", ...} entries");
    }
    OrderedJson eff = OrderedJson::array();
    const HostSelection selection(reader, topology);
    std::vector<std::string> names;
    for (std::size_t i = 0; i < section->size(); ++i)
    {
        const Json& e = (*section)[i];
        const std::string p = JsonSchemaReader::Child(pointer, i);
        reader.CheckKeys(e, p,
                         {"name", "goal", "steps", "hosts", "iterations", "start", "executor"});
        ExperimentJob job;
        job.pointer = p;
        job.name = reader.GetString(e, p, "name", "job" + std::to_string(i), {});
        if (job.name.empty() || job.name.find_first_of(",\"\n\r") != std::string::npos)
        {
            reader.Fail(JsonSchemaReader::Child(p, "name"),
                        "a job's name is non-empty and holds no comma, quote or line break (it "
                        "is a column of jobs.csv)");
        }
        if (std::find(names.begin(), names.end(), job.name) != names.end())
        {
            reader.Fail(JsonSchemaReader::Child(p, "name"),
                        "another job is named \"" + job.name + "\" (names are unique)");
        }
        names.push_back(job.name);
        const Json* goal = JsonSchemaReader::Find(e, "goal");
        const Json* steps = JsonSchemaReader::Find(e, "steps");
        if (goal && steps)
        {
            reader.Fail(JsonSchemaReader::Child(p, "steps"),
                        "a job gives either \"goal\" (a GOAL file) or \"steps\" (its steps, "
                        "written here), not both");
        }
        if (!goal && !steps)
        {
            reader.Fail(p, "missing \"goal\" (a GOAL schedule file) or \"steps\" (the job's "
                           "steps, written here): a job gives one of them");
        }
        if (goal)
        {
            job.schedule = ReadGoal(reader, e, p, job.path);
        }
        const Json* hosts = JsonSchemaReader::Find(e, "hosts");
        if (!hosts)
        {
            reader.Fail(p, "missing required field \"hosts\" (the host of each rank, rank 0 "
                           "first: a selection as in \"nodes\")");
        }
        const std::string hp = JsonSchemaReader::Child(p, "hosts");
        job.hosts = selection.Select(*hosts, hp);
        if (goal && job.hosts.size() != job.schedule->GetNRanks())
        {
            reader.Fail(hp, "selects " + std::to_string(job.hosts.size()) + " hosts, but " +
                                job.path + " has " + std::to_string(job.schedule->GetNRanks()) +
                                " ranks (num_ranks): one host per rank");
        }
        job.iterations =
            static_cast<uint32_t>(reader.GetUint(e, p, "iterations", 1, 1, MAX_ITERATIONS));
        job.start = reader.GetTime(e, p, "start", "0s", Seconds(0));
        if (job.start >= stop)
        {
            reader.Fail(JsonSchemaReader::Child(p, "start"),
                        "the job starts at or after stop_time (" +
                            JsonAttributeConverter::FormatTime(stop) + ")");
        }
        OrderedJson executor = components.Read(JsonSchemaReader::Find(e, "executor"),
                                               JsonSchemaReader::Child(p, "executor"),
                                               "ns3::GoalExecutor", "", {}, job.executor);
        OrderedJson entry;
        entry["name"] = job.name;
        if (goal)
        {
            entry["goal"] = job.path;
        }
        else
        {
            // Compiled with the CalcUnit in force (the file's, the command line's or the
            // default), as the effective executor section records it.
            Time calcUnit;
            JsonAttributeConverter::ParseTime(executor.at("CalcUnit").get<std::string>(), calcUnit);
            const std::string sp = JsonSchemaReader::Child(p, "steps");
            job.steps =
                JobStepReader::Read(reader, *steps, sp, static_cast<uint32_t>(job.hosts.size()),
                                    calcUnit, entry["steps"]);
            job.schedule = std::make_shared<const GoalSchedule>(JobStepCompiler::Compile(
                job.steps, static_cast<uint32_t>(job.hosts.size()), reader.GetFile() + "#" + sp));
        }
        OrderedJson hostNames = OrderedJson::array();
        for (uint32_t h : job.hosts)
        {
            hostNames.push_back(topology.hosts[h]);
        }
        entry["hosts"] = hostNames;
        entry["iterations"] = job.iterations;
        entry["start"] = JsonAttributeConverter::FormatTime(job.start);
        entry["executor"] = executor;
        eff.push_back(entry);
        out.push_back(std::move(job));
    }
    effective = eff;
    return out;
}

} // namespace ns3
