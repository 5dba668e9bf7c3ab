// One table of the HPCC simulator's ~50 configuration keys, each with its mapping or its
// refusal and reason: longer than our usual file, kept whole so the key list has one place.
#include "hpcc-config-translator.h"

#include "ecn-link-rate-table.h"

#include "ns3/config-error-list.h"
#include "ns3/experiment-topology.h"
#include "ns3/flow-trace.h"
#include "ns3/hpcc-topology-reader.h"
#include "ns3/ideal-fct-calculator.h"
#include "ns3/json-attribute-converter.h"
#include "ns3/json-schema-reader.h"
#include "ns3/text-field.h"
#include "ns3/topology-types.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <vector>

namespace ns3
{

namespace
{

using OrderedJson = nlohmann::ordered_json;

using Word = TextField; //!< a word and its column (from 1)

/** One `KEY value...` line. */
struct Entry
{
    Word key;
    std::vector<Word> values;
    uint64_t line{0};
};

bool
IsKeyWord(const std::string& word)
{
    if (word.empty() || word[0] < 'A' || word[0] > 'Z')
    {
        return false;
    }
    for (char c : word)
    {
        if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
        {
            return false;
        }
    }
    return true;
}

/** The lines of \p text that hold a key, without comments and blank lines. */
std::vector<std::pair<uint64_t, std::vector<Word>>>
KeyLines(const std::string& text)
{
    std::vector<std::pair<uint64_t, std::vector<Word>>> lines;
    std::istringstream in(text);
    std::string raw;
    uint64_t lineNo = 0;
    while (std::getline(in, raw))
    {
        ++lineNo;
        if (!raw.empty() && raw.back() == '\r')
        {
            raw.pop_back();
        }
        std::vector<Word> words = SplitBlankFields(raw);
        if (words.empty() || words[0].text[0] == '#')
        {
            continue;
        }
        lines.emplace_back(lineNo, std::move(words));
    }
    return lines;
}

/**
 * The translation of one file: the entries by key, the JSON being built and the notes
 * on keys that have no effect or map approximately (they go into the description).
 */
class Translation
{
  public:
    Translation(const std::string& name, std::map<std::string, Entry> entries,
                ConfigErrorList& problems)
        : m_name(name)
        , m_entries(std::move(entries))
        , m_problems(problems)
    {
    }

    /** Translate every key; the problems go to the list given at construction. */
    OrderedJson Run();

    /** \return the lines for the user's terminal: paths used, keys with no effect, notes. */
    const std::vector<std::string>& GetWarnings() const { return m_warnings; }

  private:
    /** A key's handler and how many values it takes (-1: a count, then pairs). */
    struct KeySpec
    {
        const char* key;
        int values;
        void (Translation::*handle)(const Entry&);
        const char* attribute; //!< the /cc attribute it sets, for the DCQCN parameters
    };

    static const std::vector<KeySpec>& Keys();

    [[noreturn]] void Fail(const Entry& e, const Word& at, const std::string& reason) const
    {
        throw ExperimentConfigError(m_name, e.line, at.column, e.key.text + ": " + reason);
    }

    [[noreturn]] void Refuse(const Entry& e, const std::string& reason) const
    {
        Fail(e, e.key, "not supported: " + reason);
    }

    /** \return the entry of \p key; nullptr if absent or malformed (already reported). */
    const Entry* Find(const char* key) const
    {
        auto it = m_entries.find(key);
        return it == m_entries.end() || m_malformed.count(key) ? nullptr : &it->second;
    }

    /**
     * Thrown where a key needs the topology and TOPOLOGY_FILE is absent or malformed: that
     * problem is reported once, by itself.
     */
    struct TopologyUnavailable
    {
    };

    uint64_t Uint(const Entry& e, std::size_t i, uint64_t min, uint64_t max) const;
    double Number(const Entry& e, std::size_t i, double min, double max) const;
    bool Flag(const Entry& e) const { return Uint(e, 0, 0, 1) == 1; }
    std::string Rate(const Entry& e) const;
    /**
     * \return the path of an input *_FILE entry, absolute: as the HPCC simulator resolves it
     * (against the working directory) if that file opens, else against this file's
     * directory; which one is said once on the terminal. It must open.
     */
    std::string InputPath(const Entry& e) const;
    /** \return true if ENABLE_TRACE is 1. */
    bool TraceEnabled() const;
    /** \return the HPCC node ids TRACE_FILE lists (as that simulator: the count, then ids). */
    std::vector<uint64_t> TraceNodes(const Entry& file);
    /** A duration in microseconds (the peer's unit of its DCQCN intervals). */
    std::string Micros(const Entry& e) const;
    /** The (link rate in bit/s -> value) pairs of a *_MAP entry. */
    std::map<uint64_t, double> Map(const Entry& e, bool integer) const;
    void Note(const std::string& note) { m_notes.push_back(note); }
    /** Record that \p e has no effect, for \p why (keys with the same reason are listed once). */
    void NoEffect(const Entry& e, const std::string& why)
    {
        m_noEffect[why].push_back(e.key.text + " (line " + std::to_string(e.line) + ")");
    }

    void CcMode(const Entry& e);
    void CcMicros(const Entry& e);
    void CcRate(const Entry& e);
    void CcFlag(const Entry& e);
    void CcCount(const Entry& e);
    void CcGain(const Entry& e);
    void RateDecreaseInterval(const Entry& e);
    /** Set the cc keys of the HPCC simulator's DCQCN rules (CC_MODE 1). */
    void PeerDcqcn();
    void NoEffectUnderDcqcn(const Entry& e);
    void CcRateAi(const Entry& e);
    void CcMinRate(const Entry& e);
    void HpccParameter(const Entry& e);
    /** \return T for ns3::RdmaHpcc: the largest base RTT between two hosts (GLOBAL_T 1). */
    std::string GlobalBaseRtt() const;
    /** The largest base RTT between two hosts and the largest bandwidth-delay product. */
    struct LargestPath
    {
        Time rtt;
        uint64_t bdpBytes; //!< base RTT x bottleneck rate of a host pair
    };

