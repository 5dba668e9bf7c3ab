/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef HOST_MODEL_H
#define HOST_MODEL_H

#include "host-resource.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

class CpuSocket;
class RnicPort;

/**
 * \ingroup host
 * The intra-host graph of one node and the DMA streams running over it.
 *
 * Devices (RnicPort, PcieSwitch, RootPort, RootComplex, MemoryChannel, GpuDevice) are the
 * vertices; links (PcieLink, SocketLink, or an ideal connection) are the edges. A DMA is
 * initiated by an RnicPort towards a target device and takes the (unique, fewest-hop) path
 * between them. A CpuSocket initiates too: its DMA_READ is a stream of cache-line loads, its
 * DMA_WRITE a stream of synchronous stores, both capped by its load/store budget / L; such a
 * stream completes when its fluid transfer ends, plus L unless the budget binds (n lines take
 * n / MaxOutstanding round trips; bandwidth-bound, the last line pays its round trip). Its
 * round-trip latency L is the sum of the latencies of every resource on the path. Concurrent DMAs
 * share capacity max-min fairly (fluid progressive filling), each capped by the initiator's line
 * rate and, for reads, by its outstanding-read budget / L. A DMA of S bytes that gets rate r
 * completes S*8/r plus L (read, loopback) or L/2 (write) after it starts; rates are re-shared
 * whenever a DMA starts or ends or a resource changes (a link degraded or failed). Resource indices
 * are stable; name look-ups are for configuration time, the index-based calls for per-packet use.
 */
class HostModel : public Object
{
  public:
    /// What a DMA moves, seen from the initiating RNIC.
    enum DmaKind
    {
        DMA_READ,    //!< target -> RNIC (send payload, WQE fetch); limited by the read budget
        DMA_WRITE,   //!< RNIC -> target (receive payload, completion); posted
        DMA_LOOPBACK //!< read from the target and write back to it (Hostping probe, VM-to-VM)
    };

    /// Called when a DMA completes, with its total latency (request to completion).
    typedef Callback<void, Time> DmaCallback;
    /// Called when the last byte of a DMA has crossed its bottleneck (before the latency tail):
    /// for a posted write, the moment the initiator's buffer space is free again.
    typedef Callback<void> TransferCallback;
    /// Trace signature: initiator, target, bytes, latency.
    typedef void (*DmaTracedCallback)(uint32_t, uint32_t, uint64_t, Time);

    static constexpr uint32_t NONE = UINT32_MAX;

    static TypeId GetTypeId();
    HostModel();
    ~HostModel() override;

    /// Add a device (vertex). \return its resource index.
    uint32_t AddDevice(const std::string& name, Ptr<HostResource> device);
    /// Join two devices by a link resource (edge). \return the link's resource index.
    uint32_t AddLink(const std::string& name, Ptr<HostResource> link, const std::string& a,
                     const std::string& b);
    /// Join two devices by an ideal connection (no capacity limit, no latency).
    void Connect(const std::string& a, const std::string& b);

    uint32_t GetResourceCount() const;
    /// \return the index of the named resource, or NONE.
    uint32_t GetResourceId(const std::string& name) const;
    Ptr<HostResource> GetResource(uint32_t id) const;
    Ptr<HostResource> GetResource(const std::string& name) const;
    const std::string& GetResourceName(uint32_t id) const;
    bool IsLink(uint32_t id) const;
    /// \return indices of the devices whose type is tid or derives from it, in insertion order.
    std::vector<uint32_t> GetDevices(TypeId tid) const;

    /// \return the resources from a to b, both included, in order; empty when unreachable.
    const std::vector<uint32_t>& GetPath(uint32_t a, uint32_t b);
    /// \return the round-trip latency of a read from a to b (sum over the path).
    Time GetPathLatency(uint32_t a, uint32_t b);
    /// \return the smallest capacity on the path, ignoring other traffic.
    DataRate GetPathCapacity(uint32_t a, uint32_t b);
    /// \return the rate a DMA of this kind from rnic to target gets on an otherwise idle host:
    /// min(path capacity, line rate, and for reads the read budget / path latency).
    DataRate GetDmaRateLimit(uint32_t rnic, uint32_t target, DmaKind kind);

