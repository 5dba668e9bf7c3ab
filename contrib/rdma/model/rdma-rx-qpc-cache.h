/*
 * The small queue-pair-context cache of a DCQCN Gen1 NIC on its receive path
 * (Azure NSDI'23 section 7.2), as a service-delay plug-in of RdmaRxPipeline.
 */
#ifndef RDMA_RX_QPC_CACHE_H
#define RDMA_RX_QPC_CACHE_H

#include "rnic-cache-model.h"

#include "ns3/host-model.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"

#include <cstdint>

namespace ns3
{

class RdmaNic;

/**
 * \ingroup rdma
 * Receive-side QP-context cache of a Gen1 NIC. Every data packet the NIC's
 * receive pipeline processes looks up its QP's context in an LRU cache of
 * Entries QPs (an RnicCacheModel QPC cache); a miss fetches the context over
 * PCIe and adds MissPenalty to that packet's processing, which the pipeline
 * serialises. Packets interleaved from more QPs than the cache holds (per-packet
 * pacing of many QPs) miss on almost every packet, the pipeline falls behind the
 * wire, the receive buffer fills and the NIC sends PFC pauses; bursts of one QP
 * (per-burst pacing) miss once per burst (Azure section 7.2: "per-packet rate
 * limiting tends to trigger many cache misses on the Gen1 node, thus slowing
 * down the receiver pipeline").
 *
 * Install() adds the delay to the NIC's RdmaRxPipeline, which activates it.
 *
 * When the NIC has a host model (RdmaNic::SetHostModel, before or after Install), a miss
 * reads the context (EntryBytes) by a DMA read from the NIC's RnicPort to its memory, which
 * shares the host's PCIe links with the payload DMAs, and its penalty is that path's read
 * round trip (HostModel::GetPathLatency) instead of MissPenalty.
 */
class RdmaRxQpcCache : public Object
{
  public:
    static TypeId GetTypeId();
    RdmaRxQpcCache();

    /** Add this cache's delay to \p nic's receive pipeline. */
    void Install(Ptr<RdmaNic> nic);

    /**
     * Processing delay of one received data packet (the pipeline's callback).
     * \param qpn the destination queue pair
     * \param payload its payload bytes (unused: a context lookup costs the same)
     * \return HitServiceTime, plus MissPenalty on a miss
     */
    Time ServiceDelay(uint32_t qpn, uint32_t payload);

    uint64_t GetHits() const;
    uint64_t GetMisses() const;
    /** \return bytes of contexts read through the host model (misses with a host model). */
    uint64_t GetHostFillBytes() const;

  protected:
    void DoDispose() override;

  private:
    uint32_t m_entries;    //!< QP contexts the cache holds
    Time m_missPenalty;    //!< extra processing of a miss
    Time m_hitServiceTime; //!< processing of every packet
    uint32_t m_entryBytes; //!< one context, read on a miss
    Ptr<RnicCacheModel> m_cache;
    RdmaNic* m_nic{nullptr}; //!< the NIC installed on (it outlives its pipeline's hooks)
    Ptr<HostModel> m_host;   //!< the host model last seen on m_nic (for its path latency)
    Time m_hostRtt;          //!< its RnicPort -> memory read round trip
    uint64_t m_hostFillBytes{0};
};

} // namespace ns3

#endif /* RDMA_RX_QPC_CACHE_H */