    /** \return the topology's LargestPath; fails naming CC_MODE without two hosts apart. */
    LargestPath Largest() const;
    /** \return true under CC_MODE 1 with HAS_WIN 1: GLOBAL_T and VAR_WIN then apply. */
    bool DcqcnWindow() const;
    const ExperimentTopology& Topology() const;
    /**
     * \return true if a DCQCN-only key \p e applies (CC_MODE 1); else records that it has no
     * effect (its value is checked by the caller either way).
     */
    bool DcqcnApplies(const Entry& e);
    void StopTime(const Entry& e);
    void Payload(const Entry& e);
    void TopologyFile(const Entry& e);
    void FlowFile(const Entry& e);
    void OutputFile(const Entry& e);
    void TraceFile(const Entry& e);
    void EnableTrace(const Entry& e);
    void EnableQcn(const Entry& e);
    void EcnMap(const Entry& e);
    void DynamicPfcThreshold(const Entry& e);
    void BufferSize(const Entry& e);
    void AckInterval(const Entry& e);
    void ChunkSize(const Entry& e);
    void BackToZero(const Entry& e);
    void ErrorRate(const Entry& e);
    void RateBound(const Entry& e);
    void HasWindow(const Entry& e);
    void AckHighPriority(const Entry& e);
    void LinkDown(const Entry& e);
    void QueueLengthMonitor(const Entry& e);
    void Warn(const std::string& line) { m_warnings.push_back(line); }
    void PauseTime(const Entry& e);
    void Ignored(const Entry& e);

