/*
 * The wire-size override of a frame, carried across an MPI rank boundary.
 */
#ifndef DCB_WIRE_SIZE_TAG_H
#define DCB_WIRE_SIZE_TAG_H

#include "dcb-frame-record.h"

#include "ns3/packet.h"
#include "ns3/tag.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup dcb
 * A frame's wire-size override (DcbFrameRecord::wireBytes, set by RdmaNic Framing HpccSim)
 * as a packet tag, for the one place a frame leaves its record behind: a link between two
 * MPI ranks (DcbRemoteChannel). MpiInterface::SendPacket ships the packet serialized, its
 * packet tags included (ns-3's Packet::Serialize), so the sending rank writes the record
 * into the bytes and tags the override (Ship), and the receiving rank takes the tag off and
 * hands its device a record carrying the override (Land), which the device's first-hop parse
 * keeps (DcbFrameRecord::Parse(frame, carried)). The frame then counts the same bytes and
 * serializes in the same time on either side, and a distributed run matches a sequential
 * one. Frames without an override carry no tag; no device, capture or trace sees one.
 */
class DcbWireSizeTag : public Tag
{
  public:
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer i) const override;
    void Deserialize(TagBuffer i) override;
    void Print(std::ostream& os) const override;

    /**
     * \return what the sending rank ships for \p frame carried with \p record: a copy of the
     * frame with the record's changes written into its bytes (into \p frame too, when the
     * record is dirty) and, when the record has a wire-size override, this tag.
     */
    static Ptr<Packet> Ship(Ptr<Packet> frame, const DcbFrameRecord& record);
    /**
     * On the receiving rank: remove the tag from \p frame, if any, and \return the record to
     * hand DcbNetDevice::ReceiveFrame: not parsed, carrying the override (0: none).
     */
    static DcbFrameRecord Land(Ptr<Packet> frame);

  private:
    uint16_t m_wireBytes{0};
};

} // namespace ns3

#endif /* DCB_WIRE_SIZE_TAG_H */
