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

class JsonSchemaReader;

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
    /** QP scheduler type for NICs installed from now on (default: the NIC's QpScheduler). */
    void SetQpScheduler(const std::string& type);
    void SetQpSchedulerAttribute(const std::string& name, const AttributeValue& value);
    /** On-chip cache model ("" for none, the default: every resource on chip). */
    void SetCacheModel(const std::string& type);
    void SetCacheModelAttribute(const std::string& name, const AttributeValue& value);
    /**
     * Configure transport, scheduler, caches and congestion control as the named
     * RdmaNicProfile ("Cx5", "Cx6", "Srnic", "Irn").
     * \param name the profile's name
     * \param reader the reader of the file (or the program option) that names it
     * \param pointer where \p reader's file names it
     * \throw ConfigError at \p pointer, naming the allowed values, for an unknown name
     */
    void SetProfile(const std::string& name, const JsonSchemaReader& reader,
                    const std::string& pointer);

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
    /** As Connect(a, b), from a's address \p aLocal to b's address \p bLocal (aliases). */
    static std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>> Connect(Ptr<RdmaNic> a,
                                                                     Ipv4Address aLocal,
                                                                     Ptr<RdmaNic> b,
                                                                     Ipv4Address bLocal);

    /**
     * As Connect(a, aLocal, b, bLocal), creating the QPs at the numbers \p aQpn and \p bQpn
     * reserved before (RdmaNic::ReserveQpn): a run that creates a connection when its flow
     * starts gets the QP numbers and UDP source ports of one that connects at set-up.
     */
    static std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>> Connect(Ptr<RdmaNic> a,
                                                                     Ipv4Address aLocal,
                                                                     uint32_t aQpn, Ptr<RdmaNic> b,
                                                                     Ipv4Address bLocal,
                                                                     uint32_t bQpn);

    /** The UDP source port the helper gives a QP. */
    static uint16_t UdpSourcePort(Ipv4Address local, Ipv4Address remote, uint32_t localQpn,
                                  uint32_t remoteQpn);

  private:
    ObjectFactory m_nicFactory;
    ObjectFactory m_ccFactory;
    ObjectFactory m_lossFactory;
    ObjectFactory m_schedulerFactory;
    bool m_schedulerSet{false};
    ObjectFactory m_cacheFactory;
    bool m_cacheSet{false};
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> m_qpAttributes;
};

} // namespace ns3

#endif /* RDMA_HELPER_H */
