#include "json-attribute-converter.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/integer.h"
#include "ns3/queue-size.h"
#include "ns3/string.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <regex>
#include <sstream>
#include <vector>

namespace ns3
{

namespace
{

/** The value types the converter knows. */
enum class Kind : uint8_t
{
    Uinteger,
    Integer,
    Double,
    Boolean,
    Time,
    DataRate,
    QueueSize,
    Enum,
    TypeIdName,
    String,
    Unsupported,
};

Kind
KindOf(const TypeId::AttributeInformation& info)
{
    Ptr<AttributeValue> v = info.checker->Create();
    const AttributeValue* p = PeekPointer(v);
    if (dynamic_cast<const UintegerValue*>(p))
    {
        return Kind::Uinteger;
    }
    if (dynamic_cast<const IntegerValue*>(p))
    {
        return Kind::Integer;
    }
    if (dynamic_cast<const DoubleValue*>(p))
    {
        return Kind::Double;
    }
    if (dynamic_cast<const BooleanValue*>(p))
    {
        return Kind::Boolean;
    }
    if (dynamic_cast<const TimeValue*>(p))
    {
        return Kind::Time;
    }
    if (dynamic_cast<const DataRateValue*>(p))
    {
        return Kind::DataRate;
    }
    if (dynamic_cast<const QueueSizeValue*>(p))
    {
        return Kind::QueueSize;
    }
    if (dynamic_cast<const EnumValue*>(p))
    {
        return Kind::Enum;
    }
    if (dynamic_cast<const TypeIdValue*>(p))
    {
        return Kind::TypeIdName;
    }
    if (dynamic_cast<const StringValue*>(p))
    {
        return Kind::String;
    }
    return Kind::Unsupported;
}

/** "uint32_t 256:4096" -> "[256, 4096]"; anything else unchanged. */
std::string
RangeOf(const TypeId::AttributeInformation& info)
{
    const std::string s = info.checker->GetUnderlyingTypeInformation();
    const auto space = s.find(' ');
    const auto colon = s.rfind(':');
    if (space == std::string::npos || colon == std::string::npos || colon < space)
    {
        return s;
    }
    const std::string low = s.substr(space + 1, colon - space - 1);
    // An open lower bound at 0 is written as the smallest positive double.
    char* end = nullptr;
    const double lowValue = std::strtod(low.c_str(), &end);
    if (end == low.c_str() + low.size() && lowValue > 0 && lowValue < 1e-300)
    {
        return "(0, " + s.substr(colon + 1) + "]";
    }
    return "[" + low + ", " + s.substr(colon + 1) + "]";
}

/**
 * " at least 1ns" for a Time checker with a bound ("Time +1000ps:+9.22337e+18ps"
 * in ns-3 3.37); "" when it has none (the extreme values of Time).
 */
std::string
TimeRangeOf(const TypeId::AttributeInformation& info)
{
    static const std::regex form(
        "^Time ([+-]?[0-9.e+-]+)(ps|ns|us|ms|s):([+-]?[0-9.e+-]+)(ps|ns|us|ms|s)$");
    std::smatch m;
    const std::string text = info.checker->GetUnderlyingTypeInformation();
    if (!std::regex_match(text, m, form))
    {
        return "";
    }
    auto bound = [](const std::string& number, const std::string& unit, Time& t)
    {
        const double v = std::strtod(number.c_str(), nullptr);
        const double ps = unit == "s"    ? 1e12
                          : unit == "ms" ? 1e9
                          : unit == "us" ? 1e6
                          : unit == "ns" ? 1e3
                                         : 1.0;
        if (std::abs(v * ps) >= 1e18 || v != std::round(v))
        {
            return false; // Time::Min() / Time::Max(): no bound
        }
        t = PicoSeconds(static_cast<int64_t>(std::llround(v * ps)));
        return true;
    };
    Time low;
    Time high;
    const bool hasLow = bound(m[1], m[2], low);
    const bool hasHigh = bound(m[3], m[4], high);
    if (hasLow && hasHigh)
    {
        return " in [" + JsonAttributeConverter::FormatTime(low) + ", " +
               JsonAttributeConverter::FormatTime(high) + "]";
    }
    if (hasLow)
    {
        return ", at least " + JsonAttributeConverter::FormatTime(low);
    }
    return hasHigh ? ", at most " + JsonAttributeConverter::FormatTime(high) : "";
}

std::vector<std::string>
EnumNames(const TypeId::AttributeInformation& info)
{
    std::vector<std::string> names;
    std::stringstream ss(info.checker->GetUnderlyingTypeInformation());
    std::string name;
    while (std::getline(ss, name, '|'))
    {
        names.push_back(name);
    }
    return names;
}

bool
HasSpace(const std::string& s)
{
    for (unsigned char c : s)
    {
        if (std::isspace(c))
        {
            return true;
        }
    }
    return false;
}

} // namespace

bool
JsonAttributeConverter::ParseTime(const std::string& text, Time& time)
{
    // Exact decimal arithmetic in picoseconds: "0.1us" is 100000 ps, not a
    // rounded double. Time(std::string) is not used because it aborts on a bad unit.
    static const std::regex form("^([0-9]+)(\\.([0-9]+))?(s|ms|us|ns|ps)$");
    std::smatch m;
    if (!std::regex_match(text, m, form))
    {
        return false;
    }
    const std::string unit = m[4];
    int64_t unitPs = 1;
    int unitDigits = 0;
    if (unit == "s")
    {
        unitPs = 1000000000000LL;
        unitDigits = 12;
    }
    else if (unit == "ms")
    {
        unitPs = 1000000000LL;
        unitDigits = 9;
    }
    else if (unit == "us")
    {
        unitPs = 1000000LL;
        unitDigits = 6;
    }
    else if (unit == "ns")
    {
        unitPs = 1000LL;
        unitDigits = 3;
    }
    const std::string whole = m[1];
    std::string frac = m[3];
    while (!frac.empty() && frac.back() == '0')
    {
        frac.pop_back();
    }
    if (static_cast<int>(frac.size()) > unitDigits || whole.size() > 18)
    {
        return false; // finer than 1 ps, or absurdly long
    }
    const int64_t w = std::stoll(whole);
    if (w > std::numeric_limits<int64_t>::max() / unitPs)
    {
        return false;
    }
    int64_t ps = w * unitPs;
    if (!frac.empty())
    {
        int64_t f = std::stoll(frac);
        for (int i = static_cast<int>(frac.size()); i < unitDigits; ++i)
        {
            f *= 10;
        }
        ps += f;
    }
    time = PicoSeconds(ps);
    return true;
}

std::string
JsonAttributeConverter::FormatTime(Time time)
{
    int64_t ps = time.GetPicoSeconds();
    std::string sign;
    if (ps < 0)
    {
        sign = "-";
        ps = -ps;
    }
    if (ps == 0)
    {
        return "0ns";
    }
    static const std::pair<int64_t, const char*> units[] = {{1000000000000LL, "s"},
                                                            {1000000000LL, "ms"},
                                                            {1000000LL, "us"},
                                                            {1000LL, "ns"},
                                                            {1LL, "ps"}};
    for (const auto& [scale, name] : units)
    {
        if (ps % scale == 0)
        {
            return sign + std::to_string(ps / scale) + name;
        }
    }
    return sign + std::to_string(ps) + "ps";
}

bool
JsonAttributeConverter::ParseDataRate(const std::string& text, DataRate& rate)
{
    static const std::regex form("^[0-9]+(\\.[0-9]+)?[A-Za-z/]+$");
    if (!std::regex_match(text, form))
    {
        return false;
    }
    // operator>> reports a bad unit through failbit (DataRate(std::string) aborts).
    std::istringstream is(text);
    DataRate r;
    is >> r;
    if (is.fail())
    {
        return false;
    }
    rate = r;
    return true;
}

std::string
JsonAttributeConverter::FormatDataRate(DataRate rate)
{
    const uint64_t bps = rate.GetBitRate();
    if (bps == 0)
    {
        return "0bps";
    }
    static const std::pair<uint64_t, const char*> units[] = {
        {1000000000ULL, "Gbps"}, {1000000ULL, "Mbps"}, {1000ULL, "Kbps"}};
    for (const auto& [scale, name] : units)
    {
        if (bps % scale == 0)
        {
            return std::to_string(bps / scale) + name;
        }
    }
    return std::to_string(bps) + "bps";
}

bool
JsonAttributeConverter::IsSupported(const TypeId::AttributeInformation& info)
{
    return KindOf(info) != Kind::Unsupported;
}

std::string
JsonAttributeConverter::HelpSummary(const std::string& help)
{
    std::string s = help;
    const auto dot = s.find(". ");
    if (dot != std::string::npos)
    {
        s = s.substr(0, dot + 1);
    }
    if (s.size() > 160)
    {
        s = s.substr(0, 157) + "...";
    }
    return s;
}

std::string
JsonAttributeConverter::DescribeAccepted(const TypeId::AttributeInformation& info)
{
    switch (KindOf(info))
    {
        case Kind::Uinteger:
        case Kind::Integer:
            return "an integer in " + RangeOf(info);
        case Kind::Double:
            return "a number in " + RangeOf(info);
        case Kind::Boolean:
            return "true or false";
        case Kind::Time:
            return "a duration string such as \"10us\" (units s, ms, us, ns, ps)" +
                   TimeRangeOf(info);
        case Kind::DataRate:
            return "a data rate string such as \"100Gbps\" (units bps, Kbps, Mbps, Gbps, ...)";
        case Kind::QueueSize:
            return "a size string such as \"200KB\" (units B, KB, MB, KiB, MiB; p for packets)";
        case Kind::Enum:
        {
            std::string s = "one of";
            for (const auto& n : EnumNames(info))
            {
                s += " \"" + n + "\"";
            }
            return s;
        }
        case Kind::TypeIdName:
            return "the name of a registered ns-3 TypeId";
        case Kind::String:
            return "a string";
        case Kind::Unsupported:
            break;
    }
    return "nothing: attributes of type " + info.checker->GetValueTypeName() +
           " cannot be set from JSON";
}

Ptr<AttributeValue>
JsonAttributeConverter::FromJson(const TypeId::AttributeInformation& info,
                                 const nlohmann::json& value, std::string& error)
{
    const Kind kind = KindOf(info);
    Ptr<AttributeValue> result;
    const std::string expected = "expected " + DescribeAccepted(info);
    switch (kind)
    {
        case Kind::Uinteger:
            if (value.is_number_unsigned())
            {
                result = Create<UintegerValue>(value.get<uint64_t>());
            }
            else if (value.is_number_integer())
            {
                error = expected;
                return nullptr;
            }
            break;
        case Kind::Integer:
            if (value.is_number_integer() &&
                (!value.is_number_unsigned() ||
                 value.get<uint64_t>() <=
                     static_cast<uint64_t>(std::numeric_limits<int64_t>::max())))
            {
                result = Create<IntegerValue>(value.get<int64_t>());
            }
            break;
        case Kind::Double:
            if (value.is_number())
            {
                result = Create<DoubleValue>(value.get<double>());
            }
            break;
        case Kind::Boolean:
            if (value.is_boolean())
            {
                result = Create<BooleanValue>(value.get<bool>());
            }
            break;
        case Kind::Time:
            if (value.is_string())
            {
                Time t;
                if (ParseTime(value.get<std::string>(), t))
                {
                    result = Create<TimeValue>(t);
                }
            }
            break;
        case Kind::DataRate:
            if (value.is_string())
            {
                DataRate r;
                if (ParseDataRate(value.get<std::string>(), r))
                {
                    result = Create<DataRateValue>(r);
                }
            }
            break;
        case Kind::QueueSize:
            if (value.is_string() &&
                std::regex_match(value.get<std::string>(), std::regex("^[0-9]+[A-Za-z]+$")))
            {
                // QueueSizeValue's parser reports a bad unit by returning false.
                result = info.checker->CreateValidValue(StringValue(value.get<std::string>()));
                if (!result)
                {
                    error = expected;
                    return nullptr;
                }
            }
            break;
        case Kind::Enum:
            if (value.is_string())
            {
                for (const auto& n : EnumNames(info))
                {
                    if (n == value.get<std::string>())
                    {
                        result = info.checker->CreateValidValue(StringValue(n));
                    }
                }
            }
            break;
        case Kind::TypeIdName:
            if (value.is_string())
            {
                TypeId tid;
                if (TypeId::LookupByNameFailSafe(value.get<std::string>(), &tid))
                {
                    result = Create<TypeIdValue>(tid);
                }
            }
            break;
        case Kind::String:
            // No blanks (ns-3 attribute strings are space-separated on the command line)
            // and no NUL (a C string would end there).
            if (value.is_string() && !HasSpace(value.get<std::string>()) &&
                value.get<std::string>().find('\0') == std::string::npos)
            {
                result = Create<StringValue>(value.get<std::string>());
            }
            break;
        case Kind::Unsupported:
            error = "attributes of type " + info.checker->GetValueTypeName() +
                    " cannot be set from JSON";
            return nullptr;
    }
    if (!result)
    {
        error = expected;
        return nullptr;
    }
    if (!info.checker->Check(*result))
    {
        error = "outside the allowed range: expected " + DescribeAccepted(info);
        return nullptr;
    }
    return result;
}

bool
JsonAttributeConverter::CheckCommandLineDefault(const std::string& argument, std::string& error)
{
    const auto begin = argument.find_first_not_of('-');
    const auto equal = argument.find('=');
    if (begin == std::string::npos || begin == 0 || equal == std::string::npos)
    {
        return true;
    }
    const std::string path = argument.substr(begin, equal - begin);
    const std::string text = argument.substr(equal + 1);
    const auto sep = path.rfind("::");
    TypeId tid;
    TypeId::AttributeInformation info;
    if (sep == std::string::npos || !TypeId::LookupByNameFailSafe(path.substr(0, sep), &tid) ||
        !tid.LookupAttributeByName(path.substr(sep + 2), &info))
    {
        return true;
    }
    nlohmann::json value = nlohmann::json::parse(text, nullptr, false);
    if (value.is_discarded() || !(value.is_number() || value.is_boolean()))
    {
        value = text;
    }
    if (FromJson(info, value, error))
    {
        return true;
    }
    error = path + " (" + HelpSummary(info.help) + "): bad value \"" + text + "\": " + error;
    return false;
}

nlohmann::ordered_json
JsonAttributeConverter::ToJson(const TypeId::AttributeInformation& info,
                               const AttributeValue& value)
{
    if (const auto* u = dynamic_cast<const UintegerValue*>(&value))
    {
        return u->Get();
    }
    if (const auto* i = dynamic_cast<const IntegerValue*>(&value))
    {
        return i->Get();
    }
    if (const auto* d = dynamic_cast<const DoubleValue*>(&value))
    {
        return d->Get();
    }
    if (const auto* b = dynamic_cast<const BooleanValue*>(&value))
    {
        return b->Get();
    }
    if (const auto* t = dynamic_cast<const TimeValue*>(&value))
    {
        return FormatTime(t->Get());
    }
    if (const auto* r = dynamic_cast<const DataRateValue*>(&value))
    {
        return FormatDataRate(r->Get());
    }
    return value.SerializeToString(info.checker);
}

} // namespace ns3
