/*
 * Builds DCB links and switches.
 */
#ifndef DCB_HELPER_H
#define DCB_HELPER_H

#include "ns3/data-rate.h"
#include "ns3/dcb-switch.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/pfc-watchdog.h"
#include "ns3/sonic-buffer-config.h"

#include <string>
#include <vector>

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
    /**
     * Channel type for links installed from now on (default ns3::DcbChannel; a link
     * between nodes of different MPI ranks takes ns3::DcbRemoteChannel).
     */
    void SetChannelType(const std::string& type);
    /** Buffer manager type for switches installed from now on (default DynamicThreshold). */
    void SetBufferManager(const std::string& type);
    void SetBufferManagerAttribute(const std::string& name, const AttributeValue& value);
    /** ECN marker type ("" disables marking; default ns3::RedEcnMarker). */
    void SetEcnMarker(const std::string& type);
    void SetEcnMarkerAttribute(const std::string& name, const AttributeValue& value);
    /**
     * Set \p name to \p value on the ECN marker of each switch port (installed from now on)
     * whose device runs at \p rate, over SetEcnMarkerAttribute's value: thresholds per link
     * rate, as the HPCC simulator's KMIN_MAP / KMAX_MAP / PMAX_MAP give them. Resolved once
     * per port by InstallSwitch; the marker itself stays rate-agnostic.
     */
    void SetEcnMarkerAttributeForRate(DataRate rate, const std::string& name,
                                      const AttributeValue& value);
    void SetSwitchAttribute(const std::string& name, const AttributeValue& value);
    /**
     * Load balancer type for switches installed from now on: each switch gets its own
     * object (DcbSwitch attribute LoadBalancer; a balancer holds one switch's state).
     * "" (default): none, the switches route by ECMP hash.
     */
    void SetLoadBalancer(const std::string& type);
    void SetLoadBalancerAttribute(const std::string& name, const AttributeValue& value);

    /**
     * Join \p a and \p b with a new link.
     * \return the two devices, a's first
     */
    NetDeviceContainer Install(Ptr<Node> a, Ptr<Node> b) const;

    /**
     * Where this helper's switch settings were read from, so that InstallSwitch and
     * ApplySonicConfig locate what they refuse: \p file, the JSON pointer of the buffer
     * settings (a refused buffer is located there) and that of the ECN settings (a
     * refused ECN marker). TopologyBuilder gives the experiment file, the switch's
     * "buffer" entry and "/ecn". Without it (a helper configured by code) a refusal is
     * located as a file named after the helper: "DcbHelper: <reason>"; an empty pointer
     * likewise names the file alone.
     */
    void SetSource(const std::string& file, const std::string& bufferPointer,
                   const std::string& ecnPointer);

    /**
     * Make \p node a switch: aggregate a DcbSwitch over all its (already linked)
     * devices, with a buffer manager and an ECN marker per port.
     * A buffer or ECN configuration that cannot work (a buffer smaller than the PFC
     * headroom it must reserve, Kmax below Kmin at a port's rate) throws ConfigError
     * located at SetSource's buffer or ECN pointer, its reason
     * "switch <name>: <buffer manager or marker type>: <why>".
     * \param name the switch in the refusal ("" : "node <ns-3 node id>")
     * \return the switch
     */
    Ptr<DcbSwitch> InstallSwitch(Ptr<Node> node, const std::string& name = "") const;

    /**
     * Use consecutive streams from \p stream for the switches' random variables: the
     * ECN markers of every switch first, then the load balancers, so that adding
     * balancers leaves the markers' streams as they were.
     * \return the number of streams used
     */
    static int64_t AssignStreams(NodeContainer switches, int64_t stream);

    /**
     * With a SonicBufferManager, program each port's RedEcnMarker from the
     * configuration's WRED_PROFILE bound by QUEUE|port|q wred_profile (green
     * min/max threshold, drop probability as Pmax, marking when ecn is not
     * ecn_none); queues without such a profile do not mark. Nothing happens
     * when the configuration has no WRED profiles or the markers are not RED.
     * InstallSwitch calls it. \return number of queues programmed
     */
    static uint32_t ApplySonicWred(Ptr<DcbSwitch> sw);

    /**
     * With a SonicBufferManager, classify and schedule as its configuration says:
     * each ingress port's DSCP -> TC map (PORT_QOS_MAP dscp_to_tc_map, else the
     * "global" entry's; none: the switch keeps DSCP >> 3), and on each egress port
     * the queues bound by QUEUE|port|q scheduler to a DWRR/WRR SCHEDULER join the
     * device's DwrrClassMask with that weight (STRICT ones leave it). InstallSwitch
     * calls it. \return number of (port, DSCP map or scheduler) settings applied
     */
    static uint32_t ApplySonicQos(Ptr<DcbSwitch> sw);

    /**
     * Reconfigure the buffer of installed switch \p sw with \p config, as SONiC's
     * `config reload` does: SonicBufferManager::SetConfig, the switch set up again
     * (DcbSwitch::Setup: pools, profiles, the CableHeadroom derivation), then its QoS
     * maps, schedulers (ApplySonicQos) and WRED marking (ApplySonicWred) from the new
     * configuration. Do it before traffic (and before NICs, so that nothing has
     * queued). When \p sw runs no SonicBufferManager, or its buffer cannot be set up
     * with \p config, it throws ConfigError located at SetSource's buffer pointer, as
     * InstallSwitch's refusals, naming the switch \p name ("" : "node <id>").
     */
    void ApplySonicConfig(Ptr<DcbSwitch> sw, const SonicBufferConfig& config,
                          const std::string& name = "") const;

    /**
     * Create a PfcWatchdog on \p sw: configured from PFC_WD when the switch
     * runs a SonicBufferManager whose configuration has PFC_WD entries, else
     * from the attributes \p factory sets (default: the PfcWatchdog defaults).
     */
    static Ptr<PfcWatchdog> InstallPfcWatchdog(
        Ptr<DcbSwitch> sw, const ObjectFactory& factory = ObjectFactory("ns3::PfcWatchdog"));

  private:
    /** Throw ConfigError at \p pointer of the source file (none: the file alone). */
    [[noreturn]] void Refuse(const std::string& pointer, const std::string& reason) const;

    ObjectFactory m_deviceFactory;
    ObjectFactory m_channelFactory;
    ObjectFactory m_bufferFactory;
    ObjectFactory m_ecnFactory;

    /** One marker attribute for the ports of one link rate. */
    struct EcnRateAttribute
    {
        DataRate rate;
        std::string name;
        Ptr<AttributeValue> value;
    };

    std::vector<EcnRateAttribute> m_ecnRateAttributes; //!< in the order set
    ObjectFactory m_switchFactory;
    ObjectFactory m_loadBalancerFactory; //!< no TypeId set: no balancer (ECMP)
    bool m_ecnEnabled{true};
    bool m_loadBalancerEnabled{false};
    std::string m_sourceFile{"DcbHelper"}; //!< SetSource's file; unset: the helper's name
    std::string m_bufferPointer;           //!< SetSource's; "": none
    std::string m_ecnPointer;              //!< SetSource's; "": none
};

} // namespace ns3

#endif /* DCB_HELPER_H */
