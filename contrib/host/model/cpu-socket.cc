/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cpu-socket.h"

#include "ns3/uinteger.h"

#include <limits>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(CpuSocket);

TypeId
CpuSocket::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CpuSocket")
            .SetParent<HostResource>()
            .SetGroupName("Host")
            .AddConstructor<CpuSocket>()
            .AddAttribute(
                "MaxOutstanding",
                "Cache-line loads/stores a core keeps in flight (line fill buffers, "
                "MSHRs). Default 64: DFabric C2, \"a maximum of 64 instructions\" "
                "for CXL.mem load/store (after ISSCC'22, Sapphire Rapids).",
                UintegerValue(64),
                MakeUintegerAccessor(&CpuSocket::SetMaxOutstanding, &CpuSocket::GetMaxOutstanding),
                MakeUintegerChecker<uint32_t>(1, 4096))
            .AddAttribute(
                "CacheLineSize",
                "Bytes one load or store moves, in bytes. Default 64 B: the x86 cache "
                "line and the CXL.mem data granule (DFabric C2: \"cacheline-based "
                "instructions\").",
                UintegerValue(64),
                MakeUintegerAccessor(&CpuSocket::SetCacheLineSize, &CpuSocket::GetCacheLineSize),
                MakeUintegerChecker<uint32_t>(32, 256))
            .AddAttribute("Latency",
                          "Round-trip time the core and on-die mesh add to a load before it "
                          "reaches a memory controller or CXL port. Default 0 ns: the "
                          "memories' own latencies already hold it (MemoryChannel 90 ns is a "
                          "whole idle DRAM load, DFabric Table 1: DDR5 < 80 ns).",
                          TimeValue(NanoSeconds(0)),
                          MakeTimeAccessor(&HostResource::SetLatency, &HostResource::GetLatency),
                          MakeTimeChecker(NanoSeconds(0)));
    return tid;
}

CpuSocket::CpuSocket()
    : m_maxOutstanding(64)
    , m_cacheLineSize(64)
{
}

uint64_t
CpuSocket::GetBudget() const
{
    return static_cast<uint64_t>(m_maxOutstanding) * m_cacheLineSize;
}

DataRate
CpuSocket::GetBudgetRate(Time pathLatency) const
{
    if (pathLatency.IsZero())
    {
        return DataRate(std::numeric_limits<uint64_t>::max());
    }
    return DataRate(static_cast<uint64_t>(GetBudget() * 8.0 / pathLatency.GetSeconds()));
}

bool
CpuSocket::SetMaxOutstanding(uint32_t n)
{
    if (n == 0)
    {
        return false;
    }
    m_maxOutstanding = n;
    NotifyChanged();
    return true;
}

uint32_t
CpuSocket::GetMaxOutstanding() const
{
    return m_maxOutstanding;
}

bool
CpuSocket::SetCacheLineSize(uint32_t bytes)
{
    if (bytes < 32 || bytes > 256 || (bytes & (bytes - 1)) != 0)
    {
        return false;
    }
    m_cacheLineSize = bytes;
    NotifyChanged();
    return true;
}

uint32_t
CpuSocket::GetCacheLineSize() const
{
    return m_cacheLineSize;
}

DataRate
CpuSocket::DoGetCapacity() const
{
    // Not a bandwidth limit (the budget caps its streams); a finite value keeps the
    // progressive filling's arithmetic finite.
    return DataRate(std::numeric_limits<uint64_t>::max() / 4);
}

HostResource::Sharing
CpuSocket::DoGetSharing() const
{
    return DUPLEX;
}

} // namespace ns3
