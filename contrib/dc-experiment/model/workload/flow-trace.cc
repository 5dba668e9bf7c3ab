#include "flow-trace.h"

#include "ns3/config-error-list.h"
#include "ns3/json-attribute-converter.h"
#include "ns3/output-micros.h"
#include "ns3/text-field.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace ns3
{

namespace
{

using Field = TextField; //!< a word and its column (from 1)

std::vector<Field>
Split(const std::string& line, char sep)
{
    std::vector<Field> fields;
    std::size_t start = 0;
    while (true)
    {
        const std::size_t end = line.find(sep, start);
        const std::size_t stop = end == std::string::npos ? line.size() : end;
        fields.push_back(Field{line.substr(start, stop - start), start + 1});
        if (end == std::string::npos)
        {
            return fields;
        }
        start = end + 1;
    }
}

/** \return true if \p text is a decimal integer in [min, max]. */
bool
ParseUint(const std::string& text, uint64_t min, uint64_t max, uint64_t& value)
{
    if (text.empty() || text.size() > 19)
    {
        return false;
    }
    value = 0;
    for (char c : text)
    {
        if (c < '0' || c > '9')
        {
            return false;
        }
        value = value * 10 + static_cast<uint64_t>(c - '0');
    }
    return value >= min && value <= max;
}

std::string
StripCr(const std::string& line)
{
    return !line.empty() && line.back() == '\r' ? line.substr(0, line.size() - 1) : line;
}

/** One flow line \p f of an HPCC flow file (line \p lineNo of \p name). */
ExperimentFlow
ReadHpccFlow(const std::vector<Field>& f, const std::string& name, uint64_t lineNo,
             const std::vector<int64_t>& hostOfNode, Time timeOrigin)
{
    static const char* columns[] = {"src", "dst", "priority", "dport", "bytes", "start_seconds"};
    if (f.size() != 6)
    {
        throw ExperimentConfigError(
            name, lineNo, 1,
            "expected 6 fields \"src dst priority dport bytes start_seconds\", got " +
                std::to_string(f.size()));
    }
    auto fail = [&](int k, const std::string& why)
    {
        throw ExperimentConfigError(name, lineNo, f[k].column,
                                    std::string("field ") + columns[k] + ": " + why + ", got \"" +
                                        f[k].text + "\"");
    };
    ExperimentFlow flow{};
    uint64_t v = 0;
    for (int k : {0, 1})
    {
        if (!ParseUint(f[k].text, 0, UINT32_MAX, v) || v >= hostOfNode.size() || hostOfNode[v] < 0)
        {
            fail(k, "expected the node id of a host of the topology (" +
                        std::to_string(hostOfNode.size()) + " node ids)");
        }
        (k == 0 ? flow.src : flow.dst) = static_cast<uint32_t>(hostOfNode[v]);
    }
    if (flow.src == flow.dst)
    {
        fail(1, "dst is the same host as src");
    }
    if (!ParseUint(f[2].text, 0, 7, v))
    {
        fail(2, "expected an integer in [0, 7]");
    }
    flow.priority = static_cast<uint8_t>(v);
    if (!ParseUint(f[3].text, 0, 65535, v))
    {
        fail(3, "expected a port number in [0, 65535]");
    }
    flow.dport = static_cast<uint16_t>(v);
    if (!ParseUint(f[4].text, 1, ExperimentConfig::MAX_FLOW_BYTES, flow.bytes))
    {
        fail(4, "expected an integer in [1, " + std::to_string(ExperimentConfig::MAX_FLOW_BYTES) +
                    "] bytes");
    }
    Time start;
    if (!JsonAttributeConverter::ParseTime(f[5].text + "s", start))
    {
        fail(5, "expected a non-negative decimal number of seconds (at most 12 decimals)");
    }
    if (start < timeOrigin)
    {
        fail(5, "the flow starts before the trace's time origin " +
                    JsonAttributeConverter::FormatTime(timeOrigin));
    }
    flow.start = start - timeOrigin;
    flow.verb = RdmaVerb::Write;
    flow.origin = name + ":" + std::to_string(lineNo);
    return flow;
}

} // namespace

const char*
FlowTrace::CsvHeader()
{
    return "id,src,dst,bytes,start,priority,verb";
}

const char*
FlowTrace::CsvStreamHeader()
{
    return "id,src,dst,bytes,start,priority,verb,message_bytes,outstanding";
}

std::string
FlowTrace::ReadWholeFile(const std::string& path, const std::string& what)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw ExperimentConfigError(path, "", "cannot open the " + what);
    }
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

