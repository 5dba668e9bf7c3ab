/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef HOST_CONFIG_LOADER_H
#define HOST_CONFIG_LOADER_H

#include "ns3/host-model.h"

#include <string>

namespace ns3
{

/**
 * \ingroup host
 * Reads an intra-host graph from JSON:
 * \code
 * { "devices": [ {"name": "rnic0", "type": "RnicPort", "attributes": {"LineRate": "100Gbps"}},
 *                {"name": "rp0", "type": "RootPort"}, ... ],
 *   "links":   [ {"name": "pcie-rnic0", "type": "PcieLink", "ends": ["rnic0", "rp0"],
 *                 "attributes": {"Generation": 3, "Lanes": 16}},
 *                {"ends": ["rp0", "rc0"]} ] }
 * \endcode
 * Device types: RnicPort, PcieSwitch, RootPort, RootComplex, MemoryChannel, GpuDevice,
 * CxlSwitch, CxlMemoryDevice.
 * Link types: PcieLink, SocketLink, CxlLink; a link without "type" is an ideal connection.
 * Attribute values are strings or numbers in ns-3 attribute syntax.
 * Nothing aborts and nothing is printed: Load returns false and GetError() names the file
 * and the JSON pointer of the offending field.
 */
class HostConfigLoader
{
  public:
    bool LoadFile(const std::string& path, Ptr<HostModel>& host);
    bool LoadString(const std::string& text, const std::string& source, Ptr<HostModel>& host);
    const std::string& GetError() const;

  private:
    std::string m_error;
};

} // namespace ns3

#endif /* HOST_CONFIG_LOADER_H */
