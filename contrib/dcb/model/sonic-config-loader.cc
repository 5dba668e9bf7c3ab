// Why ~1000 lines: one reader per config_db table (17 tables), each with its own located checks.
#include "sonic-config-loader.h"

#include "sonic-config-tables.h"

#include "ns3/config-error.h"
#include "ns3/json-schema-reader.h"

#include <algorithm>
#include <array>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace ns3
{

namespace
{
using Json = nlohmann::json;
using Entry = SonicConfigEntry;

/** "[TABLE|name]" or "name" -> name; the table must match when given. */
std::string
ParseReference(const JsonSchemaReader& r, const Json& v, const std::string& table,
               const std::string& where)
{
    std::string s = r.ReadString(v, where);
    if (!s.empty() && s.front() == '[' && s.back() == ']')
    {
        s = s.substr(1, s.size() - 2);
        const size_t bar = s.find('|');
        if (bar == std::string::npos || s.substr(0, bar) != table)
        {
            r.Fail(where,
                   "reference '" + v.get<std::string>() + "' should be [" + table + "|name]");
        }
        s = s.substr(bar + 1);
    }
    return s;
}

/** "3-4", "0", "0,1" -> bit mask over 0..7. */
uint8_t
ParseIndexSet(const JsonSchemaReader& r, const std::string& text, const std::string& where)
{
    uint8_t mask = 0;
    std::stringstream ss(text);
    std::string part;
    while (std::getline(ss, part, ','))
    {
        const size_t dash = part.find('-');
        const std::string a = part.substr(0, dash);
        const std::string b = dash == std::string::npos ? a : part.substr(dash + 1);
        const int64_t lo = r.ReadInteger(Json(a), where, 0, 7);
        const int64_t hi = r.ReadInteger(Json(b), where, 0, 7);
        if (lo > hi)
        {
            r.Fail(where, "range '" + part + "' is reversed");
        }
        for (int64_t i = lo; i <= hi; ++i)
        {
            mask |= uint8_t(1u << i);
        }
    }
    if (mask == 0)
    {
        r.Fail(where, "empty index list '" + text + "'");
    }
    return mask;
}

/** "Ethernet12" -> 12, else -1. */
int64_t
EthernetNumber(const std::string& name)
{
    const std::string prefix = "Ethernet";
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0 ||
        name.size() > prefix.size() + 9)
    {
        return -1;
    }
    const std::string digits = name.substr(prefix.size());
    if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    {
        return -1;
    }
    return std::stoll(digits);
}

/** Split "a,b,c". */
std::vector<std::string>
SplitComma(const std::string& text)
{
    std::vector<std::string> out;
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ','))
    {
        out.push_back(item);
    }
    return out;
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

    void Read(const SonicConfigTables& tables, SonicBufferConfig& c);

  private:
    /** The port named \p name, or nullptr when a port map leaves it out. */
    SonicPortBuffer* Port(SonicBufferConfig& c, const std::string& name, const JsonSchemaReader& r,
                          const std::string& where);
    /** "Ethernet0,Ethernet4|3-4" -> ports (those mapped) and index mask. */
    std::vector<uint32_t> KeyPorts(SonicBufferConfig& c, const Entry& e, uint8_t* mask);
    /** Port names of a port-keyed entry (no validation beyond the key's shape). */
    std::vector<std::string> NamesOf(const std::string& table, const Entry& e) const;
    /** EthernetN ranks for the order rule. */
    void RankPorts(const SonicConfigTables& tables);
    /** A QoS map entry: key -> value over [0, keys) x [0, values); unlisted keys -1. */
    std::array<int32_t, 64> ReadMap(const SonicConfigTables& tables, const std::string& table,
                                    const Json& ref, const JsonSchemaReader& r,
                                    const std::string& where, int32_t keys, int32_t values,
                                    const Entry** entry) const;
    void ReadPorts(const SonicConfigTables& tables, SonicBufferConfig& c);
    void ReadPools(const SonicConfigTables& tables, SonicBufferConfig& c);
    void ReadProfiles(const SonicConfigTables& tables, SonicBufferConfig& c);
    void ReadBindings(const SonicConfigTables& tables, SonicBufferConfig& c);
    void ReadQos(const SonicConfigTables& tables, SonicBufferConfig& c);
    void ReadWred(const SonicConfigTables& tables, SonicBufferConfig& c);
    void ReadSchedulers(const SonicConfigTables& tables, SonicBufferConfig& c);
    void ReadQueues(const SonicConfigTables& tables, SonicBufferConfig& c);
    void ReadWatchdog(const SonicConfigTables& tables, SonicBufferConfig& c);

    const std::map<std::string, uint32_t>& m_portMap;
    uint32_t m_divisor; //!< 0: order rule
    std::vector<std::string>& m_notes;
    std::map<std::string, uint32_t> m_rank; //!< order rule: name -> index
    std::set<std::string> m_unmapped;       //!< names a port map leaves out
    std::string m_systemPrefix;             //!< <host>|<asic> of system-port keys, once seen
    bool m_traditional{false};              //!< DEVICE_METADATA buffer_model traditional
};

