#include "sonic-config-loader.h"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{
using Json = nlohmann::json;

/** A configuration error at a JSON pointer; caught in LoadString. */
struct ConfigError : std::runtime_error
{
    ConfigError(const std::string& pointer, const std::string& why)
        : std::runtime_error(pointer + ": " + why)
    {
    }
};

std::string
Pointer(const std::string& table, const std::string& key, const std::string& field = "")
{
    std::string p = "/" + table + "/" + key;
    return field.empty() ? p : p + "/" + field;
}

/** Decimal string of bytes (or JSON unsigned integer) -> bytes. */
uint64_t
ParseBytes(const Json& v, const std::string& where)
{
    if (v.is_number_unsigned())
    {
        return v.get<uint64_t>();
    }
    if (!v.is_string())
    {
        throw ConfigError(where, "expected a string of decimal bytes, e.g. \"18000000\"");
    }
    const std::string s = v.get<std::string>();
    if (s.empty() || s.size() > 19 ||
        !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
    {
        throw ConfigError(where, "'" + s +
                                     "' is not a size in bytes (decimal digits only, "
                                     "0 .. 9999999999999999999)");
    }
    return std::stoull(s);
}

int32_t
ParseInt(const Json& v, const std::string& where, int32_t lo, int32_t hi)
{
    int64_t x = 0;
    if (v.is_number_integer())
    {
        x = v.get<int64_t>();
    }
    else if (v.is_string())
    {
        const std::string s = v.get<std::string>();
        size_t used = 0;
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
            throw ConfigError(where, "'" + s + "' is not an integer");
        }
    }
    else
    {
        throw ConfigError(where, "expected an integer string");
    }
    if (x < lo || x > hi)
    {
        throw ConfigError(where, std::to_string(x) + " is outside [" + std::to_string(lo) + ", " +
                                     std::to_string(hi) + "]");
    }
    return static_cast<int32_t>(x);
}

std::string
ParseString(const Json& v, const std::string& where)
{
    if (!v.is_string())
    {
        throw ConfigError(where, "expected a string");
    }
    return v.get<std::string>();
}

/** "[TABLE|name]" or "name" -> name; the table must match when given. */
std::string
ParseReference(const Json& v, const std::string& table, const std::string& where)
{
    std::string s = ParseString(v, where);
    if (!s.empty() && s.front() == '[' && s.back() == ']')
    {
        s = s.substr(1, s.size() - 2);
        const size_t bar = s.find('|');
        if (bar == std::string::npos || s.substr(0, bar) != table)
        {
            throw ConfigError(where, "reference '" + v.get<std::string>() + "' should be [" +
                                         table + "|name]");
        }
        s = s.substr(bar + 1);
    }
    return s;
}

/** "3-4", "0", "0,1" -> bit mask over 0..7. */
uint8_t
ParseIndexSet(const std::string& text, const std::string& where)
{
    uint8_t mask = 0;
    std::stringstream ss(text);
    std::string part;
    while (std::getline(ss, part, ','))
    {
        const size_t dash = part.find('-');
        const std::string a = part.substr(0, dash);
        const std::string b = dash == std::string::npos ? a : part.substr(dash + 1);
        const int32_t lo = ParseInt(Json(a), where, 0, 7);
        const int32_t hi = ParseInt(Json(b), where, 0, 7);
        if (lo > hi)
        {
            throw ConfigError(where, "range '" + part + "' is reversed");
        }
        for (int32_t i = lo; i <= hi; ++i)
        {
            mask |= uint8_t(1u << i);
        }
    }
    if (mask == 0)
    {
        throw ConfigError(where, "empty index list '" + text + "'");
    }
    return mask;
}

const Json&
Field(const Json& obj, const char* name, const std::string& where)
{
    auto it = obj.find(name);
    if (it == obj.end())
    {
        throw ConfigError(where + "/" + name, "required field is missing");
    }
    return *it;
}

const Json&
Table(const Json& root, const char* name)
{
    static const Json empty = Json::object();
    auto it = root.find(name);
    if (it == root.end())
    {
        return empty;
    }
    if (!it->is_object())
    {
        throw ConfigError(std::string("/") + name, "a table must be a JSON object");
    }
    return *it;
}

/** Loading state: the config under construction and the port name rule. */
class Reader
{
  public:
    Reader(const std::map<std::string, uint32_t>& portMap, uint32_t divisor,
           std::vector<std::string>& notes)
        : m_portMap(portMap)
        , m_divisor(divisor)
        , m_notes(notes)
    {
    }

