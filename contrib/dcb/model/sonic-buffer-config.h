/*
 * The SONiC buffer configuration as plain data: pools, profiles, per-port
 * priority-group / queue bindings, PFC-enabled priorities, WRED profiles and
 * PFC watchdog settings (spec-buffers-pfc-dcqcn.md §1.2, §1.11, §5).
 */
#ifndef SONIC_BUFFER_CONFIG_H
#define SONIC_BUFFER_CONFIG_H

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dcb
 * BUFFER_POOL|name. Pools are admission counters over one physical buffer.
 */
struct SonicBufferPool
{
    enum class Type : uint8_t
    {
        INGRESS,
        EGRESS,
        BOTH //!< VoQ chassis templates: one pool for ingress and egress accounting
    };

    std::string name;
    Type type{Type::INGRESS};
    bool dynamic{true};   //!< mode: dynamic (SAI default) or static
    uint64_t size{0};     //!< shared pool size, bytes
    uint64_t xoff{0};     //!< shared headroom pool (SHP) size, bytes; 0 = no SHP
    bool sizeGiven{true}; //!< false: no "size" (dynamic model), SonicBufferManager computes it
};

/**
 * \ingroup dcb
 * BUFFER_PROFILE|name.
 */
struct SonicBufferProfile
{
    std::string name;
    uint32_t pool{0};      //!< index into SonicBufferConfig::pools
    uint64_t size{0};      //!< reserved (guaranteed) bytes
    bool dynamic{true};    //!< dynamic_th (true) or static_th (false)
    int32_t dynamicTh{0};  //!< alpha = 2^dynamicTh
    uint64_t staticTh{0};  //!< absolute shared limit, bytes; 0 = unlimited (SAI)
    uint64_t xoff{0};      //!< lossless PG: max headroom bytes (per-PG cap in the SHP)
    uint64_t xon{0};       //!< XON threshold, bytes
    uint64_t xonOffset{0}; //!< XON hysteresis below the PG limit, bytes
};

/**
 * \ingroup dcb
 * WRED_PROFILE|name, green colour only (RoCE traffic is uncoloured).
 */
struct SonicWredProfile
{
    std::string name;
    bool greenEnable{false};
    uint64_t greenMin{0};             //!< bytes
    uint64_t greenMax{0};             //!< bytes
    double greenDropProbability{1.0}; //!< 0..1 (SONiC writes percent; SAI default 100 %)
    bool ecnMarking{false};           //!< ecn != ecn_none: mark ECT packets instead of dropping
};

/**
 * \ingroup dcb
 * SCHEDULER|name: how an egress queue is served.
 */
struct SonicScheduler
{
    std::string name;
    bool dwrr{false};   //!< type DWRR or WRR (weighted round robin); false: STRICT
    uint32_t weight{1}; //!< weight of a DWRR queue (1-100, SAI)
};

/**
 * \ingroup dcb
 * The buffer-related configuration of one switch port.
 */
struct SonicPortBuffer
{
    static constexpr int32_t NONE = -1;

    std::string name;                    //!< config_db port name, e.g. Ethernet0
    bool configured{false};              //!< named by any table
    std::array<int32_t, 8> pgProfile;    //!< PG -> profile index or NONE
    std::array<std::string, 8> pgKey;    //!< config_db key that set it (for errors)
    std::array<int32_t, 8> queueProfile; //!< queue -> profile index or NONE
    std::array<int32_t, 8> queueWred;    //!< queue -> WRED profile index or NONE
    std::array<uint8_t, 8> tcToPg{{0, 0, 0, 3, 4, 0, 0, 7}}; //!< SONiC AZURE map
    uint8_t pfcEnable{0};                                    //!< bit p = priority p is lossless
    bool watchdog{false};                                    //!< PFC_WD entry present
    std::string watchdogAction{"drop"};                      //!< drop | forward | alert
    uint32_t detectionMs{200};                               //!< PFC_WD detection_time
    uint32_t restorationMs{400};                             //!< PFC_WD restoration_time
    uint8_t pgDynamic{0};   //!< bit pg: BUFFER_PG without profile (dynamic model: calculated)
    uint64_t speedMbps{0};  //!< PORT speed, Mb/s; 0 = the simulated link's rate
    uint32_t mtu{0};        //!< PORT mtu, bytes; 0 = HeadroomCalculator::PortMtu
    double cableMetres{-1}; //!< CABLE_LENGTH, metres; < 0 = from the link's delay
    std::array<int32_t, 8> queueScheduler; //!< queue -> SCHEDULER index or NONE
    bool hasDscpToTc{false};               //!< PORT_QOS_MAP dscp_to_tc_map given
    std::array<uint8_t, 64> dscpToTc{};    //!< DSCP -> TC (when hasDscpToTc)

