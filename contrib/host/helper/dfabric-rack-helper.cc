/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dfabric-rack-helper.h"

#include "ns3/cpu-socket.h"
#include "ns3/cxl-link.h"
#include "ns3/cxl-memory-device.h"
#include "ns3/cxl-switch.h"
#include "ns3/json-attribute-converter.h"
#include "ns3/json-schema-reader.h"
#include "ns3/memory-channel.h"
#include "ns3/rnic-port.h"
#include "ns3/string.h"

#include <nlohmann/json.hpp>

namespace ns3
{

DfabricRackHelper::DfabricRackHelper()
    : m_hosts(4)
    , m_nics(1)
    , m_poolDevices(0)
    , m_cpus(false)
{
    m_nic.SetTypeId(RnicPort::GetTypeId());
    m_link.SetTypeId(CxlLink::GetTypeId());
    m_switch.SetTypeId(CxlSwitch::GetTypeId());
    m_localMemory.SetTypeId(MemoryChannel::GetTypeId());
    m_poolMemory.SetTypeId(CxlMemoryDevice::GetTypeId());
    m_nicPool.SetTypeId(NicPool::GetTypeId());
    m_cpu.SetTypeId(CpuSocket::GetTypeId());
}

void
DfabricRackHelper::SetCpus(bool cpus)
{
    m_cpus = cpus;
}

void
DfabricRackHelper::SetCpuAttribute(const std::string& name, const AttributeValue& value)
{
    m_cpu.Set(name, value);
}

void
DfabricRackHelper::SetHosts(uint32_t hosts)
{
    m_hosts = hosts;
}

void
DfabricRackHelper::SetNicPoolSize(uint32_t nics)
{
    m_nics = nics;
}

void
DfabricRackHelper::SetMemoryPoolDevices(uint32_t devices)
{
    m_poolDevices = devices;
}

void
DfabricRackHelper::SetNicAttribute(const std::string& name, const AttributeValue& value)
{
    m_nic.Set(name, value);
}

void
DfabricRackHelper::SetCxlLinkAttribute(const std::string& name, const AttributeValue& value)
{
    m_link.Set(name, value);
}

void
DfabricRackHelper::SetSwitchAttribute(const std::string& name, const AttributeValue& value)
{
    m_switch.Set(name, value);
}

void
DfabricRackHelper::SetLocalMemoryAttribute(const std::string& name, const AttributeValue& value)
{
    m_localMemory.Set(name, value);
}

void
DfabricRackHelper::SetPoolMemoryAttribute(const std::string& name, const AttributeValue& value)
{
    m_poolMemory.Set(name, value);
}

void
DfabricRackHelper::SetNicPoolAttribute(const std::string& name, const AttributeValue& value)
{
    m_nicPool.Set(name, value);
}

uint32_t
DfabricRackHelper::GetHosts() const
{
    return m_hosts;
}

void
DfabricRackHelper::Configure(const nlohmann::json& rack, const JsonSchemaReader& reader,
                             const std::string& pointer)
{
    struct Count
    {
        const char* key;
        uint32_t* field;
        uint32_t min;
        uint32_t max;
    };
    const Count counts[] = {{"hosts", &m_hosts, 1, 64},
                            {"nic_pool_size", &m_nics, 1, 64},
                            {"memory_pool_devices", &m_poolDevices, 0, 64}};
    struct Factory
    {
        const char* key;
        ObjectFactory* factory;
    };
    const Factory factories[] = {{"nic", &m_nic},
                                 {"cxl_link", &m_link},
                                 {"switch", &m_switch},
                                 {"local_memory", &m_localMemory},
                                 {"pool_memory", &m_poolMemory},
                                 {"nic_pool", &m_nicPool},
                                 {"cpu", &m_cpu}};
    std::vector<std::string> keys;
    for (const auto& c : counts)
    {
        keys.emplace_back(c.key);
    }
    for (const auto& f : factories)
    {
        keys.emplace_back(f.key);
    }
    reader.CheckKeys(rack, pointer, keys);
    for (const auto& c : counts)
    {
        *c.field =
            static_cast<uint32_t>(reader.GetUint(rack, pointer, c.key, *c.field, c.min, c.max));
    }
    for (const auto& f : factories)
    {
        const nlohmann::json* value = JsonSchemaReader::Find(rack, f.key);
        if (!value)
        {
            continue;
        }
        const std::string at = JsonSchemaReader::Child(pointer, f.key);
        if (!value->is_object())
        {
            reader.Fail(at, "must be an object of attribute values");
        }
        const TypeId tid = f.factory->GetTypeId();
        for (const auto& [name, v] : value->items())
        {
            const std::string where = JsonSchemaReader::Child(at, name);
            TypeId::AttributeInformation info;
            if (!tid.LookupAttributeByName(name, &info))
            {
                reader.Fail(where, "no attribute '" + name + "' in " + tid.GetName());
            }
            const std::string text = v.is_string() ? v.get<std::string>() : v.dump();
            std::string why;
            Ptr<AttributeValue> parsed = JsonAttributeConverter::FromJson(info, v, why);
            if (!parsed)
            {
                reader.Fail(where, "invalid value '" + text + "': " + why);
            }
            // Setters may refuse a value the checker lets through (e.g. 3 lanes): try it.
            Ptr<Object> probe = f.factory->Create();
            if (!probe->SetAttributeFailSafe(name, *parsed))
            {
                reader.Fail(where, "value '" + text + "' out of range");
            }
            f.factory->Set(name, *parsed);
        }
        m_cpus = m_cpus || f.factory == &m_cpu;
    }
}

DfabricRack
DfabricRackHelper::Create() const
{
    DfabricRack rack;
    rack.host = CreateObject<HostModel>();
    Ptr<HostModel> h = rack.host;
    h->AddDevice("sw", m_switch.Create<HostResource>());
    for (uint32_t i = 0; i < m_hosts; ++i)
    {
        std::string mem = "cn" + std::to_string(i) + "-mem";
        rack.cnMemory.push_back(h->AddDevice(mem, m_localMemory.Create<HostResource>()));
        h->AddLink("cxl-cn" + std::to_string(i), m_link.Create<HostResource>(), mem, "sw");
    }
    std::vector<uint32_t> nics;
    for (uint32_t j = 0; j < m_nics; ++j)
    {
        std::string nic = "nic" + std::to_string(j);
        nics.push_back(h->AddDevice(nic, m_nic.Create<HostResource>()));
        h->AddLink("cxl-" + nic, m_link.Create<HostResource>(), nic, "sw");
    }
    for (uint32_t k = 0; k < m_poolDevices; ++k)
    {
        std::string mem = "pmem" + std::to_string(k);
        rack.poolMemory.push_back(h->AddDevice(mem, m_poolMemory.Create<HostResource>()));
        h->AddLink("cxl-" + mem, m_link.Create<HostResource>(), mem, "sw");
    }
    for (uint32_t i = 0; i < m_hosts && m_cpus; ++i)
    {
        std::string cpu = "cn" + std::to_string(i) + "-cpu";
        rack.cnCpu.push_back(h->AddDevice(cpu, m_cpu.Create<HostResource>()));
        h->AddLink("cxl-" + cpu, m_link.Create<HostResource>(), cpu, "sw");
        h->Connect(cpu, "cn" + std::to_string(i) + "-mem");
    }
    rack.pool = m_nicPool.Create<NicPool>();
    rack.pool->Setup(h, nics);
    return rack;
}

} // namespace ns3
