/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef NIC_PROCESSING_UNITS_H
#define NIC_PROCESSING_UNITS_H

#include "nic-cache.h"

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <vector>

namespace ns3
{

/**
 * \ingroup host
 * The processing units (PUs) of an RNIC as a resource shared by the tenants of one node
 * (Husky, NSDI'23, section 3.3). Each request occupies one of Units units for its verb's
 * cost; a free unit takes the next request round-robin over the tenants that have requests
 * waiting, one request per turn, whatever the request costs (the RNIC arbitrates between
 * queues per work request, not per unit of work). So a tenant posting expensive verbs
 * (atomics) takes most of the units' time and starves a tenant posting cheap ones: in
 * steady state both get Units / (c_victim + c_attacker) requests per second.
 *
 * The default costs are Units / (the verb's request rate alone) with Husky's ConnectX-5
 * figures (8-byte requests, Fig. 4): SEND/WRITE > 90 Mrps, READ ~60 Mrps, FETCH_ADD 5.2 Mrps,
 * COMPARE_SWAP 4.8 Mrps. A request whose metadata misses the shared NicCache holds its unit
 * MissPenalty longer (the fetch over PCIe stalls it), so a tenant that thrashes or
 * invalidates the cache slows every other tenant's requests too (Husky key finding #1).
 */
class NicProcessingUnits : public Object
{
  public:
    /// The data verbs whose processing cost differs.
    enum Verb : uint8_t
    {
        SEND = 0,
        WRITE,
        READ,
        FETCH_ADD,
        COMPARE_SWAP,
        N_VERBS
    };

    typedef Callback<void> DoneCallback;
    /// Trace signature: tenant, verb.
    typedef void (*RequestTracedCallback)(uint32_t, uint8_t);

    static TypeId GetTypeId();
    NicProcessingUnits();
    ~NicProcessingUnits() override;

    /// \return the index of a new tenant (a VF, a traffic class, an application).
    uint32_t AddTenant();
    /// Queue one request of verb for tenant; done is called when a unit has processed it.
    /// With a cache set and a key, the request looks its metadata (QP context, MTT entry)
    /// up there when a unit takes it; a miss holds the unit MissPenalty longer.
    void Submit(uint32_t tenant, Verb verb, DoneCallback done, uint32_t cacheKey = NicCache::NONE);
    /// Share the RNIC's metadata cache with the units.
    void SetCache(Ptr<NicCache> cache);
    /// \return the time a request of verb occupies one unit.
    Time GetCost(Verb verb) const;
    /// \return the requests of tenant completed so far.
    uint64_t GetCompleted(uint32_t tenant) const;
    /// \return the requests of tenant waiting for a unit.
    uint32_t GetQueued(uint32_t tenant) const;

  protected:
    void DoDispose() override;

  private:
    struct Request
    {
        Verb verb;
        uint32_t key;
        DoneCallback done;
    };

    void Serve();
    void OnProcessed(uint32_t tenant, Request request);

    uint32_t m_units;
    Time m_missPenalty;
    Ptr<NicCache> m_cache;
    Time m_sendCost;
    Time m_writeCost;
    Time m_readCost;
    Time m_fetchAddCost;
    Time m_compareSwapCost;
    uint32_t m_busy;
    uint32_t m_turn; //!< the tenant whose turn is next
    std::vector<std::deque<Request>> m_queues;
    std::vector<uint64_t> m_completed;
    TracedCallback<uint32_t, uint8_t> m_processed;
};

} // namespace ns3

#endif /* NIC_PROCESSING_UNITS_H */
