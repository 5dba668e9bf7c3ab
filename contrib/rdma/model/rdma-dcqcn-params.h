/*
 * Every knob of one DCQCN configuration, grouped by rule family: what RdmaDcqcn's
 * attributes write, what Fork() copies as a whole, and what a NIC generation's TypeId
 * sets as its defaults.
 */
#ifndef RDMA_DCQCN_PARAMS_H
#define RDMA_DCQCN_PARAMS_H

#include "rdma-dcqcn-alpha-rule.h"
#include "rdma-dcqcn-cnp-policy.h"
#include "rdma-dcqcn-increase-rule.h"
#include "rdma-dcqcn-rate-decrease-clock.h"

#include "ns3/data-rate.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * The configuration of one RdmaDcqcn: its four rule families and the knobs outside them.
 * The member initialisers are the paper defaults (ns3::RdmaDcqcn); the sources of each
 * value are in the attribute help strings (RdmaDcqcnAttributes).
 */
struct RdmaDcqcnParams
{
    RdmaDcqcnAlphaRule alpha;             //!< alpha update
    RdmaDcqcnRateDecreaseClock decrease;  //!< rate-decrease clock
    RdmaDcqcnIncreaseRule increase;       //!< increase stages and target clamp
    RdmaDcqcnCnpPolicy cnp;               //!< notification point
    DataRate minRate{"100Mbps"};          //!< MinRate, R_min
    DataRate rateOnFirstCnp{uint64_t(0)}; //!< RateOnFirstCnp (0: keep the line rate)
    uint32_t burstBytes{0};               //!< BurstBytes (0: per-packet pacing)
};

} // namespace ns3

#endif /* RDMA_DCQCN_PARAMS_H */
