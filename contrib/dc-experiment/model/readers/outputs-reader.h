/*
 * Reads the "outputs" and "plots" sections of an experiment file.
 */
#ifndef OUTPUTS_READER_H
#define OUTPUTS_READER_H

#include "ns3/experiment-config.h"
#include "ns3/json-schema-reader.h"

#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * "outputs": {"hpcc", "pfc_events"}, optional files beside the standard ones
 * (HpccOutputWriter, PfcEventWriter); "plots": the figures ./roce-lab run makes
 * after the run.
 */
class OutputsReader
{
  public:
    /**
     * Read "outputs" (\p outputs, null when absent: none) into \p out.
     * \throw ExperimentConfigError
     */
    static void ReadOutputs(const JsonSchemaReader& reader, const nlohmann::json* outputs,
                            ExperimentOutputs& out, nlohmann::ordered_json& effective);

    /**
     * Check "plots" (\p plots, null when absent: \p effective untouched): an array of
     * the names analysis/roce_lab.py PLOTS knows. \throw ExperimentConfigError
     */
    static void ReadPlots(const JsonSchemaReader& reader, const nlohmann::json* plots,
                          nlohmann::ordered_json& effective);
};

} // namespace ns3

#endif /* OUTPUTS_READER_H */
