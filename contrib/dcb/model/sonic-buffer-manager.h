/*
 * SONiC shared-buffer model: pools, profiles, dynamic thresholds, shared PFC
 * headroom pool (spec-buffers-pfc-dcqcn.md §1, Azure NSDI'23 §6.2, §7.1, App. A).
 */
#ifndef SONIC_BUFFER_MANAGER_H
#define SONIC_BUFFER_MANAGER_H

#include "buffer-manager.h"
#include "sonic-buffer-config.h"

#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dcb
 * SONiC buffer pools and profiles over one physical buffer (spec §1.5 model A).
 *
 * A packet of priority t from port s to port d is charged to the ingress
 * object (s, PG = tc_to_pg(t)) and the egress object (d, queue t), and through
 * their profiles to an ingress pool and an egress pool. It is admitted only if
 * both admissions pass; nothing is charged otherwise.
 *
 * Ingress, lossless priority (pfc_enable of port s): the PG's reserved `size`
 * first, then the pool's shared space while its shared occupancy stays within
 * T = 2^dynamic_th × (pool size − pool shared use) (or static_th); the packet
 * that cannot fit, and every later one until XON, goes to headroom and pauses
 * the PG (XOFF for every lossless priority of the PG). Headroom admits while
 * the PG holds at most the profile's `xoff` and, if the pool has `xoff` > 0
 * (shared headroom pool, oversubscribable), the pool's headroom use stays
 * within it; otherwise the packet is a headroom overflow (DROP_HEADROOM_OVERFLOW
 * and the HeadroomOverflow trace). XON (SAI): headroom empty and reserved +
 * shared ≤ max(xon, size + T − xon_offset). Ingress, lossy priority: the same
 * reserved/shared rule without headroom (Azure's sky-high static_th makes it a
 * bypass); a refusal is DROP_INGRESS_LIMIT. Egress: reserved then shared under
 * the queue profile's threshold; a refusal is DROP_EGRESS_LIMIT. Departure
 * releases ingress headroom first, then shared, then reserved; egress shared,
 * then reserved.
 *
 * Occupancy is counted in cells (CellSize). The configuration comes from
 * SetConfig(), else from the ConfigFile attribute (a SONiC config_db JSON, see
 * SonicConfigLoader), else Azure's Listing 1 applied to every port. Setup completes it with
 * SonicBufferPlanner (port bindings, calculated and cable headroom, pool sizes); this class
 * holds admission and accounting.
 */
class SonicBufferManager : public BufferManager
{
  public:
    /** How config_db port names map to switch port indices when loading ConfigFile. */
    enum PortNaming : uint8_t
    {
        ETHERNET_DIV4 = 0, //!< EthernetN -> N/4 (4 lanes per port)
        ETHERNET_INDEX,    //!< EthernetN -> N
        ETHERNET_ORDER     //!< the file's ports in the order of N -> 0, 1, 2, ... (any lanes)
    };

    static TypeId GetTypeId();
    SonicBufferManager();

    /** Use this configuration (its ports are the switch's ports, by index). */
    void SetConfig(const SonicBufferConfig& config);
    const SonicBufferConfig& GetConfig() const;
    /** Notes from loading ConfigFile (ignored tables, defaults taken). */
    const std::vector<std::string>& GetLoadNotes() const;

    uint64_t GetOccupancy() const override;

    /** \return the profile-resolved threshold T of ingress (port, pg), bytes. */
    uint64_t GetIngressThreshold(uint32_t port, uint8_t pg) const;
    /** \return the threshold of egress (port, queue), bytes. */
    uint64_t GetEgressThreshold(uint32_t port, uint8_t queue) const;

    uint64_t GetPoolSharedBytes(uint32_t pool) const;
    uint64_t GetPoolHeadroomBytes(uint32_t pool) const;
    uint64_t GetPgReservedBytes(uint32_t port, uint8_t pg) const;
    uint64_t GetPgSharedBytes(uint32_t port, uint8_t pg) const;
    uint64_t GetPgHeadroomBytes(uint32_t port, uint8_t pg) const;
    uint64_t GetQueueBytes(uint32_t port, uint8_t queue) const; //!< reserved + shared
    bool IsPaused(uint32_t port, uint8_t pg) const;
    /** \return true if priority \p prio of ingress port \p port is lossless (pfc_enable). */
    bool IsLosslessPriority(uint32_t port, uint8_t prio) const;