const char*
FlowTrace::CsvHeaderFor(const std::vector<ExperimentFlow>& flows)
{
    const bool streams = std::any_of(flows.begin(), flows.end(),
                                     [](const ExperimentFlow& f) { return f.IsStream(); });
    return streams ? CsvStreamHeader() : CsvHeader();
}

void
FlowTrace::WriteCsv(std::ostream& os, const std::vector<ExperimentFlow>& flows)
{
    const char* header = CsvHeaderFor(flows);
    const bool streams = header == CsvStreamHeader();
    os << header << '\n';
    for (const ExperimentFlow& f : flows)
    {
        std::string verb = RdmaVerbName(f.verb);
        for (char& c : verb)
        {
            c = static_cast<char>(c - 'A' + 'a');
        }
        os << f.id << ',' << f.src << ',' << f.dst << ',' << f.bytes << ',' << FormatMicros(f.start)
           << "us" << ',' << unsigned{f.priority} << ',' << verb;
        if (streams)
        {
            os << ',' << f.messageBytes << ',' << f.outstanding;
        }
        os << '\n';
    }
}

std::vector<ExperimentFlow>
FlowTrace::ReadCsv(const std::string& text, const std::string& name, uint32_t nHosts)
{
    static const char* columns[] = {"id",       "src",  "dst",           "bytes",      "start",
                                    "priority", "verb", "message_bytes", "outstanding"};
    std::vector<ExperimentFlow> flows;
    std::istringstream in(text);
    std::string raw;
    uint64_t lineNo = 0;
    bool header = false;
    std::size_t nColumns = 7; // 9 with the message-stream columns
    uint64_t lastId = 0;
    while (std::getline(in, raw))
    {
        ++lineNo;
        const std::string line = StripCr(raw);
        if (line.empty() || line[0] == '#')
        {
            continue;
        }
        const std::vector<Field> f = Split(line, ',');
        if (!header)
        {
            if (line != CsvHeader() && line != CsvStreamHeader())
            {
                throw ExperimentConfigError(name, lineNo, 1,
                                            "expected the header row \"" +
                                                std::string(CsvHeader()) + "\" or \"" +
                                                CsvStreamHeader() + "\", got \"" + line + "\"");
            }
            nColumns = line == CsvHeader() ? 7 : 9;
            header = true;
            continue;
        }
        if (f.size() != nColumns)
        {
            throw ExperimentConfigError(name, lineNo, 1,
                                        "expected " + std::to_string(nColumns) +
                                            " comma-separated fields (" +
                                            (nColumns == 7 ? CsvHeader() : CsvStreamHeader()) +
                                            "), got " + std::to_string(f.size()));
        }
        auto fail = [&](int k, const std::string& why)
        {
            throw ExperimentConfigError(name, lineNo, f[k].column,
                                        std::string("field ") + columns[k] + ": " + why +
                                            ", got \"" + f[k].text + "\"");
        };
        ExperimentFlow flow{};
        uint64_t v = 0;
        if (!ParseUint(f[0].text, 0, UINT32_MAX, v) || (!flows.empty() && v <= lastId))
        {
            fail(0, "expected an integer id greater than the previous row's");
        }
        lastId = v;
        for (int k : {1, 2})
        {
            if (!ParseUint(f[k].text, 0, nHosts - 1, v))
            {
                fail(k, "expected a host index in [0, " + std::to_string(nHosts - 1) + "]");
            }
            (k == 1 ? flow.src : flow.dst) = static_cast<uint32_t>(v);
        }
        if (flow.src == flow.dst)
        {
            fail(2, "dst is the same host as src");
        }
        // A message stream (message_bytes > 0) may total up to MAX_STREAM_BYTES.
        const bool stream = nColumns == 9 && f[7].text != "0";
        const uint64_t maxBytes =
            stream ? ExperimentConfig::MAX_STREAM_BYTES : ExperimentConfig::MAX_FLOW_BYTES;
        if (!ParseUint(f[3].text, 1, maxBytes, flow.bytes))
        {
            fail(3, "expected an integer in [1, " + std::to_string(maxBytes) + "] bytes");
        }
        if (nColumns == 9)
        {
            if (!ParseUint(f[7].text, 0, ExperimentConfig::MAX_FLOW_BYTES, flow.messageBytes))
            {
                fail(7, "expected 0 (one message) or a message size in [1, " +
                            std::to_string(ExperimentConfig::MAX_FLOW_BYTES) + "] bytes");
            }
            if (!ParseUint(f[8].text, 1, ExperimentConfig::MAX_OUTSTANDING, v) ||
                (!stream && v != 1))
            {
                fail(8, stream ? "expected an integer in [1, " +
                                     std::to_string(ExperimentConfig::MAX_OUTSTANDING) + "]"
                               : std::string("expected 1 for a single-message flow"));
            }
            flow.outstanding = static_cast<uint32_t>(v);
            std::string field;
            const std::string why =
                stream ? ExperimentConfig::CheckStream(flow.bytes, flow.messageBytes,
                                                       flow.outstanding, field)
                       : "";
            if (!why.empty())
            {
                fail(field == "bytes" ? 3 : field == "message_bytes" ? 7 : 8, why);
            }
        }
        if (!JsonAttributeConverter::ParseTime(f[4].text, flow.start))
        {
            fail(4, "expected a duration with its unit (s, ms, us, ns, ps), e.g. \"12.5us\"");
        }
        if (!ParseUint(f[5].text, 0, 7, v))
        {
            fail(5, "expected an integer in [0, 7]");
        }
        flow.priority = static_cast<uint8_t>(v);
        if (f[6].text != "write" && f[6].text != "send" && f[6].text != "read")
        {
            fail(6, "expected write, send or read");
        }
        ParseRdmaVerb(f[6].text, flow.verb);
        flow.id = static_cast<uint32_t>(flows.size());
        flow.origin = name + ":" + std::to_string(lineNo);
        flows.push_back(flow);
    }
    if (!header)
    {
        throw ExperimentConfigError(name, lineNo + 1, 1,
                                    "missing the header row \"" + std::string(CsvHeader()) + "\"");
    }
    return flows;
}

