// roce-doc: print what the ns-3 TypeId registry knows about a type or an attribute.
//
//   roce-doc ns3::RdmaDcqcn          every attribute (own and inherited) and trace source
//   roce-doc ns3::RdmaDcqcn::G       one attribute
//   roce-doc RdmaDcqcn               "ns3::" may be left out
//   roce-doc --search dcqcn          registered TypeIds whose name contains the text
//
// Defaults are the registry's initial values (after any --ns3::Type::Attr=value given on
// the same command line); help strings name units and sources. Exit status 2 if the name
// is not registered.
#include "ns3/attribute.h"
#include "ns3/command-line.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <cctype>
#include <iostream>
#include <string>

using namespace ns3;

namespace
{

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

int
Search(const std::string& text)
{
    int found = 0;
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        const TypeId tid = TypeId::GetRegistered(i);
        if (Lower(tid.GetName()).find(Lower(text)) != std::string::npos)
        {
            std::cout << tid.GetName() << "\n";
            ++found;
        }
    }
    return found;
}

void
PrintType(const TypeId& tid)
{
    std::cout << tid.GetName();
    for (TypeId p = tid.GetParent(); p != p.GetParent(); p = p.GetParent())
    {
        std::cout << " : " << p.GetName();
    }
    std::cout << "\n";
    if (!tid.GetGroupName().empty())
    {
        std::cout << "group: " << tid.GetGroupName() << "\n";
    }
    std::cout << "attributes:\n";
    for (TypeId t = tid;; t = t.GetParent())
    {
        for (std::size_t i = 0; i < t.GetAttributeN(); ++i)
        {
            PrintAttribute(t, t.GetAttribute(i));
        }
        if (t == t.GetParent())
        {
            break;
        }
    }
    std::cout << "trace sources:\n";
    for (TypeId t = tid;; t = t.GetParent())
    {
        for (std::size_t i = 0; i < t.GetTraceSourceN(); ++i)
        {
            const TypeId::TraceSourceInformation info = t.GetTraceSource(i);
            std::cout << "  " << info.name << "   (" << t.GetName() << ", " << info.callback
                      << ")\n    help:    " << info.help << "\n";
        }
        if (t == t.GetParent())
        {
            break;
        }
    }
}

} // namespace

int
main(int argc, char** argv)
{
    std::string name;
    std::string search;
    CommandLine cmd(__FILE__);
    cmd.Usage("Print a TypeId's attributes (type, unit, default, help) and trace sources, "
              "or one attribute (ns3::Type::Attribute), from the ns-3 registry.");
    cmd.AddNonOption("name", "ns3::Type or ns3::Type::Attribute", name);
    cmd.AddValue("search", "list registered TypeIds whose name contains this text", search);
    cmd.Parse(argc, argv);

    if (!search.empty())
    {
        return Search(search) > 0 ? 0 : 2;
    }
    if (name.empty())
    {
        std::cerr << "roce-doc: give a type (ns3::RdmaDcqcn) or an attribute "
                     "(ns3::RdmaDcqcn::G); --search TEXT lists types\n";
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
            // Find the class that declares it, for the printout.
            TypeId owner = tid;
            for (TypeId t = tid;; t = t.GetParent())
            {
                for (std::size_t i = 0; i < t.GetAttributeN(); ++i)
                {
                    if (t.GetAttribute(i).name == attribute)
                    {
                        owner = t;
                    }
                }
                if (t == t.GetParent())
                {
                    break;
                }
            }
            PrintAttribute(owner, info);
            return 0;
        }
        std::cerr << "roce-doc: " << tid.GetName() << " has no attribute '" << attribute
                  << "' (roce-doc " << tid.GetName() << " lists them)\n";
        return 2;
    }
    std::cerr << "roce-doc: no registered TypeId '" << name << "'";
    const std::string shortName =
        name.substr(name.rfind(':') == std::string::npos ? 0 : name.rfind(':') + 1);
    std::cerr << "; similar names:\n";
    if (Search(shortName) == 0)
    {
        std::cerr << "  (none)\n";
    }
    return 2;
}