std::vector<std::string>
Reader::NamesOf(const std::string& table, const Entry& e) const
{
    if (table == "PORT")
    {
        return {e.key};
    }
    if (table == "PORT_QOS_MAP")
    {
        return e.key == "global" ? std::vector<std::string>() : SplitComma(e.key);
    }
    if (table == "PFC_WD")
    {
        return e.key == "GLOBAL" ? std::vector<std::string>() : std::vector<std::string>{e.key};
    }
    if (table == "CABLE_LENGTH")
    {
        std::vector<std::string> names;
        for (const auto& [port, v] : e.value.items())
        {
            names.push_back(port);
        }
        return names;
    }
    const size_t bar = e.key.rfind('|');
    if (bar == std::string::npos)
    {
        return {};
    }
    std::string ports = e.key.substr(0, bar);
    const size_t sys = ports.rfind('|');
    return SplitComma(sys == std::string::npos ? ports : ports.substr(sys + 1));
}

void
Reader::RankPorts(const SonicConfigTables& tables)
{
    std::map<int64_t, std::string> byNumber;
    for (const char* table :
         {"PORT", "BUFFER_PG", "BUFFER_QUEUE", "QUEUE", "PORT_QOS_MAP", "PFC_WD", "CABLE_LENGTH"})
    {
        for (const Entry& e : tables.Get(table))
        {
            for (const std::string& name : NamesOf(table, e))
            {
                const int64_t n = EthernetNumber(name);
                if (n < 0)
                {
                    e.reader.Fail(e.pointer, "port '" + name +
                                                 "' is not Ethernet<N>; give a port map "
                                                 "(config_db port names in switch port order)");
                }
                byNumber[n] = name;
            }
        }
    }
    uint32_t rank = 0;
    for (const auto& [n, name] : byNumber)
    {
        m_rank[name] = rank++;
    }
}

