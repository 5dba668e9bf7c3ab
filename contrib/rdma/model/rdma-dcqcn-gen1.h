/*
 * DCQCN as run by "Gen1" NICs (Azure, "Empowering Azure Storage with RDMA", NSDI'23,
 * section 7.2): the TypeId ns3::RdmaDcqcnGen1, which is RdmaDcqcn with the NIC knobs
 * exposed and the Gen1 defaults. Specification: design/spec-buffers-pfc-dcqcn.md
 * sections 3.3, 4.
 */
#ifndef RDMA_DCQCN_GEN1_H
#define RDMA_DCQCN_GEN1_H

#include "rdma-dcqcn.h"

namespace ns3
{

/**
 * \ingroup rdma
 * The Gen1 DCQCN generation as a TypeId over RdmaDcqcn (no class of its own: objects of
 * this TypeId are RdmaDcqcn). Its attributes are ns3::RdmaDcqcn's (inherited, with the
 * paper's defaults) and the NIC knobs BurstBytes, FirmwareCnpTime and FirmwareCnpQueue.
 *
 * - Notification point: NP-side CNP coalescing, "the NP generates at most one CNP in a
 *   time window for a flow, if any arriving packets within this window are ECN marked"
 *   [AZURE 7.2]: the CNP policy with CnpInterval 50 us (the SIGCOMM'15 N: Azure does not
 *   disclose the Gen1 timer).
 * - Firmware capacity (NIC-wide): at most one CNP per FirmwareCnpTime (5 us) over all the
 *   NIC's QPs, FirmwareCnpQueue (16) requests waiting, the rest lost
 *   (RdmaFirmwareCnpQueue, which the NIC builds from GetCnpGenerationTime()).
 * - Reaction point: the paper's, a cut on every CNP.
 * - Rate limiter: per burst of BurstBytes (16 KB, assumption).
 *
 * Not modelled here (NIC-wide): the small QP-context cache whose misses slow the receive
 * pipeline is RdmaRxQpcCache, installed on the Gen1 NIC's RdmaRxPipeline.
 */
class RdmaDcqcnGen1
{
  public:
    /** \return the TypeId ns3::RdmaDcqcnGen1 (parent ns3::RdmaDcqcn) */
    static TypeId GetTypeId();
    /** \return the Gen1 configuration: the paper's with the Gen1 NIC knobs */
    static RdmaDcqcnParams Defaults();
    /** \return a new RdmaDcqcn of this TypeId, at its defaults */
    static Ptr<RdmaDcqcn> Create();
    RdmaDcqcnGen1() = delete;
};

} // namespace ns3

#endif /* RDMA_DCQCN_GEN1_H */
