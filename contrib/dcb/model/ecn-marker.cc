#include "ecn-marker.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(EcnMarker);

TypeId
EcnMarker::GetTypeId()
{
    static TypeId tid = TypeId("ns3::EcnMarker").SetParent<Object>().SetGroupName("Dcb");
    return tid;
}

EcnMarker::EcnMarker() = default;
EcnMarker::~EcnMarker() = default;

bool
EcnMarker::ShouldMark(uint8_t tc, uint64_t queueBytes)
{
    if (!DoShouldMark(tc & 7, queueBytes))
    {
        return false;
    }
    m_marks[tc & 7]++;
    return true;
}

std::string
EcnMarker::CheckConfig() const
{
    return DoCheckConfig();
}

std::string
EcnMarker::DoCheckConfig() const
{
    return "";
}

uint64_t
EcnMarker::GetMarks(uint8_t tc) const
{
    return m_marks[tc & 7];
}

} // namespace ns3
