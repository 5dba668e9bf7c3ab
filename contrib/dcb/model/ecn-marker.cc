#include "ecn-marker.h"

#include "ns3/enum.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(EcnMarker);

TypeId
EcnMarker::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::EcnMarker")
            .SetParent<Object>()
            .SetGroupName("Dcb")
            .AddAttribute(
                "MarkingPoint",
                "Enqueue (default): decide when the packet joins the egress queue, on the "
                "bytes ahead of it (DCQCN's CP as in its SIGCOMM'15 simulator and SONiC's "
                "WRED). Dequeue: decide when it leaves, on the bytes behind it, which "
                "signals congestion one queueing delay earlier (Wu et al., 'Tuning ECN for "
                "data center networks', CoNEXT'12).",
                EnumValue(ENQUEUE), MakeEnumAccessor(&EcnMarker::m_point),
                MakeEnumChecker(ENQUEUE, "Enqueue", DEQUEUE, "Dequeue"));
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
