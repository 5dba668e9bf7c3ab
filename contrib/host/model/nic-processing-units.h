/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef NIC_PROCESSING_UNITS_H
#define NIC_PROCESSING_UNITS_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
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

    /** Queue a request of \p verb for \p tenant; \p done is called when it has been processed. */
    void Submit(Verb verb, uint32_t tenant, Callback<void> done);
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
    };

    void StartNext();
    void Finish();

    Time m_sendCost;
    Time m_writeCost;
    Time m_readCost;
    Time m_casCost;
    Time m_faaCost;
    std::deque<Request> m_queue; //!< front = in service while m_busy
    bool m_busy{false};
    EventId m_event;
    std::vector<uint64_t> m_processed; //!< per tenant
};

} // namespace ns3

#endif /* NIC_PROCESSING_UNITS_H */
