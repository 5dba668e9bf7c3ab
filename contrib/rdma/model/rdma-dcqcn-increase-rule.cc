#include "rdma-dcqcn-increase-rule.h"

#include <algorithm>

namespace ns3
{

RdmaDcqcnIncreaseRule::Event
RdmaDcqcnIncreaseRule::Increase(Stage stage, uint32_t timerCount, uint32_t byteCount,
                                uint32_t firedCount) const
{
    if (stages == STAGES_TIMER)
    {
        // The stage is the number of timer expiries since the cut before this one.
        const uint32_t before = timerCount - 1;
        if (before < fastRecoveryTimes)
        {
            return Event{FAST_RECOVERY, 0};
        }
        if (before == fastRecoveryTimes)
        {
            return Event{ADDITIVE_INCREASE, rateAi.GetBitRate()};
        }
        return Event{HYPER_INCREASE, rateHai.GetBitRate()};
    }
    if (stage == FAST_RECOVERY && firedCount < fastRecoveryTimes)
    {
        return Event{FAST_RECOVERY, 0}; // fast recovery: R_T unchanged
    }
    const uint32_t minCount = std::min(timerCount, byteCount);
    if (minCount < fastRecoveryTimes)
    {
        return Event{ADDITIVE_INCREASE, rateAi.GetBitRate()};
    }
    return Event{HYPER_INCREASE, rateHai.GetBitRate() * (minCount - fastRecoveryTimes + 1)};
}

bool
RdmaDcqcnIncreaseRule::CountsBytes() const
{
    return byteCounter != 0 && stages == STAGES_PAPER;
}

Time
RdmaDcqcnIncreaseRule::TimerPeriod(Stage stage) const
{
    return (stage == HYPER_INCREASE && stages == STAGES_PAPER) ? timer / 2 : timer;
}

uint64_t
RdmaDcqcnIncreaseRule::BytePeriod(Stage stage) const
{
    return stage == HYPER_INCREASE ? std::max<uint64_t>(1, byteCounter / 2) : byteCounter;
}

bool
RdmaDcqcnIncreaseRule::ClampsAtCut(uint32_t timerCount, uint32_t byteCount) const
{
    // Always, after any increase, or after a byte-counter increase (spec 3.4).
    if (clampTargetRate)
    {
        return true;
    }
    return clampTargetRateAfterTimeInc ? (timerCount != 0 || byteCount != 0) : (byteCount != 0);
}

} // namespace ns3
