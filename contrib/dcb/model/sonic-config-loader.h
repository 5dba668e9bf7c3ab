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
 * Tables read: BUFFER_POOL, BUFFER_PROFILE, BUFFER_PG ("Ethernet0|3-4",
 * port lists "Ethernet0,Ethernet4|3-4" allowed), BUFFER_QUEUE,
 * PORT_QOS_MAP (pfc_enable, tc_to_pg_map), TC_TO_PRIORITY_GROUP_MAP,
 * QUEUE (wred_profile), WRED_PROFILE, PFC_WD, and DEVICE_METADATA|localhost
 * switch_type (still listed as ignored: nothing else of it is used). Any other
 * table is ignored and listed in the notes. BUFFER_QUEUE and QUEUE keys may name
 * VoQ-chassis system ports, "<host>|<asic>|Ethernet0|3-4" (buffers_config.j2);
 * the chassis is one switch, so all such keys must share one <host>|<asic>. Sizes are decimal
 * strings of bytes, as SONiC writes them (JSON integers are accepted too); references may be
 * written
 * "[BUFFER_POOL|name]" or "name".
 *
 * Port names become switch port indices through the map given to SetPortMap,
 * or, without a map, by the EthernetN rule of SetEthernetDivisor (N / 4 by
 * default: SONiC names 4-lane ports Ethernet0, Ethernet4, ...; divisor 1 gives
 * N). The configuration covers ports 0 .. highest index named.
 *
 * Nothing aborts and nothing is printed: Load returns false and GetError()
 * names the file and the JSON pointer of the offending field.
 */
class SonicConfigLoader
{
  public:
    SonicConfigLoader();

    /** Explicit port name -> device index map (takes precedence over the EthernetN rule). */
    void SetPortMap(const std::map<std::string, uint32_t>& portMap);
    /** EthernetN -> N / divisor (divisor 4 by default; N must be a multiple). */
    void SetEthernetDivisor(uint32_t divisor);

    /** Read and check \p path; on success fill \p config. */
    bool LoadFile(const std::string& path, SonicBufferConfig& config);
    /** Same, from text; \p source names it in errors. */
    bool LoadString(const std::string& text, const std::string& source, SonicBufferConfig& config);

    const std::string& GetError() const;
    /** Ignored tables and defaults taken, one line each. */
    const std::vector<std::string>& GetNotes() const;

  private:
    std::map<std::string, uint32_t> m_portMap;
    uint32_t m_divisor{4};
    std::string m_error;
    std::vector<std::string> m_notes;
};

} // namespace ns3

#endif /* SONIC_CONFIG_LOADER_H */
