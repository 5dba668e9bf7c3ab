#include "nic-profile.h"

#include "ns3/experiment-config-error.h"
#include "ns3/json-schema-reader.h"

#include <fstream>
#include <sstream>

namespace ns3
{

using Json = nlohmann::json;

namespace
{

std::string
ReadText(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw ExperimentConfigError(path, "", "cannot open the file");
    }
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace

std::string
NicProfile::Merge(const std::string& baseFile, const std::string& profileFile,
                  const Overrides& overrides)
{
    const JsonSchemaReader baseReader(baseFile);
    Json base = baseReader.ParseText(ReadText(baseFile));
    baseReader.RequireObject(base, "");
    const JsonSchemaReader profileReader(profileFile);
    const Json profile = profileReader.ParseText(ReadText(profileFile));
    const std::vector<std::string> sections = {"nic", "switch", "link",          "buffer",
                                               "ecn", "cc",     "loss_recovery", "qp"};
    std::vector<std::string> allowed = sections;
    allowed.push_back("description");
    profileReader.CheckKeys(profile, "", allowed);

    for (const std::string& s : sections)
    {
        const Json* p = JsonSchemaReader::Find(profile, s);
        if (!p)
        {
            continue;
        }
        profileReader.RequireObject(*p, "/" + s);
        Json merged = Json::object();
        const Json* b = JsonSchemaReader::Find(base, s);
        if (b && b->is_object())
        {
            const Json* bt = JsonSchemaReader::Find(*b, "type");
            const Json* pt = JsonSchemaReader::Find(*p, "type");
            if (!(pt && bt && *pt != *bt))
            {
                merged = *b;
            }
        }
        for (const auto& [key, value] : p->items())
        {
            merged[key] = value;
        }
        base[s] = merged;
    }
    if (const Json* d = JsonSchemaReader::Find(profile, "description"))
    {
        const Json* bd = JsonSchemaReader::Find(base, "description");
        base["description"] =
            (bd && bd->is_string() ? bd->get<std::string>() + " | profile: " : "") +
            (d->is_string() ? d->get<std::string>() : d->dump());
    }
    if (overrides.srnicServers > 0)
    {
        Json topo = Json::object();
        const Json* bt = JsonSchemaReader::Find(base, "topology");
        if (bt && bt->is_object() && JsonSchemaReader::Find(*bt, "type") &&
            (*bt)["type"] == "fat_tree")
        {
            // Keep rates and delays; replace the shape.
            for (const char* k : {"host_link_rate", "fabric_link_rate", "link_delay"})
            {
                if (const Json* v = JsonSchemaReader::Find(*bt, k))
                {
                    topo[k] = *v;
                }
            }
        }
        topo["type"] = "fat_tree";
        topo["srnic_servers"] = overrides.srnicServers;
        base["topology"] = topo;
    }
    if (!overrides.duration.empty())
    {
        const Json* w = JsonSchemaReader::Find(base, "workload");
        if (!w || !w->is_object())
        {
            baseReader.Fail("/workload", "a duration override needs a \"workload\" object");
        }
        base["workload"]["duration"] = overrides.duration;
    }
    if (overrides.seed > 0)
    {
        base["seed"] = overrides.seed;
    }
    if (!overrides.stopTime.empty())
    {
        base["stop_time"] = overrides.stopTime;
    }
    if (overrides.progress)
    {
        base["progress"] = true;
    }
    return base.dump(2);
}

ExperimentConfig
NicProfile::Load(const std::string& baseFile, const std::string& profileFile,
                 const Overrides& overrides)
{
    // Named after the base file, so that its relative paths (cdf, topology) resolve.
    const std::string merged = Merge(baseFile, profileFile, overrides);
    try
    {
        return ExperimentConfig::LoadString(merged, baseFile, overrides.commandLine);
    }
    catch (const ExperimentConfigError& e)
    {
        // A value the profile set (its pointer, below a section the profile has)
        // is the profile's error, not the base file's.
        const std::string& pointer = e.GetPointer();
        if (pointer.size() > 1 && pointer.find('/', 1) != std::string::npos)
        {
            const Json profile = JsonSchemaReader(profileFile).ParseText(ReadText(profileFile));
            Json::json_pointer at(pointer.substr(0, pointer.find('/', pointer.find('/', 1) + 1)));
            if (profile.contains(at))
            {
                throw ExperimentConfigError(profileFile, pointer,
                                            e.GetReason() + " (merged into " + baseFile + ")");
            }
        }
        throw;
    }
}

} // namespace ns3
