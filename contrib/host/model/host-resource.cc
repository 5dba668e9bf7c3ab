/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "host-resource.h"

#include "ns3/boolean.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HostResource");
NS_OBJECT_ENSURE_REGISTERED(HostResource);

TypeId
HostResource::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::HostResource")
            .SetParent<Object>()
            .SetGroupName("Host")
            .AddAttribute("Failed", "Whether the resource has failed (zero capacity).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&HostResource::SetFailed, &HostResource::IsFailed),
                          MakeBooleanChecker())
            .AddTraceSource("Capacity", "DMA payload capacity after every change.",
                            MakeTraceSourceAccessor(&HostResource::m_capacityTrace),
                            "ns3::DataRate::TracedCallback");
    return tid;
}

HostResource::HostResource()
    : m_latency(Seconds(0))
    , m_failed(false)
{
}

HostResource::~HostResource() = default;

void
HostResource::DoDispose()
{
    m_changed = Callback<void>();
    Object::DoDispose();
}

DataRate
HostResource::GetCapacity() const
{
    return m_failed ? DataRate(0) : DoGetCapacity();
}

Time
HostResource::GetLatency() const
{
    return m_latency;
}

void
HostResource::SetLatency(Time latency)
{
    m_latency = latency;
    NotifyChanged();
}

HostResource::Sharing
HostResource::GetSharing() const
{
    return DoGetSharing();
}

void
HostResource::SetFailed(bool failed)
{
    m_failed = failed;
    NotifyChanged();
}

bool
HostResource::IsFailed() const
{
    return m_failed;
}

void
HostResource::SetResourceName(const std::string& name)
{
    m_name = name;
}

const std::string&
HostResource::GetResourceName() const
{
    return m_name;
}

void
HostResource::SetChangeCallback(Callback<void> cb)
{
    m_changed = cb;
}

void
HostResource::NotifyChanged()
{
    NS_LOG_FUNCTION(this << m_name);
    if (!m_changed.IsNull())
    {
        m_capacityTrace(GetCapacity());
        m_changed();
    }
}

} // namespace ns3
