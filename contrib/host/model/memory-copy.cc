/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "memory-copy.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MemoryCopy");
NS_OBJECT_ENSURE_REGISTERED(MemoryCopy);

TypeId
MemoryCopy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MemoryCopy")
            .SetParent<Object>()
            .SetGroupName("Host")
            .AddConstructor<MemoryCopy>()
            .AddAttribute("CacheCopyRate",
                          "Copy rate of a cache-resident buffer. Default 200 Gb/s = 25 GB/s, "
                          "the middle of '20-30 GB/s with buffer sizes around 4KB' (zero-copy "
                          "dataflow, APNet'17 §2).",
                          DataRateValue(DataRate("200Gbps")),
                          MakeDataRateAccessor(&MemoryCopy::m_cacheRate), MakeDataRateChecker())
            .AddAttribute("MemoryCopyRate",
                          "Copy rate of a buffer that does not fit the cache. Default 24 Gb/s "
                          "= 3 GB/s, the middle of '2-4 GB/s with buffer sizes larger than 4MB' "
                          "(APNet'17 §2).",
                          DataRateValue(DataRate("24Gbps")),
                          MakeDataRateAccessor(&MemoryCopy::m_memoryRate), MakeDataRateChecker())
            .AddAttribute("CacheResidentSize",
                          "Largest buffer copied at CacheCopyRate, bytes. Default 4 MiB: the "
                          "paper's slow regime starts above 4 MB (the step between its two "
                          "measured regimes is an assumption).",
                          UintegerValue(4 << 20),
                          MakeUintegerAccessor(&MemoryCopy::m_cacheResident),
                          MakeUintegerChecker<uint64_t>());
    return tid;
}

MemoryCopy::MemoryCopy() = default;

MemoryCopy::~MemoryCopy() = default;

void
MemoryCopy::DoDispose()
{
    m_event.Cancel();
    m_jobs.clear();
    Object::DoDispose();
}

Time
MemoryCopy::GetCopyTime(uint64_t bytes) const
{
    const DataRate& rate = bytes <= m_cacheResident ? m_cacheRate : m_memoryRate;
    // What ns-3.37's DataRate::CalculateBytesTxTime computes, in 64-bit bytes; before 3.37
    // it takes Seconds(bits), which overflows at picosecond resolution from ~1.15 MB on.
    return Seconds(int64x64_t(bytes * 8) / int64x64_t(rate.GetBitRate()));
}

void
MemoryCopy::Copy(uint64_t bytes, Callback<void> done)
{
    m_jobs.push_back({bytes, done});
    if (!m_busy)
    {
        StartNext();
    }
}

uint64_t
MemoryCopy::GetBytesCopied() const
{
    return m_copied;
}

void
MemoryCopy::StartNext()
{
    m_busy = !m_jobs.empty();
    if (m_busy)
    {
        m_event = Simulator::Schedule(GetCopyTime(m_jobs.front().bytes), &MemoryCopy::Finish, this);
    }
}

void
MemoryCopy::Finish()
{
    Job job = m_jobs.front();
    m_jobs.pop_front();
    m_copied += job.bytes;
    StartNext();
    if (!job.done.IsNull())
    {
        job.done();
    }
}

} // namespace ns3