    /**
     * Start a DMA of bytes from the RNIC rnic to/from target.
     * \return an id for GetDmaRate/CancelDma. done is called at completion.
     */
    uint64_t RequestDma(uint32_t rnic, uint32_t target, DmaKind kind, uint64_t bytes,
                        DmaCallback done);
    /// As above; transferred is called (synchronously) when the bytes have been moved, which is
    /// the completion time minus the latency tail (L for reads, L/2 for writes).
    uint64_t RequestDma(uint32_t rnic, uint32_t target, DmaKind kind, uint64_t bytes,
                        DmaCallback done, TransferCallback transferred);
    uint64_t RequestDma(const std::string& rnic, const std::string& target, DmaKind kind,
                        uint64_t bytes, DmaCallback done);
    /// Abandon a running DMA; its callback is never called. \return false if unknown.
    bool CancelDma(uint64_t id);
    /// Cap a running DMA at \p rate (a background flow's own limit). \return false if unknown.
    bool SetDmaRateCap(uint64_t id, DataRate rate);
    /// \return the current rate of a running DMA (zero if unknown or stalled).
    DataRate GetDmaRate(uint64_t id) const;
    uint32_t GetActiveDmaCount() const;
    /// \return the running DMAs that device \p device initiates or targets.
    uint32_t GetActiveDmaCount(uint32_t device) const;

  protected:
    void DoDispose() override;

  private:
    struct Hop
    {
        uint32_t resource;
        uint8_t direction; //!< physical direction of the edge traversed from initiator to target
    };

    struct Stream
    {
        uint64_t id;
        uint32_t initiator;
        uint32_t target;
        DmaKind kind;
        uint64_t bytes;
        double remaining; //!< bytes
        double rate;      //!< bit/s
        double cap;       //!< the stream's own limit, bit/s (infinity: none)
        Time start;
        DmaCallback done;
        TransferCallback transferred;
        std::vector<std::pair<uint32_t, uint32_t>> constraints; //!< (constraint, weight)
    };

    struct Adjacency
    {
        uint32_t neighbour;
        uint32_t link; //!< NONE for an ideal connection
        uint8_t direction;
    };

    uint32_t AddResource(const std::string& name, Ptr<HostResource> r, bool isLink);
    const std::vector<Hop>& GetHops(uint32_t a, uint32_t b);
    bool IsInitiator(uint32_t id) const;
    double GetStreamCap(const Stream& s);
    void BuildConstraints(Stream& s);
    void OnResourceChanged();
    void Advance();
    void Allocate();
    void ScheduleNext();
    void OnCompletionEvent();
    void Complete(Stream s);

    std::vector<Ptr<HostResource>> m_resources;
    std::vector<bool> m_isLink;
    std::vector<Ptr<RnicPort>> m_rnic; //!< per resource, null unless an RnicPort
    std::vector<Ptr<CpuSocket>> m_cpu; //!< per resource, null unless a CpuSocket
    std::unordered_map<std::string, uint32_t> m_byName;
    std::vector<std::vector<Adjacency>> m_adjacency;
    std::vector<std::vector<Hop>> m_hopCache;       //!< per (a, b), filled on first use
    std::vector<std::vector<uint32_t>> m_pathCache; //!< per (a, b)
    std::vector<bool> m_pathKnown;
    std::vector<Stream> m_streams;
    uint64_t m_nextId;
    Time m_lastUpdate;
    EventId m_event;
    TracedCallback<uint32_t, uint32_t, uint64_t, Time> m_dmaComplete;
};

} // namespace ns3

#endif /* HOST_MODEL_H */
