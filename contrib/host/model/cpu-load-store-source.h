/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CPU_LOAD_STORE_SOURCE_H
#define CPU_LOAD_STORE_SOURCE_H

#include "host-model.h"

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <deque>

namespace ns3
{

/**
 * \ingroup host
 * The load/store traffic of one CPU socket (a CpuSocket vertex of a HostModel): requests to
 * load or store a buffer of bytes in a target memory, run in order, one at a time, as the
 * core's loop over the buffer does. A request is a stream of cache-line accesses with the
 * socket's budget of MaxOutstanding lines in flight, so over an otherwise idle path of round
 * trip L it takes bytes / (MaxOutstanding x CacheLineSize) round trips (Little's law), and
 * shares bandwidth with the graph's other streams (NIC DMAs) like any of them. Serving one
 * request at a time keeps the budget the socket's, not each request's.
 */
class CpuLoadStoreSource : public Object
{
  public:
    /// What a request does with the target's bytes.
    enum Access
    {
        LOAD, //!< cache-line loads from the target
        STORE //!< synchronous cache-line stores to the target
    };

    /// Trace signature: access, target, bytes, time from the request's start to its end.
    typedef void (*AccessTracedCallback)(Access, uint32_t, uint64_t, Time);

    static TypeId GetTypeId();
    CpuLoadStoreSource();

    /// Issue from the CpuSocket cpu of host.
    void Setup(Ptr<HostModel> host, uint32_t cpu);
    /// Load bytes from target (a device of the host); done is called once they are loaded.
    void Load(uint32_t target, uint64_t bytes, Callback<void> done);
    /// Store bytes to target; done is called once every store has completed.
    void Store(uint32_t target, uint64_t bytes, Callback<void> done);
    /// \return the requests not yet completed (the running one included).
    uint32_t GetPending() const;
    /// \return the CpuSocket's resource index.
    uint32_t GetCpu() const;

  protected:
    void DoDispose() override;

  private:
    struct Request
    {
        Access access;
        uint32_t target;
        uint64_t bytes;
        Callback<void> done;
    };

    void Enqueue(Access access, uint32_t target, uint64_t bytes, Callback<void> done);
    void StartNext();
    void OnComplete(Time latency);

    Ptr<HostModel> m_host;
    uint32_t m_cpu;
    std::deque<Request> m_queue; //!< front: the running request
    Time m_started;
    TracedCallback<Access, uint32_t, uint64_t, Time> m_complete;
};

} // namespace ns3

#endif /* CPU_LOAD_STORE_SOURCE_H */
