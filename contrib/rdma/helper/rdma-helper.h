/*
 * Installs RDMA NICs on hosts and connects queue pairs.
 */
#ifndef RDMA_HELPER_H
#define RDMA_HELPER_H

#include "ns3/object-factory.h"
#include "ns3/rdma-nic.h"

#include <string>
#include <utility>

namespace ns3
{

/**
 * \ingroup rdma
 * Creates RdmaNics (with their congestion control and loss recovery) and RC
 * connections between them, as rdma_cm would: both QPs are created and each
 * learns the other's number.
 */
class RdmaHelper
{
  public:
    RdmaHelper();

    void SetNicAttribute(const std::string& name, const AttributeValue& value);
    void SetCongestionControl(const std::string& type);
    void SetCongestionControlAttribute(const std::string& name, const AttributeValue& value);
    void SetLossRecovery(const std::string& type);
    void SetLossRecoveryAttribute(const std::string& name, const AttributeValue& value);
    void SetQueuePairAttribute(const std::string& name, const AttributeValue& value);

    /** Install a NIC on \p host's first DcbNetDevice with IPv4 address \p address. */
    Ptr<RdmaNic> Install(Ptr<Node> host, Ipv4Address address) const;

    /**
     * Create a connected QP pair between \p a and \p b. The UDP source port of each
     * QP is derived from a hash of the connection (addresses and QP numbers) into
     * 0xC000-0xFFFF, as RoCEv2 drivers do for ECMP entropy.
     * \return (QP on a, QP on b)
     */
    static std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>> Connect(Ptr<RdmaNic> a,
                                                                     Ptr<RdmaNic> b);

    /** The UDP source port the helper gives a QP. */
    static uint16_t UdpSourcePort(Ipv4Address local, Ipv4Address remote, uint32_t localQpn,
                                  uint32_t remoteQpn);

  private:
    ObjectFactory m_nicFactory;
    ObjectFactory m_ccFactory;
    ObjectFactory m_lossFactory;
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> m_qpAttributes;
};

} // namespace ns3

#endif /* RDMA_HELPER_H */
