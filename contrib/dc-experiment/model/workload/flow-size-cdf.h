/*
 * Flow-size distributions read from text files ("size percent" or
 * "size cdf"), sampled with ns-3's EmpiricalRandomVariable.
 */
#ifndef FLOW_SIZE_CDF_H
#define FLOW_SIZE_CDF_H

#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * A flow-size distribution given as points (size in bytes, cumulative
 * probability), read from a text file in either common format:
 *
 * - `size percent`: cumulative percent in [0, 100] (the HPCC traffic_gen format);
 * - `size cdf`: cumulative probability in [0, 1] (Homa, ConWeave).
 *
 * One point per line, two numbers separated by blanks. Lines starting with `#`
 * and blank lines are ignored. The first data line may hold a single number,
 * the distribution's mean in bytes as declared by its source (kept for
 * reference; it is not checked, because sources compute it under different
 * readings of the table). Sizes must not decrease and cumulative values must
 * increase strictly except where a size repeats, and the last cumulative value
 * must be 100 (percent) or 1 (cdf).
 *
 * Reading: the probability of the first point's cumulative value is a point
 * mass at its size; between consecutive points the CDF is linear (sizes are
 * uniform between them); a repeated size is a point mass (a step). This is
 * exactly what EmpiricalRandomVariable in interpolating mode samples.
 * A flat run (two sizes with the same cumulative value) is refused:
 * EmpiricalRandomVariable keys its points by probability and cannot represent
 * a zero-probability gap.
 */
class FlowSizeCdf
{
  public:
    /** How to read the second column. */
    enum Format
    {
        AUTO,       //!< PERCENT if the last value is 100, PROBABILITY if it is 1
        PERCENT,    //!< cumulative percent, 0..100
        PROBABILITY //!< cumulative probability, 0..1
    };

    /** One point: P(size <= bytes) = cdf. */
    struct Point
    {
        double bytes;
        double cdf; //!< in [0, 1], whatever the file's format
    };

    /** Load \p path. \throw ExperimentConfigError naming file:line and the reason */
    static FlowSizeCdf LoadFile(const std::string& path, Format format = AUTO);
    /** Read \p text; \p name is the file name used in errors. \throw ExperimentConfigError */
    static FlowSizeCdf LoadString(const std::string& text, const std::string& name,
                                  Format format = AUTO);
    /** \return the format named \p name ("auto", "percent", "cdf"); false if unknown. */
    static bool ParseFormat(const std::string& name, Format& format);

    const std::vector<Point>& GetPoints() const;
    /** \return the format the file was read in (never AUTO). */
    Format GetFormat() const;
    /** \return the mean in bytes under the reading described above. */
    double GetMean() const;
    /** \return the mean declared on the file's first line, or 0 if none. */
    double GetDeclaredMean() const;
    /** \return P(size <= \p bytes). */
    double GetCdf(double bytes) const;
    /**
     * \return the size at cumulative probability \p r in [0, 1]: the first point's size
     * at or below its cumulative value, the last point's at or above its, linear between
     * (the arithmetic of EmpiricalRandomVariable in interpolating mode, so that a
     * SeededRandomStream's uniform draw gives the size that variable would).
     */
    double GetQuantile(double r) const;
    /** \return the largest size, bytes. */
    double GetMax() const;
    /** \return the line of the file that gave point \p index (from 1). */
    uint64_t GetLine(std::size_t index) const;

    /**
     * \return a new EmpiricalRandomVariable (interpolating) holding the points;
     * the caller assigns its stream.
     */
    Ptr<EmpiricalRandomVariable> CreateRandomVariable() const;

  private:
    FlowSizeCdf() = default;

    std::vector<Point> m_points;
    std::vector<uint64_t> m_lines; //!< file line of each point
    Format m_format{AUTO};
    double m_declaredMean{0};
};

} // namespace ns3

#endif /* FLOW_SIZE_CDF_H */
