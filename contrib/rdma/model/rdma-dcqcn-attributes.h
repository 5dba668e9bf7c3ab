/*
 * The attribute table of RdmaDcqcn: every DCQCN knob written once, as an ns-3 Attribute
 * with its unit and its sourced defaults, registered by the TypeIds that expose it
 * (ns3::RdmaDcqcn, and the NIC-generation TypeIds ns3::RdmaDcqcnGen1 and
 * ns3::RdmaDcqcnFirmware), each with its own default values.
 */
#ifndef RDMA_DCQCN_ATTRIBUTES_H
#define RDMA_DCQCN_ATTRIBUTES_H

#include "rdma-dcqcn-params.h"

#include "ns3/type-id.h"

namespace ns3
{

class RdmaDcqcn;

/**
 * \ingroup rdma
 * Adds RdmaDcqcn's attributes to a TypeId. Each attribute writes one field of the
 * object's RdmaDcqcnParams; \p defaults gives the TypeId's initial values.
 */
struct RdmaDcqcnAttributes
{
    /**
     * The rate state machine and the paper / HPCC-simulator rule choices, in this order:
     * G, AlphaUpdatePeriod, RateIncreaseTimer, ByteCounter, FastRecoveryTimes, RateAI,
     * RateHAI, MinRate, InitialAlpha, CnpInterval, ClampTargetRate,
     * ClampTargetRateAfterTimeInc, QcnTargetRateQuirk, AlphaCutOrder, RateDecreaseInterval,
     * RateDecreaseTiming, AlphaUpdate, IncreaseStages, CnpDelivery; and the trace source
     * RateChange.
     */
    static TypeId AddRateMachine(TypeId tid, const RdmaDcqcnParams& defaults);
    /** The NIC knobs: BurstBytes, FirmwareCnpTime, FirmwareCnpQueue. */
    static TypeId AddNicKnobs(TypeId tid, const RdmaDcqcnParams& defaults);
    /** The firmware's first-CNP rate: RateOnFirstCnp. */
    static TypeId AddFirstCnpRate(TypeId tid, const RdmaDcqcnParams& defaults);
    /** \return the configuration of \p dcqcn (for the attribute accessors) */
    static RdmaDcqcnParams& Params(RdmaDcqcn& dcqcn);
};

} // namespace ns3

#endif /* RDMA_DCQCN_ATTRIBUTES_H */
