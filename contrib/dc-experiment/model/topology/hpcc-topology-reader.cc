#include "hpcc-topology-reader.h"

#include "topology-types.h"

#include "ns3/config-error-list.h"
#include "ns3/experiment-config-error.h"
#include "ns3/json-attribute-converter.h"
#include "ns3/text-field.h"

#include <deque>
#include <sstream>

namespace ns3
{

namespace
{

using Field = TextField; //!< a word and its column (from 1)

bool
ParseUint(const std::string& text, uint64_t max, uint64_t& value)
{
    if (text.empty() || text.size() > 10)
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
    return value <= max;
}

} // namespace

ExperimentTopology
HpccTopologyReader::Read(const std::string& text, const std::string& name)
{
    std::istringstream in(text);
    std::string line;
    uint64_t lineNo = 0;
    // Next non-blank line's fields, or empty at the end.
    auto next = [&]() -> std::vector<Field>
    {
        while (std::getline(in, line))
        {
            ++lineNo;
            std::vector<Field> f = SplitBlankFields(line);
            if (!f.empty())
            {
                return f;
            }
        }
        ++lineNo;
        return {};
    };
    auto fail = [&](uint64_t column, const std::string& why)
    { throw ExperimentConfigError(name, lineNo, column, why); };

    std::vector<Field> f = next();
    uint64_t counts[3];
    if (f.size() != 3)
    {
        fail(1, "expected \"<nodes> <switches> <links>\" on the first line");
    }
    for (int k = 0; k < 3; ++k)
    {
        if (!ParseUint(f[k].text, 1000000, counts[k]))
        {
            fail(f[k].column, "expected a count in [0, 1000000], got \"" + f[k].text + "\"");
        }
    }
    const uint64_t nNodes = counts[0];
    const uint64_t nSwitches = counts[1];
    const uint64_t nLinks = counts[2];
    if (nSwitches == 0 || nSwitches >= nNodes)
    {
        fail(f[1].column, "switches must be in [1, nodes - 1]");
    }
    const uint64_t countLine = lineNo;

    std::vector<bool> isSwitch(nNodes, false);
    // The switch ids, on one line or (as the HPCC simulator reads them, word by word) on
    // several; the links start on the line after the last.
    uint64_t listed = 0;
    while (listed < nSwitches)
    {
        f = next();
        if (f.empty())
        {
            fail(1, "the file ends after " + std::to_string(listed) + " of the " +
                        std::to_string(nSwitches) + " switch ids announced on line " +
                        std::to_string(countLine));
        }
        if (listed + f.size() > nSwitches)
        {
            fail(f[nSwitches - listed].column,
                 "expected the " + std::to_string(nSwitches) + " switch ids announced on line " +
                     std::to_string(countLine) + ", got " + std::to_string(listed + f.size()));
        }
        for (const Field& s : f)
        {
            uint64_t id = 0;
            if (!ParseUint(s.text, nNodes - 1, id))
            {
                fail(s.column, "expected a node id in [0, " + std::to_string(nNodes - 1) +
                                   "], got \"" + s.text + "\"");
            }
            if (isSwitch[id])
            {
                fail(s.column, "switch id " + s.text + " is listed twice");
            }
            isSwitch[id] = true;
            ++listed;
        }
    }

    ExperimentTopology t;
    t.type = TopologyTypes::FILE_TYPE;
    std::vector<int64_t>& hostOfNode = t.hpccHostOfNode;
    hostOfNode.assign(nNodes, -1);
    std::vector<uint32_t> indexOfNode(nNodes);
    for (uint64_t id = 0; id < nNodes; ++id)
    {
        if (!isSwitch[id])
        {
            hostOfNode[id] = static_cast<int64_t>(t.hosts.size());
            indexOfNode[id] = static_cast<uint32_t>(t.hosts.size());
            t.hosts.push_back("h" + std::to_string(id));
        }
    }
    const auto nHosts = static_cast<uint32_t>(t.hosts.size());
    for (uint64_t id = 0; id < nNodes; ++id)
    {
        if (isSwitch[id])
        {
            indexOfNode[id] = nHosts + static_cast<uint32_t>(t.switches.size());
            t.switches.push_back("s" + std::to_string(id));
        }
    }

    std::vector<uint32_t> hostLinks(nHosts, 0);
    std::vector<uint64_t> hostLinkLine(nHosts, 0);
    std::vector<std::vector<uint32_t>> adjacency(nNodes);
    // One link line, checked, then added (a bad line adds nothing).
    auto readLink = [&](const std::vector<Field>& f)
    {
        if (f.size() != 5)
        {
            fail(1, "expected \"<src> <dst> <rate> <delay> <error_rate>\", got " +
                        std::to_string(f.size()) + " fields");
        }
        uint64_t ends[2];
        for (int e = 0; e < 2; ++e)
        {
            if (!ParseUint(f[e].text, nNodes - 1, ends[e]))
            {
                fail(f[e].column, std::string(e == 0 ? "src" : "dst") +
                                      ": expected a node id in [0, " + std::to_string(nNodes - 1) +
                                      "], got \"" + f[e].text + "\"");
            }
        }
        if (ends[0] == ends[1])
        {
            fail(f[1].column, "a link cannot join node " + f[0].text + " to itself");
        }
        if (!isSwitch[ends[0]] && !isSwitch[ends[1]])
        {
            fail(1, "hosts " + f[0].text + " and " + f[1].text +
                        " are linked directly; a link joins a host to a switch or two switches");
        }
        DataRate rate;
        if (!JsonAttributeConverter::ParseDataRate(f[2].text, rate) || rate.GetBitRate() == 0)
        {
            fail(f[2].column, "rate: expected a positive data rate such as \"100Gbps\", got \"" +
                                  f[2].text + "\"");
        }
        Time delay;
        if (!JsonAttributeConverter::ParseTime(f[3].text, delay))
        {
            fail(f[3].column,
                 "delay: expected a duration such as \"1000ns\" or \"0.001ms\", got \"" +
                     f[3].text + "\"");
        }
        char* end = nullptr;
        const double err = std::strtod(f[4].text.c_str(), &end);
        if (end != f[4].text.c_str() + f[4].text.size() || err != 0)
        {
            fail(f[4].column, "error_rate: only 0 is supported (random link loss is not "
                              "modelled), got \"" +
                                  f[4].text + "\"");
        }
        for (int e = 0; e < 2; ++e)
        {
            if (!isSwitch[ends[e]])
            {
                const auto h = static_cast<uint32_t>(hostOfNode[ends[e]]);
                if (++hostLinks[h] > 1)
                {
                    fail(f[e].column, "host " + f[e].text + " already has a link (line " +
                                          std::to_string(hostLinkLine[h]) +
                                          "); a host has exactly one link (one NIC port)");
                }
                hostLinkLine[h] = lineNo;
            }
        }
        adjacency[ends[0]].push_back(static_cast<uint32_t>(ends[1]));
        adjacency[ends[1]].push_back(static_cast<uint32_t>(ends[0]));
        t.links.push_back(ExperimentLink{indexOfNode[ends[0]], indexOfNode[ends[1]], rate, delay});
    };
    // Every link line is checked: the problems of the file are reported together.
    ConfigErrorList problems(name);
    for (uint64_t k = 0; k < nLinks; ++k)
    {
        f = next();
        if (f.empty())
        {
            problems.Add(ExperimentConfigError(name, lineNo, 1,
                                               "the file ends after " + std::to_string(k) +
                                                   " links; line " + std::to_string(countLine) +
                                                   " announces " + std::to_string(nLinks)));
            break;
        }
        try
        {
            readLink(f);
        }
        catch (const ExperimentConfigError& e)
        {
            problems.Add(e);
        }
    }
    problems.ThrowIfAny();
    // The HPCC simulator reads the announced links and no further: what follows (more
    // links, notes on the format) is ignored, with one warning.
    const uint64_t lastLinkLine = lineNo;
    f = next();
    if (!f.empty())
    {
        const uint64_t firstIgnored = lineNo;
        uint64_t ignored = 1;
        while (!next().empty())
        {
            ++ignored;
        }
        t.warnings.push_back(
            name + ":" + std::to_string(firstIgnored) + ": " + std::to_string(ignored) +
            " non-blank line" + (ignored == 1 ? "" : "s") + " after the " + std::to_string(nLinks) +
            " links announced on line " + std::to_string(countLine) + " (the last on line " +
            std::to_string(lastLinkLine) + ") ignored, as the HPCC simulator ignores them");
    }
    // Every node must be reachable from the first host (routes span one component).
    uint64_t first = 0;
    while (isSwitch[first])
    {
        ++first;
    }
    std::vector<bool> seen(nNodes, false);
    std::deque<uint64_t> frontier{first};
    seen[first] = true;
    while (!frontier.empty())
    {
        const uint64_t u = frontier.front();
        frontier.pop_front();
        for (uint32_t v : adjacency[u])
        {
            if (!seen[v])
            {
                seen[v] = true;
                frontier.push_back(v);
            }
        }
    }
    for (uint64_t id = 0; id < nNodes; ++id)
    {
        if (!seen[id])
        {
            throw ExperimentConfigError(name, countLine, 1,
                                        "node " + std::to_string(id) +
                                            " is not connected to host " + std::to_string(first));
        }
    }
    return t;
}

} // namespace ns3