SonicPortBuffer*
Reader::Port(SonicBufferConfig& c, const std::string& name, const JsonSchemaReader& r,
             const std::string& where)
{
    uint32_t index = 0;
    if (!m_portMap.empty())
    {
        auto it = m_portMap.find(name);
        if (it == m_portMap.end())
        {
            m_unmapped.insert(name);
            return nullptr;
        }
        index = it->second;
    }
    else if (m_divisor == 0)
    {
        index = m_rank.at(name); // RankPorts saw every port-keyed table
    }
    else
    {
        const int64_t n = EthernetNumber(name);
        if (n < 0 || n % m_divisor != 0)
        {
            r.Fail(where, "port '" + name + "' is not Ethernet<N> with N a multiple of " +
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
    return &port;
}

std::vector<uint32_t>
Reader::KeyPorts(SonicBufferConfig& c, const Entry& e, uint8_t* mask)
{
    const size_t bar = e.key.rfind('|');
    if (bar == std::string::npos)
    {
        e.reader.Fail(e.pointer, "key should be <port>|<index range>, e.g. Ethernet0|3-4");
    }
    *mask = ParseIndexSet(e.reader, e.key.substr(bar + 1), e.pointer);
    std::string ports = e.key.substr(0, bar);
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
            e.reader.Fail(e.pointer, "system port prefix '" + prefix + "' differs from '" +
                                         m_systemPrefix +
                                         "' used before; one chassis ASIC per switch");
        }
        ports = ports.substr(sys + 1);
    }
    std::vector<uint32_t> out;
    for (const std::string& name : SplitComma(ports))
    {
        if (SonicPortBuffer* port = Port(c, name, e.reader, e.pointer))
        {
            out.push_back(static_cast<uint32_t>(port - c.ports.data()));
        }
    }
    return out;
}

std::array<int32_t, 64>
Reader::ReadMap(const SonicConfigTables& tables, const std::string& table, const Json& ref,
                const JsonSchemaReader& r, const std::string& where, int32_t keys, int32_t values,
                const Entry** entry) const
{
    const std::string name = ParseReference(r, ref, table, where);
    const Entry* e = tables.Find(table, name);
    if (!e)
    {
        r.Fail(where, "names map '" + name + "', which " + table + " does not define");
    }
    std::array<int32_t, 64> map;
    map.fill(-1);
    for (const auto& [k, v] : e->value.items())
    {
        const std::string kw = JsonSchemaReader::Child(e->pointer, k);
        map[e->reader.ReadInteger(Json(k), kw, 0, keys - 1)] =
            int32_t(e->reader.ReadInteger(v, kw, 0, values - 1));
    }
    *entry = e;
    return map;
}

void
Reader::ReadPorts(const SonicConfigTables& tables, SonicBufferConfig& c)
{
    for (const Entry& e : tables.Get("PORT"))
    {
        SonicPortBuffer* port = Port(c, e.key, e.reader, e.pointer);
        if (!port)
        {
            continue;
        }
        if (e.value.contains("speed"))
        {
            // sonic-port.yang: speed in Mb/s, 1 .. 800000.
            port->speedMbps =
                uint64_t(e.reader.ReadInteger(e.value["speed"], e.pointer + "/speed", 1, 800000));
        }
        if (e.value.contains("mtu"))
        {
            // sonic-port.yang: mtu 1 .. 9216.
            port->mtu = uint32_t(e.reader.ReadInteger(e.value["mtu"], e.pointer + "/mtu", 1, 9216));
        }
    }
    for (const Entry& e : tables.Get("CABLE_LENGTH"))
    {
        for (const auto& [name, v] : e.value.items())
        {
            const std::string where = JsonSchemaReader::Child(e.pointer, name);
            const std::string s = e.reader.ReadString(v, where);
            // sonic-cable-length.yang: "<digits>m".
            if (s.size() < 2 || s.back() != 'm' ||
                !std::all_of(s.begin(), s.end() - 1,
                             [](char ch) { return ch >= '0' && ch <= '9'; }))
            {
                e.reader.Fail(where, "'" + s + "' is not a cable length in metres, e.g. \"5m\"");
            }
            const int32_t metres =
                int32_t(e.reader.ReadInteger(Json(s.substr(0, s.size() - 1)), where, 0, 100000));
            if (SonicPortBuffer* port = Port(c, name, e.reader, where))
            {
                port->cableMetres = metres;
            }
        }
    }
}

void
Reader::ReadPools(const SonicConfigTables& tables, SonicBufferConfig& c)
{
    for (const Entry& e : tables.Get("BUFFER_POOL"))
    {
        const JsonSchemaReader& r = e.reader;
        const std::string& where = e.pointer;
        const Json& obj = e.value;
        SonicBufferPool pool;
        pool.name = e.key;
        const std::string type = r.ReadString(r.Require(obj, where, "type"), where + "/type");
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
            r.Fail(where + "/type", "'" + type + "' is not ingress, egress or both");
        }
        if (obj.contains("mode"))
        {
            const std::string mode = r.ReadString(obj["mode"], where + "/mode");
            if (mode != "dynamic" && mode != "static")
            {
                r.Fail(where + "/mode", "'" + mode + "' is not dynamic or static");
            }
            pool.dynamic = mode == "dynamic";
        }
        if (obj.contains("size"))
        {
            pool.size = r.ReadByteSize(obj["size"], where + "/size");
        }
        else if (m_traditional)
        {
            r.Fail(where + "/size", "required field is missing (buffer_model traditional; only the "
                                    "dynamic model leaves pool sizes to the buffer manager)");
        }
        else
        {
            pool.sizeGiven = false; // dynamic model: buffermgrd sizes it
        }
        if (obj.contains("xoff"))
        {
            pool.xoff = r.ReadByteSize(obj["xoff"], where + "/xoff");
        }
        c.pools.push_back(pool);
    }
}

