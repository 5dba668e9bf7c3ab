#include "placement-digest.h"

#include <algorithm>

namespace ns3
{

void
PlacementDigest::Reset(uint64_t expectedBytes)
{
    m_expected = expectedBytes;
    m_duplicate = 0;
    m_outside = 0;
    m_firstDuplicate = UINT64_MAX;
    m_ranges.clear();
    m_ranges.reserve(4);
}

void
PlacementDigest::PlaceSlow(uint64_t offset, uint64_t length)
{
    uint64_t begin = offset;
    uint64_t end = length > UINT64_MAX - offset ? UINT64_MAX : offset + length;
    m_outside += (end - begin);
    if (begin >= m_expected)
    {
        return;
    }
    end = std::min(end, m_expected);
    m_outside -= end - begin;
    // The first range that ends at or after begin: it touches or follows [begin, end).
    auto first = std::lower_bound(m_ranges.begin(), m_ranges.end(), begin,
                                  [](const std::pair<uint64_t, uint64_t>& r, uint64_t b)
                                  { return r.second < b; });
    auto last = first;
    uint64_t mergedBegin = begin;
    uint64_t mergedEnd = end;
    for (; last != m_ranges.end() && last->first <= end; ++last)
    {
        const uint64_t lo = std::max(begin, last->first);
        const uint64_t hi = std::min(end, last->second);
        if (hi > lo)
        {
            m_duplicate += hi - lo;
            m_firstDuplicate = std::min(m_firstDuplicate, lo);
        }
        mergedBegin = std::min(mergedBegin, last->first);
        mergedEnd = std::max(mergedEnd, last->second);
    }
    if (first == last)
    {
        m_ranges.insert(first, {mergedBegin, mergedEnd});
        return;
    }
    *first = {mergedBegin, mergedEnd};
    m_ranges.erase(first + 1, last);
}

uint64_t
PlacementDigest::GetExpectedBytes() const
{
    return m_expected;
}

uint64_t
PlacementDigest::GetCoveredBytes() const
{
    uint64_t covered = 0;
    for (const auto& r : m_ranges)
    {
        covered += r.second - r.first;
    }
    return covered;
}

uint64_t
PlacementDigest::GetDuplicateBytes() const
{
    return m_duplicate;
}

uint64_t
PlacementDigest::GetOutsideBytes() const
{
    return m_outside;
}

uint64_t
PlacementDigest::GetFirstDuplicateOffset() const
{
    return m_firstDuplicate;
}

std::vector<std::pair<uint64_t, uint64_t>>
PlacementDigest::GetHoles(std::size_t max) const
{
    std::vector<std::pair<uint64_t, uint64_t>> holes;
    uint64_t at = 0;
    for (const auto& r : m_ranges)
    {
        if (r.first > at && holes.size() < max)
        {
            holes.emplace_back(at, r.first);
        }
        at = r.second;
    }
    if (at < m_expected && holes.size() < max)
    {
        holes.emplace_back(at, m_expected);
    }
    return holes;
}

std::size_t
PlacementDigest::GetRangeCount() const
{
    return m_ranges.size();
}

bool
PlacementDigest::IsAtMostOnce() const
{
    return m_duplicate == 0 && m_outside == 0;
}

bool
PlacementDigest::IsExactlyOnce() const
{
    return IsAtMostOnce() && GetCoveredBytes() == m_expected;
}

std::string
PlacementDigest::Describe() const
{
    std::string s;
    const auto add = [&s](const std::string& part) { s += (s.empty() ? "" : "; ") + part; };
    const uint64_t missing = m_expected - GetCoveredBytes();
    if (missing > 0)
    {
        std::string holes;
        for (const auto& h : GetHoles(4))
        {
            holes += (holes.empty() ? "" : " ") + std::string("[") + std::to_string(h.first) +
                     ", " + std::to_string(h.second) + ")";
        }
        add(std::to_string(missing) + " bytes never placed, holes " + holes +
            (m_ranges.size() + 1 > 4 ? " ..." : ""));
    }
    if (m_duplicate > 0)
    {
        add(std::to_string(m_duplicate) + " bytes placed more than once, first at offset " +
            std::to_string(m_firstDuplicate));
    }
    if (m_outside > 0)
    {
        add(std::to_string(m_outside) + " bytes placed outside [0, " + std::to_string(m_expected) +
            ")");
    }
    return s;
}

} // namespace ns3
