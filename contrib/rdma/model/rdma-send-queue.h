/*
 * The send queue of one queue pair's requester.
 */
#ifndef RDMA_SEND_QUEUE_H
#define RDMA_SEND_QUEUE_H

#include "rdma-work-request.h"
#include "roce-bth-header.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <deque>

namespace ns3
{

/** \ingroup rdma A posted send work request and the PSNs it was given. */
struct RdmaSendWqe
{
    RdmaWorkRequest wr;
    uint64_t firstPsn;
    uint32_t nPackets; //!< PSNs: packets, or READ responses
    uint32_t received; //!< READ: response packets received in order
    Time postTime;

    /** \return the opcode of packet \p index of a SEND or WRITE */
    RoceOpcode SegmentOpcode(uint32_t index) const;
};

/**
 * \ingroup rdma
 * The send queue of an RdmaRequester: posted work requests in order, each numbered with
 * consecutive 64-bit PSNs from the next free one.
 */
class RdmaSendQueue
{
  public:
    /** Append \p wr, posted at \p now, taking the next \p nPackets PSNs. */
    void Post(const RdmaWorkRequest& wr, uint32_t nPackets, Time now);
    /** \return one past the last PSN given to a work request */
    uint64_t GetNextPsn() const;
    bool IsEmpty() const;
    uint32_t GetSize() const;
    /** \return the oldest work request; the queue must not be empty */
    RdmaSendWqe& Front();
    /** \return the work request that holds \p psn, or null */
    RdmaSendWqe* Find(uint64_t psn);
    /** \return work requests from the one that holds \p psn to the last (0 past the end) */
    uint32_t CountFrom(uint64_t psn) const;
    /** \return the work request whose first PSN is \p firstPsn (an echoed SSN), or null */
    RdmaSendWqe* FindByFirstPsn(uint64_t firstPsn);
    /** Remove the oldest work request. \return its completion for queue pair \p qpn */
    RdmaCompletion PopFront(uint32_t qpn, RdmaWcStatus status);

  private:
    std::deque<RdmaSendWqe> m_wqes;
    uint64_t m_nextPsn{0};
};

} // namespace ns3

#endif /* RDMA_SEND_QUEUE_H */