void
Reader::ReadProfiles(const SonicConfigTables& tables, SonicBufferConfig& c)
{
    for (const Entry& e : tables.Get("BUFFER_PROFILE"))
    {
        const JsonSchemaReader& r = e.reader;
        const std::string& where = e.pointer;
        const Json& obj = e.value;
        SonicBufferProfile prof;
        prof.name = e.key;
        const std::string pool =
            ParseReference(r, r.Require(obj, where, "pool"), "BUFFER_POOL", where + "/pool");
        const int32_t pi = c.FindPool(pool);
        if (pi < 0)
        {
            r.Fail(where + "/pool", "names pool '" + pool + "', which BUFFER_POOL does not define");
        }
        prof.pool = static_cast<uint32_t>(pi);
        prof.size = obj.contains("size") ? r.ReadByteSize(obj["size"], where + "/size") : 0;
        if (obj.contains("dynamic_th") && obj.contains("static_th"))
        {
            r.Fail(where, "give dynamic_th or static_th, not both");
        }
        if (obj.contains("dynamic_th"))
        {
            prof.dynamic = true;
            prof.dynamicTh = r.ReadInteger(obj["dynamic_th"], where + "/dynamic_th", -128, 127);
        }
        else if (obj.contains("static_th"))
        {
            prof.dynamic = false;
            prof.staticTh = r.ReadByteSize(obj["static_th"], where + "/static_th");
        }
        else
        {
            prof.dynamic = c.pools[pi].dynamic;
            m_notes.push_back(
                r.GetFile() + ": " + where + ": no dynamic_th/static_th; SAI default taken (" +
                (prof.dynamic ? "dynamic_th 0, alpha 1" : "static_th 0, no limit") + ")");
        }
        if (obj.contains("xoff"))
        {
            prof.xoff = r.ReadByteSize(obj["xoff"], where + "/xoff");
        }
        if (obj.contains("xon"))
        {
            prof.xon = r.ReadByteSize(obj["xon"], where + "/xon");
        }
        if (obj.contains("xon_offset"))
        {
            prof.xonOffset = r.ReadByteSize(obj["xon_offset"], where + "/xon_offset");
        }
        c.profiles.push_back(prof);
    }
}

