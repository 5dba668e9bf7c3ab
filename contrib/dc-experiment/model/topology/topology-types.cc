#include "topology-types.h"

namespace ns3
{

const std::set<std::string>&
TopologyTypes::GetAll()
{
    static const std::set<std::string> types{"dumbbell", "incast", "leaf_spine", "fat_tree",
                                             "regional", "custom", FILE_TYPE};
    return types;
}

std::string
TopologyTypes::Describe()
{
    const std::set<std::string>& types = GetAll();
    std::string text;
    std::size_t i = 0;
    for (const std::string& type : types)
    {
        text += i == 0 ? "" : (i + 1 == types.size() ? " or " : ", ");
        text += "\"" + type + "\"";
        ++i;
    }
    return text;
}

} // namespace ns3
