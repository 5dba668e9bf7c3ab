/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "host-dma-flow.h"

#include "rnic-port.h"

#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HostDmaFlow");
NS_OBJECT_ENSURE_REGISTERED(HostDmaFlow);

TypeId
HostDmaFlow::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::HostDmaFlow")
            .SetParent<Object>()
            .SetGroupName("Host")
            .AddConstructor<HostDmaFlow>()
            .AddAttribute("Kind",
                          "What the flow moves, seen from the RNIC. Default Loopback: RDMA "
                          "between two VMs of the host (Azure NSDI'23 §8.3).",
                          EnumValue(HostModel::DMA_LOOPBACK),
                          MakeEnumAccessor(&HostDmaFlow::m_kind),
                          MakeEnumChecker(HostModel::DMA_READ, "Read", HostModel::DMA_WRITE,
                                          "Write", HostModel::DMA_LOOPBACK, "Loopback"))
            .AddAttribute("ChunkSize",
                          "Bytes per DMA of the flow. Default 65536 B (assumption: a 64 KiB "
                          "message; only the granularity of rate changes depends on it).",
                          UintegerValue(65536), MakeUintegerAccessor(&HostDmaFlow::m_chunk),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("MaxRate",
                          "Cap on the flow's rate; 0 for none (as fast as the host allows). "
                          "Default 0.",
                          DataRateValue(DataRate(0)), MakeDataRateAccessor(&HostDmaFlow::m_maxRate),
                          MakeDataRateChecker());
    return tid;
}

HostDmaFlow::HostDmaFlow() = default;

HostDmaFlow::~HostDmaFlow() = default;

void
HostDmaFlow::DoDispose()
{
    if (m_host && m_current != 0)
    {
        m_host->CancelDma(m_current);
    }
    m_running = false;
    m_host = nullptr;
    Object::DoDispose();
}

std::string
HostDmaFlow::Setup(Ptr<HostModel> host, const std::string& rnic, const std::string& target)
{
    const uint32_t a = host->GetResourceId(rnic);
    const uint32_t b = host->GetResourceId(target);
    if (a == HostModel::NONE || !DynamicCast<RnicPort>(host->GetResource(a)))
    {
        return "HostDmaFlow: '" + rnic + "' is not an RnicPort";
    }
    if (b == HostModel::NONE || host->IsLink(b) || host->GetPath(a, b).empty())
    {
        return "HostDmaFlow: no DMA path from '" + rnic + "' to '" + target + "'";
    }
    m_host = host;
    m_rnic = a;
    m_target = b;
    return "";
}

void
HostDmaFlow::Start()
{
    NS_ABORT_MSG_IF(!m_host, "HostDmaFlow::Start before a successful Setup");
    if (!m_running)
    {
        m_running = true;
        if (m_current == 0)
        {
            Issue();
        }
    }
}

void
HostDmaFlow::Stop()
{
    m_running = false;
    if (m_current != 0)
    {
        m_host->CancelDma(m_current);
        m_current = 0;
    }
}

bool
HostDmaFlow::IsRunning() const
{
    return m_running;
}

uint64_t
HostDmaFlow::GetBytesMoved() const
{
    return m_moved;
}

void
HostDmaFlow::Issue()
{
    m_current = m_host->RequestDma(m_rnic, m_target, m_kind, m_chunk, HostModel::DmaCallback(),
                                   MakeCallback(&HostDmaFlow::OnTransferred, this));
    if (m_maxRate.GetBitRate() > 0)
    {
        m_host->SetDmaRateCap(m_current, m_maxRate);
    }
}

void
HostDmaFlow::OnTransferred()
{
    m_current = 0;
    m_moved += m_chunk;
    if (m_running)
    {
        Issue();
    }
}

} // namespace ns3
