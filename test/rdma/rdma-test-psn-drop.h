// Frame inspection and a PSN-targeted error model shared by the RDMA transport tests.
#ifndef RDMA_TEST_PSN_DROP_H
#define RDMA_TEST_PSN_DROP_H

#include "ns3/error-model.h"
#include "ns3/ethernet-vlan-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/packet.h"
#include "ns3/roce-bth-header.h"
#include "ns3/udp-header.h"

namespace ns3
{

/** Parse the BTH of a RoCEv2 frame; false for frames that are not IPv4. */
inline bool
PeekBth(Ptr<const Packet> frame, RoceBthHeader& bth)
{
    Ptr<Packet> p = frame->Copy();
    EthernetVlanHeader eth;
    p->RemoveHeader(eth);
    if (eth.GetEtherType() != ETHERTYPE_IPV4)
    {
        return false;
    }
    Ipv4Header ip;
    p->RemoveHeader(ip);
    UdpHeader udp;
    p->RemoveHeader(udp);
    p->RemoveHeader(bth);
    return true;
}

/** \return true for request and response packets (not ACK/NAK or CNP). */
inline bool
IsDataPacket(const RoceBthHeader& bth)
{
    return bth.GetOpcode() != RoceOpcode::Acknowledge && bth.GetOpcode() != RoceOpcode::Cnp;
}

/** Drops data packets carrying PSN k, \p times times (first copies first). */
class PsnDropModel : public ErrorModel
{
  public:
    PsnDropModel(uint32_t psn, uint32_t times)
        : m_psn(psn)
        , m_left(times)
    {
    }

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        RoceBthHeader bth;
        if (m_left == 0 || !PeekBth(p, bth) || !IsDataPacket(bth) || bth.GetPsn() != m_psn)
        {
            return false;
        }
        m_left--;
        return true;
    }

    void DoReset() override {}

    uint32_t m_psn;
    uint32_t m_left;
};

} // namespace ns3

#endif /* RDMA_TEST_PSN_DROP_H */
