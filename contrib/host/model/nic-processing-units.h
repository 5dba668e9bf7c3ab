/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef NIC_PROCESSING_UNITS_H
#define NIC_PROCESSING_UNITS_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nic-cache.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <deque>
#include <vector>

namespace ns3
{

/**
 * \ingroup host
 * The RNIC's processing units (PUs) as a consumer shared by every tenant of the node (Husky,
 * §3.3). Each verb request occupies the PUs for a per-verb cost, the inverse of the request
 * rate the verb reaches alone on the NIC; requests are served in arrival order. Closed-loop
 * tenants that keep the same number of requests outstanding therefore get the same request
 * rate, so a tenant issuing expensive verbs (atomics) drags a cheap-verb tenant down to its
 * own rate: Husky key finding #2. Costs are attributes (defaults: ConnectX-5, Husky Fig. 4).
 *
 * With a NicCache attached (SetCache), a request that names a metadata key looks it up when a
 * unit starts it and, on a miss, holds that unit the cache's MissPenalty longer (Husky key
 * finding #1). Units parallel units each hold a request for Units x its verb's cost, so the
 * aggregate rate without misses does not depend on Units; a miss then stalls one unit only.
 */
class NicProcessingUnits : public Object
{
  public:
    /// Verb classes with distinct PU costs.
    enum Verb : uint8_t
    {
        SEND,
        WRITE,
        READ,
        COMPARE_SWAP,
        FETCH_ADD,
        N_VERBS
    };

    static TypeId GetTypeId();
    NicProcessingUnits();
    ~NicProcessingUnits() override;

    /**
     * Queue a request of \p verb for \p tenant; \p done is called when it has been processed.
     * \p cacheKey is the metadata entry (QP context, MTT/MPT) it needs in the attached cache;
     * NicCache::NONE (or no cache) means no lookup.
     */
    void Submit(Verb verb, uint32_t tenant, Callback<void> done,
                uint32_t cacheKey = NicCache::NONE);
    /** Share \p cache (may be null: none) with the units' requests. */
    void SetCache(Ptr<NicCache> cache);
    Time GetCost(Verb verb) const;
    /** \return requests of \p tenant processed so far. */
    uint64_t GetProcessed(uint32_t tenant) const;
    uint32_t GetQueueLength() const;

  protected:
    void DoDispose() override;

  private:
    struct Request
    {
        Verb verb;
        uint32_t tenant;
        Callback<void> done;
        uint32_t cacheKey;
    };

    void StartNext();
    void Finish(uint32_t unit);

    Time m_sendCost;
    Time m_writeCost;
    Time m_readCost;
    Time m_casCost;
    Time m_faaCost;
    uint32_t m_units{1};
    Ptr<NicCache> m_cache;
    std::deque<Request> m_queue;       //!< waiting, in arrival order
    std::vector<Request> m_inService;  //!< per unit
    std::vector<EventId> m_events;     //!< per unit; running while the unit is busy
    std::vector<uint32_t> m_freeUnits; //!< units without a request
    std::vector<uint64_t> m_processed; //!< per tenant
};

} // namespace ns3

#endif /* NIC_PROCESSING_UNITS_H */
