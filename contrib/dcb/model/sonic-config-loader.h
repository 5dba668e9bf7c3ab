/*
 * Reads the buffer tables of a SONiC config_db JSON file into a
 * SonicBufferConfig (spec-buffers-pfc-dcqcn.md §1.2, §1.11, §5).
 */
#ifndef SONIC_CONFIG_LOADER_H
#define SONIC_CONFIG_LOADER_H

#include "sonic-buffer-config.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dcb
 * config_db JSON -> SonicBufferConfig.
 *
 * Layouts: config_db.json nesting ({"BUFFER_POOL": {"name": {...}}}) and the flat
 * Redis keys that sonic-db-dump writes ({"BUFFER_POOL|name": {...}}), also mixed.
 * Several files are merged in order, a later file's fields overriding an earlier
 * one's for the same entry (as `sonic-cfggen -j a.json -j b.json`).
 *
 * Tables read: BUFFER_POOL (a pool without size is sized by SonicBufferManager,
 * dynamic model), BUFFER_PROFILE, BUFFER_PG ("Ethernet0|3-4", port lists
 * "Ethernet0,Ethernet4|3-4" allowed; no profile or profile "NULL": headroom
 * calculated from speed and cable, dynamic model), BUFFER_QUEUE, PORT (speed, mtu),
 * CABLE_LENGTH, PORT_QOS_MAP (pfc_enable, dscp_to_tc_map, tc_to_pg_map; tc_to_queue_map
 * and pfc_to_queue_map where they are the identity; the "global" entry's
 * dscp_to_tc_map), DSCP_TO_TC_MAP, TC_TO_PRIORITY_GROUP_MAP, TC_TO_QUEUE_MAP,
 * MAP_PFC_PRIORITY_TO_QUEUE, QUEUE (wred_profile, scheduler), WRED_PROFILE (green),
 * SCHEDULER (STRICT / WRR / DWRR, weight), PFC_WD, DEFAULT_LOSSLESS_BUFFER_PARAMETER
 * (default_dynamic_th) and DEVICE_METADATA|localhost (switch_type, buffer_model).
 * Every other table, and every other field of these, is named by GetUnmodelled()
 * in one line. BUFFER_QUEUE and QUEUE keys may name VoQ-chassis system ports,
 * "<host>|<asic>|Ethernet0|3-4" (buffers_config.j2); the chassis is one switch, so all
 * such keys must share one <host>|<asic>. Sizes are decimal strings of bytes, as SONiC
 * writes them (JSON integers are accepted too); references may be written
 * "[BUFFER_POOL|name]" or "name".
 *
 * Port names become switch port indices through the map given to SetPortMap (ports
 * it leaves out are skipped, and listed in the notes), or by the EthernetN rule:
 * by default the ports named anywhere in the file, in the order of N, take indices
 * 0, 1, 2, ... (any naming: 4-lane Ethernet0/4/8, 8-lane Ethernet0/8/16, breakout
 * Ethernet0/1/2/3); SetEthernetDivisor(d) makes EthernetN port N / d instead.
 *
 * Nothing aborts and nothing is printed: bad input throws ConfigError naming the file,
 * the JSON pointer of the offending field and what is wrong with it (the suite's rule,
 * doc/architecture.md). The files are read through JsonSchemaReader (contrib/config; syntax
 * errors name line and column, duplicate keys are errors) and their tables gathered by
 * SonicConfigTables.
 */
class SonicConfigLoader
{
  public:
    SonicConfigLoader();

    /** Explicit port name -> device index map (takes precedence over the EthernetN rule). */
    void SetPortMap(const std::map<std::string, uint32_t>& portMap);
    /** EthernetN -> N / divisor (N must be a multiple); 0 (default): rank in the order of N. */
    void SetEthernetDivisor(uint32_t divisor);

    /**
     * Read and check \p paths (several files: comma-separated, as `config reload` takes
     * them, merged in order). Throws ConfigError.
     */
    SonicBufferConfig Read(const std::string& paths);
    /** Same, for files merged in order. */
    SonicBufferConfig Read(const std::vector<std::string>& paths);
    /** Same, from text; \p source names it in errors. */
    SonicBufferConfig ReadString(const std::string& text, const std::string& source);

    /** Defaults taken and ports skipped, one line each. */
    const std::vector<std::string>& GetNotes() const;
    /**
     * One line naming, per file, the tables and fields that are not modelled and
     * were ignored ("<file>: tables A, B; fields T.f, T.g", files joined by "; ");
     * "" when everything was read.
     */
    const std::string& GetUnmodelled() const;

  private:
    SonicBufferConfig Load(const std::vector<std::pair<std::string, std::string>>& texts);

    std::map<std::string, uint32_t> m_portMap;
    uint32_t m_divisor{0};
    std::vector<std::string> m_notes;
    std::string m_unmodelled;
};

} // namespace ns3

#endif /* SONIC_CONFIG_LOADER_H */
