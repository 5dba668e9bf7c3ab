// roce-doc: print what the ns-3 TypeId registry knows about a type or an attribute.
//
//   roce-doc ns3::RdmaDcqcn          every attribute (own and inherited) and trace source
//   roce-doc ns3::RdmaDcqcn::G       one attribute
//   roce-doc RdmaDcqcn               "ns3::" may be left out
//   roce-doc --search watermark      the types, attributes and trace sources whose name or
//                                    help contains the word (case-insensitive), roce-lab's
//                                    before ns-3's own
//   roce-doc --sources               the source tags ([DCQCN15], [MLX-DUMP], ...) that help
//                                    strings cite, with what each names (doc/sources.md)
//   roce-doc --check-sources         exit 1, listing them, if a registered help string
//                                    cites a tag that doc/sources.md does not define
//
// Defaults are the registry's initial values (after any --ns3::Type::Attr=value given on
// the same command line); help strings name units and sources. Exit status 2 if the name
// is not registered (with the nearest registered names: a typo's correction).
#include "ns3/attribute.h"
#include "ns3/command-line.h"
#include "ns3/json-schema-reader.h"
#include "ns3/type-id-chain.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

#ifdef ROCE_LAB_SOURCES_FILE
static const char* SOURCES_FILE = ROCE_LAB_SOURCES_FILE;
#else
static const char* SOURCES_FILE = "doc/sources.md";
#endif

namespace
{

/** The source tags a help string cites: "[TAG]" or "[TAG where]", TAG in capitals. */
std::vector<std::string>
TagsIn(const std::string& help)
{
    static const std::regex tag(R"(\[([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*)(?: [^\]]*)?\])");
    std::vector<std::string> tags;
    for (std::sregex_iterator it(help.begin(), help.end(), tag), end; it != end; ++it)
    {
        const std::string name = (*it)[1];
        if (name.size() >= 3 && std::find(tags.begin(), tags.end(), name) == tags.end())
        {
            tags.push_back(name);
        }
    }
    return tags;
}

/**
 * The entries of the sources file: lines "* [TAG] text", by tag (in file order in
 * \p order). \return false if the file cannot be read.
 */
bool
ReadSources(const std::string& path, std::map<std::string, std::string>& entries,
            std::vector<std::string>& order)
{
    std::ifstream in(path);
    if (!in)
    {
        return false;
    }
    static const std::regex entry(R"(^\* \[([A-Z][A-Z0-9-]*)\] (.*)$)");
    std::string line;
    std::smatch m;
    while (std::getline(in, line))
    {
        if (std::regex_match(line, m, entry))
        {
            entries[m[1]] = m[2];
            order.push_back(m[1]);
        }
    }
    return true;
}

/** Calls \p f(owner, what, help) for every attribute and trace source of \p tid. */
template <typename F>
void
ForEachHelp(const TypeId& tid, F f)
{
    for (std::size_t i = 0; i < tid.GetAttributeN(); ++i)
    {
        f(tid.GetAttribute(i).name, tid.GetAttribute(i).help);
    }
    for (std::size_t i = 0; i < tid.GetTraceSourceN(); ++i)
    {
        f(tid.GetTraceSource(i).name, tid.GetTraceSource(i).help);
    }
}

/** How a value of this attribute type is written on the command line and in JSON. */
std::string
UnitOf(std::string valueType)
{
    if (valueType.rfind("ns3::", 0) == 0)
    {
        valueType = valueType.substr(5);
    }
    if (valueType == "TimeValue")
    {
        return "duration, e.g. 55us";
    }
    if (valueType == "DataRateValue")
    {
        return "bit/s, e.g. 100Gbps";
    }
    if (valueType == "QueueSizeValue")
    {
        return "bytes or packets, e.g. 200KB, 100p";
    }
    if (valueType == "TypeIdValue")
    {
        return "a TypeId name";
    }
    if (valueType == "UintegerValue" || valueType == "IntegerValue" || valueType == "DoubleValue")
    {
        return "number; the unit is named in the help";
    }
    return "see help";
}

void
PrintAttribute(const TypeId& owner, const TypeId::AttributeInformation& info)
{
    const std::string valueType = info.checker->GetValueTypeName();
    std::cout << "  " << info.name;
    if (owner.GetName() != "")
    {
        std::cout << "   (" << owner.GetName() << ")";
    }
    std::cout << "\n    type:    " << valueType;
    if (info.checker->HasUnderlyingTypeInformation())
    {
        std::cout << " [" << info.checker->GetUnderlyingTypeInformation() << "]";
    }
    std::cout << "\n    unit:    " << UnitOf(valueType);
    std::cout << "\n    default: ";
    if (info.initialValue)
    {
        std::cout << info.initialValue->SerializeToString(info.checker);
    }
    if (info.originalInitialValue && info.initialValue &&
        info.originalInitialValue->SerializeToString(info.checker) !=
            info.initialValue->SerializeToString(info.checker))
    {
        std::cout << " (registered default "
                  << info.originalInitialValue->SerializeToString(info.checker) << ")";
    }
    std::cout << "\n    help:    " << info.help << "\n";
    if (info.supportLevel != TypeId::SUPPORTED)
    {
        std::cout << "    note:    deprecated or obsolete: " << info.supportMsg << "\n";
    }
}

bool
FindType(std::string name, TypeId* tid)
{
    if (TypeId::LookupByNameFailSafe(name, tid))
    {
        return true;
    }
    return name.rfind("ns3::", 0) != 0 && TypeId::LookupByNameFailSafe("ns3::" + name, tid);
}

std::string
Lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

bool
Contains(const std::string& haystack, const std::string& lowerNeedle)
{
    return Lower(haystack).find(lowerNeedle) != std::string::npos;
}

/** \return whether \p tid is one of roce-lab's modules' (by its group name). */
bool
IsRoceLab(const TypeId& tid)
{
    static const std::set<std::string> groups{"Dcb", "Rdma", "Host", "Multipath", "DcExperiment"};
    return groups.count(tid.GetGroupName()) > 0;
}

/** \return every registered TypeId, roce-lab's modules' first, each part in registry order. */
std::vector<TypeId>
RegisteredOursFirst()
{
    std::vector<TypeId> all;
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        all.push_back(TypeId::GetRegistered(i));
    }
    std::stable_partition(all.begin(), all.end(), IsRoceLab);
    return all;
}

