#include "reps-path-entropy.h"

#include "ns3/abort.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RepsPathEntropy);

TypeId
RepsPathEntropy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RepsPathEntropy")
            .SetParent<RdmaPathEntropy>()
            .SetGroupName("Rdma")
            .AddConstructor<RepsPathEntropy>()
            .AddAttribute("BufferSize",
                          "Entropy values each connection keeps for reuse (entries of its "
                          "circular buffer). Default 8: REPS's choice (arXiv 2407.21625, "
                          "section 3.1, from experience and its Theorem 1 bound; Table 1: "
                          "about 25 bytes per connection).",
                          UintegerValue(8), MakeUintegerAccessor(&RepsPathEntropy::m_bufferSize),
                          MakeUintegerChecker<uint32_t>(1, 255));
    return tid;
}

RepsPathEntropy::RepsPathEntropy() = default;
RepsPathEntropy::~RepsPathEntropy() = default;

uint64_t
RepsPathEntropy::GetRecycled() const
{
    return m_recycled;
}

uint32_t
RepsPathEntropy::GetNValid(uint32_t connection) const
{
    return connection < m_nValid.size() ? m_nValid[connection] : 0;
}

void
RepsPathEntropy::DoAddConnections(uint32_t n)
{
    // BufferSize is read here, at the first connection: later changes would misplace entries.
    NS_ABORT_MSG_IF(!m_head.empty() && m_values.size() != m_head.size() * m_bufferSize,
                    "RepsPathEntropy: BufferSize changed after the first connection");
    m_values.resize(static_cast<size_t>(n) * m_bufferSize, 0);
    m_valid.resize(static_cast<size_t>(n) * m_bufferSize, 0);
    m_head.resize(n, 0);
    m_nValid.resize(n, 0);
}

uint16_t
RepsPathEntropy::DoSelect(uint32_t c)
{
    if (m_nValid[c] == 0)
    {
        return Explore(); // Algorithm 2: no valid value (and no freezing mode): explore
    }
    // The oldest valid entry: from the head (the next to be overwritten) onwards.
    const size_t base = static_cast<size_t>(c) * m_bufferSize;
    for (uint32_t i = 0, e = m_head[c]; i < m_bufferSize;
         ++i, e = e + 1 == m_bufferSize ? 0 : e + 1)
    {
        if (m_valid[base + e])
        {
            m_valid[base + e] = 0;
            --m_nValid[c];
            ++m_recycled;
            return m_values[base + e];
        }
    }
    NS_ASSERT_MSG(false, "RepsPathEntropy: valid count without a valid entry");
    return Explore();
}

void
RepsPathEntropy::DoNotifyAck(uint32_t c, uint16_t entropy, bool ecnMarked)
{
    if (ecnMarked)
    {
        return; // Algorithm 1: a marked path is not cached
    }
    const size_t at = static_cast<size_t>(c) * m_bufferSize + m_head[c];
    if (!m_valid[at])
    {
        ++m_nValid[c];
    }
    m_values[at] = entropy;
    m_valid[at] = 1;
    m_head[c] = static_cast<uint8_t>(m_head[c] + 1u == m_bufferSize ? 0 : m_head[c] + 1);
}

} // namespace ns3