std::vector<ExperimentFlow>
FlowTrace::ReadHpcc(const std::string& text, const std::string& name,
                    const std::vector<int64_t>& hostOfNode, Time timeOrigin,
                    std::vector<std::string>& warnings)
{
    std::vector<ExperimentFlow> flows;
    std::istringstream in(text);
    std::string raw;
    uint64_t lineNo = 0;
    uint64_t count = 0;
    bool haveCount = false;
    uint64_t countLine = 0;
    uint64_t flowLines = 0; // flow lines read, good or not
    uint64_t ignored = 0;   // non-blank lines after the announced flows
    uint64_t firstIgnored = 0;
    uint64_t lastFlowLine = 0;
    ConfigErrorList problems(name); // every flow line is checked: all problems in one pass
    while (std::getline(in, raw))
    {
        ++lineNo;
        const std::vector<Field> f = SplitBlankFields(StripCr(raw));
        if (f.empty())
        {
            continue;
        }
        if (!haveCount)
        {
            if (f.size() != 1 || !ParseUint(f[0].text, 0, UINT32_MAX, count))
            {
                throw ExperimentConfigError(name, lineNo, 1,
                                            "the first line must be the number of flows");
            }
            haveCount = true;
            countLine = lineNo;
            continue;
        }
        if (flowLines == count)
        {
            // The HPCC simulator reads the announced flows and no further (its example
            // flow file ends with more flows and notes on the format).
            firstIgnored = firstIgnored == 0 ? lineNo : firstIgnored;
            ++ignored;
            continue;
        }
        ++flowLines;
        lastFlowLine = lineNo;
        try
        {
            flows.push_back(ReadHpccFlow(f, name, lineNo, hostOfNode, timeOrigin));
        }
        catch (const ExperimentConfigError& e)
        {
            problems.Add(e);
        }
    }
    if (!haveCount)
    {
        throw ExperimentConfigError(name, lineNo + 1, 1, "empty file: expected the flow count");
    }
    if (flowLines != count)
    {
        problems.Add(ExperimentConfigError(name, lineNo, 1,
                                           "the file holds " + std::to_string(flowLines) +
                                               " flows, line " + std::to_string(countLine) +
                                               " announces " + std::to_string(count)));
    }
    problems.ThrowIfAny();
    for (std::size_t i = 0; i < flows.size(); ++i)
    {
        flows[i].id = static_cast<uint32_t>(i);
    }
    if (ignored > 0)
    {
        warnings.push_back(
            name + ":" + std::to_string(firstIgnored) + ": " + std::to_string(ignored) +
            " non-blank line" + (ignored == 1 ? "" : "s") + " after the " + std::to_string(count) +
            " flows announced on line " + std::to_string(countLine) + " (the last on line " +
            std::to_string(lastFlowLine) + ") ignored, as the HPCC simulator ignores them");
    }
    return flows;
}

} // namespace ns3