/** \return the registered TypeIds' names. */
std::vector<std::string>
RegisteredNames()
{
    std::vector<std::string> names;
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        names.push_back(TypeId::GetRegistered(i).GetName());
    }
    return names;
}

/** Print the registered TypeIds whose name contains \p text; \return how many. */
int
SearchTypes(const std::string& text, std::ostream& os)
{
    int found = 0;
    for (const TypeId& tid : RegisteredOursFirst())
    {
        if (Contains(tid.GetName(), Lower(text)))
        {
            os << "  " << tid.GetName() << "\n";
            ++found;
        }
    }
    return found;
}

/**
 * --search: the types whose name, and the attributes and trace sources whose name or help,
 * contains \p text (case-insensitive); each attribute and trace source once, under the type
 * that declares it. \return how many were printed.
 */
int
Search(const std::string& text)
{
    const std::string needle = Lower(text);
    std::cout << "types whose name contains '" << text << "':\n";
    int found = SearchTypes(text, std::cout);
    if (found == 0)
    {
        std::cout << "  (none)\n";
    }
    std::cout << "attributes whose name or help contains '" << text << "':\n";
    int attributes = 0;
    for (const TypeId& tid : RegisteredOursFirst())
    {
        for (std::size_t a = 0; a < tid.GetAttributeN(); ++a)
        {
            const TypeId::AttributeInformation info = tid.GetAttribute(a);
            if (!Contains(info.name, needle) && !Contains(info.help, needle))
            {
                continue;
            }
            std::cout << "  " << tid.GetName() << "::" << info.name << "   ("
                      << info.checker->GetValueTypeName() << ", default "
                      << (info.initialValue ? info.initialValue->SerializeToString(info.checker)
                                            : std::string("-"))
                      << ")\n    " << info.help << "\n";
            ++attributes;
        }
    }
    if (attributes == 0)
    {
        std::cout << "  (none)\n";
    }
    std::cout << "trace sources whose name or help contains '" << text << "':\n";
    int traces = 0;
    for (const TypeId& tid : RegisteredOursFirst())
    {
        for (std::size_t t = 0; t < tid.GetTraceSourceN(); ++t)
        {
            const TypeId::TraceSourceInformation info = tid.GetTraceSource(t);
            if (Contains(info.name, needle) || Contains(info.help, needle))
            {
                std::cout << "  " << tid.GetName() << "::" << info.name << "\n    " << info.help
                          << "\n";
                ++traces;
            }
        }
    }
    if (traces == 0)
    {
        std::cout << "  (none)\n";
    }
    std::cout << found << " types, " << attributes << " attributes, " << traces
              << " trace sources (roce-doc ns3::Type::Attribute prints one in full)\n";
    return found + attributes + traces;
}

