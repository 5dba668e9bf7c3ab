/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "nic-pool.h"

#include "rnic-port.h"

#include "ns3/abort.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(NicPool);

TypeId
NicPool::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::NicPool")
            .SetParent<Object>()
            .SetGroupName("Host")
            .AddConstructor<NicPool>()
            .AddAttribute("ChunkSize",
                          "Bytes per scheduling decision. DFabric schedules the pool per packet "
                          "(section 4.2); default 16384 B, four 4 KiB-MTU packets, keeps the "
                          "tail of a transfer within ~2% of per-packet scheduling for MB-sized "
                          "transfers at a quarter of the events (assumption).",
                          UintegerValue(16384), MakeUintegerAccessor(&NicPool::m_chunkSize),
                          MakeUintegerChecker<uint32_t>(64, 1u << 30))
            .AddAttribute("MaxQueuedChunks",
                          "Chunks a NIC's physical working queue (per direction) holds in DMA "
                          "at once; a slot frees when its chunk's bytes have moved, the latency "
                          "tail overlapping the next chunk. Default 2 (assumption; DFabric gives "
                          "no depth).",
                          UintegerValue(2), MakeUintegerAccessor(&NicPool::m_maxQueued),
                          MakeUintegerChecker<uint32_t>(1, 1024))
            .AddTraceSource("ChunkDispatched",
                            "A chunk went to a NIC: NIC index in the pool, bytes.",
                            MakeTraceSourceAccessor(&NicPool::m_chunkDispatched),
                            "ns3::NicPool::ChunkTracedCallback");
    return tid;
}

NicPool::NicPool()
    : m_nextJob(1)
    , m_chunkSize(16384)
    , m_maxQueued(2)
{
}

NicPool::~NicPool() = default;

void
NicPool::DoDispose()
{
    m_jobs.clear();
    m_host = nullptr;
    Object::DoDispose();
}

void
NicPool::Setup(Ptr<HostModel> host, const std::vector<uint32_t>& nics)
{
    NS_ABORT_MSG_IF(!host || nics.empty(), "NicPool: needs a HostModel and at least one NIC");
    for (uint32_t id : nics)
    {
        NS_ABORT_MSG_UNLESS(id < host->GetResourceCount() &&
                                DynamicCast<RnicPort>(host->GetResource(id)),
                            "NicPool: member " << id << " is not an RnicPort");
    }
    m_host = host;
    m_nics = nics;
    for (uint8_t d = 0; d < 2; ++d)
    {
        m_depth[d].assign(nics.size(), 0);
        m_queued[d].assign(nics.size(), 0);
    }
    m_served.assign(nics.size(), 0);
}

void
NicPool::Transfer(const std::vector<uint32_t>& memories, HostModel::DmaKind kind, uint64_t bytes,
                  DoneCallback done)
{
    NS_ABORT_MSG_IF(!m_host, "NicPool: Setup first");
    NS_ABORT_MSG_IF(memories.empty(), "NicPool: a transfer needs at least one memory");
    NS_ABORT_MSG_IF(kind == HostModel::DMA_LOOPBACK, "NicPool: transfers read or write");
    if (bytes == 0)
    {
        if (!done.IsNull())
        {
            done();
        }
        return;
    }
    m_jobs.push_back(Job{m_nextJob++, memories, kind, bytes, 0, 0, done});
    Dispatch();
}

void
NicPool::Dispatch()
{
    for (auto& job : m_jobs)
    {
        const uint8_t d = job.kind == HostModel::DMA_READ ? 0 : 1;
        std::vector<uint64_t>& depth = m_depth[d];
        std::vector<uint32_t>& queued = m_queued[d];
        while (job.left > 0)
        {
            uint32_t best = UINT32_MAX;
            for (uint32_t i = 0; i < m_nics.size(); ++i)
            {
                if (queued[i] < m_maxQueued && (best == UINT32_MAX || depth[i] < depth[best]))
                {
                    best = i;
                }
            }
            if (best == UINT32_MAX)
            {
                break; // this direction's queues are full
            }
            uint64_t bytes = std::min<uint64_t>(m_chunkSize, job.left);
            uint32_t memory = job.memories[job.chunks % job.memories.size()];
            job.left -= bytes;
            ++job.chunks;
            ++job.outstanding;
            depth[best] += bytes;
            ++queued[best];
            m_chunkDispatched(best, bytes);
            uint64_t id = job.id;
            m_host->RequestDma(
                m_nics[best], memory, job.kind, bytes,
                MakeBoundCallback(&NicPool::ChunkDone, this, id),
                MakeBoundCallback(&NicPool::ChunkMoved, this, Chunk{best, d, bytes}));
        }
    }
}

void
NicPool::ChunkMoved(NicPool* pool, Chunk chunk)
{
    pool->OnChunkMoved(chunk.nic, chunk.direction, chunk.bytes);
}

void
NicPool::ChunkDone(NicPool* pool, uint64_t job, Time /* landed */)
{
    pool->OnChunkDone(job);
}

void
NicPool::OnChunkMoved(uint32_t index, uint8_t direction, uint64_t bytes)
{
    // The NIC's DMA engine has moved the chunk: its queue slot is free while the last
    // requests' round trip (the latency tail) overlaps the next chunk.
    m_depth[direction][index] -= bytes;
    --m_queued[direction][index];
    ++m_served[index];
    Simulator::ScheduleNow(&NicPool::Dispatch, this);
}

void
NicPool::OnChunkDone(uint64_t job)
{
    auto it =
        std::find_if(m_jobs.begin(), m_jobs.end(), [job](const Job& j) { return j.id == job; });
    NS_ASSERT(it != m_jobs.end());
    if (--it->outstanding > 0 || it->left > 0)
    {
        return;
    }
    DoneCallback done = it->done;
    m_jobs.erase(it);
    if (!done.IsNull())
    {
        done();
    }
}

uint32_t
NicPool::GetNicCount() const
{
    return m_nics.size();
}

uint64_t
NicPool::GetQueueDepth(uint32_t index, HostModel::DmaKind kind) const
{
    return m_depth[kind == HostModel::DMA_READ ? 0 : 1].at(index);
}

uint64_t
NicPool::GetChunksServed(uint32_t index) const
{
    return m_served.at(index);
}

uint32_t
NicPool::GetPendingTransfers() const
{
    return m_jobs.size();
}

} // namespace ns3
