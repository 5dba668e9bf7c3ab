/*
 * Per-PSN transmit timestamps of one queue pair, for NIC-timestamped RTT samples.
 */
#ifndef RDMA_TX_TIMESTAMP_RING_H
#define RDMA_TX_TIMESTAMP_RING_H

#include "ns3/nstime.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * The time each request PSN last left the NIC, as RDMA NICs keep hardware transmit
 * timestamps for delay-based congestion control (TIMELY, Swift).
 *
 * A ring of slots indexed by PSN modulo its size; each slot holds the PSN it
 * describes, so a slot reused by a later PSN is never mistaken for an old one. It is
 * allocated on the first Record and grows (to a power of two, at most the loss
 * recovery's in-flight cap) only when more PSNs are in flight than it holds, so in
 * steady state recording and looking up allocate nothing. A retransmitted PSN
 * overwrites its slot: the sample measures the latest transmission, as a NIC that
 * timestamps every transmission does.
 */
class RdmaTxTimestampRing
{
  public:
    /** Bound the ring at \p maxSlots (the in-flight cap in packets; UINT64_MAX: none). */
    void SetMaxSlots(uint64_t maxSlots);
    /**
     * Record that \p psn left at \p when, with PSNs from \p oldestInFlight on still
     * unacknowledged (the ring grows to keep them all while under the cap).
     */
    void Record(uint64_t psn, uint64_t oldestInFlight, Time when);
    /**
     * \param psn the PSN to look up
     * \param when set to its latest transmission time if known
     * \return true if the ring still holds \p psn
     */
    bool Lookup(uint64_t psn, Time& when) const;
    /** \return the slots allocated (0 before the first Record). */
    uint64_t GetSlots() const;
    /** Release the slots (the QP is going away). */
    void Clear();

  private:
    /** Minimum ring size, so small windows do not regrow packet by packet. */
    static constexpr uint64_t MIN_SLOTS = 64;
    /** Hard bound when the loss recovery has none (go-back-N): 64 Ki packets. */
    static constexpr uint64_t DEFAULT_MAX_SLOTS = 65536;

    struct Slot
    {
        uint64_t psnPlusOne{0}; //!< 0: empty
        Time when;
    };

    void Grow(uint64_t needed);

    std::vector<Slot> m_slots;
    uint64_t m_maxSlots{DEFAULT_MAX_SLOTS};
};

} // namespace ns3

#endif /* RDMA_TX_TIMESTAMP_RING_H */
