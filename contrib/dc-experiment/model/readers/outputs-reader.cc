#include "outputs-reader.h"

#include <set>

namespace ns3
{

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

namespace
{
/** The "plots" ./roce-lab run can make (analysis/roce_lab.py PLOTS). */
const std::set<std::string> PLOT_NAMES = {"fct_cdf", "slowdown_by_size", "slowdown_cdf"};
} // namespace

void
OutputsReader::ReadOutputs(const JsonSchemaReader& reader, const Json* outputs,
                           ExperimentOutputs& out, OrderedJson& effective)
{
    static const Json noOutputs = Json::object();
    const Json& o = outputs ? *outputs : noOutputs;
    reader.CheckKeys(o, "/outputs", {"hpcc", "pfc_events"});
    out.hpcc = reader.GetBool(o, "/outputs", "hpcc", false);
    out.pfcEvents = reader.GetBool(o, "/outputs", "pfc_events", false);
    effective = OrderedJson{{"hpcc", out.hpcc}, {"pfc_events", out.pfcEvents}};
}

void
OutputsReader::ReadPlots(const JsonSchemaReader& reader, const Json* plots, OrderedJson& effective)
{
    // analysis/roce_lab.py PLOTS' keys are PLOT_NAMES (analysis/test_roce_lab.py checks
    // that the two lists agree); the simulation ignores the plots, but a misspelt name
    // is an error here too, so that roce-run alone does not accept it.
    if (!plots)
    {
        return;
    }
    const std::string allowed =
        JsonSchemaReader::JoinNames(std::vector<std::string>(PLOT_NAMES.begin(), PLOT_NAMES.end()));
    if (!plots->is_array())
    {
        reader.Fail("/plots", "must be an array of plot names (" + allowed + ")");
    }
    for (std::size_t i = 0; i < plots->size(); ++i)
    {
        const Json& name = (*plots)[i];
        if (!name.is_string() || !PLOT_NAMES.count(name.get<std::string>()))
        {
            reader.Fail(JsonSchemaReader::Child("/plots", i),
                        "unknown plot " + name.dump() + " (allowed: " + allowed + ")");
        }
    }
    effective = *plots;
}

} // namespace ns3
