#include "rdma-tx-pacer.h"

#include "ns3/dcb-net-device.h"
#include "ns3/simulator.h"

namespace ns3
{

void
RdmaTxPacer::OnPacketSent(const RdmaWireSize& wire, const RdmaCcState& cc)
{
    // The next packet may start once this one would have left at the rate.
    const Time now = Simulator::Now();
    if (cc.m_pacingBurstBytes == 0)
    {
        m_nextTxTime = now + wire.At(cc.m_rate);
        return;
    }
    if (m_burstWire.bytes == 0)
    {
        m_burstStart = now;
        m_burstWire.wholeNs = wire.wholeNs;
    }
    m_burstWire.bytes += wire.bytes;
    m_nextTxTime = now;
    if (m_burstWire.bytes >= cc.m_pacingBurstBytes)
    {
        m_nextTxTime = m_burstStart + m_burstWire.At(cc.m_rate);
        m_burstWire.bytes = 0;
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
    return m_burstWire.bytes != 0;
}

} // namespace ns3
