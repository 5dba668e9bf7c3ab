#include "rdma-dcqcn-firmware.h"

#include "ns3/object-factory.h"

namespace ns3
{

namespace
{
/** Registers the TypeId when the library loads, as NS_OBJECT_ENSURE_REGISTERED does. */
const TypeId g_firmwareTypeId = RdmaDcqcnFirmware::GetTypeId();
} // namespace

RdmaDcqcnParams
RdmaDcqcnFirmware::Defaults()
{
    // The ConnectX knob defaults [MLX-DUMP]; G per AlphaUpdatePeriod as [HPCC-CFG] maps them.
    RdmaDcqcnParams p;
    p.alpha.update = RdmaDcqcnAlphaRule::ALPHA_ACTIVE;
    p.alpha.g = 1.0 / 256.0;               // dce_tcp_g, see the G help string
    p.alpha.period = MicroSeconds(1);      // dce_tcp_rtt
    p.alpha.initial = 1023.0 / 1024.0;     // initial_alpha_value
    p.decrease.interval = MicroSeconds(4); // rate_reduce_monitor_period
    p.decrease.timing = RdmaDcqcnRateDecreaseClock::SINCE_LAST_CUT;
    p.increase.timer = MicroSeconds(300);          // rpg_time_reset
    p.increase.byteCounter = 32767;                // rpg_byte_reset
    p.increase.fastRecoveryTimes = 1;              // rpg_threshold
    p.increase.rateAi = DataRate("5Mbps");         // rpg_ai_rate
    p.increase.rateHai = DataRate("50Mbps");       // rpg_hai_rate
    p.increase.clampTargetRate = false;            // clamp_tgt_rate
    p.increase.clampTargetRateAfterTimeInc = true; // clamp_tgt_rate_after_time_inc
    p.minRate = DataRate("1Mbps");                 // rpg_min_rate
    p.cnp.interval = Time(0);                      // np_min_time_between_cnps
    p.cnp.firmwareTime = Time(0);                  // a hardware NP
    p.burstBytes = 0;                              // per-packet rate limiter
    return p;
}

TypeId
RdmaDcqcnFirmware::GetTypeId()
{
    static TypeId tid = RdmaDcqcnAttributes::AddFirstCnpRate(
        RdmaDcqcnAttributes::AddNicKnobs(
            RdmaDcqcnAttributes::AddRateMachine(TypeId("ns3::RdmaDcqcnFirmware")
                                                    .SetParent<RdmaCongestionOps>()
                                                    .SetGroupName("Rdma")
                                                    .AddConstructor<RdmaDcqcn>(),
                                                Defaults()),
            Defaults()),
        Defaults());
    return tid;
}

Ptr<RdmaDcqcn>
RdmaDcqcnFirmware::Create()
{
    return ObjectFactory(GetTypeId().GetName()).Create<RdmaDcqcn>();
}

} // namespace ns3
