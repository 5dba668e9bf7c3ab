#include "rdma-srnic-wire-extensions.h"

#include <algorithm>

namespace ns3
{

void
RdmaSrnicWireExtensions::SetEnabled(bool enabled)
{
    m_enabled = enabled;
}

bool
RdmaSrnicWireExtensions::IsEnabled() const
{
    return m_enabled;
}

void
RdmaSrnicWireExtensions::AddToReadRequest(Ptr<Packet> packet, uint64_t localVa, uint32_t length,
                                          uint32_t index) const
{
    if (!m_enabled)
    {
        return;
    }
    // Where the responses go, for the responder to echo (the model has no local key: 0).
    RoceSrnicExtHeader ext;
    ext.SetKind(RoceSrnicExtHeader::Kind::Read);
    ext.SetVirtualAddress(localVa);
    ext.SetDmaLength(length);
    ext.SetPsnOffset(index);
    packet->AddHeader(ext);
}

void
RdmaSrnicWireExtensions::AddToRequest(Ptr<Packet> packet, RoceOpcode op, const RdmaWorkRequest& wr,
                                      uint64_t firstPsn, uint64_t offset, uint32_t index) const
{
    if (!m_enabled)
    {
        return;
    }
    RoceSrnicExtHeader ext;
    ext.SetPsnOffset(index);
    if (wr.verb == RdmaVerb::Send)
    {
        ext.SetKind(RoceSrnicExtHeader::Kind::Send);
        ext.SetSsn(static_cast<uint32_t>(firstPsn)); // message id: its first PSN
    }
    else
    {
        ext.SetKind(RoceBthHeader::HasReth(op) ? RoceSrnicExtHeader::Kind::WriteReth
                                               : RoceSrnicExtHeader::Kind::Write);
        ext.SetVirtualAddress(wr.remoteAddr + offset);
        ext.SetRemoteKey(wr.rkey);
        ext.SetDmaLength(static_cast<uint32_t>(wr.length));
    }
    packet->AddHeader(ext);
}

void
RdmaSrnicWireExtensions::RemoveAckEcho(Ptr<Packet> packet) const
{
    if (!m_enabled)
    {
        return;
    }
    // SSN + PSN offset of the answered request packet: they name its WQE without a
    // table; the requester's completion is the cumulative walk from the send queue's
    // head, which needs no lookup.
    RoceSrnicExtHeader echo;
    echo.SetKind(RoceSrnicExtHeader::Kind::Echo);
    packet->RemoveHeader(echo);
}

bool
RdmaSrnicWireExtensions::RemoveFromReadResponse(Ptr<Packet> packet, uint32_t& psnOffset,
                                                uint64_t& placeAt) const
{
    if (!m_enabled)
    {
        return false;
    }
    // The echoed PSN offset names the message (its first PSN) and the echoed address
    // is where this packet's data goes.
    RoceSrnicExtHeader ext;
    ext.SetKind(RoceSrnicExtHeader::Kind::Read);
    packet->RemoveHeader(ext);
    psnOffset = ext.GetPsnOffset();
    placeAt = ext.GetVirtualAddress();
    return true;
}

bool
RdmaSrnicWireExtensions::ReadRequest(uint64_t psn, RoceOpcode op, Ptr<Packet> packet, bool remove,
                                     RoceSrnicExtHeader& ext, AckEcho& echo) const
{
    if (!m_enabled)
    {
        return false;
    }
    ext.SetKind(op == RoceOpcode::ReadRequest ? RoceSrnicExtHeader::Kind::Read
                : RoceBthHeader::IsSend(op)   ? RoceSrnicExtHeader::Kind::Send
                : RoceBthHeader::HasReth(op)  ? RoceSrnicExtHeader::Kind::WriteReth
                                              : RoceSrnicExtHeader::Kind::Write);
    if (remove)
    {
        packet->RemoveHeader(ext);
    }
    else
    {
        packet->PeekHeader(ext);
    }
    // The SSN is the message's first PSN (what SEND packets carry): the PSN less the
    // PSN offset for WRITE and READ.
    echo.ssn = ext.GetKind() == RoceSrnicExtHeader::Kind::Send
                   ? ext.GetSsn()
                   : RoceBthHeader::WirePsn(psn - std::min<uint64_t>(psn, ext.GetPsnOffset()));
    echo.psnOffset = ext.GetPsnOffset();
    return true;
}

RdmaSrnicWireExtensions::ReadEcho
RdmaSrnicWireExtensions::MakeReadEcho(const RoceSrnicExtHeader& ext) const
{
    ReadEcho echo;
    if (m_enabled)
    {
        echo.va = ext.GetVirtualAddress();
        echo.key = ext.GetRemoteKey();
        echo.length = ext.GetDmaLength();
        echo.offset = ext.GetPsnOffset();
    }
    return echo;
}

void
RdmaSrnicWireExtensions::AddToReadResponse(Ptr<Packet> packet, const ReadEcho& echo,
                                           uint64_t offset, uint32_t index) const
{
    if (!m_enabled)
    {
        return;
    }
    // Echo the request's metadata for this packet: the requester places it from the
    // header alone, in order or not.
    RoceSrnicExtHeader ext;
    ext.SetKind(RoceSrnicExtHeader::Kind::Read);
    ext.SetVirtualAddress(echo.va + offset);
    ext.SetRemoteKey(echo.key);
    ext.SetDmaLength(echo.length);
    ext.SetPsnOffset(echo.offset + index);
    packet->AddHeader(ext);
}

void
RdmaSrnicWireExtensions::AddToAcknowledge(Ptr<Packet> packet, const AckEcho& echo) const
{
    if (!m_enabled)
    {
        return;
    }
    RoceSrnicExtHeader ext;
    ext.SetKind(RoceSrnicExtHeader::Kind::Echo);
    ext.SetSsn(echo.ssn);
    ext.SetPsnOffset(echo.psnOffset);
    packet->AddHeader(ext);
}

} // namespace ns3
