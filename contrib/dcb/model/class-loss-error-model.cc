#include "class-loss-error-model.h"

#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/packet.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(ClassLossErrorModel);

TypeId
ClassLossErrorModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ClassLossErrorModel")
            .SetParent<ErrorModel>()
            .SetGroupName("Dcb")
            .AddConstructor<ClassLossErrorModel>()
            .AddAttribute("ClassMask",
                          "Traffic classes subject to loss, bit c for class (PCP) c; frames of "
                          "other classes always pass. Default: all eight.",
                          UintegerValue(0xff),
                          MakeUintegerAccessor(&ClassLossErrorModel::m_classMask),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute(
                "Model", "Bernoulli (independent losses) or GilbertElliott (two-state burst loss).",
                EnumValue(BERNOULLI), MakeEnumAccessor(&ClassLossErrorModel::m_model),
                MakeEnumChecker(BERNOULLI, "Bernoulli", GILBERT_ELLIOTT, "GilbertElliott"))
            .AddAttribute("Rate",
                          "Bernoulli: loss probability per frame of the selected classes. "
                          "Default 0 (no loss).",
                          DoubleValue(0), MakeDoubleAccessor(&ClassLossErrorModel::m_rate),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("P",
                          "Gilbert-Elliott: probability of moving from the good to the bad state "
                          "per frame. Default 0 (never).",
                          DoubleValue(0), MakeDoubleAccessor(&ClassLossErrorModel::m_p),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("R",
                          "Gilbert-Elliott: probability of moving from the bad to the good state "
                          "per frame (mean burst 1/R frames). Default 1.",
                          DoubleValue(1), MakeDoubleAccessor(&ClassLossErrorModel::m_r),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("LossGood",
                          "Gilbert-Elliott: loss probability in the good state. Default 0 "
                          "(Gilbert's original model).",
                          DoubleValue(0), MakeDoubleAccessor(&ClassLossErrorModel::m_lossGood),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("LossBad",
                          "Gilbert-Elliott: loss probability in the bad state. Default 1 "
                          "(Gilbert's original model).",
                          DoubleValue(1), MakeDoubleAccessor(&ClassLossErrorModel::m_lossBad),
                          MakeDoubleChecker<double>(0, 1));
    return tid;
}

ClassLossErrorModel::ClassLossErrorModel()
    : m_uniform(CreateObject<UniformRandomVariable>())
{
}

int64_t
ClassLossErrorModel::AssignStreams(int64_t stream)
{
    m_uniform->SetStream(stream);
    return 1;
}

uint64_t
ClassLossErrorModel::GetFramesSeen() const
{
    return m_seen;
}

uint64_t
ClassLossErrorModel::GetFramesLost() const
{
    return m_lost;
}

bool
ClassLossErrorModel::IsInBadState() const
{
    return m_bad;
}

uint8_t
ClassLossErrorModel::GetFrameClass(Ptr<const Packet> frame)
{
    // Destination and source MAC (12 bytes), TPID 0x8100, then the TCI: PCP in its
    // top three bits (IEEE 802.1Q 9.6).
    uint8_t b[16];
    if (frame->GetSize() < sizeof(b) || frame->CopyData(b, sizeof(b)) != sizeof(b))
    {
        return 0;
    }
    return (b[12] == 0x81 && b[13] == 0x00) ? static_cast<uint8_t>(b[14] >> 5) : 0;
}

bool
ClassLossErrorModel::DoCorrupt(Ptr<Packet> p)
{
    if (!(m_classMask & (1u << GetFrameClass(p))))
    {
        return false;
    }
    ++m_seen;
    double loss = m_rate;
    if (m_model == GILBERT_ELLIOTT)
    {
        m_bad = m_bad ? m_uniform->GetValue() >= m_r : m_uniform->GetValue() < m_p;
        loss = m_bad ? m_lossBad : m_lossGood;
    }
    // No draw when the outcome is certain: a loss-free class costs no random numbers.
    const bool lost = loss >= 1 || (loss > 0 && m_uniform->GetValue() < loss);
    m_lost += lost ? 1 : 0;
    return lost;
}

void
ClassLossErrorModel::DoReset()
{
    m_bad = false;
}

} // namespace ns3
