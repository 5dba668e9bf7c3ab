#include "collective-driver-reader.h"

#include "ns3/json-attribute-converter.h"

namespace ns3
{

using Json = nlohmann::json;

namespace
{

/** The most messages a stream keeps in flight (MaestroMessageStream::Outstanding). */
constexpr uint64_t MAX_OUTSTANDING = 1024;

} // namespace

const std::vector<std::string>&
CollectiveDriverReader::EntryKeys()
{
    static const std::vector<std::string> keys = {"outstanding", "duration", "path_interval"};
    return keys;
}

bool
CollectiveDriverReader::ReadProbe(const JsonSchemaReader& reader, const Json& m,
                                  const std::string& mp)
{
    return reader.GetBool(m, mp, "probe", false);
}

void
CollectiveDriverReader::Read(const JsonSchemaReader& reader, const Json& e, const std::string& p,
                             ExperimentCollective& c, nlohmann::ordered_json& effective)
{
    const bool stream = c.type == "message_stream";
    if ((stream || c.type == "token_ring") && !c.computeTime.IsZero())
    {
        reader.Fail(JsonSchemaReader::Child(p, "compute_time"),
                    "a " + c.type + " has no compute phase (\"0s\" or absent)");
    }
    if (stream)
    {
        if (c.hosts.size() != 2)
        {
            reader.Fail(JsonSchemaReader::Child(p, "hosts"),
                        "a message_stream has 2 hosts, the sender and the receiver; got " +
                            std::to_string(c.hosts.size()));
        }
        if (!c.overMaestro)
        {
            reader.Fail(JsonSchemaReader::Child(p, "over"),
                        "a message_stream runs over \"maestro\" (its endpoint keeps the "
                        "messages in flight)");
        }
        if (c.iterations != 1)
        {
            reader.Fail(JsonSchemaReader::Child(p, "iterations"),
                        "a message_stream runs once, for \"duration\" (1 or absent)");
        }
        c.outstanding =
            static_cast<uint32_t>(reader.GetUint(e, p, "outstanding", 6, 1, MAX_OUTSTANDING));
        c.duration = reader.GetTime(e, p, "duration", std::nullopt, NanoSeconds(1));
        effective["outstanding"] = c.outstanding;
        effective["duration"] = JsonAttributeConverter::FormatTime(c.duration);
    }
    else
    {
        for (const char* key : {"outstanding", "duration"})
        {
            if (JsonSchemaReader::Find(e, key))
            {
                reader.Fail(JsonSchemaReader::Child(p, key),
                            "only a message_stream has \"" + std::string(key) + "\"");
            }
        }
    }
    if (JsonSchemaReader::Find(e, "path_interval"))
    {
        if (!c.overMaestro)
        {
            reader.Fail(JsonSchemaReader::Child(p, "path_interval"),
                        "per-path throughput is sampled from Maestro endpoints (\"over\": "
                        "\"maestro\")");
        }
        c.pathInterval = reader.GetTime(e, p, "path_interval", std::nullopt, NanoSeconds(1));
        effective["path_interval"] = JsonAttributeConverter::FormatTime(c.pathInterval);
    }
}

} // namespace ns3
