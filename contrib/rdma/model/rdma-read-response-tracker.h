/*
 * Requester-side record of READ response packets that arrived ahead of the next
 * expected one (selective repeat).
 */
#ifndef RDMA_READ_RESPONSE_TRACKER_H
#define RDMA_READ_RESPONSE_TRACKER_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * The requester's bitmap of READ response PSNs placed out of order, a ring that
 * covers every response PSN that may be outstanding: the loss recovery's in-flight
 * cap plus the largest READ posted (a READ leaves once fewer than the cap are in
 * flight and then takes all its PSNs). Under selective repeat
 * (IRN, SRNIC) a response that arrives after a gap is placed at once (SRNIC: at the
 * address its header extension echoes) and marked here; the gap is re-requested
 * alone, and the READ completes when the in-order count, advanced past the marked
 * PSNs, reaches its packet count.
 */
class RdmaReadResponseTracker
{
  public:
    /** Size the ring for \p packets outstanding response PSNs (at least 1). */
    void SetCapacity(uint64_t packets);
    /** Grow the ring (keeping its marks) to cover at least \p packets PSNs. */
    void EnsureCapacity(uint64_t packets);
    /** Response \p psn was placed. */
    void Mark(uint64_t psn);
    /** \return true if response \p psn was placed out of order. */
    bool IsReceived(uint64_t psn) const;
    /**
     * \return \p received advanced past the marked PSNs of a READ whose responses
     * start at \p firstPsn and number \p nPackets.
     */
    uint32_t AdvanceInOrder(uint64_t firstPsn, uint32_t received, uint32_t nPackets) const;

  private:
    std::vector<uint64_t> m_ring; //!< psn + 1 of the response placed in the slot; 0: none
    uint64_t m_capacity{1};
};

} // namespace ns3

#endif /* RDMA_READ_RESPONSE_TRACKER_H */
