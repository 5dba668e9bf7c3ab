/*
 * Base of schedulers whose QP turns wait for data fetched over PCIe.
 */
#ifndef FETCH_QP_SCHEDULER_H
#define FETCH_QP_SCHEDULER_H

#include "qp-scheduler.h"

#include "ns3/host-model.h"

#include <deque>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * A QP with work waits in a FIFO schedule queue; to get a turn it first needs
 * what the NIC does not hold on chip (WQEs, or a context that missed the cache),
 * fetched from host memory over PCIe: FetchDelay() says how long, and at most
 * MaxOutstandingFetches fetches are in flight (PCIe non-posted read tags). Fetched
 * QPs wait in a ready FIFO; a turn sends packets from one QP until the subclass's
 * budget (OnPacketSent) ends it, or the QP runs out of work or credit, is paused by
 * PFC or held by its rate limiter. A QP that still has work then rejoins the
 * schedule queue (and fetches again); one without leaves until NotifyTxWork.
 * Every operation is O(1) amortised per packet, whatever the number of QPs.
 */
class FetchQpScheduler : public QpScheduler
{
  public:
    static TypeId GetTypeId();

    void NotifyTxWork(RdmaQueuePair* qp) override;
    Ptr<Packet> Dequeue(uint8_t pausedMask, RdmaQueuePair*& qp, Time& wakeAt) override;
    bool IsIdle() const override;

    uint64_t GetFetches() const;
    uint64_t GetTurns() const;

    /**
     * Fetch through the node's intra-host model: a fetch's round trip becomes the read latency
     * of the path \p rnic -> \p memory of \p host (instead of PcieRoundTrip), and what the
     * fetch reads (the entries the NIC's cache model fills on a miss, and the WQEs the
     * scheduler reads itself, FetchReadBytes) is one DMA read over that path, sharing the PCIe
     * links with the payload DMAs.
     */
    void SetHostModel(Ptr<HostModel> host, uint32_t rnic, uint32_t memory);
    /** \return bytes fetches read through the host model (SetHostModel): fills and WQEs. */
    uint64_t GetHostFetchBytes() const;
    /** \return the WQE part of GetHostFetchBytes (FetchReadBytes). */
    uint64_t GetHostWqeBytes() const;
    /** \return DMA reads the fetches issued on the host model. */
    uint64_t GetHostFetchDmas() const;

  protected:
    void DoDispose() override;

    /** \return how long the data \p qp needs for a turn takes to arrive (0: on chip). */
    virtual Time FetchDelay(RdmaQueuePair* qp) = 0;
    /**
     * \return bytes of WQEs the fetch for \p qp's turn reads from host memory besides the
     * cache model's fills (asked only with a host model, after FetchDelay). Default 0.
     */
    virtual uint64_t FetchReadBytes(RdmaQueuePair* qp);
    /** A turn of \p qp starts (its fetch arrived). */
    virtual void BeginTurn(RdmaQueuePair* qp) = 0;
    /**
     * \p qp sent a packet of \p payload bytes; \p endsWqe when it was the last
     * (or only) packet of a work request, or a READ request.
     * \return true if the turn goes on
     */
    virtual bool OnPacketSent(RdmaQueuePair* qp, uint32_t payload, bool endsWqe) = 0;
    /**
     * \return true if a QP rejoins the schedule queue as its turn begins, so that
     * the next turn's fetch overlaps this turn's transmission (SRNIC); false if it
     * rejoins when the turn ends.
     */
    virtual bool PrefetchesNextTurn() const = 0;

    /** \return the round trip of one fetch: the host model's path latency, or PcieRoundTrip. */
    Time FetchRoundTrip() const;
    /** \return true if fetches read through a host model (SetHostModel). */
    bool HasHostModel() const;

    Time m_pcieRtt; //!< one fetch from host memory

  private:
    struct Fetch
    {
        Time done;
        RdmaQueuePair* qp;
    };

    void EndTurn();
    void Leave(RdmaQueuePair* qp);
    void Enqueue(RdmaQueuePair* qp);
    uint8_t& Queued(RdmaQueuePair* qp);

    uint32_t m_maxFetches;
    std::deque<RdmaQueuePair*> m_waiting; //!< schedule queue: waiting for a fetch
    std::vector<Fetch> m_fetching;        //!< fetches in flight (at most m_maxFetches)
    std::deque<RdmaQueuePair*> m_ready;   //!< fetched, waiting for the port
    RdmaQueuePair* m_current{nullptr};    //!< the QP whose turn it is
    std::vector<uint8_t> m_queued;        //!< by QP index: in m_waiting, m_fetching or m_ready
    uint64_t m_fetches{0};
    uint64_t m_turns{0};
    Ptr<HostModel> m_host; //!< null: fetches take PcieRoundTrip and load nothing
    uint32_t m_hostRnic{0};
    uint32_t m_hostMemory{0};
    Time m_hostRtt;
    uint64_t m_hostFetchBytes{0};
    uint64_t m_hostWqeBytes{0};
    uint64_t m_hostFetchDmas{0};
};

} // namespace ns3

#endif /* FETCH_QP_SCHEDULER_H */
