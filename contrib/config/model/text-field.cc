#include "text-field.h"

namespace ns3
{

namespace
{

bool
IsBlank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

} // namespace

std::vector<TextField>
SplitBlankFields(const std::string& line)
{
    std::vector<TextField> fields;
    std::size_t i = 0;
    while (i < line.size())
    {
        while (i < line.size() && IsBlank(line[i]))
        {
            ++i;
        }
        const std::size_t start = i;
        while (i < line.size() && !IsBlank(line[i]))
        {
            ++i;
        }
        if (i > start)
        {
            fields.push_back(TextField{line.substr(start, i - start), start + 1});
        }
    }
    return fields;
}

} // namespace ns3
