#include "json-schema-reader.h"

#include "json-attribute-converter.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <functional>
#include <string>

namespace ns3
{

using Json = nlohmann::json;

namespace
{

std::string
EscapeKey(const std::string& key)
{
    std::string out;
    for (char c : key)
    {
        if (c == '~')
        {
            out += "~0";
        }
        else if (c == '/')
        {
            out += "~1";
        }
        else
        {
            out += c;
        }
    }
    return out;
}

/**
 * Tracks the JSON pointer during parsing to reject duplicate keys, which
 * nlohmann/json would otherwise resolve silently (the last one wins).
 */
class DuplicateKeyCheck
{
  public:
    explicit DuplicateKeyCheck(std::string file)
        : m_file(std::move(file))
    {
    }

    bool operator()(int /*depth*/, Json::parse_event_t event, Json& parsed)
    {
        switch (event)
        {
            case Json::parse_event_t::object_start:
                ElementStarted();
                m_stack.push_back(Frame{false, -1, {}, {}});
                break;
            case Json::parse_event_t::array_start:
                ElementStarted();
                m_stack.push_back(Frame{true, -1, {}, {}});
                break;
            case Json::parse_event_t::object_end:
            case Json::parse_event_t::array_end:
                m_stack.pop_back();
                break;
            case Json::parse_event_t::key:
            {
                Frame& f = m_stack.back();
                const std::string key = parsed.get<std::string>();
                if (!f.keys.insert(key).second)
                {
                    throw ConfigError(m_file, JsonSchemaReader::Child(ParentPointer(), key),
                                      "duplicate key \"" + key + "\"");
                }
                f.key = key;
                break;
            }
            case Json::parse_event_t::value:
                ElementStarted();
                break;
        }
        return true;
    }

    /**
     * \return the pointer of the value being read (after its key, or after the
     * previous element of its array): where a number the lexer read but cannot hold is.
     */
    std::string CurrentPointer() const
    {
        if (m_stack.empty())
        {
            return "";
        }
        const Frame& f = m_stack.back();
        return f.array ? JsonSchemaReader::Child(ParentPointer(), f.index + 1)
                       : JsonSchemaReader::Child(ParentPointer(), f.key);
    }

  private:
    /** \return the pointer of the innermost open object or array. */
    std::string ParentPointer() const
    {
        std::string pointer;
        for (std::size_t i = 0; i + 1 < m_stack.size(); ++i)
        {
            pointer += m_stack[i].array ? "/" + std::to_string(m_stack[i].index)
                                        : "/" + EscapeKey(m_stack[i].key);
        }
        return pointer;
    }

    struct Frame
    {
        bool array;
        long index;
        std::string key;
        std::set<std::string> keys;
    };

    void ElementStarted()
    {
        if (!m_stack.empty() && m_stack.back().array)
        {
            m_stack.back().index++;
        }
    }

