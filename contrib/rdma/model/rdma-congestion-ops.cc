#include "rdma-congestion-ops.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaCongestionOps);

TypeId
RdmaCongestionOps::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaCongestionOps").SetParent<Object>().SetGroupName("Rdma");
    return tid;
}

RdmaCongestionOps::~RdmaCongestionOps() = default;

bool
RdmaCongestionOps::WantsEcnEcho() const
{
    return false;
}

bool
RdmaCongestionOps::WantsCnpInAckBecn() const
{
    return false;
}

void
RdmaCongestionOps::OnRetransmit(bool /*timeout*/)
{
}

bool
RdmaCongestionOps::WantsRttSamples() const
{
    return false;
}

uint8_t
RdmaCongestionOps::GetIntHops() const
{
    return 0;
}

void
RdmaCongestionOps::OnIntAck(const IntTrailer& /*echo*/, uint64_t /*ackedPsn*/, uint64_t /*nextPsn*/)
{
}

Time
RdmaCongestionOps::GetCnpGenerationTime() const
{
    return Time(0);
}

uint32_t
RdmaCongestionOps::GetCnpGenerationQueue() const
{
    return 0;
}

bool
RdmaCongestionOps::CheckAttributes(DataRate /*lineRate*/, std::string& attribute,
                                   std::string& reason) const
{
    attribute.clear();
    reason.clear();
    return true;
}

void
RdmaCongestionOps::Stop()
{
}

void
RdmaCongestionOps::DoDispose()
{
    Stop();
    Object::DoDispose();
}

} // namespace ns3
