#include "ecn-link-rate-table.h"

#include "ns3/json-attribute-converter.h"
#include "ns3/queue-size.h"
#include "ns3/type-id-chain.h"

#include <algorithm>
#include <map>
#include <set>

namespace ns3
{

namespace
{

/** The attributes a table entry may set: the RED thresholds. */
const std::vector<std::string>&
ThresholdNames()
{
    static const std::vector<std::string> names{"Kmin", "Kmax", "Pmax"};
    return names;
}

/** \return the TypeId (of \p tid or a parent) that declares \p attribute. */
std::string
Declaring(TypeId tid, const std::string& attribute)
{
    return DeclaringTypeId(tid, attribute).GetName();
}

/** \return the bit rates of the links with a switch at one end at least. */
std::set<uint64_t>
SwitchPortRates(const ExperimentTopology& topology)
{
    const auto nHosts = static_cast<uint32_t>(topology.hosts.size());
    std::set<uint64_t> rates;
    for (const ExperimentLink& l : topology.links)
    {
        if (l.a >= nHosts || l.b >= nHosts)
        {
            rates.insert(l.rate.GetBitRate());
        }
    }
    return rates;
}

} // namespace

std::vector<EcnLinkRateEntry>
EcnLinkRateTable::Parse(const JsonSchemaReader& reader, const nlohmann::json* table,
                        const std::string& pointer, const ExperimentComponent& ecn,
                        const ExperimentTopology& topology,
                        const CommandLineAttributes& commandLine, nlohmann::ordered_json& effective,
                        std::vector<std::string>& warnings)
{
    std::vector<EcnLinkRateEntry> entries;
    if (!table)
    {
        return entries;
    }
    if (!table->is_object())
    {
        reader.Fail(pointer, "expected an object {\"<link rate>\": {\"Kmin\", \"Kmax\", "
                             "\"Pmax\"}, ...}, e.g. {\"400Gbps\": {\"Kmin\": \"1600KB\", "
                             "\"Kmax\": \"6400KB\"}}");
    }
    TypeId tid;
    if (ecn.typeName == "none" || !TypeId::LookupByNameFailSafe(ecn.typeName, &tid))
    {
        reader.Fail(pointer, "ECN marking is off (type \"none\"): there are no thresholds "
                             "to set per link rate");
    }
    std::vector<TypeId::AttributeInformation> infos;
    for (const std::string& name : ThresholdNames())
    {
        TypeId::AttributeInformation info;
        if (!tid.LookupAttributeByName(name, &info))
        {
            reader.Fail(pointer, ecn.typeName + " has no attribute " + name +
                                     ": thresholds per link rate need a RED marker "
                                     "(Kmin, Kmax, Pmax)");
        }
        infos.push_back(info);
    }
    // The section's value of each threshold: as set there, else the (command-line) default.
    std::vector<Ptr<const AttributeValue>> section;
    for (const auto& info : infos)
    {
        const auto given =
            std::find_if(ecn.attributes.begin(), ecn.attributes.end(),
                         [&info](const ExperimentAttribute& a) { return a.name == info.name; });
        section.push_back(given != ecn.attributes.end() ? Ptr<const AttributeValue>(given->value)
                                                        : info.initialValue);
    }

    const std::set<uint64_t> portRates = SwitchPortRates(topology);
    std::map<uint64_t, std::string> seen;                //!< rate -> key that named it
    std::map<uint64_t, nlohmann::ordered_json> inEffect; //!< rate -> thresholds in force
    for (auto it = table->begin(); it != table->end(); ++it)
    {
        const std::string p = JsonSchemaReader::Child(pointer, it.key());
        DataRate rate;
        if (!JsonAttributeConverter::ParseDataRate(it.key(), rate))
        {
            reader.Fail(p, "\"" + it.key() +
                               "\" is not a link rate (a positive number and a unit of "
                               "ns3::DataRate, e.g. \"100Gbps\", \"400Gbps\")");
        }
        const auto [prior, fresh] = seen.emplace(rate.GetBitRate(), it.key());
        if (!fresh)
        {
            reader.Fail(p, "\"" + it.key() + "\" is the same rate as \"" + prior->second + "\"");
        }
        if (!portRates.count(rate.GetBitRate()))
        {
            std::vector<std::string> present;
            for (uint64_t r : portRates)
            {
                present.push_back(JsonAttributeConverter::FormatDataRate(DataRate(r)));
            }
            reader.Fail(p, "no switch port of the topology runs at " + it.key() +
                               "; its switch ports run at " + JsonSchemaReader::JoinNames(present));
        }
        const nlohmann::json& entry = it.value();
        reader.CheckKeys(entry, p, ThresholdNames());
        if (entry.empty())
        {
            reader.Fail(p, "empty: give at least one of Kmin, Kmax, Pmax");
        }

        EcnLinkRateEntry out{rate, {}, p};
        std::vector<Ptr<const AttributeValue>> inForce = section;
        for (std::size_t i = 0; i < infos.size(); ++i)
        {
            const auto& info = infos[i];
            const nlohmann::json* v = JsonSchemaReader::Find(entry, info.name);
            if (!v)
            {
                continue;
            }
            const std::string vp = JsonSchemaReader::Child(p, info.name);
            std::string error;
            Ptr<AttributeValue> value = JsonAttributeConverter::FromJson(info, *v, error);
            if (!value)
            {
                reader.Fail(vp, "attribute " + info.name + " of " + ecn.typeName + " (" +
                                    JsonAttributeConverter::HelpSummary(info.help) +
                                    "): bad value " + v->dump() + ": " + error);
            }
            const std::string argument = commandLine.Find(Declaring(tid, info.name), info.name);
            if (!argument.empty())
            {
                warnings.push_back("the command line's " + argument + " overrides " + vp + " = " +
                                   v->dump() + " in " + reader.GetFile());
                continue;
            }
            inForce[i] = Ptr<const AttributeValue>(value);
            out.attributes.push_back(ExperimentAttribute{info.name, value});
        }

        // Kmin and Kmax are compared with the queue in bytes: refuse packets, and Kmax < Kmin.
        const auto& kmin = DynamicCast<const QueueSizeValue>(inForce[0]);
        const auto& kmax = DynamicCast<const QueueSizeValue>(inForce[1]);
        if (kmin && kmax)
        {
            for (const auto& [name, q] :
                 {std::make_pair("Kmin", kmin->Get()), std::make_pair("Kmax", kmax->Get())})
            {
                if (q.GetUnit() != QueueSizeUnit::BYTES)
                {
                    reader.Fail(JsonSchemaReader::Child(p, name),
                                std::string(name) + " must be given in bytes (e.g. \"400KB\"), "
                                                    "not packets: the marker compares it with "
                                                    "the queue's bytes");
                }
            }
            if (kmax->Get().GetValue() < kmin->Get().GetValue())
            {
                reader.Fail(p, "Kmax (" + kmax->SerializeToString(nullptr) + ") is below Kmin (" +
                                   kmin->SerializeToString(nullptr) + ") at " + it.key() +
                                   " (a value this entry leaves out is the section's)");
            }
        }
        nlohmann::ordered_json eff;
        for (std::size_t i = 0; i < infos.size(); ++i)
        {
            eff[infos[i].name] = JsonAttributeConverter::ToJson(infos[i], *inForce[i]);
        }
        inEffect[rate.GetBitRate()] = eff;
        entries.push_back(out);
    }
    for (const auto& [rate, eff] : inEffect)
    {
        effective[JsonAttributeConverter::FormatDataRate(DataRate(rate))] = eff;
    }
    std::sort(entries.begin(), entries.end(),
              [](const EcnLinkRateEntry& x, const EcnLinkRateEntry& y)
              { return x.rate.GetBitRate() < y.rate.GetBitRate(); });
    return entries;
}

} // namespace ns3
