/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dfabric-rack-hop.h"

#include "ns3/abort.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(DfabricRackHop);

TypeId
DfabricRackHop::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DfabricRackHop").SetParent<RingHop>().SetGroupName("Host");
    return tid;
}

std::vector<Ptr<RingHop>>
DfabricRackHop::MakeRing(const std::vector<DfabricRack>& racks)
{
    std::vector<Ptr<RingHop>> hops;
    for (uint32_t r = 0; r < racks.size(); ++r)
    {
        const DfabricRack& rack = racks[r];
        NS_ABORT_MSG_IF(!rack.host || !rack.pool || rack.cnMemory.empty(),
                        "DfabricRackHop: a rack needs a graph, a NIC pool and nodes");
        for (uint32_t i = 0; i + 1 < rack.cnMemory.size(); ++i)
        {
            hops.push_back(InsideRack());
        }
        // the rack's last node sends to the next rack's first (itself with one rack)
        hops.push_back(racks.size() > 1 ? Ptr<RingHop>(Between(rack, racks[(r + 1) % racks.size()]))
                                        : Ptr<RingHop>(InsideRack()));
    }
    return hops;
}

double
DfabricRackHop::GetOptimalMicros(const std::vector<DfabricRack>& racks, uint64_t bytes)
{
    uint32_t p = 0;
    for (const DfabricRack& r : racks)
    {
        p += r.cnMemory.size();
    }
    const double link = racks.front().host->GetResource("cxl-cn0")->GetCapacity().GetBitRate();
    return 2.0 * (p - 1) * (static_cast<double>(bytes) / p) * 8 / link * 1e6;
}

Ptr<DfabricRackHop>
DfabricRackHop::InsideRack()
{
    return CreateObject<DfabricRackHop>();
}

Ptr<DfabricRackHop>
DfabricRackHop::Between(const DfabricRack& from, const DfabricRack& to)
{
    Ptr<DfabricRackHop> hop = CreateObject<DfabricRackHop>();
    hop->m_sendPool = from.pool;
    hop->m_receivePool = to.pool;
    hop->m_source =
        from.poolMemory.empty() ? std::vector<uint32_t>{from.cnMemory.back()} : from.poolMemory;
    hop->m_destination =
        to.poolMemory.empty() ? std::vector<uint32_t>{to.cnMemory.front()} : to.poolMemory;
    return hop;
}

void
DfabricRackHop::DoDispose()
{
    m_reference.Cancel();
    m_sendPool = nullptr;
    m_receivePool = nullptr;
    RingHop::DoDispose();
}

void
DfabricRackHop::DoSend(uint64_t bytes, uint64_t /* offset */)
{
    if (!m_sendPool)
    {
        m_reference = Simulator::ScheduleNow(&DfabricRackHop::NotifyDone, this);
        return;
    }
    m_outstanding = 2;
    auto half = MakeCallback(&DfabricRackHop::OnHalfDone, this);
    m_sendPool->Transfer(m_source, HostModel::DMA_READ, bytes, half);
    m_receivePool->Transfer(m_destination, HostModel::DMA_WRITE, bytes, half);
}

void
DfabricRackHop::OnHalfDone()
{
    if (--m_outstanding == 0)
    {
        NotifyDone();
    }
}

} // namespace ns3
