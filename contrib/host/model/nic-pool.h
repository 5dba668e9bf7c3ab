/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef NIC_POOL_H
#define NIC_POOL_H

#include "host-model.h"

#include "ns3/callback.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <vector>

namespace ns3
{

/**
 * \ingroup host
 * A pool of NICs shared by the hosts of a rack over a CXL fabric (DFabric, section 4.2/4.4),
 * seen by its users as one big NIC.
 *
 * A transfer (bytes to send from, or received into, a set of memories) is cut into chunks
 * of ChunkSize bytes; DFabric schedules the pool per packet by each NIC's working-queue
 * depth, and a chunk stands for a few packets so that the fluid model stays cheap. Every NIC
 * has a send and a receive physical queue (TX_phq, RX_phq) of at most MaxQueuedChunks chunks
 * each, all of them in DMA at once on the pool's HostModel, where they share the NIC, its CXL
 * link and the memories max-min fairly. A slot frees when its chunk's bytes have moved (the
 * latency tail overlaps the next chunk). When a queue has room, the oldest waiting chunk goes
 * to the NIC with room whose queue holds the fewest bytes (ties: the lowest index), so a
 * slower or busier NIC gets fewer chunks. Chunk k of a transfer reads or writes memory
 * k mod M of its M memories (buffers interleaved over a
 * memory pool). Transfers are served first come, first served.
 */
class NicPool : public Object
{
  public:
    /// Called when every chunk of a transfer has completed.
    typedef Callback<void> DoneCallback;
    /// Trace signature: NIC index in the pool, chunk bytes.
    typedef void (*ChunkTracedCallback)(uint32_t, uint64_t);

    static TypeId GetTypeId();
    NicPool();
    ~NicPool() override;

    /// Use the RnicPorts nics (resource ids of host) as the pool's members.
    void Setup(Ptr<HostModel> host, const std::vector<uint32_t>& nics);
    /**
     * Move bytes through the pool: DMA_READ takes them from memories (sending), DMA_WRITE
     * puts them there (receiving). done is called when all chunks have completed.
     */
    void Transfer(const std::vector<uint32_t>& memories, HostModel::DmaKind kind, uint64_t bytes,
                  DoneCallback done);

    uint32_t GetNicCount() const;
    /// \return the bytes queued on NIC index for kind (dispatched, not yet completed).
    uint64_t GetQueueDepth(uint32_t index, HostModel::DmaKind kind) const;
    /// \return the chunks NIC index has completed.
    uint64_t GetChunksServed(uint32_t index) const;
    uint32_t GetPendingTransfers() const;

  protected:
    void DoDispose() override;

  private:
    struct Job
    {
        uint64_t id;
        std::vector<uint32_t> memories;
        HostModel::DmaKind kind;
        uint64_t left;        //!< bytes not yet dispatched
        uint64_t chunks;      //!< chunks dispatched so far
        uint64_t outstanding; //!< chunks dispatched and not completed
        DoneCallback done;
    };

    /// A dispatched chunk, as the HostModel callbacks are bound to it.
    struct Chunk
    {
        uint32_t nic;      //!< index in m_nics
        uint8_t direction; //!< 0: read, 1: write
        uint64_t bytes;

        // A bound callback argument must compare (ns3::Callback::IsEqual).
        bool operator==(const Chunk& o) const
        {
            return nic == o.nic && direction == o.direction && bytes == o.bytes;
        }

        bool operator!=(const Chunk& o) const { return !(*this == o); }
    };

    void Dispatch();
    void OnChunkMoved(uint32_t index, uint8_t direction, uint64_t bytes);
    void OnChunkDone(uint64_t job);
    /// HostModel::TransferCallback and DmaCallback of a chunk (MakeBoundCallback: a Callback
    /// built from a lambda needs ns-3 >= 3.37).
    static void ChunkMoved(NicPool* pool, Chunk chunk);
    static void ChunkDone(NicPool* pool, uint64_t job, Time landed);

    Ptr<HostModel> m_host;
    std::vector<uint32_t> m_nics;
    std::vector<uint64_t> m_depth[2];  //!< per direction (send, receive) and NIC: bytes queued
    std::vector<uint32_t> m_queued[2]; //!< per direction and NIC: chunks queued
    std::vector<uint64_t> m_served;
    std::deque<Job> m_jobs;
    uint64_t m_nextJob;
    uint32_t m_chunkSize;
    uint32_t m_maxQueued;
    TracedCallback<uint32_t, uint64_t> m_chunkDispatched;
};

} // namespace ns3

#endif /* NIC_POOL_H */
