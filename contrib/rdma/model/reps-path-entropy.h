/*
 * REPS: Recycled Entropy Packet Spraying (Bonato et al., arXiv 2407.21625).
 */
#ifndef REPS_PATH_ENTROPY_H
#define REPS_PATH_ENTROPY_H

#include "rdma-path-entropy.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * REPS at the sender (arXiv 2407.21625, section 3.1 and its Algorithms 1 and 2): each
 * connection keeps a circular buffer of BufferSize entropy values, each with a valid bit.
 * An ACK that comes back without an ECN mark writes the value it echoes at the buffer's
 * head (valid; the head moves on, overwriting the oldest entry when the buffer is full);
 * an ECN-marked ACK leaves the buffer alone. A data packet reuses the oldest valid value
 * and clears its valid bit; with none valid it explores: a fresh value from the NIC's
 * stream (a new connection, or one whose paths are all marked, sprays obliviously).
 * Paths that return unmarked ACKs are reused at the rate their ACKs come back; a
 * congested, slow or failed path stops returning its values and loses its share.
 *
 * Freezing mode (section 3.2: on a suspected failure, reuse the buffer's values even when
 * invalid instead of exploring) is not modelled: the NIC sees no failure signal of its
 * own here (load-balancing.md, "Left out").
 *
 * State: BufferSize x 3 bytes + 2 bytes per connection (the paper's Table 1 counts
 * 25 bytes for 8 entries), in flat vectors sized at AddConnection.
 */
class RepsPathEntropy : public RdmaPathEntropy
{
  public:
    static TypeId GetTypeId();
    RepsPathEntropy();
    ~RepsPathEntropy() override;

    /** \return the data packets that reused a recycled value, all connections. */
    uint64_t GetRecycled() const;
    /** \return the valid values in the buffer of \p connection. */
    uint32_t GetNValid(uint32_t connection) const;

  private:
    void DoAddConnections(uint32_t n) override;
    uint16_t DoSelect(uint32_t connection) override;
    void DoNotifyAck(uint32_t connection, uint16_t entropy, bool ecnMarked) override;

    uint32_t m_bufferSize;          //!< attribute BufferSize
    std::vector<uint16_t> m_values; //!< connection c's buffer at [c * m_bufferSize, ...)
    std::vector<uint8_t> m_valid;   //!< its valid bits, one byte each
    std::vector<uint8_t> m_head;    //!< per connection: the next entry written (the oldest)
    std::vector<uint8_t> m_nValid;  //!< per connection: valid entries
    uint64_t m_recycled{0};
};

} // namespace ns3

#endif /* REPS_PATH_ENTROPY_H */
