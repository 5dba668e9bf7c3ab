#include "rdma-dcqcn-alpha-rule.h"

namespace ns3
{

double
RdmaDcqcnAlphaRule::Step(double alpha, bool cnp) const
{
    return (1.0 - g) * alpha + (cnp ? g : 0.0);
}

RdmaDcqcnAlphaRule::Cut
RdmaDcqcnAlphaRule::AtCut(double alpha) const
{
    if (update != ALPHA_AT_CUT)
    {
        return Cut{alpha, alpha};
    }
    const double after = Step(alpha, true);
    return Cut{order == CUT_THEN_UPDATE ? alpha : after, after};
}

Time
RdmaDcqcnAlphaRule::Resume(Time origin, Time now) const
{
    return update == ALPHA_CNP_PERIODS ? RdmaDcqcnNextTick(origin, period, now) - now : period;
}

bool
RdmaDcqcnAlphaRule::RunsOn(double alpha, bool cnpInPeriod) const
{
    return alpha >= StopThreshold() || (update == ALPHA_ACTIVE && cnpInPeriod);
}

Time
RdmaDcqcnNextTick(Time origin, Time period, Time now)
{
    const int64_t ticks = (now - origin).GetTimeStep() / period.GetTimeStep();
    return origin + period * (ticks + 1);
}

} // namespace ns3
