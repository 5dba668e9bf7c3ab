/*
 * Mean and nearest-rank percentiles of a sample (FCTs, slowdowns).
 */
#ifndef SAMPLE_STATISTICS_H
#define SAMPLE_STATISTICS_H

#include <cstddef>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Collects values and reports their mean and percentiles.
 *
 * Percentiles use the nearest-rank definition: the p-th percentile of n sorted
 * values is the value of rank ceil(p/100 x n) (rank 1 for p = 0), so it is
 * always one of the samples and needs no interpolation.
 */
class SampleStatistics
{
  public:
    void Add(double value);
    std::size_t GetCount() const;
    /** \return the arithmetic mean, 0 when empty. */
    double GetMean() const;
    /** \return the nearest-rank \p percent percentile (0..100), 0 when empty. */
    double GetPercentile(double percent) const;
    double GetMax() const;

  private:
    void Sort() const;

    mutable std::vector<double> m_values;
    mutable bool m_sorted{true};
};

} // namespace ns3

#endif /* SAMPLE_STATISTICS_H */
