/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MEMORY_COPY_H
#define MEMORY_COPY_H

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/object.h"

#include <deque>

namespace ns3
{

/**
 * \ingroup host
 * CPU memory copies of a copy-based transport (socket-like RDMA libraries, kernel TCP): one
 * copying core that serves copies in order. A copy of a buffer that fits the cache runs at
 * CacheCopyRate; a larger one is fetched from DRAM and runs at MemoryCopyRate (zero-copy
 * dataflow paper, APNet'17 §2: "20-30 GB/s with buffer sizes around 4KB", "2-4 GB/s with
 * buffer sizes larger than 4MB"). A zero-copy transport simply does not use it.
 */
class MemoryCopy : public Object
{
  public:
    static TypeId GetTypeId();
    MemoryCopy();
    ~MemoryCopy() override;

    /** \return how long copying \p bytes takes on an idle core. */
    Time GetCopyTime(uint64_t bytes) const;
    /** Copy \p bytes after the copies already queued; \p done is called when finished. */
    void Copy(uint64_t bytes, Callback<void> done);
    uint64_t GetBytesCopied() const;

  protected:
    void DoDispose() override;

  private:
    struct Job
    {
        uint64_t bytes;
        Callback<void> done;
    };

    void StartNext();
    void Finish();

    DataRate m_cacheRate;
    DataRate m_memoryRate;
    uint64_t m_cacheResident;
    std::deque<Job> m_jobs; //!< front in progress while m_busy
    bool m_busy{false};
    EventId m_event;
    uint64_t m_copied{0};
};

} // namespace ns3

#endif /* MEMORY_COPY_H */
