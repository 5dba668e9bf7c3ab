/*
 * The attribute table of RdmaDcqcn: every DCQCN knob written once, as an ns-3 Attribute
 * with its unit and its sourced default, registered by the one TypeId ns3::RdmaDcqcn. The
 * NIC generations (Gen1, Gen2/Gen3 firmware, the HPCC simulator's DCQCN) are NIC profiles
 * that set these attributes (configs/nic-profiles, contrib/rdma/doc/dcqcn-generations.md).
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
 * Adds RdmaDcqcn's attributes to its TypeId. Each attribute writes one field of the
 * object's RdmaDcqcnParams; the initial values are RdmaDcqcnParams' (the paper's).
 */
struct RdmaDcqcnAttributes
{
    /**
     * Every attribute: the rate machine, the NIC knobs and the first-CNP rate (below).
     * \param tid the TypeId ns3::RdmaDcqcn
     * \return \p tid with the attributes and the trace source RateChange
     */
    static TypeId Add(TypeId tid);
    /** \return the configuration of \p dcqcn (for the attribute accessors) */
    static RdmaDcqcnParams& Params(RdmaDcqcn& dcqcn);

  private:
    /**
     * The rate state machine and the paper / HPCC-simulator rule choices, in this order:
     * G, AlphaUpdatePeriod, RateIncreaseTimer, ByteCounter, FastRecoveryTimes, RateAI,
     * RateHAI, MinRate, InitialAlpha, CnpInterval, ClampTargetRate,
     * ClampTargetRateAfterTimeInc, QcnTargetRateQuirk, AlphaCutOrder, RateDecreaseInterval,
     * RateDecreaseTiming, AlphaUpdate, IncreaseStages, CnpDelivery; and the trace source
     * RateChange.
     */
    static TypeId AddRateMachine(TypeId tid, const RdmaDcqcnParams& d);
    /** The NIC knobs: BurstBytes, FirmwareCnpTime, FirmwareCnpQueue. */
    static TypeId AddNicKnobs(TypeId tid, const RdmaDcqcnParams& d);
    /** The firmware's first-CNP rate: RateOnFirstCnp. */
    static TypeId AddFirstCnpRate(TypeId tid, const RdmaDcqcnParams& d);
};

} // namespace ns3

#endif /* RDMA_DCQCN_ATTRIBUTES_H */
