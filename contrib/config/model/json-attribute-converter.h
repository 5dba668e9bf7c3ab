/*
 * Converts JSON values to ns-3 attribute values (and back) through the
 * attribute's checker, with errors that say what was expected.
 */
#ifndef JSON_ATTRIBUTE_CONVERTER_H
#define JSON_ATTRIBUTE_CONVERTER_H

#include "ns3/attribute.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/type-id.h"

#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{

/**
 * \ingroup config
 * JSON <-> AttributeValue conversion for experiment files.
 *
 * ns-3's own string path (AttributeChecker::CreateValidValue(StringValue)) aborts
 * the process on some malformed inputs ("3.5" for an integer, "1xs" for a Time),
 * so each supported value type is checked here first and only well-formed input
 * reaches the checker, whose Check() then enforces the attribute's range.
 *
 * Supported attribute types and the JSON they take:
 * Uinteger/Integer: integer number; Double: number; Boolean: true/false;
 * Time: string "<number><unit>", unit s, ms, us, ns, ps; DataRate: string such
 * as "100Gbps"; QueueSize: string such as "200KB"; Enum: one of the names;
 * TypeId: a registered type name; String: any string. Other attribute types
 * (pointers, object vectors, callbacks) cannot be set from JSON.
 */
class JsonAttributeConverter
{
  public:
    /**
     * Convert \p value for the attribute \p info.
     * \param[out] error why the value was refused (expected type and range)
     * \return the checked value, or nullptr when refused
     */
    static Ptr<AttributeValue> FromJson(const TypeId::AttributeInformation& info,
                                        const nlohmann::json& value, std::string& error);

    /** \return \p value as JSON: numbers and booleans as such, the rest as strings. */
    static nlohmann::ordered_json ToJson(const TypeId::AttributeInformation& info,
                                         const AttributeValue& value);

    /**
     * Check a command-line attribute default such as "--ns3::RdmaDcqcn::G=0.01"
     * before ns3::CommandLine sees it (ns-3 aborts on some malformed values).
     * The value is read as a JSON number or boolean when it is one, else as a
     * string. Arguments that do not name an existing TypeId attribute pass.
     * \param[out] error why the value is refused
     * \return false if the value is refused
     */
    static bool CheckCommandLineDefault(const std::string& argument, std::string& error);

    /** \return true if attributes of this kind can be set from JSON. */
    static bool IsSupported(const TypeId::AttributeInformation& info);

    /** \return the first sentence of an attribute's help string. */
    static std::string HelpSummary(const std::string& help);

    /** \return a description of the values \p info accepts, with its range. */
    static std::string DescribeAccepted(const TypeId::AttributeInformation& info);

    /**
     * Parse a duration "<number><unit>" (unit s, ms, us, ns or ps; no sign, no
     * spaces) without ever aborting.
     * \return false if \p text is not of that form
     */
    static bool ParseTime(const std::string& text, Time& time);
    /** \return \p time with the largest unit that shows it exactly ("10us", "1500ns"). */
    static std::string FormatTime(Time time);
    /**
     * Parse a data rate such as "100Gbps" (the units of ns3::DataRate) without
     * ever aborting. \return false if malformed or zero
     */
    static bool ParseDataRate(const std::string& text, DataRate& rate);
    /** \return \p rate as "<integer><unit>" with the largest exact unit ("400Gbps"). */
    static std::string FormatDataRate(DataRate rate);
};

} // namespace ns3

#endif /* JSON_ATTRIBUTE_CONVERTER_H */
