#include "rdma-work-request.h"

#include "ns3/simulator.h"

#include <algorithm>
#include <cctype>

namespace ns3
{

RdmaCompletion
RdmaCompletion::Flushed(uint32_t qpn, uint64_t wrId, RdmaVerb verb, bool receive, Time postTime)
{
    RdmaCompletion c;
    c.qpn = qpn;
    c.wrId = wrId;
    c.verb = verb;
    c.receive = receive;
    c.status = RdmaWcStatus::Flushed;
    c.postTime = postTime;
    c.completionTime = Simulator::Now();
    return c;
}

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