    std::string m_file;
    std::vector<Frame> m_stack;
};

} // namespace

JsonSchemaReader::JsonSchemaReader(std::string file)
    : JsonSchemaReader(std::move(file), "")
{
}

JsonSchemaReader::JsonSchemaReader(std::string file, std::string pathBase)
    : m_file(std::move(file))
    , m_pathBase(pathBase.empty() ? std::filesystem::path(m_file).parent_path().string()
                                  : std::move(pathBase))
{
}

std::string
JsonSchemaReader::ResolvePath(const std::string& path) const
{
    std::filesystem::path p(path);
    if (p.is_relative())
    {
        p = std::filesystem::path(m_pathBase) / p;
    }
    std::error_code ec;
    const std::filesystem::path abs = std::filesystem::absolute(p, ec);
    return (ec ? p : abs).lexically_normal().string();
}

const std::string&
JsonSchemaReader::GetFile() const
{
    return m_file;
}

void
JsonSchemaReader::Fail(const std::string& pointer, const std::string& reason) const
{
    throw ConfigError(m_file, pointer, reason);
}

const Json*
JsonSchemaReader::Find(const Json& object, const std::string& key)
{
    auto it = object.find(key);
    return it == object.end() || it->is_null() ? nullptr : &*it;
}

std::string
JsonSchemaReader::Child(const std::string& pointer, const std::string& key)
{
    return pointer + "/" + EscapeKey(key);
}

std::string
JsonSchemaReader::Child(const std::string& pointer, std::size_t index)
{
    return pointer + "/" + std::to_string(index);
}

std::string
JsonSchemaReader::JoinNames(const std::vector<std::string>& names, std::size_t max)
{
    std::string s;
    for (std::size_t i = 0; i < names.size(); ++i)
    {
        if (i == max)
        {
            return s + ", ...";
        }
        s += (i ? ", " : "") + names[i];
    }
    return s;
}

std::vector<std::string>
JsonSchemaReader::ClosestNames(const std::string& name, const std::vector<std::string>& candidates)
{
    const auto lower = [](std::string s)
    {
        std::transform(s.begin(), s.end(), s.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        return s;
    };
    const std::string a = lower(name);
    std::vector<std::size_t> row(a.size() + 1);
    std::size_t best = std::max<std::size_t>(2, a.size() / 3);
    std::vector<std::string> nearest;
    for (const std::string& candidate : candidates)
    {
        const std::string b = lower(candidate);
        for (std::size_t i = 0; i <= a.size(); ++i)
        {
            row[i] = i;
        }
        for (std::size_t j = 1; j <= b.size(); ++j)
        {
            std::size_t diagonal = row[0];
            row[0] = j;
            for (std::size_t i = 1; i <= a.size(); ++i)
            {
                const std::size_t above = row[i];
                row[i] = std::min(
                    {row[i] + 1, row[i - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
                diagonal = above;
            }
        }
        const std::size_t distance = row[a.size()];
        if (distance < best)
        {
            best = distance;
            nearest.clear();
        }
        if (distance == best)
        {
            nearest.push_back(candidate);
        }
    }
    return nearest;
}

Json
JsonSchemaReader::ParseText(const std::string& text) const
{
    DuplicateKeyCheck check(m_file);
    try
    {
        return Json::parse(text, std::ref(check));
    }
    catch (const Json::out_of_range& e)
    {
        // A number too large for a double (1e400) or an integer: nlohmann/json
        // gives no position, the key being read names it.
        std::string reason = e.what();
        const auto bracket = reason.find("] ");
        if (reason.rfind("[json.exception", 0) == 0 && bracket != std::string::npos)
        {
            reason = reason.substr(bracket + 2);
        }
        Fail(check.CurrentPointer(), "invalid JSON: " + reason);
    }
    catch (const Json::parse_error& e)
    {
        // e.byte is the 1-based offset of the character where parsing failed.
        const std::size_t end = std::min<std::size_t>(e.byte == 0 ? 0 : e.byte - 1, text.size());
        uint64_t line = 1;
        std::size_t lineStart = 0;
        for (std::size_t i = 0; i < end; ++i)
        {
            if (text[i] == '\n')
            {
                ++line;
                lineStart = i + 1;
            }
        }
        std::string reason = e.what();
        // Drop nlohmann's "[json.exception.parse_error.101] parse error at ...: " prefix.
        const auto colon = reason.find(": ");
        if (reason.rfind("[json.exception", 0) == 0 && colon != std::string::npos)
        {
            reason = reason.substr(colon + 2);
        }
        throw ConfigError(m_file, line, end - lineStart + 1, "invalid JSON: " + reason);
    }
}

void
JsonSchemaReader::RequireObject(const Json& value, const std::string& pointer) const
{
    if (!value.is_object())
    {
        Fail(pointer, "expected an object, got " + std::string(value.type_name()));
    }
}

void
JsonSchemaReader::CheckKeys(const Json& object, const std::string& pointer,
                            const std::vector<std::string>& allowed) const
{
    RequireObject(object, pointer);
    for (auto it = object.begin(); it != object.end(); ++it)
    {
        if (std::find(allowed.begin(), allowed.end(), it.key()) == allowed.end())
        {
            Fail(Child(pointer, it.key()),
                 "unknown key \"" + it.key() + "\"; allowed keys here: " + JoinNames(allowed));
        }
    }
}

uint64_t
JsonSchemaReader::GetUint(const Json& object, const std::string& pointer, const std::string& key,
                          std::optional<uint64_t> fallback, uint64_t min, uint64_t max) const
{
    const std::string range =
        "an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
    const Json* v = Find(object, key);
    if (!v)
    {
        if (!fallback)
        {
            Fail(Child(pointer, key), "missing required field \"" + key + "\" (" + range + ")");
        }
        return *fallback;
    }
    if (!v->is_number_integer())
    {
        Fail(Child(pointer, key),
             "expected " + range + ", got " + std::string(v->type_name()) + " " + v->dump());
    }
    if (!v->is_number_unsigned() || v->get<uint64_t>() < min || v->get<uint64_t>() > max)
    {
        Fail(Child(pointer, key), "value " + v->dump() + " out of range: expected " + range);
    }
    return v->get<uint64_t>();
}

bool
JsonSchemaReader::GetBool(const Json& object, const std::string& pointer, const std::string& key,
                          bool fallback) const
{
    const Json* v = Find(object, key);
    if (!v)
    {
        return fallback;
    }
    if (!v->is_boolean())
    {
        Fail(Child(pointer, key),
             "expected true or false, got " + std::string(v->type_name()) + " " + v->dump());
    }
    return v->get<bool>();
}

std::string
JsonSchemaReader::GetString(const Json& object, const std::string& pointer, const std::string& key,
                            std::optional<std::string> fallback,
                            const std::set<std::string>& allowed) const
{
    std::vector<std::string> names(allowed.begin(), allowed.end());
    std::string quoted;
    for (const auto& n : names)
    {
        quoted += (quoted.empty() ? "\"" : ", \"") + n + "\"";
    }
    const Json* v = Find(object, key);
    if (!v)
    {
        if (!fallback)
        {
            Fail(Child(pointer, key),
                 "missing required field \"" + key + "\" (" +
                     (allowed.empty() ? std::string("a string") : "one of " + quoted) + ")");
        }
        return *fallback;
    }
    if (!v->is_string())
    {
        Fail(Child(pointer, key),
             "expected a string, got " + std::string(v->type_name()) + " " + v->dump());
    }
    CheckNoNul(*v, Child(pointer, key));
    if (!allowed.empty() && !allowed.count(v->get<std::string>()))
    {
        Fail(Child(pointer, key), "value " + v->dump() + " is not one of " + quoted);
    }
    return v->get<std::string>();
}

void
JsonSchemaReader::CheckNoNul(const Json& value, const std::string& pointer) const
{
    if (value.is_string() && value.get<std::string>().find('\0') != std::string::npos)
    {
        Fail(pointer, "the string contains a NUL character (\\u0000), which no name or path "
                      "may hold: " +
                          value.dump());
    }
}

Time
JsonSchemaReader::GetTime(const Json& object, const std::string& pointer, const std::string& key,
                          std::optional<std::string> fallback, Time min) const
{
    const std::string expected = "a duration string \"<number><unit>\" with unit s, ms, us, ns "
                                 "or ps, at least " +
                                 JsonAttributeConverter::FormatTime(min);
    const Json* v = Find(object, key);
    Time t;
    if (!v)
    {
        if (!fallback)
        {
            Fail(Child(pointer, key), "missing required field \"" + key + "\" (" + expected + ")");
        }
        JsonAttributeConverter::ParseTime(*fallback, t);
        return t;
    }
    if (!v->is_string() || !JsonAttributeConverter::ParseTime(v->get<std::string>(), t))
    {
        Fail(Child(pointer, key), "expected " + expected + ", got " + v->dump());
    }
    if (t < min)
    {
        Fail(Child(pointer, key), "value " + v->dump() + " out of range: expected " + expected);
    }
    return t;
}

DataRate
JsonSchemaReader::GetRate(const Json& object, const std::string& pointer, const std::string& key,
                          const std::string& fallback) const
{
    const Json* v = Find(object, key);
    DataRate r;
    if (!v)
    {
        JsonAttributeConverter::ParseDataRate(fallback, r);
        return r;
    }
    if (!v->is_string() || !JsonAttributeConverter::ParseDataRate(v->get<std::string>(), r) ||
        r.GetBitRate() == 0)
    {
        Fail(Child(pointer, key),
             "expected a positive data rate string such as \"100Gbps\" (units bps, Kbps, Mbps, "
             "Gbps), got " +
                 v->dump());
    }
    return r;
}

const Json&
JsonSchemaReader::Require(const Json& object, const std::string& pointer,
                          const std::string& key) const
{
    auto it = object.find(key);
    if (it == object.end())
    {
        Fail(Child(pointer, key), "required field is missing");
    }
    return *it;
}

std::string
JsonSchemaReader::ReadString(const Json& value, const std::string& pointer) const
{
    if (!value.is_string())
    {
        Fail(pointer, "expected a string");
    }
    return value.get<std::string>();
}

int64_t
JsonSchemaReader::ReadInteger(const Json& value, const std::string& pointer, int64_t min,
                              int64_t max) const
{
    int64_t x = 0;
    if (value.is_number_integer())
    {
        x = value.get<int64_t>();
    }
    else if (value.is_string())
    {
        const std::string s = value.get<std::string>();
        std::size_t used = 0;
        try
        {
            x = std::stoll(s, &used);
        }
        catch (const std::exception&)
        {
            used = 0;
        }
        if (used == 0 || used != s.size())
        {
            Fail(pointer, "'" + s + "' is not an integer");
        }
    }
    else
    {
        Fail(pointer, "expected an integer string");
    }
    if (x < min || x > max)
    {
        Fail(pointer, std::to_string(x) + " is outside [" + std::to_string(min) + ", " +
                          std::to_string(max) + "]");
    }
    return x;
}

uint64_t
JsonSchemaReader::ReadByteSize(const Json& value, const std::string& pointer) const
{
    if (value.is_number_unsigned())
    {
        return value.get<uint64_t>();
    }
    if (!value.is_string())
    {
        Fail(pointer, "expected a string of decimal bytes, e.g. \"18000000\"");
    }
    const std::string s = value.get<std::string>();
    if (s.empty() || s.size() > 19 ||
        !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
    {
        Fail(pointer, "'" + s +
                          "' is not a size in bytes (decimal digits only, "
                          "0 .. 9999999999999999999)");
    }
    return std::stoull(s);
}

} // namespace ns3
