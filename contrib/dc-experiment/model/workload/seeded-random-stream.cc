#include "seeded-random-stream.h"

#include "ns3/abort.h"

#include <cmath>

namespace ns3
{

SeededRandomStream::SeededRandomStream(uint32_t seed, int64_t stream, uint64_t run)
    // RandomVariableStream::SetStream: explicit stream numbers are the last 2^63 streams.
    : m_rng(seed, (1ULL << 63) + static_cast<uint64_t>(stream), run)
{
    NS_ABORT_MSG_IF(stream < 0, "SeededRandomStream: stream numbers are >= 0");
}

double
SeededRandomStream::GetValue()
{
    return m_rng.RandU01();
}

double
SeededRandomStream::GetUniform(double min, double max)
{
    return min + m_rng.RandU01() * (max - min);
}

uint32_t
SeededRandomStream::GetInteger(uint32_t min, uint32_t max)
{
    NS_ABORT_MSG_IF(min > max, "SeededRandomStream::GetInteger: min > max");
    return static_cast<uint32_t>(
        GetUniform(static_cast<double>(min), static_cast<double>(max) + 1.0));
}

double
SeededRandomStream::GetExponential(double mean, double bound)
{
    while (true)
    {
        const double r = -mean * std::log(m_rng.RandU01());
        if (bound == 0 || r <= bound)
        {
            return r;
        }
    }
}

} // namespace ns3
