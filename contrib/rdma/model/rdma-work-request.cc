#include "rdma-work-request.h"

#include <algorithm>
#include <cctype>

namespace ns3
{

std::string
RdmaVerbName(RdmaVerb verb)
{
    switch (verb)
    {
        case RdmaVerb::Write:
            return "WRITE";
        case RdmaVerb::Send:
            return "SEND";
        case RdmaVerb::Read:
            return "READ";
    }
    return "UNKNOWN";
}

bool
ParseRdmaVerb(const std::string& name, RdmaVerb& verb)
{
    std::string lower = name;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (lower == "write")
    {
        verb = RdmaVerb::Write;
    }
    else if (lower == "send")
    {
        verb = RdmaVerb::Send;
    }
    else if (lower == "read")
    {
        verb = RdmaVerb::Read;
    }
    else
    {
        return false;
    }
    return true;
}

} // namespace ns3