    std::string m_name;
    std::map<std::string, Entry> m_entries;
    ConfigErrorList& m_problems;
    std::vector<std::string> m_warnings;
    mutable std::map<uint64_t, std::string> m_pathNotes; //!< line -> which path was used
    std::set<std::string> m_malformed; //!< keys whose line has the wrong number of values
    OrderedJson m_json;
    OrderedJson m_cc;
    std::vector<std::string> m_notes;
    std::map<std::string, std::vector<std::string>> m_noEffect; //!< reason -> keys
    const KeySpec* m_spec{nullptr};                             //!< the key being translated
    bool m_ecnDone{false};  //!< the three *_MAP keys are translated together
    bool m_qlenDone{false}; //!< so are the three QLEN_MON_* keys
    uint64_t m_mode{1};     //!< CC_MODE: 1 DCQCN or 3 HPCC (the others are refused)
    mutable std::optional<ExperimentTopology> m_topology; //!< TOPOLOGY_FILE, read once
};

const std::vector<Translation::KeySpec>&
Translation::Keys()
{
    // Every key of the HPCC simulator's mix/config.txt (alibaba-edu/High-Precision-Congestion-
    // Control, mix/config_doc.txt and run.py) and the older ones its parser still reads.
    static const std::vector<KeySpec> keys = {
        {"CC_MODE", 1, &Translation::CcMode, nullptr},
        {"TOPOLOGY_FILE", 1, &Translation::TopologyFile, nullptr},
        {"FLOW_FILE", 1, &Translation::FlowFile, nullptr},
        {"SIMULATOR_STOP_TIME", 1, &Translation::StopTime, nullptr},
        {"PACKET_PAYLOAD_SIZE", 1, &Translation::Payload, nullptr},
        {"ENABLE_QCN", 1, &Translation::EnableQcn, nullptr},
        {"KMAX_MAP", -1, &Translation::EcnMap, nullptr},
        {"KMIN_MAP", -1, &Translation::EcnMap, nullptr},
        {"PMAX_MAP", -1, &Translation::EcnMap, nullptr},
        {"USE_DYNAMIC_PFC_THRESHOLD", 1, &Translation::DynamicPfcThreshold, nullptr},
        {"BUFFER_SIZE", 1, &Translation::BufferSize, nullptr},
        {"ALPHA_RESUME_INTERVAL", 1, &Translation::CcMicros, "AlphaUpdatePeriod"},
        {"RATE_DECREASE_INTERVAL", 1, &Translation::RateDecreaseInterval, "RateDecreaseInterval"},
        {"CLAMP_TARGET_RATE", 1, &Translation::CcFlag, "ClampTargetRate"},
        {"RP_TIMER", 1, &Translation::CcMicros, "RateIncreaseTimer"},
        {"EWMA_GAIN", 1, &Translation::CcGain, "G"},
        {"FAST_RECOVERY_TIMES", 1, &Translation::CcCount, "FastRecoveryTimes"},
        {"RATE_AI", 1, &Translation::CcRateAi, "RateAI"},
        {"RATE_HAI", 1, &Translation::CcRate, "RateHAI"},
        {"MIN_RATE", 1, &Translation::CcMinRate, "MinRate"},
        {"DCTCP_RATE_AI", 1, &Translation::NoEffectUnderDcqcn, nullptr},
        {"GLOBAL_T", 1, &Translation::HpccParameter, nullptr},
        {"VAR_WIN", 1, &Translation::HpccParameter, nullptr},
        {"FAST_REACT", 1, &Translation::HpccParameter, nullptr},
        {"U_TARGET", 1, &Translation::HpccParameter, nullptr},
        {"MI_THRESH", 1, &Translation::HpccParameter, nullptr},
        {"INT_MULTI", 1, &Translation::HpccParameter, nullptr},
        {"MULTI_RATE", 1, &Translation::HpccParameter, nullptr},
        {"SAMPLE_FEEDBACK", 1, &Translation::HpccParameter, nullptr},
        {"PINT_LOG_BASE", 1, &Translation::NoEffectUnderDcqcn, nullptr},
        {"PINT_PROB", 1, &Translation::NoEffectUnderDcqcn, nullptr},
        {"HAS_WIN", 1, &Translation::HasWindow, nullptr},
        {"RATE_BOUND", 1, &Translation::RateBound, nullptr},
        {"ACK_HIGH_PRIO", 1, &Translation::AckHighPriority, nullptr},
        {"L2_ACK_INTERVAL", 1, &Translation::AckInterval, nullptr},
        {"L2_CHUNK_SIZE", 1, &Translation::ChunkSize, nullptr},
        {"L2_BACK_TO_ZERO", 1, &Translation::BackToZero, nullptr},
        {"ERROR_RATE_PER_LINK", 1, &Translation::ErrorRate, nullptr},
        {"LINK_DOWN", 3, &Translation::LinkDown, nullptr},
        {"FCT_OUTPUT_FILE", 1, &Translation::OutputFile, nullptr},
        {"PFC_OUTPUT_FILE", 1, &Translation::OutputFile, nullptr},
        {"ENABLE_TRACE", 1, &Translation::EnableTrace, nullptr},
        {"TRACE_FILE", 1, &Translation::TraceFile, nullptr},
        {"TRACE_OUTPUT_FILE", 1, &Translation::TraceFile, nullptr},
        {"QLEN_MON_FILE", 1, &Translation::QueueLengthMonitor, nullptr},
        {"QLEN_MON_START", 1, &Translation::QueueLengthMonitor, nullptr},
        {"QLEN_MON_END", 1, &Translation::QueueLengthMonitor, nullptr},
        {"PAUSE_TIME", 1, &Translation::PauseTime, nullptr},
        {"DATA_RATE", 1, &Translation::Ignored, nullptr},
        {"LINK_DELAY", 1, &Translation::Ignored, nullptr},
    };
    return keys;
}

uint64_t
Translation::Uint(const Entry& e, std::size_t i, uint64_t min, uint64_t max) const
{
    const Word& w = e.values.at(i);
    char* end = nullptr;
    errno = 0;
    const unsigned long long v = std::strtoull(w.text.c_str(), &end, 10);
    if (w.text.empty() || w.text[0] == '-' || *end != '\0' || errno != 0 || v < min || v > max)
    {
        Fail(e, w,
             "expected an integer in [" + std::to_string(min) + ", " + std::to_string(max) +
                 "], got \"" + w.text + "\"");
    }
    return v;
}

double
Translation::Number(const Entry& e, std::size_t i, double min, double max) const
{
    const Word& w = e.values.at(i);
    char* end = nullptr;
    const double v = std::strtod(w.text.c_str(), &end);
    if (w.text.empty() || *end != '\0' || !std::isfinite(v) || v < min || v > max)
    {
        std::ostringstream range;
        range << "expected a number in [" << min << ", " << max << "], got \"" << w.text << "\"";
        Fail(e, w, range.str());
    }
    return v;
}

std::string
Translation::Rate(const Entry& e) const
{
    DataRate rate;
    if (!JsonAttributeConverter::ParseDataRate(e.values[0].text, rate) || rate.GetBitRate() == 0)
    {
        Fail(e, e.values[0],
             "expected a positive data rate such as 50Mb/s, got \"" + e.values[0].text + "\"");
    }
    return JsonAttributeConverter::FormatDataRate(rate);
}

std::string
Translation::InputPath(const Entry& e) const
{
    const std::string& given = e.values[0].text;
    auto opens = [](const std::string& path)
    {
        // A regular file only: a device or a FIFO could be read forever.
        std::error_code ec;
        return std::filesystem::is_regular_file(path, ec) &&
               static_cast<bool>(std::ifstream(path, std::ios::binary));
    };
    if (std::filesystem::path(given).is_absolute())
    {
        if (!opens(given))
        {
            Fail(e, e.values[0], "cannot open \"" + given + "\"");
        }
        return given;
    }
    // The HPCC simulator opens its paths (mix/topology.txt) from its working directory;
    // a JSON experiment's paths are relative to the file. Both are tried, in that order.
    std::error_code ec;
    const std::filesystem::path cwd = std::filesystem::current_path(ec);
    const std::string fromCwd = (cwd / given).lexically_normal().string();
    const std::string fromFile = JsonSchemaReader(m_name).ResolvePath(given);
    std::string used;
    std::string note;
    if (!ec && opens(fromCwd))
    {
        used = fromCwd;
        note = "read from the working directory, as the HPCC simulator does";
        if (fromFile != fromCwd && opens(fromFile))
        {
            note += " (" + fromFile + ", relative to this file, is not used)";
        }
    }
    else if (opens(fromFile))
    {
        used = fromFile;
        note = "read relative to this file's directory (not found from the working directory)";
    }
    else
    {
        Fail(e, e.values[0],
             "cannot open \"" + given + "\": tried " +
                 (ec ? std::string()
                     : fromCwd + " (from the working directory, as the HPCC simulator does) and ") +
                 fromFile + " (from this file's directory)");
    }
    m_pathNotes.emplace(e.line, m_name + ":" + std::to_string(e.line) + ": " + e.key.text + " " +
                                    given + ": " + used + " " + note);
    return used;
}

std::string
Translation::Micros(const Entry& e) const
{
    const double us = Number(e, 0, 0.001, 1e9);
    return JsonAttributeConverter::FormatTime(PicoSeconds(std::llround(us * 1e6)));
}

std::map<uint64_t, double>
Translation::Map(const Entry& e, bool integer) const
{
    const uint64_t n = Uint(e, 0, 1, 64);
    if (e.values.size() != 1 + 2 * n)
    {
        Fail(e, e.values[0],
             "announces " + std::to_string(n) + " (link rate, value) pairs and gives " +
                 std::to_string(e.values.size() - 1) + " values after the count");
    }
    std::map<uint64_t, double> map;
    for (uint64_t k = 0; k < n; ++k)
    {
        const uint64_t rate = Uint(e, 1 + 2 * k, 1, UINT64_MAX);
        const double v = integer ? Uint(e, 2 + 2 * k, 0, 4000000) : Number(e, 2 + 2 * k, 0, 1);
        if (!map.emplace(rate, v).second)
        {
            Fail(e, e.values[1 + 2 * k], "link rate " + std::to_string(rate) + " given twice");
        }
    }
    return map;
}

// ------------------------------------------------------------------ keys

void
Translation::PeerDcqcn()
{
    // The rules of the HPCC simulator's DCQCN that differ from the paper's (the
    // hpcc-dcqcn NIC profile holds the same): increase on the RP timer only, alpha
    // raised per alpha period with a CNP, a CNP for every marked packet, carried as a
    // flag on the marked packet's ACK.
    m_cc["type"] = "ns3::RdmaDcqcn";
    m_cc["ByteCounter"] = 0;
    m_cc["IncreaseStages"] = "TimerOnly";
    m_cc["AlphaUpdate"] = "CnpPeriods";
    m_cc["CnpInterval"] = "0us";
    m_cc["CnpDelivery"] = "AckBecn";
}

void
Translation::CcMode(const Entry& e)
{
    const uint64_t mode = Uint(e, 0, 0, 1000);
    switch (mode)
    {
        case 1:
            PeerDcqcn();
            Note("CC_MODE 1: ns3::RdmaDcqcn with the HPCC simulator's rules: ByteCounter 0 and "
                 "IncreaseStages TimerOnly (increase on its RP timer only, staged by its "
                 "expiries), AlphaUpdate CnpPeriods (alpha rises per alpha period with a CNP) "
                 "and CnpInterval 0 with CnpDelivery AckBecn (its NP answers every marked "
                 "packet with a flag on that packet's ACK: ours sets BECN in the ACK's BTH "
                 "and sends no CNP packet); doc/dc-experiment.md");
            return;
        case 3:
            m_mode = 3;
            m_cc["type"] = "ns3::RdmaHpcc";
            m_cc["BaseRtt"] = GlobalBaseRtt();
            Note("CC_MODE 3: ns3::RdmaHpcc (INT trailer of MaxHops 5 records, 42 bytes, on "
                 "SEND/WRITE data) with T = BaseRtt " +
                 m_cc["BaseRtt"].get<std::string>() +
                 ", the largest base RTT between two hosts of the topology (2 x the link "
                 "delays of the path plus one PACKET_PAYLOAD_SIZE packet's serialization on "
                 "each link after the first), as the HPCC simulator's GLOBAL_T 1 takes the "
                 "largest base RTT");
            return;
        case 7:
            Refuse(e, "CC_MODE 7 (the HPCC simulator's TIMELY): its thresholds equal "
                      "ns3::RdmaTimely's defaults, but it updates once per RTT, adding RATE_AI "
                      "for five increases and RATE_HAI after, where ns3::RdmaTimely updates on "
                      "every RTT sample and steps HaiMultiplier x AdditiveStep after "
                      "HaiThreshold samples of non-positive gradient; choose ns3::RdmaTimely "
                      "in a JSON experiment with /cc/type "
                      "(contrib/rdma/doc/rtt-congestion-control.md)");
        case 8:
            Refuse(e, "CC_MODE 8 (the HPCC simulator's rate-based DCTCP with DCTCP_RATE_AI) is not "
                      "implemented in roce-lab yet (ns3::RdmaDctcp is a window-based DCTCP, chosen "
                      "in a JSON experiment with /cc/type)");
        case 10:
            Refuse(e, "CC_MODE 10 (HPCC-PINT) is not implemented in roce-lab yet");
        default:
            Fail(e, e.values[0],
                 "unknown mode " + std::to_string(mode) +
                     " (the HPCC simulator has 1 DCQCN, 3 HPCC, 7 TIMELY, 8 DCTCP, 10 HPCC-PINT)");
    }
}

void
Translation::CcMicros(const Entry& e)
{
    const std::string value = Micros(e); // checked whatever the mode
    if (DcqcnApplies(e))
    {
        m_cc[m_spec->attribute] = value;
    }
}

void
Translation::CcRate(const Entry& e)
{
    const std::string value = Rate(e);
    if (DcqcnApplies(e))
    {
        m_cc[m_spec->attribute] = value;
    }
}

void
Translation::CcFlag(const Entry& e)
{
    const bool value = Flag(e);
    if (DcqcnApplies(e))
    {
        m_cc[m_spec->attribute] = value;
    }
}

void
Translation::CcCount(const Entry& e)
{
    const uint64_t value = Uint(e, 0, 0, UINT32_MAX);
    if (DcqcnApplies(e))
    {
        m_cc[m_spec->attribute] = value;
    }
}

void
Translation::CcGain(const Entry& e)
{
    const double value = Number(e, 0, 1e-9, 1);
    if (DcqcnApplies(e))
    {
        m_cc[m_spec->attribute] = value;
    }
}

void
Translation::RateDecreaseInterval(const Entry& e)
{
    CcMicros(e);
    if (m_mode != 1)
    {
        return;
    }
    Note("RATE_DECREASE_INTERVAL -> /cc/RateDecreaseInterval: the RP cuts at most once per "
         "interval and QP, at the next tick of a check started by the QP's first CNP "
         "(RateDecreaseTiming PeriodicCheck), as in the HPCC simulator");
}

bool
Translation::DcqcnApplies(const Entry& e)
{
    if (m_mode == 1)
    {
        return true;
    }
    NoEffect(e, "DCQCN parameters, unused by HPCC (CC_MODE 3) in the HPCC simulator too");
    return false;
}

void
Translation::CcRateAi(const Entry& e)
{
    if (m_mode == 3)
    {
        // HPCC's additive increase: W_AI = RATE_AI x T.
        m_cc["AdditiveIncrease"] = Rate(e);
        return;
    }
    CcRate(e);
}

void
Translation::CcMinRate(const Entry& e)
{
    if (m_mode == 3)
    {
        m_cc["MinRate"] = Rate(e); // the HPCC simulator floors HPCC's rate at MIN_RATE too
        return;
    }
    CcRate(e);
}

void
Translation::HpccParameter(const Entry& e)
{
    const std::string& key = e.key.text;
    if (m_mode != 3 && (key == "GLOBAL_T" || key == "VAR_WIN") && DcqcnWindow())
    {
        Uint(e, 0, 0, 1); // HAS_WIN 1 under DCQCN: HasWindow translates them
        return;
    }
    if (m_mode != 3)
    {
        NoEffectUnderDcqcn(e);
        return;
    }
    if (key == "U_TARGET")
    {
        m_cc["TargetUtilization"] = Number(e, 0, 0.01, 2.0); // RdmaHpcc's range
        return;
    }
    if (key == "MI_THRESH")
    {
        m_cc["MaxStage"] = Uint(e, 0, 0, UINT32_MAX);
        return;
    }
    if (key == "INT_MULTI")
    {
        Uint(e, 0, 1, 1000000);
        NoEffect(e, "the INT record's byte unit is fixed at 128 B (txBytes wraps at 2^20 x "
                    "128 B, 2.7 ms of a 400 Gb/s link; qLen saturates at 8 MB), which covers "
                    "the link rates INT_MULTI scales the HPCC simulator's units for");
        return;
    }
    // The switches of ns3::RdmaHpcc's algorithm: the value it implements, or a refusal.
    struct Switch
    {
        const char* key;
        uint64_t supported;
        const char* refusal;
    };
    static const Switch switches[] = {
        {"FAST_REACT", 1,
         "reacting once per RTT (FAST_REACT 0); ns3::RdmaHpcc reacts per ACK and updates its "
         "reference window once per RTT (HPCC SIGCOMM'19 Algorithm 1)"},
        {"MULTI_RATE", 0,
         "a rate per hop (MULTI_RATE 1); ns3::RdmaHpcc computes one window from the most "
         "utilized hop"},
        {"SAMPLE_FEEDBACK", 0,
         "INT once per RTT (SAMPLE_FEEDBACK 1); ns3::RdmaHpcc reads INT from every ACK"},
        {"GLOBAL_T", 1,
         "a T per host pair (GLOBAL_T 0); ns3::RdmaHpcc has one BaseRtt, set to the "
         "topology's largest base RTT"},
        {"VAR_WIN", 1,
         "a fixed window (VAR_WIN 0); ns3::RdmaHpcc's window is HPCC's variable window"},
    };
    for (const Switch& sw : switches)
    {
        if (key == sw.key)
        {
            if (Uint(e, 0, 0, 1) != sw.supported)
            {
                Refuse(e, sw.refusal);
            }
            return;
        }
    }
    NoEffectUnderDcqcn(e);
}

void
Translation::NoEffectUnderDcqcn(const Entry& e)
{
    if (e.key.text == "DCTCP_RATE_AI")
    {
        Rate(e);
    }
    else
    {
        Number(e, 0, 0, 1e12);
    }
    NoEffect(e, m_mode == 3 ? "parameters of DCQCN, TIMELY, DCTCP or PINT, unused by HPCC "
                              "(CC_MODE 3) in the HPCC simulator too"
                            : "parameters of HPCC, TIMELY, DCTCP or PINT, unused by DCQCN "
                              "(CC_MODE 1) in the HPCC simulator too");
}

void
Translation::StopTime(const Entry& e)
{
    const double s = Number(e, 0, 1e-9, 1e6);
    m_json["stop_time"] = JsonAttributeConverter::FormatTime(PicoSeconds(std::llround(s * 1e12)));
}

void
Translation::Payload(const Entry& e)
{
    m_json["qp"]["Mtu"] = Uint(e, 0, 256, 4096);
}

void
Translation::TopologyFile(const Entry& e)
{
    m_json["topology"] =
        OrderedJson{{"type", TopologyTypes::FILE_TYPE}, {"path", InputPath(e)}, {"format", "hpcc"}};
}

void
Translation::FlowFile(const Entry& e)
{
    m_json["flows_file"] = OrderedJson{{"path", InputPath(e)},
                                       {"format", "hpcc"},
                                       {"time_origin", "0s"},
                                       {"late_flows", "not_started"}};
    Note("FLOW_FILE -> /flows_file with time origin 0: the run keeps the peer's clock (its "
         "generated flows start at 2 s); flows that start at or after SIMULATOR_STOP_TIME "
         "are not started, as in the peer, and counted in summary.json's not_started");
}

void
Translation::OutputFile(const Entry& e)
{
    m_json["outputs"]["hpcc"] = true;
    Note(e.key.text + " " + e.values[0].text + " -> /outputs/hpcc: written as " +
         (e.key.text == "FCT_OUTPUT_FILE" ? "fct.txt" : "pfc.txt") +
         " in the run's output directory");
}

bool
Translation::TraceEnabled() const
{
    const Entry* enable = Find("ENABLE_TRACE");
    return enable && Flag(*enable);
}

void
Translation::TraceFile(const Entry& e)
{
    if (e.key.text == "TRACE_OUTPUT_FILE")
    {
        NoEffect(e, "the .tr packet-event trace is not written: with ENABLE_TRACE 1 the traced "
                    "nodes' frames go to pcap files in the run's output directory instead");
    }
    else if (!TraceEnabled())
    {
        NoEffect(e, "the nodes to trace are read only with ENABLE_TRACE 1");
    }
}

std::vector<uint64_t>
Translation::TraceNodes(const Entry& file)
{
    // As the HPCC simulator reads it: a count, then that many node ids, separated by
    // blanks or lines; what follows is not read.
    const std::string path = InputPath(file);
    std::istringstream in(FlowTrace::ReadWholeFile(path, "trace file"));
    std::string raw;
    uint64_t lineNo = 0;
    std::optional<uint64_t> count;
    std::vector<uint64_t> ids;
    while ((!count || ids.size() < *count) && std::getline(in, raw))
    {
        ++lineNo;
        for (const Word& w : SplitBlankFields(raw))
        {
            if (count && ids.size() == *count)
            {
                break;
            }
            char* end = nullptr;
            errno = 0;
            const unsigned long long v = std::strtoull(w.text.c_str(), &end, 10);
            if (w.text[0] == '-' || *end != '\0' || errno != 0 || v > UINT32_MAX)
            {
                throw ExperimentConfigError(
                    path, lineNo, w.column,
                    std::string(count ? "expected a node id" : "expected the number of nodes") +
                        ", got \"" + w.text + "\"");
            }
            if (!count)
            {
                count = v;
            }
            else
            {
                ids.push_back(v);
            }
        }
    }
    if (!count || ids.size() < *count)
    {
        throw ExperimentConfigError(path, lineNo + 1, 1,
                                    count ? "the file ends after " + std::to_string(ids.size()) +
                                                " node ids; it announces " + std::to_string(*count)
                                          : std::string("empty file: expected the number of "
                                                        "nodes to trace, then their ids"));
    }
    return ids;
}

void
Translation::EnableTrace(const Entry& e)
{
    if (!Flag(e))
    {
        return;
    }
    // The peer writes a text trace of the packet events at the nodes TRACE_FILE lists; we
    // capture those nodes' frames (every port, both directions) as pcap files.
    const Entry* file = Find("TRACE_FILE");
    if (!file)
    {
        Warn(m_name + ":" + std::to_string(e.line) +
             ": ENABLE_TRACE 1 without TRACE_FILE: nothing is traced");
        return;
    }
    const std::vector<uint64_t> ids = TraceNodes(*file);
    const std::vector<int64_t>& hostOf = Topology().hpccHostOfNode;
    OrderedJson hosts = OrderedJson::array();
    OrderedJson switches = OrderedJson::array();
    std::set<uint64_t> seen;
    std::string skipped;
    std::string traced;
    for (uint64_t id : ids)
    {
        if (id >= hostOf.size())
        {
            skipped += (skipped.empty() ? "" : " ") + std::to_string(id);
            continue; // as the peer: an id that is not a node is skipped
        }
        if (!seen.insert(id).second)
        {
            continue;
        }
        (hostOf[id] >= 0 ? hosts : switches)
            .push_back((hostOf[id] >= 0 ? "h" : "s") + std::to_string(id));
        traced += (traced.empty() ? "" : " ") + std::to_string(id);
    }
    const std::string where = m_name + ":" + std::to_string(e.line) + ": ENABLE_TRACE 1: ";
    if (!skipped.empty())
    {
        Warn(where + "TRACE_FILE lists node ids that the topology does not have (" + skipped +
             "), skipped as the HPCC simulator skips them");
    }
    if (traced.empty())
    {
        Warn(where + "TRACE_FILE lists no node of the topology: nothing is traced");
        return;
    }
    OrderedJson pcap = OrderedJson::object();
    if (!hosts.empty())
    {
        pcap["hosts"] = hosts;
    }
    if (!switches.empty())
    {
        pcap["switches"] = switches;
    }
    m_json["pcap"] = pcap;
    Warn(where + "the frames of nodes " + traced +
         " (every port, both directions) go to pcap/<node>-<port>.pcap in the output "
         "directory, in place of the HPCC simulator's .tr trace; captures of long flows "
         "are large");
    Note("ENABLE_TRACE 1 -> /pcap: the nodes TRACE_FILE lists (" + traced + ")");
}

void
Translation::EnableQcn(const Entry& e)
{
    if (!Flag(e))
    {
        m_json["ecn"] = OrderedJson{{"type", "none"}};
    }
}

void
Translation::EcnMap(const Entry&)
{
    if (m_ecnDone)
    {
        return;
    }
    m_ecnDone = true;
    for (const char* key : {"KMIN_MAP", "KMAX_MAP", "PMAX_MAP"})
    {
        if (m_malformed.count(key))
        {
            return; // reported
        }
    }
    const Entry* qcn = Find("ENABLE_QCN");
    const bool marking = !qcn || Flag(*qcn);
    const Entry* kmin = Find("KMIN_MAP");
    const Entry* kmax = Find("KMAX_MAP");
    const Entry* pmax = Find("PMAX_MAP");
    for (const Entry* given : {kmin, kmax, pmax})
    {
        if (!given)
        {
            const Entry& other = kmin ? *kmin : kmax ? *kmax : *pmax;
            Fail(other, other.key,
                 "KMIN_MAP, KMAX_MAP and PMAX_MAP go together (the HPCC simulator needs all "
                 "three for each link rate)");
        }
    }
    const auto kminMap = Map(*kmin, true);
    const auto kmaxMap = Map(*kmax, true);
    const auto pmaxMap = Map(*pmax, false);
    if (!marking)
    {
        for (const Entry* given : {kmin, kmax, pmax})
        {
            NoEffect(*given, "ECN marking is off (ENABLE_QCN 0)");
        }
        return;
    }
    // The thresholds that apply are those of the topology's link rates.
    const Entry* topo = Find("TOPOLOGY_FILE");
    std::set<uint64_t> rates;
    if (topo)
    {
        for (const ExperimentLink& l : Topology().links)
        {
            rates.insert(l.rate.GetBitRate());
        }
    }
    // The lowest rate's thresholds are the section's; a rate whose thresholds differ (the
    // peer's run.py writes 4x at 400G) gets an entry of /ecn/by_link_rate.
    OrderedJson ecn;
    OrderedJson byRate = OrderedJson::object();
    for (uint64_t rate : rates)
    {
        for (const auto& [entry, map] :
             {std::make_pair(kmin, &kminMap), std::make_pair(kmax, &kmaxMap),
              std::make_pair(pmax, &pmaxMap)})
        {
            if (!map->count(rate))
            {
                Fail(*entry, entry->values[0],
                     "no entry for the topology's " + std::to_string(rate) +
                         " bit/s links (the HPCC simulator needs one per link rate)");
            }
        }
        OrderedJson set;
        set["Kmin"] = std::to_string(static_cast<uint64_t>(kminMap.at(rate)) * 1000) + "B";
        set["Kmax"] = std::to_string(static_cast<uint64_t>(kmaxMap.at(rate)) * 1000) + "B";
        set["Pmax"] = pmaxMap.at(rate);
        if (ecn.empty())
        {
            ecn = set;
        }
        else if (set != ecn)
        {
            byRate[JsonAttributeConverter::FormatDataRate(DataRate(rate))] = set;
        }
    }
    // The HPCC simulator sets CE as a packet leaves the egress queue, on the bytes left behind
    // it (its switch's dequeue notification), where our default marks at enqueue.
    ecn["MarkingPoint"] = "Dequeue";
    if (!byRate.empty())
    {
        ecn[EcnLinkRateTable::KEY] = byRate;
    }
    if (!m_json.contains("ecn"))
    {
        m_json["ecn"] = ecn;
    }
}

const ExperimentTopology&
Translation::Topology() const
{
    if (!m_topology)
    {
        const Entry* file = Find("TOPOLOGY_FILE");
        if (!file)
        {
            throw TopologyUnavailable{};
        }
        const std::string path = InputPath(*file);
        m_topology =
            HpccTopologyReader::Read(FlowTrace::ReadWholeFile(path, "topology file"), path);
    }
    return *m_topology;
}

std::string
Translation::GlobalBaseRtt() const
{
    return JsonAttributeConverter::FormatTime(Largest().rtt);
}

Translation::LargestPath
Translation::Largest() const
{
    const ExperimentTopology& t = Topology();
    const Entry* payload = Find("PACKET_PAYLOAD_SIZE");
    const auto mtu = static_cast<uint32_t>(payload ? Uint(*payload, 0, 256, 4096) : 1000);
    // Hosts of the same kind (switch, link rate, link delay) have the same base RTTs to
    // every other host: two of each kind (for the pairs within a kind) are enough.
    const auto nHosts = static_cast<uint32_t>(t.hosts.size());
    std::map<std::tuple<uint32_t, uint64_t, int64_t>, uint32_t> kinds; // kind -> hosts taken
    std::vector<uint32_t> representatives;
    for (const ExperimentLink& l : t.links)
    {
        const uint32_t host = l.a < nHosts ? l.a : l.b;
        if (host < nHosts)
        {
            const auto kind = std::make_tuple(host == l.a ? l.b : l.a, l.rate.GetBitRate(),
                                              l.delay.GetPicoSeconds());
            if (kinds[kind]++ < 2)
            {
                representatives.push_back(host);
            }
        }
    }
    const IdealFctCalculator ideal(t, 0);
    Time largest(0);
    uint64_t largestBdp = 0;
    for (uint32_t a : representatives)
    {
        for (uint32_t b : representatives)
        {
            if (a != b)
            {
                const Time rtt = ideal.GetBaseRtt(a, b, mtu);
                largest = std::max(largest, rtt);
                // bits/s x s / 8, in integers: ps x (b/s) / 8e12
                const auto bytes = static_cast<uint64_t>(
                    static_cast<unsigned __int128>(rtt.GetPicoSeconds()) *
                    ideal.GetBottleneckRate(a, b).GetBitRate() / 8000000000000ULL);
                largestBdp = std::max(largestBdp, bytes);
            }
        }
    }
    if (representatives.size() < 2 || largest.IsZero())
    {
        const Entry& e = *Find("CC_MODE");
        Fail(e, e.key,
             "CC_MODE " + std::to_string(m_mode) +
                 (m_mode == 3 ? " needs hosts on at least two switches to set HPCC's T"
                              : " with HAS_WIN 1 needs hosts on at least two switches to set "
                                "the window"));
    }
    return {largest, largestBdp};
}

bool
Translation::DcqcnWindow() const
{
    const Entry* hasWin = Find("HAS_WIN");
    return m_mode == 1 && hasWin && hasWin->values.size() == 1 && hasWin->values[0].text == "1";
}

void
Translation::DynamicPfcThreshold(const Entry& e)
{
    if (!Flag(e))
    {
        Refuse(e, "static PFC thresholds (USE_DYNAMIC_PFC_THRESHOLD 0); the switch buffer is "
                  "ns3::DynamicThresholdBufferManager");
    }
    m_json["buffer"]["type"] = "ns3::DynamicThresholdBufferManager";
    Note("USE_DYNAMIC_PFC_THRESHOLD 1 -> ns3::DynamicThresholdBufferManager (Alpha 1/8 on every "
         "port, the peer's value on host-rate ports; its headroom sized per link)");
}

void
Translation::BufferSize(const Entry& e)
{
    // The peer multiplies by 1024 x 1024.
    m_json["buffer"]["BufferSize"] = std::to_string(Uint(e, 0, 1, 4095) * 1048576) + "B";
}

void
Translation::AckInterval(const Entry& e)
{
    const Entry* payload = Find("PACKET_PAYLOAD_SIZE");
    const uint64_t mtu = payload ? Uint(*payload, 0, 256, 4096) : 1000;
    const uint64_t bytes = Uint(e, 0, 0, UINT32_MAX);
    if (bytes == 0)
    {
        Refuse(e, "0 (no ACKs at all)");
    }
    if (bytes > mtu)
    {
        Refuse(e, "an ACK every " + std::to_string(bytes) +
                      " bytes (and at L2_CHUNK_SIZE boundaries); roce-lab's ACK interval "
                      "counts packets: L2_ACK_INTERVAL up to PACKET_PAYLOAD_SIZE (an ACK per "
                      "packet) is supported");
    }
    m_json["qp"]["AckInterval"] = 1;
}

void
Translation::ChunkSize(const Entry& e)
{
    Uint(e, 0, 1, UINT32_MAX);
    NoEffect(e, "with an ACK per packet and go-back-N (L2_BACK_TO_ZERO 0) the chunk size "
                "changes nothing in the HPCC simulator either");
}

void
Translation::BackToZero(const Entry& e)
{
    if (Flag(e))
    {
        Refuse(e, "going back to the start of an L2_CHUNK_SIZE chunk on a NAK "
                  "(L2_BACK_TO_ZERO 1); roce-lab's loss recovery is go-back-N");
    }
    m_json["loss_recovery"] = OrderedJson{{"type", "ns3::RdmaGoBackN"}};
}

void
Translation::ErrorRate(const Entry& e)
{
    if (Number(e, 0, 0, 1) != 0)
    {
        Refuse(e, "random packet loss on every link (only 0 is supported)");
    }
}

void
Translation::RateBound(const Entry& e)
{
    if (!Flag(e))
    {
        Refuse(e, "sending without the rate limiter (RATE_BOUND 0); DCQCN's rate always paces "
                  "the QP");
    }
}

void
Translation::HasWindow(const Entry& e)
{
    if (m_mode == 3)
    {
        if (!Flag(e))
        {
            Refuse(e, "HPCC without its window (HAS_WIN 0); ns3::RdmaHpcc caps the bytes in "
                      "flight at its window W and paces at W / T");
        }
        return;
    }
    if (!Flag(e))
    {
        return;
    }
    // The HPCC simulator's window under any CC: each QP may have at most a bandwidth-delay
    // product of bytes sent and not acknowledged (its base RTT x rate; GLOBAL_T 1: the
    // largest of any two hosts), scaled by the QP's rate over its line rate with VAR_WIN 1.
    const Entry* globalT = Find("GLOBAL_T");
    if (globalT && !Flag(*globalT))
    {
        Refuse(*globalT, "a window per host pair (GLOBAL_T 0 with HAS_WIN 1); /qp/InFlightCap "
                         "is one window for every QP, the topology's largest bandwidth-delay "
                         "product (GLOBAL_T 1)");
    }
    const Entry* varWin = Find("VAR_WIN");
    const bool follows = varWin && Flag(*varWin);
    const uint64_t bdp = Largest().bdpBytes;
    m_json["qp"]["InFlightCap"] = bdp;
    if (follows)
    {
        m_json["qp"]["InFlightCapFollowsRate"] = true;
    }
    Note("HAS_WIN 1 under CC_MODE 1 -> /qp/InFlightCap " + std::to_string(bdp) +
         " B: at most the topology's largest bandwidth-delay product (base RTT x bottleneck "
         "rate of a host pair, as GLOBAL_T 1) in flight per QP" +
         (follows ? std::string(", scaled by the QP's DCQCN rate over its line rate (VAR_WIN "
                                "1: /qp/InFlightCapFollowsRate)")
                  : std::string(" (VAR_WIN 0: a fixed window)")));
}

void
Translation::AckHighPriority(const Entry& e)
{
    if (Flag(e))
    {
        // The peer's hosts queue ACK/NAK in a NIC queue that is never paused (class 0); its
        // switches keep them in the data's class (the switches' own ACK priority is never
        // turned on by its scratch/third.cc). Our NIC sends queued ACKs before data anyway.
        m_json["nic"]["AckEgressClass"] = 7;
        Note("ACK_HIGH_PRIO 1 -> /nic/AckEgressClass 7: ACK/NAK wait in a NIC egress class "
             "that PFC does not pause and keep the data's class on the wire, as the peer's "
             "(it raises their priority at the hosts only)");
    }
}

void
Translation::LinkDown(const Entry& e)
{
    const uint64_t at = Uint(e, 0, 0, UINT64_MAX);
    Uint(e, 1, 0, UINT32_MAX);
    Uint(e, 2, 0, UINT32_MAX);
    if (at != 0)
    {
        Refuse(e, "taking a link down during the run (only LINK_DOWN 0 0 0)");
    }
}

void
Translation::QueueLengthMonitor(const Entry& e)
{
    if (m_qlenDone)
    {
        return;
    }
    m_qlenDone = true;
    // The peer samples its switches' egress queues from QLEN_MON_START to QLEN_MON_END
    // (ns on its clock; 2 s and 2.1 s when not given) into a histogram of queue lengths;
    // our queue monitor writes the queues themselves into queues.csv over that window.
    const Entry* start = Find("QLEN_MON_START");
    const Entry* end = Find("QLEN_MON_END");
    constexpr uint64_t MAX_NS = 1000000000000000; // 10^6 s
    const uint64_t startNs = start ? Uint(*start, 0, 0, MAX_NS) : 2000000000;
    const uint64_t endNs = end ? Uint(*end, 0, 0, MAX_NS) : 2100000000;
    if (endNs < startNs)
    {
        Fail(end ? *end : e, end ? end->values[0] : e.key,
             "QLEN_MON_END " + std::to_string(endNs) + " ns is before QLEN_MON_START " +
                 std::to_string(startNs) + " ns");
    }
    const std::string interval = "1us";
    m_json["monitors"]["queue_interval"] = interval;
    m_json["monitors"]["queue_start"] = JsonAttributeConverter::FormatTime(NanoSeconds(startNs));
    m_json["monitors"]["queue_end"] = JsonAttributeConverter::FormatTime(NanoSeconds(endNs));
    std::string window = JsonAttributeConverter::FormatTime(NanoSeconds(startNs)) + " to " +
                         JsonAttributeConverter::FormatTime(NanoSeconds(endNs));
    Time stop;
    if (JsonAttributeConverter::ParseTime(m_json["stop_time"].get<std::string>(), stop) &&
        NanoSeconds(startNs) >= stop)
    {
        window += ", after SIMULATOR_STOP_TIME: queues.csv will hold no sample";
    }
    const Entry& first = start ? *start : end ? *end : e;
    Warn(m_name + ":" + std::to_string(first.line) +
         ": QLEN_MON_*: the switch egress queues holding data are written to queues.csv in "
         "the output directory every " +
         interval + " from " + window + " (in place of the HPCC simulator's histogram" +
         (Find("QLEN_MON_FILE") ? " in " + Find("QLEN_MON_FILE")->values[0].text : "") + ")");
    Note("QLEN_MON_START / QLEN_MON_END -> /monitors: queue_interval " + interval +
         ", queue_start and queue_end (queues.csv)");
}

void
Translation::PauseTime(const Entry& e)
{
    Refuse(e, "the PFC pause time; roce-lab's PFC (IEEE 802.1Qbb) pauses with quanta until XON");
}

void
Translation::Ignored(const Entry& e)
{
    NoEffect(e, "link rates and delays come from TOPOLOGY_FILE (the HPCC simulator reads and "
                "ignores this key too)");
}

OrderedJson
Translation::Run()
{
    m_json["description"] = "";
    m_json["seed"] = 1;
    m_json["stop_time"] = "3.01s"; // the HPCC simulator's default SIMULATOR_STOP_TIME
    m_json["progress"] = true;
    for (const char* required : {"TOPOLOGY_FILE", "FLOW_FILE"})
    {
        if (!m_entries.count(required))
        {
            m_problems.Add(ExperimentConfigError(m_name, 1, 1,
                                                 std::string("missing ") + required +
                                                     " (the HPCC simulator needs it too)"));
        }
    }
    m_cc["type"] = "ns3::RdmaDcqcn";
    if (!Find("CC_MODE"))
    {
        PeerDcqcn();
        Note("CC_MODE absent: 1 (DCQCN), the HPCC simulator's default");
    }
    // Every key must be one of the format's, with its number of values.
    std::vector<const Entry*> byLine;
    for (const auto& item : m_entries)
    {
        byLine.push_back(&item.second);
    }
    std::sort(byLine.begin(), byLine.end(),
              [](const Entry* a, const Entry* b) { return a->line < b->line; });
    // Every problem of the file is reported in one pass: a key's problem does not stop the
    // others from being checked (a key whose line is malformed is not translated).
    for (const Entry* entry : byLine)
    {
        const Entry& e = *entry;
        try
        {
            const auto spec = std::find_if(Keys().begin(), Keys().end(),
                                           [&e](const KeySpec& k) { return e.key.text == k.key; });
            if (spec == Keys().end())
            {
                Fail(e, e.key, "unknown key (not a key of the HPCC simulator's config.txt)");
            }
            const bool pairs = spec->values < 0;
            if ((!pairs && e.values.size() != static_cast<std::size_t>(spec->values)) ||
                (pairs && e.values.empty()))
            {
                Fail(e, e.key,
                     pairs ? std::string("expected a count and (link rate, value) pairs")
                           : "expected " + std::to_string(spec->values) + " value" +
                                 (spec->values == 1 ? "" : "s") + " on the line, got " +
                                 std::to_string(e.values.size()));
            }
        }
        catch (const ExperimentConfigError& error)
        {
            m_problems.Add(error);
            m_malformed.insert(e.key.text);
        }
    }
    for (const KeySpec& spec : Keys())
    {
        const Entry* e = Find(spec.key);
        if (e)
        {
            m_spec = &spec;
            try
            {
                (this->*spec.handle)(*e);
            }
            catch (const ExperimentConfigError& error)
            {
                m_problems.Add(error);
            }
            catch (const TopologyUnavailable&)
            {
                // TOPOLOGY_FILE's own problem is reported.
            }
        }
    }
    // The peer's packet sizes and whole-ns serialization, so that its users' figures
    // reproduce; a JSON experiment keeps real RoCEv2 framing (RdmaNic Framing).
    m_json["nic"]["Framing"] = "HpccSim";
    Note("/nic/Framing HpccSim: frames take the HPCC simulator's sizes on the wire (payload + "
         "48 bytes, 60-byte ACKs) with serialization times truncated to whole ns, as its "
         "links do; --ns3::RdmaNic::Framing=RoceV2 on the command line gives real RoCEv2 "
         "framing (1086 bytes per 1000 of payload)");
    Warn(m_name + ": HPCC-simulator framing (/nic/Framing HpccSim: 1048 bytes on the wire per "
                  "1000 of payload, 60-byte ACKs, whole-ns serialization); real RoCEv2 framing: "
                  "--ns3::RdmaNic::Framing=RoceV2");
    m_json["cc"] = m_cc;
    std::string description = "Translated from the HPCC-simulator configuration " + m_name +
                              " (HpccConfigTranslator; keys that are absent take roce-lab's "
                              "defaults, except SIMULATOR_STOP_TIME: 3.01 s).";
    for (const auto& [why, keys] : m_noEffect)
    {
        std::string list;
        for (const std::string& k : keys)
        {
            list += (list.empty() ? "" : ", ") + k;
        }
        Note("No effect: " + list + ": " + why);
        // Each key with no effect is named once on the terminal, with its reason.
        Warn(m_name + ": no effect: " + list + ": " + why);
    }
    std::vector<std::string> paths;
    for (const auto& [line, note] : m_pathNotes)
    {
        paths.push_back(note);
    }
    m_warnings.insert(m_warnings.begin(), paths.begin(), paths.end());
    for (const std::string& note : m_notes)
    {
        description += " " + note + ".";
    }
    m_json["description"] = description;
    return m_json;
}

} // namespace

bool
HpccConfigTranslator::IsHpccConfig(const std::string& text)
{
    const auto lines = KeyLines(text);
    return !lines.empty() && lines.front().second.size() >= 2 &&
           IsKeyWord(lines.front().second[0].text);
}

nlohmann::ordered_json
HpccConfigTranslator::Translate(const std::string& text, const std::string& name)
{
    std::vector<std::string> warnings;
    return Translate(text, name, warnings);
}

nlohmann::ordered_json
HpccConfigTranslator::Translate(const std::string& text, const std::string& name,
                                std::vector<std::string>& warnings)
{
    ConfigErrorList problems(name);
    std::map<std::string, Entry> entries;
    for (auto& [lineNo, words] : KeyLines(text))
    {
        Entry e;
        e.key = words[0];
        e.line = lineNo;
        e.values.assign(words.begin() + 1, words.end());
        if (!IsKeyWord(e.key.text))
        {
            problems.Add(ExperimentConfigError(
                name, lineNo, e.key.column,
                "expected a line \"KEY value\" (an upper-case key of the HPCC simulator's "
                "config.txt), got \"" +
                    e.key.text + "\""));
            continue;
        }
        auto prior = entries.find(e.key.text);
        if (prior != entries.end())
        {
            problems.Add(ExperimentConfigError(name, lineNo, e.key.column,
                                               e.key.text + ": given again (first on line " +
                                                   std::to_string(prior->second.line) + ")"));
            continue;
        }
        entries.emplace(e.key.text, std::move(e));
    }
    Translation translation(name, std::move(entries), problems);
    nlohmann::ordered_json json = translation.Run();
    problems.ThrowIfAny();
    warnings.insert(warnings.end(), translation.GetWarnings().begin(),
                    translation.GetWarnings().end());
    return json;
}

} // namespace ns3
