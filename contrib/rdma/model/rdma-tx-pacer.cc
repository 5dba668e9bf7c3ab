#include "rdma-tx-pacer.h"

#include "ns3/dcb-net-device.h"
#include "ns3/simulator.h"

namespace ns3
{

void
RdmaTxPacer::OnPacketSent(uint32_t wireBytes, const RdmaCcState& cc)
{
    // The next packet may start once this one would have left at the rate.
    const Time now = Simulator::Now();
    if (cc.m_pacingBurstBytes == 0)
    {
        m_nextTxTime = now + DcbNetDevice::SerializationTime(wireBytes, cc.m_rate);
        return;
    }
    if (m_burstWireBytes == 0)
    {
        m_burstStart = now;
    }
    m_burstWireBytes += wireBytes;
    m_nextTxTime = now;
    if (m_burstWireBytes >= cc.m_pacingBurstBytes)
    {
        m_nextTxTime = m_burstStart + DcbNetDevice::SerializationTime(m_burstWireBytes, cc.m_rate);
        m_burstWireBytes = 0;
    }
}

Time
RdmaTxPacer::GetNextTxTime() const
{
    return m_nextTxTime;
}

bool
RdmaTxPacer::IsMidBurst() const
{
    return m_burstWireBytes != 0;
}

} // namespace ns3
