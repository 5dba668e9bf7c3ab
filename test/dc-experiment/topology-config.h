/*
 * Loading a one-flow experiment around a topology section, for the topology-builder tests:
 * the configuration, or the error text it is rejected with.
 */
#ifndef ROCE_LAB_TEST_TOPOLOGY_CONFIG_H
#define ROCE_LAB_TEST_TOPOLOGY_CONFIG_H

#include "ns3/experiment-config-error.h"
#include "ns3/experiment-config.h"

#include <string>

namespace ns3
{
namespace test
{

/** \return the experiment {"topology": TOPOLOGY, one 1000-byte flow 0 -> 1} read as FILE */
inline ExperimentConfig
LoadTopology(const std::string& topology, const std::string& file)
{
    return ExperimentConfig::LoadString(R"({"topology": )" + topology +
                                            R"(, "flows": [{"src": 0, "dst": 1, "bytes": 1000}]})",
                                        file);
}

/** \return the configuration error of LoadTopology(topology, file), "" if it loads */
inline std::string
TopologyError(const std::string& topology, const std::string& file)
{
    try
    {
        LoadTopology(topology, file);
    }
    catch (const ExperimentConfigError& e)
    {
        return e.what();
    }
    return "";
}

} // namespace test
} // namespace ns3

#endif