    void Read(const Json& root, SonicBufferConfig& c);

  private:
    SonicPortBuffer& Port(SonicBufferConfig& c, const std::string& name, const std::string& where);
    /** "Ethernet0,Ethernet4|3-4" -> ports and index mask. */
    std::vector<uint32_t> KeyPorts(SonicBufferConfig& c, const std::string& key,
                                   const std::string& table, uint8_t* mask);
    void ReadPools(const Json& root, SonicBufferConfig& c);
    void ReadProfiles(const Json& root, SonicBufferConfig& c);
    void ReadBindings(const Json& root, SonicBufferConfig& c);
    void ReadQos(const Json& root, SonicBufferConfig& c);
    void ReadWred(const Json& root, SonicBufferConfig& c);
    void ReadWatchdog(const Json& root, SonicBufferConfig& c);

    const std::map<std::string, uint32_t>& m_portMap;
    uint32_t m_divisor;
    std::vector<std::string>& m_notes;
    std::string m_systemPrefix; //!< <host>|<asic> of system-port keys, once seen
};

SonicPortBuffer&
Reader::Port(SonicBufferConfig& c, const std::string& name, const std::string& where)
{
    uint32_t index = 0;
    if (!m_portMap.empty())
    {
        auto it = m_portMap.find(name);
        if (it == m_portMap.end())
        {
            throw ConfigError(where, "port '" + name + "' is not in the port map");
        }
        index = it->second;
    }
    else
    {
        const std::string prefix = "Ethernet";
        const std::string digits = name.compare(0, prefix.size(), prefix) == 0
                                       ? name.substr(prefix.size())
                                       : std::string();
        const int32_t n = digits.empty() ? -1 : ParseInt(Json(digits), where, 0, 1 << 20);
        if (n < 0 || n % m_divisor != 0)
        {
            throw ConfigError(where,
                              "port '" + name + "' is not Ethernet<N> with N a multiple of " +
                                  std::to_string(m_divisor) + " (give a port map for other names)");
        }
        index = static_cast<uint32_t>(n) / m_divisor;
    }
    if (index >= c.ports.size())
    {
        c.ports.resize(index + 1);
    }
    SonicPortBuffer& port = c.ports[index];
    if (port.name.empty())
    {
        port.name = name;
    }
    port.configured = true;
    return port;
}

std::vector<uint32_t>
Reader::KeyPorts(SonicBufferConfig& c, const std::string& key, const std::string& table,
                 uint8_t* mask)
{
    const std::string where = Pointer(table, key);
    const size_t bar = key.rfind('|');
    if (bar == std::string::npos)
    {
        throw ConfigError(where, "key should be <port>|<index range>, e.g. Ethernet0|3-4");
    }
    *mask = ParseIndexSet(key.substr(bar + 1), where);
    std::string ports = key.substr(0, bar);
    // A VoQ chassis keys queues by system port, <host>|<asic>|<port> (buffers_config.j2);
    // the chassis is one switch here, so the host/asic prefix must name one ASIC.
    const size_t sys = ports.rfind('|');
    if (sys != std::string::npos)
    {
        const std::string prefix = ports.substr(0, sys);
        if (m_systemPrefix.empty())
        {
            m_systemPrefix = prefix;
        }
        else if (prefix != m_systemPrefix)
        {
            throw ConfigError(where, "system port prefix '" + prefix + "' differs from '" +
                                         m_systemPrefix +
                                         "' used before; one chassis ASIC per switch");
        }
        ports = ports.substr(sys + 1);
    }
    std::vector<uint32_t> out;
    std::stringstream ss(ports);
    std::string name;
    while (std::getline(ss, name, ','))
    {
        SonicPortBuffer& port = Port(c, name, where);
        out.push_back(static_cast<uint32_t>(&port - c.ports.data()));
    }
    return out;
}

