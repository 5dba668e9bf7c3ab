#include "monitors-reader.h"

#include "ns3/json-attribute-converter.h"

#include <optional>

namespace ns3
{

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

void
MonitorsReader::Read(const JsonSchemaReader& reader, const Json* monitors,
                     const std::string& pointer, ExperimentMonitors& out, OrderedJson& effective)
{
    static const Json empty = Json::object();
    const Json& m = monitors ? *monitors : empty;
    reader.CheckKeys(m, pointer,
                     {"queue_interval", "queue_start", "queue_end", "rate_interval",
                      "buffer_interval", "watermark_mode", "deadlock", "hostping"});
    OrderedJson eff;
    for (const char* key : {"queue_interval", "rate_interval", "buffer_interval"})
    {
        Time t(0);
        if (JsonSchemaReader::Find(m, key))
        {
            t = reader.GetTime(m, pointer, key, std::nullopt, NanoSeconds(1));
            eff[key] = JsonAttributeConverter::FormatTime(t);
        }
        else
        {
            eff[key] = nullptr;
        }
        const std::string k(key);
        (k == "queue_interval"  ? out.queueInterval
         : k == "rate_interval" ? out.rateInterval
                                : out.bufferInterval) = t;
    }
    // The queue monitor's window: samples from queue_start to queue_end (the HPCC
    // simulator's QLEN_MON_START / QLEN_MON_END).
    for (const char* key : {"queue_start", "queue_end"})
    {
        if (!JsonSchemaReader::Find(m, key))
        {
            eff[key] = nullptr;
            continue;
        }
        if (out.queueInterval.IsZero())
        {
            reader.Fail(JsonSchemaReader::Child(pointer, key),
                        "needs queue_interval (the window is the queue monitor's)");
        }
        const Time t = reader.GetTime(m, pointer, key, std::nullopt, Time(0));
        (std::string(key) == "queue_start" ? out.queueStart : out.queueEnd) = t;
        eff[key] = JsonAttributeConverter::FormatTime(t);
    }
    if (!out.queueEnd.IsZero() && out.queueEnd < out.queueStart)
    {
        reader.Fail(JsonSchemaReader::Child(pointer, "queue_end"),
                    "queue_end " + JsonAttributeConverter::FormatTime(out.queueEnd) +
                        " is before queue_start " +
                        JsonAttributeConverter::FormatTime(out.queueStart));
    }
    // SONiC watermark counters: "periodic" ones are cleared after every read,
    // "persistent" ones only by the user (here: never during the run).
    const std::string mode =
        reader.GetString(m, pointer, "watermark_mode", "periodic", {"periodic", "persistent"});
    if (mode == "persistent" && out.bufferInterval.IsZero())
    {
        reader.Fail(pointer + "/watermark_mode",
                    "needs buffer_interval (watermarks are written by the buffer monitor)");
    }
    out.clearWatermarks = mode == "periodic";
    eff["watermark_mode"] = mode;
    effective = eff;
}

} // namespace ns3
