#include "command-line-attributes.h"

#include "ns3/type-id.h"

namespace ns3
{

CommandLineAttributes
CommandLineAttributes::FromArguments(const std::vector<std::string>& args)
{
    CommandLineAttributes result;
    for (const std::string& argument : args)
    {
        const auto begin = argument.find_first_not_of('-');
        const auto equal = argument.find('=');
        if (begin == std::string::npos || begin == 0 || equal == std::string::npos || equal < begin)
        {
            continue;
        }
        const std::string path = argument.substr(begin, equal - begin);
        const auto sep = path.rfind("::");
        TypeId tid;
        if (sep == std::string::npos || !TypeId::LookupByNameFailSafe(path.substr(0, sep), &tid))
        {
            continue;
        }
        // Config::SetDefault looks only at the attributes the TypeId itself declares.
        const std::string name = path.substr(sep + 2);
        for (std::size_t i = 0; i < tid.GetAttributeN(); ++i)
        {
            if (tid.GetAttribute(i).name == name)
            {
                result.m_entries.push_back(Entry{tid.GetName(), name, argument});
                break;
            }
        }
    }
    return result;
}

std::string
CommandLineAttributes::Find(const std::string& typeName, const std::string& attribute) const
{
    std::string found;
    for (const Entry& e : m_entries)
    {
        if (e.typeName == typeName && e.attribute == attribute)
        {
            found = e.argument;
        }
    }
    return found;
}

bool
CommandLineAttributes::IsEmpty() const
{
    return m_entries.empty();
}

} // namespace ns3
