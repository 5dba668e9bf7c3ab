/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RING_HOP_H
#define RING_HOP_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

namespace ns3
{

/**
 * \ingroup host
 * The transport of one hop of a ring (rank i to rank i + 1), as RingAllreduce and the
 * token ring see it: Send starts moving a message of some bytes into the successor's
 * buffer, one message at a time, and the done callback fires when the message is placed
 * there. Subclasses carry it: over a Maestro endpoint or a single queue pair
 * (MaestroRingLink, multipath) or as DMA transfers between DFabric racks
 * (DfabricRackHop). Public non-virtual entry points call the private DoSend hook; a
 * subclass calls NotifyDone when the message is placed.
 */
class RingHop : public Object
{
  public:
    static TypeId GetTypeId();

    /** \p done is called with the time each message is placed at the successor. */
    void SetDoneCallback(Callback<void, Time> done);
    /**
     * Start a message of \p bytes into the successor's buffer at \p offset (bytes from its
     * start). Aborts while a message is in flight.
     */
    void Send(uint64_t bytes, uint64_t offset);
    /** \return true from Send until the message is placed. */
    bool IsBusy() const;

  protected:
    void DoDispose() override;
    /**
     * The message in flight is placed: the hop is free again and the callback fires (at
     * once, or, when called from within DoSend, as an event of its own at the same time).
     */
    void NotifyDone();

  private:
    /** Start carrying the message (the hop is already marked busy). */
    virtual void DoSend(uint64_t bytes, uint64_t offset) = 0;

    Callback<void, Time> m_done;
    bool m_busy{false};
    bool m_sending{false};    //!< within DoSend
    bool m_doneInSend{false}; //!< NotifyDone was called within DoSend
    EventId m_doneEvent;      //!< that NotifyDone, deferred
};

} // namespace ns3

#endif /* RING_HOP_H */
