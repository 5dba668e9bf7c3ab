/*
 * Times in the run's output files: microseconds with picosecond precision.
 */
#ifndef OUTPUT_MICROS_H
#define OUTPUT_MICROS_H

#include "ns3/nstime.h"

#include <cinttypes>
#include <cstdio>
#include <string>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * \return \p t as "12.345678": microseconds with six decimals (picosecond precision), from
 * integer arithmetic, so that the same time always prints the same digits (every CSV and
 * JSON time of a run uses it).
 */
inline std::string
FormatMicros(Time t)
{
    int64_t ps = t.GetPicoSeconds();
    const char* sign = ps < 0 ? "-" : "";
    ps = ps < 0 ? -ps : ps;
    char buf[48];
    std::snprintf(buf, sizeof(buf), "%s%" PRId64 ".%06" PRId64, sign, ps / 1000000, ps % 1000000);
    return buf;
}

} // namespace ns3

#endif /* OUTPUT_MICROS_H */