void
Reader::ReadBindings(const SonicConfigTables& tables, SonicBufferConfig& c)
{
    for (const char* table : {"BUFFER_PG", "BUFFER_QUEUE"})
    {
        const bool pg = std::string(table) == "BUFFER_PG";
        for (const Entry& e : tables.Get(table))
        {
            const JsonSchemaReader& r = e.reader;
            const std::string where = e.pointer + "/profile";
            uint8_t mask = 0;
            const std::vector<uint32_t> ports = KeyPorts(c, e, &mask);
            const Json& obj = e.value;
            int32_t pi = SonicPortBuffer::NONE;
            if (!obj.contains("profile") || obj["profile"].is_null() ||
                (obj["profile"].is_string() && obj["profile"].get<std::string>() == "NULL"))
            {
                // Dynamic model (SONiC buffer HLD): a PG without profile is lossless and
                // buffermgrd calculates its headroom from the port's speed and cable.
                if (!pg)
                {
                    r.Fail(where, "no profile; a queue needs a BUFFER_PROFILE");
                }
                if (m_traditional)
                {
                    r.Fail(where, "no profile; headroom is calculated only with "
                                  "DEVICE_METADATA|localhost buffer_model dynamic");
                }
                if (c.FindPool("ingress_lossless_pool") < 0)
                {
                    r.Fail(where, "no profile (calculated headroom), but BUFFER_POOL "
                                  "defines no ingress_lossless_pool to put it in");
                }
            }
            else
            {
                const std::string prof = ParseReference(r, obj["profile"], "BUFFER_PROFILE", where);
                pi = c.FindProfile(prof);
                if (pi < 0)
                {
                    r.Fail(where,
                           "names profile '" + prof + "', which BUFFER_PROFILE does not define");
                }
            }
            for (uint32_t p : ports)
            {
                for (uint32_t i = 0; i < 8; ++i)
                {
                    if (!((mask >> i) & 1))
                    {
                        continue;
                    }
                    if (pg)
                    {
                        c.ports[p].pgProfile[i] = pi;
                        c.ports[p].pgKey[i] = e.key;
                        const uint8_t bit = uint8_t(1u << i);
                        c.ports[p].pgDynamic = pi == SonicPortBuffer::NONE
                                                   ? uint8_t(c.ports[p].pgDynamic | bit)
                                                   : uint8_t(c.ports[p].pgDynamic & ~bit);
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

void
Reader::ReadQos(const SonicConfigTables& tables, SonicBufferConfig& c)
{
    for (const Entry& e : tables.Get("PORT_QOS_MAP"))
    {
        const JsonSchemaReader& r = e.reader;
        const std::string& where = e.pointer;
        const Json& obj = e.value;
        // DSCP_TO_TC_MAP: DSCPs the map leaves out go to TC 0 (SAI QoS map default).
        std::array<uint8_t, 64> dscpToTc{};
        const bool hasDscp = obj.contains("dscp_to_tc_map");
        if (hasDscp)
        {
            const Entry* map = nullptr;
            const std::array<int32_t, 64> m =
                ReadMap(tables, "DSCP_TO_TC_MAP", obj["dscp_to_tc_map"], r,
                        where + "/dscp_to_tc_map", 64, 8, &map);
            for (uint32_t d = 0; d < 64; ++d)
            {
                dscpToTc[d] = uint8_t(std::max(m[d], 0));
            }
        }
        if (e.key == "global")
        {
            // Switch-wide map, used by ports without their own (SAI switch QoS map).
            c.hasGlobalDscpToTc = hasDscp;
            c.globalDscpToTc = dscpToTc;
            continue;
        }
        // Indices, not pointers: a later port of the list may grow c.ports.
        std::vector<uint32_t> ports;
        for (const std::string& name : SplitComma(e.key))
        {
            if (SonicPortBuffer* p = Port(c, name, r, where))
            {
                ports.push_back(static_cast<uint32_t>(p - c.ports.data()));
            }
        }
        uint8_t pfc = 0;
        if (obj.contains("pfc_enable"))
        {
            const std::string s = r.ReadString(obj["pfc_enable"], where + "/pfc_enable");
            pfc = s.empty() ? 0 : ParseIndexSet(r, s, where + "/pfc_enable");
        }
        std::array<uint8_t, 8> tcToPg = SonicPortBuffer().tcToPg;
        if (obj.contains("tc_to_pg_map"))
        {
            const Entry* map = nullptr;
            const std::array<int32_t, 64> m =
                ReadMap(tables, "TC_TO_PRIORITY_GROUP_MAP", obj["tc_to_pg_map"], r,
                        where + "/tc_to_pg_map", 8, 8, &map);
            for (uint32_t tc = 0; tc < 8; ++tc)
            {
                tcToPg[tc] = uint8_t(std::max(m[tc], 0));
            }
        }
        // This model serves TC t in egress queue t and pauses queue p on PFC priority p:
        // the two queue maps are accepted where they say just that.
        for (const auto& [field, table] :
             {std::pair<const char*, const char*>{"tc_to_queue_map", "TC_TO_QUEUE_MAP"},
              {"pfc_to_queue_map", "MAP_PFC_PRIORITY_TO_QUEUE"}})
        {
            if (!obj.contains(field))
            {
                continue;
            }
            const Entry* map = nullptr;
            const std::array<int32_t, 64> m =
                ReadMap(tables, table, obj[field], r, where + "/" + field, 8, 8, &map);
            for (int32_t k = 0; k < 8; ++k)
            {
                if (m[k] >= 0 && m[k] != k)
                {
                    map->reader.Fail(map->pointer + "/" + std::to_string(k),
                                     std::to_string(k) + " -> queue " + std::to_string(m[k]) +
                                         ": only the identity map is modelled (traffic class "
                                         "and PFC priority t use egress queue t)");
                }
            }
        }
        for (uint32_t i : ports)
        {
            SonicPortBuffer* p = &c.ports[i];
            p->pfcEnable = pfc;
            p->tcToPg = tcToPg;
            p->hasDscpToTc = hasDscp;
            p->dscpToTc = dscpToTc;
        }
    }
}

void
Reader::ReadWred(const SonicConfigTables& tables, SonicBufferConfig& c)
{
    for (const Entry& e : tables.Get("WRED_PROFILE"))
    {
        const JsonSchemaReader& r = e.reader;
        const std::string& where = e.pointer;
        const Json& obj = e.value;
        SonicWredProfile w;
        w.name = e.key;
        if (obj.contains("wred_green_enable"))
        {
            const std::string s =
                r.ReadString(obj["wred_green_enable"], where + "/wred_green_enable");
            if (s != "true" && s != "false")
            {
                r.Fail(where + "/wred_green_enable", "'" + s + "' is not true or false");
            }
            w.greenEnable = s == "true";
        }
        if (obj.contains("green_min_threshold"))
        {
            w.greenMin = r.ReadByteSize(obj["green_min_threshold"], where + "/green_min_threshold");
        }
        if (obj.contains("green_max_threshold"))
        {
            w.greenMax = r.ReadByteSize(obj["green_max_threshold"], where + "/green_max_threshold");
        }
        if (obj.contains("green_drop_probability"))
        {
            w.greenDropProbability = r.ReadInteger(obj["green_drop_probability"],
                                                   where + "/green_drop_probability", 0, 100) /
                                     100.0;
        }
        if (obj.contains("ecn"))
        {
            // sonic-wred-profile.yang: which colours are ECN-marked instead of dropped.
            static const std::set<std::string> green = {"ecn_green", "ecn_green_yellow",
                                                        "ecn_green_red", "ecn_all"};
            static const std::set<std::string> other = {"ecn_none", "ecn_yellow", "ecn_red",
                                                        "ecn_yellow_red"};
            const std::string s = r.ReadString(obj["ecn"], where + "/ecn");
            if (green.count(s) == 0 && other.count(s) == 0)
            {
                r.Fail(where + "/ecn", "'" + s +
                                           "' is not ecn_none, ecn_green, ecn_yellow, "
                                           "ecn_red, ecn_green_yellow, ecn_green_red, "
                                           "ecn_yellow_red or ecn_all");
            }
            w.ecnMarking = green.count(s) > 0;
        }
        if (w.greenMin > w.greenMax)
        {
            r.Fail(where + "/green_min_threshold", "larger than green_max_threshold");
        }
        c.wredProfiles.push_back(w);
    }
}

void
Reader::ReadSchedulers(const SonicConfigTables& tables, SonicBufferConfig& c)
{
    for (const Entry& e : tables.Get("SCHEDULER"))
    {
        const JsonSchemaReader& r = e.reader;
        SonicScheduler s;
        s.name = e.key;
        const std::string type = e.value.contains("type")
                                     ? r.ReadString(e.value["type"], e.pointer + "/type")
                                     : "STRICT";
        if (type != "STRICT" && type != "WRR" && type != "DWRR")
        {
            r.Fail(e.pointer + "/type", "'" + type + "' is not STRICT, WRR or DWRR");
        }
        s.dwrr = type != "STRICT";
        if (e.value.contains("weight"))
        {
            // sonic-scheduler.yang: weight 1 .. 100.
            s.weight = uint32_t(r.ReadInteger(e.value["weight"], e.pointer + "/weight", 1, 100));
        }
        c.schedulers.push_back(s);
    }
}

void
Reader::ReadQueues(const SonicConfigTables& tables, SonicBufferConfig& c)
{
    for (const Entry& e : tables.Get("QUEUE"))
    {
        const JsonSchemaReader& r = e.reader;
        uint8_t mask = 0;
        const std::vector<uint32_t> ports = KeyPorts(c, e, &mask);
        int32_t wi = SonicPortBuffer::NONE;
        int32_t si = SonicPortBuffer::NONE;
        if (e.value.contains("wred_profile"))
        {
            const std::string where = e.pointer + "/wred_profile";
            const std::string prof =
                ParseReference(r, e.value["wred_profile"], "WRED_PROFILE", where);
            wi = c.FindWredProfile(prof);
            if (wi < 0)
            {
                r.Fail(where, "names profile '" + prof + "', which WRED_PROFILE does not define");
            }
        }
        if (e.value.contains("scheduler"))
        {
            const std::string where = e.pointer + "/scheduler";
            const std::string name = ParseReference(r, e.value["scheduler"], "SCHEDULER", where);
            for (size_t i = 0; i < c.schedulers.size(); ++i)
            {
                si = c.schedulers[i].name == name ? int32_t(i) : si;
            }
            if (si < 0)
            {
                r.Fail(where, "names scheduler '" + name + "', which SCHEDULER does not define");
            }
        }
        for (uint32_t p : ports)
        {
            for (uint32_t q = 0; q < 8; ++q)
            {
                if (!((mask >> q) & 1))
                {
                    continue;
                }
                if (wi != SonicPortBuffer::NONE)
                {
                    c.ports[p].queueWred[q] = wi;
                }
                if (si != SonicPortBuffer::NONE)
                {
                    c.ports[p].queueScheduler[q] = si;
                }
            }
        }
    }
}

void
Reader::ReadWatchdog(const SonicConfigTables& tables, SonicBufferConfig& c)
{
    for (const Entry& e : tables.Get("PFC_WD"))
    {
        const JsonSchemaReader& r = e.reader;
        const std::string& where = e.pointer;
        const Json& obj = e.value;
        if (e.key == "GLOBAL")
        {
            if (obj.contains("POLL_INTERVAL"))
            {
                // sonic-utilities pfcwd: poll interval 100-1000 ms.
                c.watchdogPollMs = uint32_t(
                    r.ReadInteger(obj["POLL_INTERVAL"], where + "/POLL_INTERVAL", 100, 1000));
            }
            continue;
        }
        SonicPortBuffer* port = Port(c, e.key, r, where);
        if (!port)
        {
            continue;
        }
        port->watchdog = true;
        if (obj.contains("action"))
        {
            const std::string a = r.ReadString(obj["action"], where + "/action");
            if (a != "drop" && a != "forward" && a != "alert")
            {
                r.Fail(where + "/action", "'" + a + "' is not drop, forward or alert");
            }
            port->watchdogAction = a;
        }
        // Limits of sonic-swss pfcwdorch.h: detection 100-5000 ms, restoration 100-60000 ms.
        if (obj.contains("detection_time"))
        {
            port->detectionMs = uint32_t(
                r.ReadInteger(obj["detection_time"], where + "/detection_time", 100, 5000));
        }
        port->restorationMs = 2 * port->detectionMs;
        if (obj.contains("restoration_time"))
        {
            port->restorationMs = uint32_t(
                r.ReadInteger(obj["restoration_time"], where + "/restoration_time", 100, 60000));
        }
    }
}

void
Reader::Read(const SonicConfigTables& tables, SonicBufferConfig& c)
{
    if (const Entry* meta = tables.Find("DEVICE_METADATA", "localhost"))
    {
        if (meta->value.contains("switch_type"))
        {
            c.switchType =
                meta->reader.ReadString(meta->value["switch_type"], meta->pointer + "/switch_type");
        }
        if (meta->value.contains("buffer_model"))
        {
            const std::string where = meta->pointer + "/buffer_model";
            const std::string model = meta->reader.ReadString(meta->value["buffer_model"], where);
            if (model != "traditional" && model != "dynamic")
            {
                meta->reader.Fail(where, "'" + model + "' is not traditional or dynamic");
            }
            m_traditional = model == "traditional";
        }
    }
    if (const Entry* def = tables.Find("DEFAULT_LOSSLESS_BUFFER_PARAMETER", "AZURE"))
    {
        if (def->value.contains("default_dynamic_th"))
        {
            c.defaultDynamicTh = int32_t(def->reader.ReadInteger(
                def->value["default_dynamic_th"], def->pointer + "/default_dynamic_th", -8, 8));
        }
    }
    if (m_portMap.empty() && m_divisor == 0)
    {
        RankPorts(tables);
    }
    ReadPorts(tables, c);
    ReadPools(tables, c);
    ReadProfiles(tables, c);
    ReadQos(tables, c); // before bindings, so port entries exist in any order
    ReadBindings(tables, c);
    ReadWred(tables, c);
    ReadSchedulers(tables, c);
    ReadQueues(tables, c);
    ReadWatchdog(tables, c);
    if (!m_unmapped.empty())
    {
        std::string names;
        for (const std::string& n : m_unmapped)
        {
            names += (names.empty() ? "" : ", ") + n;
        }
        m_notes.push_back("ports not in the port map, their entries ignored: " + names);
    }
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
    m_divisor = divisor;
}

SonicBufferConfig
SonicConfigLoader::Read(const std::string& paths)
{
    return Read(SplitComma(paths));
}

SonicBufferConfig
SonicConfigLoader::Read(const std::vector<std::string>& paths)
{
    std::vector<std::pair<std::string, std::string>> texts;
    for (const std::string& path : paths)
    {
        std::ifstream in(path);
        if (!in)
        {
            m_notes.clear();
            m_unmodelled.clear();
            throw ConfigError(path, "cannot open the file");
        }
        std::stringstream text;
        text << in.rdbuf();
        texts.emplace_back(path, text.str());
    }
    return Load(texts);
}

SonicBufferConfig
SonicConfigLoader::ReadString(const std::string& text, const std::string& source)
{
    return Load({{source, text}});
}

SonicBufferConfig
SonicConfigLoader::Load(const std::vector<std::pair<std::string, std::string>>& texts)
{
    m_notes.clear();
    m_unmodelled.clear();
    SonicBufferConfig c;
    c.source.clear();
    SonicConfigTables tables;
    for (const auto& [source, text] : texts)
    {
        c.source += (c.source.empty() ? "" : ", ") + source;
        const JsonSchemaReader reader(source);
        if (tables.Add(reader.ParseText(text), reader))
        {
            c.flatKeys = true;
        }
    }
    if (texts.empty())
    {
        throw ConfigError("(no file)", "no config_db file given");
    }
    m_unmodelled = tables.Unmodelled();
    try
    {
        Reader(m_portMap, m_divisor, m_notes).Read(tables, c);
    }
    catch (const ConfigError&)
    {
        throw;
    }
    catch (const std::exception& e)
    {
        // A check the table readers lack: still an error naming the files, never a crash.
        throw ConfigError(c.source, e.what());
    }
    c.Check();
    return c;
}

const std::string&
SonicConfigLoader::GetUnmodelled() const
{
    return m_unmodelled;
}

const std::vector<std::string>&
SonicConfigLoader::GetNotes() const
{
    return m_notes;
}

} // namespace ns3
