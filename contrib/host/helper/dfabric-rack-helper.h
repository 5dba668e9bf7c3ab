/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DFABRIC_RACK_HELPER_H
#define DFABRIC_RACK_HELPER_H

#include "ns3/host-model.h"
#include "ns3/nic-pool.h"
#include "ns3/object-factory.h"

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace ns3
{

class JsonSchemaReader;

/// One DFabric rack: its graph, its NIC pool and the memories ranks use.
struct DfabricRack
{
    Ptr<HostModel> host;
    Ptr<NicPool> pool;
    std::vector<uint32_t> cnMemory;   //!< local memory of compute node i
    std::vector<uint32_t> poolMemory; //!< CXL memory devices of the memory pool (may be empty)
    std::vector<uint32_t> cnCpu;      //!< CpuSocket of compute node i (empty unless SetCpus)
};

/**
 * \ingroup host
 * Builds a DFabric rack (DFabric, Fig. 1b and Fig. 3): one CXL switch "sw"; compute node i
 * with local memory "cn<i>-mem" (a MemoryChannel) on CXL link "cxl-cn<i>"; pooled NIC j
 * "nic<j>" (an RnicPort) on "cxl-nic<j>"; memory-pool device k "pmem<k>" (a CxlMemoryDevice)
 * on "cxl-pmem<k>". With SetCpus, compute node i also has a CPU "cn<i>-cpu" (a CpuSocket,
 * the load/store initiator) beside its memory: joined to it directly and to the switch by its
 * own CXL link "cxl-cn<i>-cpu", so a load from the pool does not cross the node's memory (the
 * CPUs are added after every other resource, which keeps the others' indices). Every resource
 * takes its TypeId defaults unless set here.
 */
class DfabricRackHelper
{
  public:
    DfabricRackHelper();

    void SetHosts(uint32_t hosts);
    void SetNicPoolSize(uint32_t nics);
    void SetMemoryPoolDevices(uint32_t devices);
    void SetNicAttribute(const std::string& name, const AttributeValue& value);
    void SetCxlLinkAttribute(const std::string& name, const AttributeValue& value);
    void SetSwitchAttribute(const std::string& name, const AttributeValue& value);
    void SetLocalMemoryAttribute(const std::string& name, const AttributeValue& value);
    void SetPoolMemoryAttribute(const std::string& name, const AttributeValue& value);
    void SetNicPoolAttribute(const std::string& name, const AttributeValue& value);
    /// Give every compute node a CpuSocket (default: none).
    void SetCpus(bool cpus);
    void SetCpuAttribute(const std::string& name, const AttributeValue& value);

    /**
     * Apply a JSON rack description: any of "hosts", "nic_pool_size", "memory_pool_devices"
     * (integers) and "nic", "cxl_link", "switch", "local_memory", "pool_memory", "nic_pool",
     * "cpu" (objects of attribute name -> value, read by JsonAttributeConverter; "cpu" also
     * turns SetCpus on). Bad input throws ConfigError naming \p reader's file, the JSON
     * pointer of the bad field (below \p pointer, the pointer of \p rack) and what is wrong.
     */
    void Configure(const nlohmann::json& rack, const JsonSchemaReader& reader,
                   const std::string& pointer);

    /** \return the number of compute nodes per rack. */
    uint32_t GetHosts() const;

    DfabricRack Create() const;

  private:
    uint32_t m_hosts;
    uint32_t m_nics;
    uint32_t m_poolDevices;
    ObjectFactory m_nic;
    ObjectFactory m_link;
    ObjectFactory m_switch;
    ObjectFactory m_localMemory;
    ObjectFactory m_poolMemory;
    ObjectFactory m_nicPool;
    bool m_cpus;
    ObjectFactory m_cpu;
};

} // namespace ns3

#endif /* DFABRIC_RACK_HELPER_H */
