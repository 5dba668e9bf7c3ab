#include "sample-statistics.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

void
SampleStatistics::Add(double value)
{
    m_values.push_back(value);
    m_sorted = false;
}

std::size_t
SampleStatistics::GetCount() const
{
    return m_values.size();
}

double
SampleStatistics::GetMean() const
{
    if (m_values.empty())
    {
        return 0.0;
    }
    Sort(); // summing in sorted order makes the result independent of insertion order
    double sum = 0.0;
    for (double v : m_values)
    {
        sum += v;
    }
    return sum / static_cast<double>(m_values.size());
}

double
SampleStatistics::GetPercentile(double percent) const
{
    if (m_values.empty())
    {
        return 0.0;
    }
    Sort();
    const double n = static_cast<double>(m_values.size());
    auto rank = static_cast<std::size_t>(std::ceil(percent / 100.0 * n));
    rank = std::clamp<std::size_t>(rank, 1, m_values.size());
    return m_values[rank - 1];
}

double
SampleStatistics::GetMax() const
{
    return GetPercentile(100.0);
}

void
SampleStatistics::Sort() const
{
    if (!m_sorted)
    {
        std::sort(m_values.begin(), m_values.end());
        m_sorted = true;
    }
}

} // namespace ns3