void
Reader::ReadPools(const Json& root, SonicBufferConfig& c)
{
    for (const auto& [name, obj] : Table(root, "BUFFER_POOL").items())
    {
        const std::string where = Pointer("BUFFER_POOL", name);
        SonicBufferPool pool;
        pool.name = name;
        const std::string type = ParseString(Field(obj, "type", where), where + "/type");
        if (type == "ingress")
        {
            pool.type = SonicBufferPool::Type::INGRESS;
        }
        else if (type == "egress")
        {
            pool.type = SonicBufferPool::Type::EGRESS;
        }
        else if (type == "both")
        {
            pool.type = SonicBufferPool::Type::BOTH;
        }
        else
        {
            throw ConfigError(where + "/type", "'" + type + "' is not ingress, egress or both");
        }
        if (obj.contains("mode"))
        {
            const std::string mode = ParseString(obj["mode"], where + "/mode");
            if (mode != "dynamic" && mode != "static")
            {
                throw ConfigError(where + "/mode", "'" + mode + "' is not dynamic or static");
            }
            pool.dynamic = mode == "dynamic";
        }
        pool.size = ParseBytes(Field(obj, "size", where), where + "/size");
        if (obj.contains("xoff"))
        {
            pool.xoff = ParseBytes(obj["xoff"], where + "/xoff");
        }
        c.pools.push_back(pool);
    }
}

void
Reader::ReadProfiles(const Json& root, SonicBufferConfig& c)
{
    for (const auto& [name, obj] : Table(root, "BUFFER_PROFILE").items())
    {
        const std::string where = Pointer("BUFFER_PROFILE", name);
        SonicBufferProfile prof;
        prof.name = name;
        const std::string pool =
            ParseReference(Field(obj, "pool", where), "BUFFER_POOL", where + "/pool");
        const int32_t pi = c.FindPool(pool);
        if (pi < 0)
        {
            throw ConfigError(where + "/pool",
                              "names pool '" + pool + "', which BUFFER_POOL does not define");
        }
        prof.pool = static_cast<uint32_t>(pi);
        prof.size = obj.contains("size") ? ParseBytes(obj["size"], where + "/size") : 0;
        if (obj.contains("dynamic_th") && obj.contains("static_th"))
        {
            throw ConfigError(where, "give dynamic_th or static_th, not both");
        }
        if (obj.contains("dynamic_th"))
        {
            prof.dynamic = true;
            prof.dynamicTh = ParseInt(obj["dynamic_th"], where + "/dynamic_th", -128, 127);
        }
        else if (obj.contains("static_th"))
        {
            prof.dynamic = false;
            prof.staticTh = ParseBytes(obj["static_th"], where + "/static_th");
        }
        else
        {
            prof.dynamic = c.pools[pi].dynamic;
            m_notes.push_back(where + ": no dynamic_th/static_th; SAI default taken (" +
                              (prof.dynamic ? "dynamic_th 0, alpha 1" : "static_th 0, no limit") +
                              ")");
        }
        if (obj.contains("xoff"))
        {
            prof.xoff = ParseBytes(obj["xoff"], where + "/xoff");
        }
        if (obj.contains("xon"))
        {
            prof.xon = ParseBytes(obj["xon"], where + "/xon");
        }
        if (obj.contains("xon_offset"))
        {
            prof.xonOffset = ParseBytes(obj["xon_offset"], where + "/xon_offset");
        }
        c.profiles.push_back(prof);
    }
}

void
Reader::ReadBindings(const Json& root, SonicBufferConfig& c)
{
    for (const char* table : {"BUFFER_PG", "BUFFER_QUEUE"})
    {
        const bool pg = std::string(table) == "BUFFER_PG";
        for (const auto& [key, obj] : Table(root, table).items())
        {
            const std::string where = Pointer(table, key, "profile");
            uint8_t mask = 0;
            const std::vector<uint32_t> ports = KeyPorts(c, key, table, &mask);
            if (!obj.contains("profile") || obj["profile"].is_null() ||
                (obj["profile"].is_string() && obj["profile"].get<std::string>() == "NULL"))
            {
                throw ConfigError(where, "no profile; dynamically calculated headroom profiles "
                                         "are not supported, name a BUFFER_PROFILE");
            }
            const std::string prof = ParseReference(obj["profile"], "BUFFER_PROFILE", where);
            const int32_t pi = c.FindProfile(prof);
            if (pi < 0)
            {
                throw ConfigError(where, "names profile '" + prof +
                                             "', which BUFFER_PROFILE does not define");
            }
            for (uint32_t p : ports)
            {
                for (uint32_t i = 0; i < 8; ++i)
                {
                    if ((mask >> i) & 1)
                    {
                        if (pg)
                        {
                            c.ports[p].pgProfile[i] = pi;
                            c.ports[p].pgKey[i] = key;
                        }
                        else
                        {
                            c.ports[p].queueProfile[i] = pi;
                        }
                    }
                }
            }
        }
    }
}