void
PrintType(const TypeId& tid)
{
    std::cout << tid.GetName();
    const std::vector<TypeId> chain = TypeIdChain(tid);
    for (std::size_t i = 1; i + 1 < chain.size(); ++i) // the root (ns3::ObjectBase) not named
    {
        std::cout << " : " << chain[i].GetName();
    }
    std::cout << "\n";
    if (!tid.GetGroupName().empty())
    {
        std::cout << "group: " << tid.GetGroupName() << "\n";
    }
    std::cout << "attributes:\n";
    for (const DeclaredAttribute& a : ChainAttributes(chain))
    {
        PrintAttribute(a.owner, a.info);
    }
    std::cout << "trace sources:\n";
    for (const TypeId& t : chain)
    {
        for (std::size_t i = 0; i < t.GetTraceSourceN(); ++i)
        {
            const TypeId::TraceSourceInformation info = t.GetTraceSource(i);
            std::cout << "  " << info.name << "   (" << t.GetName() << ", " << info.callback
                      << ")\n    help:    " << info.help << "\n";
        }
    }
    // The sources the help strings above cite.
    std::vector<std::string> cited;
    for (const TypeId& t : chain)
    {
        ForEachHelp(t,
                    [&cited](const std::string&, const std::string& help)
                    {
                        for (const auto& tag : TagsIn(help))
                        {
                            if (std::find(cited.begin(), cited.end(), tag) == cited.end())
                            {
                                cited.push_back(tag);
                            }
                        }
                    });
    }
    if (cited.empty())
    {
        return;
    }
    std::map<std::string, std::string> entries;
    std::vector<std::string> order;
    ReadSources(SOURCES_FILE, entries, order);
    std::cout << "sources (" << SOURCES_FILE << "; all: roce-doc --sources):\n";
    for (const auto& tag : order)
    {
        if (std::find(cited.begin(), cited.end(), tag) != cited.end())
        {
            std::cout << "  [" << tag << "] " << entries[tag] << "\n";
        }
    }
    for (const auto& tag : cited)
    {
        if (entries.count(tag) == 0)
        {
            std::cout << "  [" << tag << "] (not defined in " << SOURCES_FILE << ")\n";
        }
    }
}

/** Print every entry of the sources file; \return the exit status. */
int
PrintSources()
{
    std::map<std::string, std::string> entries;
    std::vector<std::string> order;
    if (!ReadSources(SOURCES_FILE, entries, order))
    {
        std::cerr << "roce-doc: cannot read " << SOURCES_FILE << "\n";
        return 1;
    }
    for (const auto& tag : order)
    {
        std::cout << "[" << tag << "] " << entries[tag] << "\n";
    }
    return 0;
}

/**
 * Every tag cited by a registered help string must be defined in the sources file.
 * \return 0 if so, else 1 after listing each undefined tag with where it is cited.
 */
