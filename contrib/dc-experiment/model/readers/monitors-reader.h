/*
 * Reads the "monitors" section of an experiment file.
 */
#ifndef MONITORS_READER_H
#define MONITORS_READER_H

#include "ns3/experiment-config.h"
#include "ns3/json-schema-reader.h"

#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * "monitors": {"queue_interval", "rate_interval", "buffer_interval" (absent: off),
 * "watermark_mode": "periodic" or "persistent", "deadlock" (PfcSafetyConfigReader),
 * "hostping" (HostpingMonitorReader)}.
 */
class MonitorsReader
{
  public:
    /**
     * Read \p monitors (null when absent: all off) into \p out; \p effective receives
     * the section but "deadlock" and "hostping". \throw ExperimentConfigError
     */
    static void Read(const JsonSchemaReader& reader, const nlohmann::json* monitors,
                     const std::string& pointer, ExperimentMonitors& out,
                     nlohmann::ordered_json& effective);
};

} // namespace ns3

#endif /* MONITORS_READER_H */
