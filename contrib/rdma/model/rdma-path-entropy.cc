#include "rdma-path-entropy.h"

#include "ns3/abort.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaPathEntropy);

TypeId
RdmaPathEntropy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaPathEntropy")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddAttribute("FirstValue",
                          "The lowest entropy value (UDP source port) drawn. Default 49152 "
                          "(0xC000): RoCEv2 drivers take QP source ports from the dynamic "
                          "port range 49152-65535 (RFC 6335), where RdmaHelper puts the "
                          "fixed per-QP port too.",
                          UintegerValue(0xC000),
                          MakeUintegerAccessor(&RdmaPathEntropy::m_firstValue),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("Values",
                          "How many entropy values, from FirstValue up, are drawn (the "
                          "entropy value set, EVS). Default 16384: the whole dynamic range; "
                          "REPS (Bonato et al., arXiv 2407.21625, section 4.7 'EVS size') "
                          "finds 2^8 values or more spread about as evenly as 2^16 for its "
                          "recycling, oblivious spraying needs more.",
                          UintegerValue(16384), MakeUintegerAccessor(&RdmaPathEntropy::m_nValues),
                          MakeUintegerChecker<uint32_t>(1, 65535));
    return tid;
}

RdmaPathEntropy::RdmaPathEntropy()
    : m_rng(CreateObject<UniformRandomVariable>())
{
}

RdmaPathEntropy::~RdmaPathEntropy() = default;

void
RdmaPathEntropy::AddConnection(uint32_t connection)
{
    if (connection >= m_nConnections)
    {
        m_nConnections = connection + 1;
        DoAddConnections(m_nConnections);
    }
}

uint32_t
RdmaPathEntropy::GetNConnections() const
{
    return m_nConnections;
}

uint16_t
RdmaPathEntropy::Select(uint32_t connection)
{
    NS_ASSERT_MSG(connection < m_nConnections, "RdmaPathEntropy: connection not added");
    return DoSelect(connection);
}

void
RdmaPathEntropy::NotifyAck(uint32_t connection, uint16_t entropy, bool ecnMarked)
{
    NS_ASSERT_MSG(connection < m_nConnections, "RdmaPathEntropy: connection not added");
    DoNotifyAck(connection, entropy, ecnMarked);
}

int64_t
RdmaPathEntropy::AssignStreams(int64_t stream)
{
    m_rng->SetStream(stream);
    return 1;
}

uint64_t
RdmaPathEntropy::GetExplored() const
{
    return m_explored;
}

uint16_t
RdmaPathEntropy::Explore()
{
    ++m_explored;
    const uint32_t last = std::min<uint32_t>(0xFFFF, m_firstValue + m_nValues - 1);
    return static_cast<uint16_t>(m_rng->GetInteger(m_firstValue, last));
}

void
RdmaPathEntropy::DoAddConnections(uint32_t /* n */)
{
}

void
RdmaPathEntropy::DoNotifyAck(uint32_t /* connection */, uint16_t /* entropy */,
                             bool /* ecnMarked */)
{
}

} // namespace ns3