int
CheckSources()
{
    std::map<std::string, std::string> entries;
    std::vector<std::string> order;
    if (!ReadSources(SOURCES_FILE, entries, order))
    {
        std::cerr << "roce-doc: cannot read " << SOURCES_FILE << "\n";
        return 1;
    }
    std::set<std::string> used;
    int undefined = 0;
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        const TypeId tid = TypeId::GetRegistered(i);
        ForEachHelp(tid,
                    [&](const std::string& name, const std::string& help)
                    {
                        for (const auto& tag : TagsIn(help))
                        {
                            used.insert(tag);
                            if (entries.count(tag) == 0)
                            {
                                std::cout << "undefined source [" << tag << "] cited by "
                                          << tid.GetName() << "::" << name << "\n";
                                ++undefined;
                            }
                        }
                    });
    }
    std::cout << used.size() << " source tags cited by help strings; " << undefined
              << " citations of a tag not defined in " << SOURCES_FILE << "\n";
    return undefined == 0 ? 0 : 1;
}

} // namespace

int
main(int argc, char** argv)
{
    std::string name;
    std::string search;
    bool sources = false;
    bool checkSources = false;
    CommandLine cmd(__FILE__);
    cmd.Usage("Print a TypeId's attributes (type, unit, default, help) and trace sources, "
              "or one attribute (ns3::Type::Attribute), from the ns-3 registry.");
    cmd.AddNonOption("name", "ns3::Type or ns3::Type::Attribute", name);
    cmd.AddValue("search",
                 "list the types, attributes and trace sources whose name or help contains "
                 "this word (case-insensitive)",
                 search);
    cmd.AddValue("sources",
                 "print the source tags that help strings cite ([DCQCN15], ...) with what "
                 "each names",
                 sources);
    cmd.AddValue("check-sources",
                 "exit 1 if a registered help string cites a tag the sources file lacks",
                 checkSources);
    cmd.Parse(argc, argv);

    if (sources)
    {
        return PrintSources();
    }
    if (checkSources)
    {
        return CheckSources();
    }

    if (!search.empty())
    {
        return Search(search) > 0 ? 0 : 2;
    }
    if (name.empty())
    {
        std::cerr << "roce-doc: give a type (ns3::RdmaDcqcn) or an attribute "
                     "(ns3::RdmaDcqcn::G); --search WORD searches names and help\n";
        return 2;
    }
    TypeId tid;
    if (FindType(name, &tid))
    {
        PrintType(tid);
        return 0;
    }
    const std::size_t sep = name.rfind("::");
    if (sep != std::string::npos && FindType(name.substr(0, sep), &tid))
    {
        const std::string attribute = name.substr(sep + 2);
        TypeId::AttributeInformation info;
        if (tid.LookupAttributeByName(attribute, &info))
        {
            PrintAttribute(DeclaringTypeId(tid, attribute), info);
            return 0;
        }
        std::cerr << "roce-doc: " << tid.GetName() << " has no attribute '" << attribute << "'";
        const std::vector<std::string> names = AttributeNames(tid);
        const auto near = JsonSchemaReader::ClosestNames(attribute, names);
        if (!near.empty())
        {
            std::cerr << "; did you mean " << tid.GetName() << "::" << near.front() << "?";
        }
        std::cerr << " (roce-doc " << tid.GetName() << " lists them)\n";
        return 2;
    }
    std::cerr << "roce-doc: no registered TypeId '" << name << "'";
    const std::string qualified = name.rfind("ns3::", 0) == 0 ? name : "ns3::" + name;
    const auto near = JsonSchemaReader::ClosestNames(qualified, RegisteredNames());
    if (!near.empty())
    {
        std::cerr << "; did you mean " << JsonSchemaReader::JoinNames(near) << "?";
    }
    const std::string shortName =
        name.substr(name.rfind(':') == std::string::npos ? 0 : name.rfind(':') + 1);
    std::ostringstream containing;
    if (SearchTypes(shortName, containing) > 0)
    {
        std::cerr << "; names containing '" << shortName << "':\n" << containing.str();
    }
    else
    {
        std::cerr << (near.empty() ? "; no similar name\n" : "\n");
    }
    return 2;
}
