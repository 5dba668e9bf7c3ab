#include "dcb-wire-size-tag.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(DcbWireSizeTag);

TypeId
DcbWireSizeTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DcbWireSizeTag")
                            .SetParent<Tag>()
                            .SetGroupName("Dcb")
                            .AddConstructor<DcbWireSizeTag>();
    return tid;
}

TypeId
DcbWireSizeTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
DcbWireSizeTag::GetSerializedSize() const
{
    return sizeof(m_wireBytes);
}

void
DcbWireSizeTag::Serialize(TagBuffer i) const
{
    i.WriteU16(m_wireBytes);
}

void
DcbWireSizeTag::Deserialize(TagBuffer i)
{
    m_wireBytes = i.ReadU16();
}

void
DcbWireSizeTag::Print(std::ostream& os) const
{
    os << "wireBytes=" << m_wireBytes;
}

Ptr<Packet>
DcbWireSizeTag::Ship(Ptr<Packet> frame, const DcbFrameRecord& record)
{
    if (record.IsDirty())
    {
        DcbFrameRecord current = record;
        current.Materialize(frame);
    }
    Ptr<Packet> shipped = frame->Copy();
    if (record.wireBytes != 0)
    {
        DcbWireSizeTag tag;
        tag.m_wireBytes = record.wireBytes;
        shipped->AddPacketTag(tag);
    }
    return shipped;
}

DcbFrameRecord
DcbWireSizeTag::Land(Ptr<Packet> frame)
{
    DcbFrameRecord carried;
    DcbWireSizeTag tag;
    if (frame->RemovePacketTag(tag))
    {
        carried.wireBytes = tag.m_wireBytes;
    }
    return carried;
}

} // namespace ns3