    SonicPortBuffer();
};

/**
 * \ingroup dcb
 * A whole switch's SONiC buffer configuration, indexed by device port.
 */
struct SonicBufferConfig
{
    std::string source{"(in memory)"}; //!< file it came from, for error messages
    std::vector<SonicBufferPool> pools;
    std::vector<SonicBufferProfile> profiles;
    std::vector<SonicWredProfile> wredProfiles;
    std::vector<SonicScheduler> schedulers;
    std::vector<SonicPortBuffer> ports;
    bool hasGlobalDscpToTc{false};            //!< PORT_QOS_MAP|global dscp_to_tc_map given
    std::array<uint8_t, 64> globalDscpToTc{}; //!< its DSCP -> TC map
    int32_t defaultDynamicTh{0};  //!< DEFAULT_LOSSLESS_BUFFER_PARAMETER default_dynamic_th
    bool flatKeys{false};         //!< keys written "TABLE|key" (sonic-db-dump), for pointers
    uint32_t watchdogPollMs{200}; //!< PFC_WD|GLOBAL POLL_INTERVAL
    std::string switchType;       //!< DEVICE_METADATA|localhost switch_type ("voq" on a chassis)

    /** \return the pool's index or -1. */
    int32_t FindPool(const std::string& name) const;
    /** \return the profile's index or -1. */
    int32_t FindProfile(const std::string& name) const;
    /** \return the WRED profile's index or -1. */
    int32_t FindWredProfile(const std::string& name) const;
    /** \return the JSON pointer of entry \p key of \p table in this file's layout. */
    std::string Pointer(const std::string& table, const std::string& key) const;
    /**
     * \return the DSCP -> TC map of port \p port: its own PORT_QOS_MAP
     * dscp_to_tc_map, else the global one, else nullptr (the switch keeps its own).
     */
    const std::array<uint8_t, 64>* DscpToTc(uint32_t port) const;

    /**
     * Cross-table consistency: profiles on pools of the right direction, every
     * lossless PG bound to a profile with xoff, every egress pool serving lossy
     * queues no larger than the ingress pools (Azure §6.2).
     * Throws ConfigError naming source, the JSON pointer and why.
     */
    void Check() const;

    /**
     * Azure's Listing 1 (NSDI'23 App. A, 24 MB pizza box) bound to \p nPorts
     * ports named Ethernet0, Ethernet4, ... with SONiC's default bindings
     * (buffers_config.j2): PG 0 lossy, PG 3-4 lossless, queues 3-4 lossless,
     * 0-2 and 5-6 lossy, pfc_enable 3,4.
     */
    static SonicBufferConfig AzureListing1(uint32_t nPorts);

    /**
     * A deep-buffer VoQ chassis (Nokia IXR7250E, Broadcom Jericho2; sonic-buildimage
     * buffers_defaults_t2.j2 and pg_profile_lookup.ini, spec §6): one pool
     * `ingress_lossless_pool` of type both, 6,441,610,000 B with a 1,582,033,305 B
     * shared headroom pool; lossless PG 3-4 with the 400G/2000 m lookup row (size 0,
     * xon 2560, xoff 1,445,888, xon_offset 1,454,025, dynamic_th -5); lossy PG 0
     * dynamic_th 0; egress lossless dynamic_th -1, egress lossy dynamic_th -4;
     * pfc_enable 3,4; WRED 2,000,000 / 10,000,000 B / 5 % (ecn_all) on queues 3-4.
     * Ports are named Ethernet0, Ethernet4, ...
     */
    static SonicBufferConfig VoqChassisJ2(uint32_t nPorts);

    /** alpha = 2^n, with SAI/Mellanox bounds n <= -8 -> 0 and n >= 7 -> infinity. */
    static double AlphaFromDynamicTh(int32_t dynamicTh);
};

} // namespace ns3

#endif /* SONIC_BUFFER_CONFIG_H */
