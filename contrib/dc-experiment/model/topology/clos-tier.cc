#include "clos-tier.h"

namespace ns3
{

void
ClosTier::Link(ExperimentTopology& t, uint32_t lowerFirst, uint32_t lowerCount,
               uint32_t lowerPerGroup, uint32_t upperFirst, uint32_t upperPerGroup, DataRate rate,
               Time delay)
{
    for (uint32_t i = 0; i < lowerCount; ++i)
    {
        const uint32_t block = upperFirst + i / lowerPerGroup * upperPerGroup;
        for (uint32_t j = 0; j < upperPerGroup; ++j)
        {
            t.links.push_back(ExperimentLink{lowerFirst + i, block + j, rate, delay});
        }
    }
}

} // namespace ns3