void
Reader::ReadQos(const Json& root, SonicBufferConfig& c)
{
    const Json& maps = Table(root, "TC_TO_PRIORITY_GROUP_MAP");
    for (const auto& [name, obj] : Table(root, "PORT_QOS_MAP").items())
    {
        const std::string where = Pointer("PORT_QOS_MAP", name);
        std::vector<SonicPortBuffer*> ports;
        std::stringstream ss(name);
        std::string port;
        while (std::getline(ss, port, ','))
        {
            ports.push_back(&Port(c, port, where));
        }
        uint8_t pfc = 0;
        if (obj.contains("pfc_enable"))
        {
            const std::string s = ParseString(obj["pfc_enable"], where + "/pfc_enable");
            pfc = s.empty() ? 0 : ParseIndexSet(s, where + "/pfc_enable");
        }
        std::array<uint8_t, 8> tcToPg = SonicPortBuffer().tcToPg;
        if (obj.contains("tc_to_pg_map"))
        {
            const std::string mw = where + "/tc_to_pg_map";
            const std::string mapName =
                ParseReference(obj["tc_to_pg_map"], "TC_TO_PRIORITY_GROUP_MAP", mw);
            if (!maps.contains(mapName))
            {
                throw ConfigError(mw, "names map '" + mapName +
                                          "', which TC_TO_PRIORITY_GROUP_MAP does not define");
            }
            tcToPg.fill(0);
            for (const auto& [tc, pgv] : maps[mapName].items())
            {
                const std::string tw = Pointer("TC_TO_PRIORITY_GROUP_MAP", mapName, tc);
                tcToPg[ParseInt(Json(tc), tw, 0, 7)] = uint8_t(ParseInt(pgv, tw, 0, 7));
            }
        }
        for (SonicPortBuffer* p : ports)
        {
            p->pfcEnable = pfc;
            p->tcToPg = tcToPg;
        }
    }
}

void
Reader::ReadWred(const Json& root, SonicBufferConfig& c)
{
    for (const auto& [name, obj] : Table(root, "WRED_PROFILE").items())
    {
        const std::string where = Pointer("WRED_PROFILE", name);
        SonicWredProfile w;
        w.name = name;
        if (obj.contains("wred_green_enable"))
        {
            w.greenEnable = ParseString(obj["wred_green_enable"], where) == "true";
        }
        if (obj.contains("green_min_threshold"))
        {
            w.greenMin = ParseBytes(obj["green_min_threshold"], where + "/green_min_threshold");
        }
        if (obj.contains("green_max_threshold"))
        {
            w.greenMax = ParseBytes(obj["green_max_threshold"], where + "/green_max_threshold");
        }
        if (obj.contains("green_drop_probability"))
        {
            w.greenDropProbability =
                ParseInt(obj["green_drop_probability"], where + "/green_drop_probability", 0, 100) /
                100.0;
        }
        if (obj.contains("ecn"))
        {
            w.ecnMarking = ParseString(obj["ecn"], where + "/ecn") != "ecn_none";
        }
        if (w.greenMin > w.greenMax)
        {
            throw ConfigError(where + "/green_min_threshold", "larger than green_max_threshold");
        }
        c.wredProfiles.push_back(w);
    }
    for (const auto& [key, obj] : Table(root, "QUEUE").items())
    {
        if (!obj.contains("wred_profile"))
        {
            continue;
        }
        const std::string where = Pointer("QUEUE", key, "wred_profile");
        uint8_t mask = 0;
        const std::vector<uint32_t> ports = KeyPorts(c, key, "QUEUE", &mask);
        const std::string prof = ParseReference(obj["wred_profile"], "WRED_PROFILE", where);
        const int32_t wi = c.FindWredProfile(prof);
        if (wi < 0)
        {
            throw ConfigError(where,
                              "names profile '" + prof + "', which WRED_PROFILE does not define");
        }
        for (uint32_t p : ports)
        {
            for (uint32_t q = 0; q < 8; ++q)
            {
                if ((mask >> q) & 1)
                {
                    c.ports[p].queueWred[q] = wi;
                }
            }
        }
    }
}

