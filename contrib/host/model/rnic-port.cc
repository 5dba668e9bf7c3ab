/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rnic-port.h"

#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RnicPort);

TypeId
RnicPort::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RnicPort")
            .SetParent<HostResource>()
            .SetGroupName("Host")
            .AddConstructor<RnicPort>()
            .AddAttribute("LineRate",
                          "Network line rate, the most the RNIC DMAs per direction. Default "
                          "200 Gb/s: Mellanox CX6-DX of Hostping's training servers (§3.2.1).",
                          DataRateValue(DataRate("200Gbps")),
                          MakeDataRateAccessor(&RnicPort::SetLineRate, &RnicPort::GetLineRate),
                          MakeDataRateChecker())
            .AddAttribute("MaxOutstandingReads",
                          "Outstanding PCIe read requests (tags) the RNIC keeps in flight. "
                          "Default 68: fitted so that 68 x 512 B explains Hostping Fig. 4 "
                          "(125.5 Gb/s at 2.2 us, 116.4 Gb/s at 2.4 us); ConnectX's real "
                          "value is not public. PCIe allows up to 256 (8-bit tags) or 768 "
                          "(10-bit tags).",
                          UintegerValue(68),
                          MakeUintegerAccessor(&RnicPort::SetMaxOutstandingReads,
                                               &RnicPort::GetMaxOutstandingReads),
                          MakeUintegerChecker<uint32_t>(1, 768))
            .AddAttribute("MaxReadRequestSize",
                          "PCIe max read request size (MRRS) in bytes. Default 512 B, the "
                          "usual BIOS/Linux setting (pcie_set_readrq; fwts maxreadreq).",
                          UintegerValue(512),
                          MakeUintegerAccessor(&RnicPort::SetMaxReadRequestSize,
                                               &RnicPort::GetMaxReadRequestSize),
                          MakeUintegerChecker<uint32_t>(128, 4096))
            .AddAttribute("Latency",
                          "Round-trip time the RNIC's own DMA engine and PCIe core add to a "
                          "read. Default 500 ns, calibrated with the other hops to Hostping "
                          "Fig. 4 (1.0 us to the GPU under the same switch).",
                          TimeValue(NanoSeconds(500)),
                          MakeTimeAccessor(&HostResource::SetLatency, &HostResource::GetLatency),
                          MakeTimeChecker());
    return tid;
}

RnicPort::RnicPort()
    : m_lineRate(DataRate("200Gbps"))
    , m_maxOutstandingReads(68)
    , m_maxReadRequestSize(512)
{
}

DataRate
RnicPort::GetLineRate() const
{
    return m_lineRate;
}

uint64_t
RnicPort::GetReadBudget() const
{
    return static_cast<uint64_t>(m_maxOutstandingReads) * m_maxReadRequestSize;
}

DataRate
RnicPort::GetBudgetRate(Time pathLatency) const
{
    if (pathLatency.IsZero())
    {
        return DataRate(UINT64_MAX);
    }
    return DataRate(static_cast<uint64_t>(GetReadBudget() * 8.0 / pathLatency.GetSeconds()));
}

void
RnicPort::SetLineRate(DataRate rate)
{
    m_lineRate = rate;
    NotifyChanged();
}

bool
RnicPort::SetMaxOutstandingReads(uint32_t n)
{
    if (n == 0)
    {
        return false;
    }
    m_maxOutstandingReads = n;
    NotifyChanged();
    return true;
}

uint32_t
RnicPort::GetMaxOutstandingReads() const
{
    return m_maxOutstandingReads;
}

bool
RnicPort::SetMaxReadRequestSize(uint32_t bytes)
{
    if (bytes < 128 || bytes > 4096 || (bytes & (bytes - 1)) != 0)
    {
        return false;
    }
    m_maxReadRequestSize = bytes;
    NotifyChanged();
    return true;
}

uint32_t
RnicPort::GetMaxReadRequestSize() const
{
    return m_maxReadRequestSize;
}

DataRate
RnicPort::DoGetCapacity() const
{
    return m_lineRate;
}

HostResource::Sharing
RnicPort::DoGetSharing() const
{
    return DUPLEX;
}

} // namespace ns3