    /** Watermarks (peak occupancy since Setup or ClearWatermarks), as SONiC's counters. */
    uint64_t GetPoolSharedWatermark(uint32_t pool) const;
    uint64_t GetPoolHeadroomWatermark(uint32_t pool) const;
    uint64_t GetPgSharedWatermark(uint32_t port, uint8_t pg) const;
    uint64_t GetPgHeadroomWatermark(uint32_t port, uint8_t pg) const;
    uint64_t GetQueueWatermark(uint32_t port, uint8_t queue) const;
    /** Reset every watermark to the current occupancy (SONiC `sonic-clear watermark`). */
    void ClearWatermarks() override;

    /** (port, pg, bytes): a lossless packet found no headroom. */
    using HeadroomOverflowCallback = void (*)(uint32_t, uint8_t, uint32_t);
    /** (port, pg, paused). */
    using PgPauseCallback = void (*)(uint32_t, uint8_t, bool);

  protected:
    std::string DoSetup() override;
    bool DoAdmit(uint32_t inPort, uint32_t outPort, uint8_t tc, uint32_t bytes,
                 DropReason& reason) override;
    void DoRelease(uint32_t inPort, uint32_t outPort, uint8_t tc, uint32_t bytes) override;
    void DoDispose() override;
    /**
     * Per pool: "pool_shared" (name = pool) and, for pools with headroom (xoff above
     * 0), "pool_headroom"; then per port and index: "pg_shared", "pg_headroom" and
     * "queue" for those whose watermark is above 0.
     */
    void DoReportOccupancy(std::vector<BufferOccupancy>& report) const override;
    /** The configuration used when neither SetConfig nor ConfigFile gives one. */
    virtual SonicBufferConfig DefaultConfig(uint32_t nPorts) const;

  private:
    /** Per ingress (port, PG) state. */
    struct PgState
    {
        const SonicBufferProfile* profile{nullptr};
        uint64_t reserved{0};
        uint64_t shared{0};
        uint64_t headroom{0};
        uint64_t sharedPeak{0};
        uint64_t headroomPeak{0};
        bool paused{false};
        uint8_t losslessPrios{0}; //!< lossless priorities mapped to this PG
    };

    /** Per egress (port, queue) state. */
    struct QueueState
    {
        const SonicBufferProfile* profile{nullptr};
        uint64_t reserved{0};
        uint64_t shared{0};
        uint64_t peak{0};
    };

    /** Per pool state. */
    struct PoolState
    {
        uint64_t shared{0};
        uint64_t headroom{0};
        uint64_t sharedPeak{0};
        uint64_t headroomPeak{0};
    };

    uint64_t Threshold(const SonicBufferProfile& profile) const;
    /** \return true if the egress profile's pool is a `both` pool the ingress PG also uses. */
    bool EgressChargedByIngress(const PgState& in, const SonicBufferProfile& egress) const
    {
        return m_poolIsBoth[egress.pool] && in.profile && in.profile->pool == egress.pool;
    }
    uint64_t Cells(uint32_t bytes) const;
    void SetPaused(uint32_t port, uint8_t pg, PgState& state, bool paused);

    // Attributes
    std::string m_configFile;
    std::string m_portNames;
    uint64_t m_mmuSize;
    PortNaming m_portNaming;
    uint32_t m_cellSize;
    bool m_headroomSticky;
    bool m_unlistedLikeFirst;
    bool m_cableHeadroom;

    SonicBufferConfig m_config;
    bool m_haveConfig{false};
    std::vector<std::string> m_notes;

    uint32_t m_nPorts{0};
    std::vector<PoolState> m_pools;
    std::vector<PgState> m_pgs;        //!< port * 8 + pg
    std::vector<QueueState> m_queues;  //!< port * 8 + queue
    std::vector<uint8_t> m_tcToPg;     //!< port * 8 + priority
    std::vector<uint8_t> m_lossless;   //!< per port: pfc_enable mask
    std::vector<uint8_t> m_poolIsBoth; //!< per pool: type both (charged once per packet)
    uint64_t m_unaccounted{0};         //!< bytes of PGs with no ingress profile

    TracedCallback<uint32_t, uint8_t, uint32_t> m_headroomOverflowTrace;
    TracedCallback<uint32_t, uint8_t, bool> m_pgPauseTrace;
    TracedValue<uint64_t> m_headroomInUse{0}; //!< PG headroom bytes over all pools
};

} // namespace ns3

#endif /* SONIC_BUFFER_MANAGER_H */