void
Reader::ReadWatchdog(const Json& root, SonicBufferConfig& c)
{
    for (const auto& [name, obj] : Table(root, "PFC_WD").items())
    {
        const std::string where = Pointer("PFC_WD", name);
        if (name == "GLOBAL")
        {
            if (obj.contains("POLL_INTERVAL"))
            {
                // sonic-utilities pfcwd: poll interval 100-1000 ms.
                c.watchdogPollMs =
                    uint32_t(ParseInt(obj["POLL_INTERVAL"], where + "/POLL_INTERVAL", 100, 1000));
            }
            continue;
        }
        SonicPortBuffer& port = Port(c, name, where);
        port.watchdog = true;
        if (obj.contains("action"))
        {
            const std::string a = ParseString(obj["action"], where + "/action");
            if (a != "drop" && a != "forward" && a != "alert")
            {
                throw ConfigError(where + "/action", "'" + a + "' is not drop, forward or alert");
            }
            port.watchdogAction = a;
        }
        // Limits of sonic-swss pfcwdorch.h: detection 100-5000 ms, restoration 100-60000 ms.
        if (obj.contains("detection_time"))
        {
            port.detectionMs =
                uint32_t(ParseInt(obj["detection_time"], where + "/detection_time", 100, 5000));
        }
        port.restorationMs = 2 * port.detectionMs;
        if (obj.contains("restoration_time"))
        {
            port.restorationMs = uint32_t(
                ParseInt(obj["restoration_time"], where + "/restoration_time", 100, 60000));
        }
    }
}

void
Reader::Read(const Json& root, SonicBufferConfig& c)
{
    if (!root.is_object())
    {
        throw ConfigError("", "the top level must be a JSON object of config_db tables");
    }
    static const std::set<std::string> known = {
        "BUFFER_POOL", "BUFFER_PROFILE",           "BUFFER_PG",    "BUFFER_QUEUE", "PORT_QOS_MAP",
        "QUEUE",       "TC_TO_PRIORITY_GROUP_MAP", "WRED_PROFILE", "PFC_WD"};
    const Json& meta = Table(root, "DEVICE_METADATA");
    if (meta.contains("localhost") && meta["localhost"].is_object() &&
        meta["localhost"].contains("switch_type"))
    {
        c.switchType =
            ParseString(meta["localhost"]["switch_type"], "/DEVICE_METADATA/localhost/switch_type");
    }
    for (const auto& [table, value] : root.items())
    {
        if (known.count(table) == 0)
        {
            m_notes.push_back("/" + table + ": table ignored (not a buffer table)");
        }
    }
    ReadPools(root, c);
    ReadProfiles(root, c);
    ReadQos(root, c); // before bindings, so port entries exist in any order
    ReadBindings(root, c);
    ReadWred(root, c);
    ReadWatchdog(root, c);
    for (size_t i = 0; i < c.ports.size(); ++i)
    {
        if (!c.ports[i].configured)
        {
            m_notes.push_back("port index " + std::to_string(i) +
                              " is named by no table (no buffer profiles)");
        }
    }
}
} // namespace

SonicConfigLoader::SonicConfigLoader() = default;

void
SonicConfigLoader::SetPortMap(const std::map<std::string, uint32_t>& portMap)
{
    m_portMap = portMap;
}

void
SonicConfigLoader::SetEthernetDivisor(uint32_t divisor)
{
    m_divisor = divisor == 0 ? 1 : divisor;
}

bool
SonicConfigLoader::LoadFile(const std::string& path, SonicBufferConfig& config)
{
    std::ifstream in(path);
    if (!in)
    {
        m_notes.clear();
        m_error = path + ": cannot open the file";
        return false;
    }
    std::stringstream text;
    text << in.rdbuf();
    return LoadString(text.str(), path, config);
}

bool
SonicConfigLoader::LoadString(const std::string& text, const std::string& source,
                              SonicBufferConfig& config)
{
    m_error.clear();
    m_notes.clear();
    SonicBufferConfig c;
    c.source = source;
    try
    {
        const Json root = Json::parse(text);
        Reader(m_portMap, m_divisor, m_notes).Read(root, c);
    }
    catch (const Json::parse_error& e)
    {
        m_error = source + ": not valid JSON (" + e.what() + ")";
        return false;
    }
    catch (const std::exception& e)
    {
        m_error = source + ": " + e.what();
        return false;
    }
    m_error = c.Validate();
    if (!m_error.empty())
    {
        return false;
    }
    config = c;
    return true;
}

const std::string&
SonicConfigLoader::GetError() const
{
    return m_error;
}

const std::vector<std::string>&
SonicConfigLoader::GetNotes() const
{
    return m_notes;
}

} // namespace ns3
