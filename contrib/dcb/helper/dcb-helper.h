/*
 * Builds DCB links and switches.
 */
#ifndef DCB_HELPER_H
#define DCB_HELPER_H

#include "ns3/dcb-switch.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"

#include <string>

namespace ns3
{

/**
 * \ingroup dcb
 * Creates DcbNetDevice pairs joined by a DcbChannel, and turns nodes into
 * DcbSwitches with a buffer manager and per-port ECN markers.
 */
class DcbHelper
{
  public:
    DcbHelper();

    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);
    void SetChannelAttribute(const std::string& name, const AttributeValue& value);
    /** Buffer manager type for switches installed from now on (default DynamicThreshold). */
    void SetBufferManager(const std::string& type);
    void SetBufferManagerAttribute(const std::string& name, const AttributeValue& value);
    /** ECN marker type ("" disables marking; default ns3::RedEcnMarker). */
    void SetEcnMarker(const std::string& type);
    void SetEcnMarkerAttribute(const std::string& name, const AttributeValue& value);
    void SetSwitchAttribute(const std::string& name, const AttributeValue& value);

    /**
     * Join \p a and \p b with a new link.
     * \return the two devices, a's first
     */
    NetDeviceContainer Install(Ptr<Node> a, Ptr<Node> b) const;

    /**
     * Make \p node a switch: aggregate a DcbSwitch over all its (already linked)
     * devices, with a buffer manager and an ECN marker per port.
     * \param error where to report an impossible buffer or ECN configuration; when
     *        null such a configuration is a fatal error
     * \return the switch, or nullptr after reporting an error
     */
    Ptr<DcbSwitch> InstallSwitch(Ptr<Node> node, std::string* error = nullptr) const;

    /**
     * Use consecutive streams from \p stream for the switches' random variables.
     * \return the number of streams used
     */
    static int64_t AssignStreams(NodeContainer switches, int64_t stream);

  private:
    ObjectFactory m_deviceFactory;
    ObjectFactory m_channelFactory;
    ObjectFactory m_bufferFactory;
    ObjectFactory m_ecnFactory;
    ObjectFactory m_switchFactory;
    bool m_ecnEnabled{true};
};

} // namespace ns3

#endif /* DCB_HELPER_H */
