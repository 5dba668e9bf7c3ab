/*
 * Which bytes of a flow were placed at the receiver, and how often.
 */
#ifndef PLACEMENT_DIGEST_H
#define PLACEMENT_DIGEST_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * The placed byte ranges of one flow as an interval set: sorted, disjoint,
 * non-adjacent [begin, end) ranges, merged as each placement arrives. A placement
 * that overlaps bytes already placed counts them as duplicates; bytes outside [0,
 * expected) count as outside; what is not covered at the end is a hole. So a flow
 * was delivered exactly once and in full iff the set is the single range [0,
 * expected) with no duplicate and no outside byte.
 *
 * Why an interval set and not a hash of (offset, length): it names the holes and
 * the first duplicated offset, and it costs nothing more where it matters. In-order
 * placement (every go-back-N flow, and selective repeat once the gap is filled)
 * extends the last range in O(1) with no allocation; an out-of-order placement is
 * a binary search and a vector insert, whose size is the number of holes at that
 * moment (bounded by the loss recovery's window), so allocation happens only when
 * the hole count reaches a new high for the flow.
 */
class PlacementDigest
{
  public:
    /** Forget every placement; the flow is \p expectedBytes long. */
    void Reset(uint64_t expectedBytes);

    /** \p length bytes were placed at \p offset (bytes from the flow's start). */
    void Place(uint64_t offset, uint64_t length)
    {
        if (length == 0)
        {
            return;
        }
        if (!m_ranges.empty() && offset == m_ranges.back().second && offset + length <= m_expected)
        {
            m_ranges.back().second += length; // the in-order fast path
            return;
        }
        PlaceSlow(offset, length);
    }

    uint64_t GetExpectedBytes() const;
    /** \return distinct bytes of [0, expected) placed at least once. */
    uint64_t GetCoveredBytes() const;
    /** \return bytes placed again over bytes already placed. */
    uint64_t GetDuplicateBytes() const;
    /** \return bytes placed outside [0, expected). */
    uint64_t GetOutsideBytes() const;
    /** \return the offset of the first duplicated byte (valid when duplicates > 0). */
    uint64_t GetFirstDuplicateOffset() const;
    /** \return the ranges of [0, expected) never placed, in order (at most \p max). */
    std::vector<std::pair<uint64_t, uint64_t>> GetHoles(std::size_t max = 8) const;
    /** \return the number of disjoint ranges placed (1 for a complete flow). */
    std::size_t GetRangeCount() const;

    /** \return true iff every byte of [0, expected) was placed exactly once, no other. */
    bool IsExactlyOnce() const;
    /** \return true iff no byte was placed twice or outside [0, expected) (holes allowed). */
    bool IsAtMostOnce() const;
    /** \return what is wrong ("" when IsExactlyOnce): holes, duplicates, outside bytes. */
    std::string Describe() const;

  private:
    void PlaceSlow(uint64_t offset, uint64_t length);

    uint64_t m_expected{0};
    uint64_t m_duplicate{0};
    uint64_t m_outside{0};
    uint64_t m_firstDuplicate{UINT64_MAX};
    std::vector<std::pair<uint64_t, uint64_t>> m_ranges;
};

} // namespace ns3

#endif /* PLACEMENT_DIGEST_H */
