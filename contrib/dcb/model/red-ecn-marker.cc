#include "red-ecn-marker.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/uinteger.h"

#include <sstream>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RedEcnMarker);

TypeId
RedEcnMarker::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RedEcnMarker")
            .SetParent<EcnMarker>()
            .SetGroupName("Dcb")
            .AddConstructor<RedEcnMarker>()
            .AddAttribute("Kmin",
                          "Queue length below which nothing is marked. Default 5 KB (DCQCN "
                          "SIGCOMM'15 recommended setting; spec 3.4).",
                          QueueSizeValue(QueueSize("5KB")),
                          MakeQueueSizeAccessor(&RedEcnMarker::m_kmin), MakeQueueSizeChecker())
            .AddAttribute("Kmax",
                          "Queue length above which every ECT packet is marked. Default 200 KB "
                          "(DCQCN SIGCOMM'15; spec 3.4).",
                          QueueSizeValue(QueueSize("200KB")),
                          MakeQueueSizeAccessor(&RedEcnMarker::m_kmax), MakeQueueSizeChecker())
            .AddAttribute("Pmax",
                          "Marking probability at Kmax. Default 0.01 (DCQCN SIGCOMM'15; spec 3.4).",
                          DoubleValue(0.01), MakeDoubleAccessor(&RedEcnMarker::m_pmax),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("EcnClasses",
                          "Traffic classes in which marking is enabled (bit mask). Default 0x18: "
                          "classes 3 and 4, the lossless RoCE classes of SONiC's default "
                          "WRED/ECN configuration.",
                          UintegerValue(0x18), MakeUintegerAccessor(&RedEcnMarker::m_ecnClasses),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute("Weight",
                          "WRED averaging weight w (SAI_WRED_ATTR_WEIGHT, 0-15): the marking "
                          "decision uses avg <- avg + (q - avg) / 2^w, updated at every "
                          "decision of the class. Default 0 = the instantaneous queue (SAI "
                          "default; DCQCN's CP).",
                          UintegerValue(0), MakeUintegerAccessor(&RedEcnMarker::m_weight),
                          MakeUintegerChecker<uint8_t>(0, 15));
    return tid;
}

RedEcnMarker::RedEcnMarker()
    : m_uniform(CreateObject<UniformRandomVariable>())
{
}

std::string
RedEcnMarker::DoCheckConfig() const
{
    for (const QueueSize* k : {&m_kmin, &m_kmax})
    {
        if (k->GetUnit() != QueueSizeUnit::BYTES)
        {
            std::ostringstream why;
            why << (k == &m_kmin ? "Kmin" : "Kmax") << " (" << *k
                << ") must be in bytes: the marker compares it with the queue's bytes";
            return why.str();
        }
    }
    if (m_kmax.GetValue() < m_kmin.GetValue())
    {
        std::ostringstream why;
        why << "Kmax (" << m_kmax << ") must not be below Kmin (" << m_kmin << ")";
        return why.str();
    }
    return "";
}

void
RedEcnMarker::SetClassThresholds(uint8_t tc, uint64_t kminBytes, uint64_t kmaxBytes, double pmax)
{
    NS_ABORT_MSG_IF(kmaxBytes < kminBytes, "RedEcnMarker: Kmax below Kmin for class " << +tc);
    NS_ABORT_MSG_IF(pmax < 0 || pmax > 1, "RedEcnMarker: Pmax outside [0, 1] for class " << +tc);
    m_class[tc & 7] = Thresholds{kminBytes, kmaxBytes, pmax, true};
}

const RedEcnMarker::Thresholds&
RedEcnMarker::Get(uint8_t tc) const
{
    const Thresholds& t = m_class[tc & 7];
    if (t.overridden)
    {
        return t;
    }
    m_default.kmin = m_kmin.GetValue();
    m_default.kmax = m_kmax.GetValue();
    m_default.pmax = m_pmax;
    return m_default;
}

double
RedEcnMarker::GetProbability(uint8_t tc, uint64_t queueBytes) const
{
    if (!((m_ecnClasses >> (tc & 7)) & 1))
    {
        return 0.0;
    }
    const Thresholds& t = Get(tc);
    if (queueBytes <= t.kmin)
    {
        return 0.0;
    }
    if (queueBytes > t.kmax)
    {
        return 1.0;
    }
    return t.pmax * static_cast<double>(queueBytes - t.kmin) / static_cast<double>(t.kmax - t.kmin);
}

double
RedEcnMarker::GetAverage(uint8_t tc) const
{
    return m_avg[tc & 7];
}

bool
RedEcnMarker::DoShouldMark(uint8_t tc, uint64_t queueBytes)
{
    if (m_weight > 0)
    {
        double& avg = m_avg[tc & 7];
        avg += (static_cast<double>(queueBytes) - avg) / static_cast<double>(1u << m_weight);
        queueBytes = static_cast<uint64_t>(avg);
    }
    const double p = GetProbability(tc, queueBytes);
    if (p <= 0.0)
    {
        return false;
    }
    return p >= 1.0 || m_uniform->GetValue() < p;
}

int64_t
RedEcnMarker::AssignStreams(int64_t stream)
{
    m_uniform->SetStream(stream);
    return 1;
}

} // namespace ns3
