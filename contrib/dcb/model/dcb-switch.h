/*
 * A data-center switch: IPv4 forwarding with ECMP, shared-buffer admission,
 * PFC generation and ECN marking over DcbNetDevice ports.
 */
#ifndef DCB_SWITCH_H
#define DCB_SWITCH_H

#include "buffer-manager.h"
#include "dcb-load-balancer.h"
#include "dcb-net-device.h"
#include "ecn-marker.h"

#include "ns3/ipv4-address.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <array>
#include <vector>

namespace ns3
{

/**
 * \ingroup dcb
 * Switch logic aggregated onto a Node whose devices are all DcbNetDevices; the
 * port index of a device is its interface index on the node.
 *
 * Forwarding: the destination IPv4 address indexes a dense table (addresses are
 * allocated contiguously from a base by the helpers) that names an ECMP group of
 * egress ports; with several ports the 5-tuple (source and destination address,
 * protocol, UDP ports) is hashed with Murmur3 and a per-switch seed, so that
 * flows differing only in UDP source port spread. TTL is decremented; the DSCP
 * selects the traffic class (default class = DSCP >> 3) and the egress frame
 * carries it as the 802.1Q PCP.
 */
class DcbSwitch : public Object, public DcbFrameSink
{
  public:
    enum DropReason : uint8_t
    {
        DROP_NO_ROUTE = 0,
        DROP_TTL_EXPIRED,
        DROP_NOT_IPV4,     //!< another EtherType, a runt, or no whole IPv4 header
        DROP_BUFFER,       //!< refused by the buffer manager (see its drop reasons)
        DROP_PFC_WATCHDOG, //!< queue in PFC storm state with the drop action
        N_DROP_REASONS
    };

    static TypeId GetTypeId();
    DcbSwitch();
    ~DcbSwitch() override;

    /**
     * Register every DcbNetDevice of the node as a port and size the buffer.
     * \return "" on success, else why the buffer configuration cannot work
     */
    std::string Setup();
    uint32_t GetNPorts() const;
    Ptr<DcbNetDevice> GetPort(uint32_t port) const;

    void SetBufferManager(Ptr<BufferManager> manager);
    Ptr<BufferManager> GetBufferManager() const;
    /** Install an ECN marker on egress port \p port (nullptr: no marking). */
    void SetEcnMarker(uint32_t port, Ptr<EcnMarker> marker);
    Ptr<EcnMarker> GetEcnMarker(uint32_t port) const;
    /** Frames with \p dscp arriving on any port go to class \p tc (default: DSCP >> 3). */
    void SetDscpToTc(uint8_t dscp, uint8_t tc);
    /** The same for frames arriving on \p port only (after Setup; SONiC per-port map). */
    void SetDscpToTc(uint32_t port, uint8_t dscp, uint8_t tc);
    /** \return the class of a frame with \p dscp arriving on \p port. */
    uint8_t GetDscpToTc(uint32_t port, uint8_t dscp) const;

    /** Size the forwarding table for \p count addresses starting at \p base. */
    void SetAddressRange(Ipv4Address base, uint32_t count);
    /** Route \p dst through the ECMP group of \p ports. */
    void SetRoute(Ipv4Address dst, const std::vector<uint32_t>& ports);
    /** \return the ECMP group for \p dst (empty when there is no route). */
    const std::vector<uint32_t>& GetRoute(Ipv4Address dst) const;

    /**
     * Send every packet from \p src to \p dst out of \p port, ahead of ECMP.
     * Pins live in a vector sorted by (src, dst) that the forwarding path
     * binary-searches only when the switch has pins: O(log pins) per packet then,
     * nothing otherwise. A second pin for the same pair replaces the first.
     */
    void SetPinnedRoute(Ipv4Address src, Ipv4Address dst, uint32_t port);
    /** Remove the pin of (src, dst), if any. */
    void ClearPinnedRoute(Ipv4Address src, Ipv4Address dst);
    uint32_t GetNPinnedRoutes() const;

    /**
     * PFC watchdog storm state of class \p tc on \p port (set by PfcWatchdog):
     * \p drop true drops the queue's packets and arrivals on that ingress
     * priority (SONiC "drop" action); false forwards them (lossy).
     */
    void SetStormDrop(uint32_t port, uint8_t tc, bool drop);
    bool IsStormDrop(uint32_t port, uint8_t tc) const;

    /** \return the ECMP hash this switch computes for a 5-tuple. */
    uint32_t HashFlow(Ipv4Address src, Ipv4Address dst, uint8_t protocol, uint16_t sport,
                      uint16_t dport) const;
    /** \return true if the ECMP hash includes the source port (EcmpHashSourcePort). */
    bool HashesSourcePort() const;
    /** \return the egress port this switch picks for a 5-tuple (or -1 without route). */
    int64_t SelectPort(Ipv4Address src, Ipv4Address dst, uint8_t protocol, uint16_t sport,
                       uint16_t dport) const;

    uint64_t GetDrops(DropReason reason) const;
    uint64_t GetForwarded() const;

    /**
     * A frame arrived at \p port (each port's DcbFrameReceiveCallback). Every IPv4 frame is
     * forwarded on its record: no header is parsed or written; the record's MACs, PCP, TTL
     * and ECN are updated instead. An untagged frame is tagged on arrival (VID 0; PCP the
     * class), its bytes written at once: 4 bytes longer, counted so in the buffer and on the
     * wire, and then forwarded as every tagged frame.
     * Other frames (EtherTypes, runts, no whole IPv4 header) are dropped (DROP_NOT_IPV4).
     * Public for code that watches a port's arrivals and hands them on (tests).
     */
    void ReceiveFrame(Ptr<DcbNetDevice> port, Ptr<Packet> frame, const DcbFrameRecord& record);

    /**
     * DcbFrameSink: the same for a frame handed over by a port (each port's frame sink):
     * forwarded on its record and counted bytes without touching the Packet object.
     */
    void AcceptFrame(DcbNetDevice* port, DcbPacketRef& frame, const DcbFrameRecord& record,
                     uint32_t bytes) override;

  protected:
    void DoDispose() override;

  private:
    void OnDequeue(uint32_t outPort, uint32_t inPort, uint8_t tc, uint32_t bytes);
    /** ECN at dequeue: mark \p frame leaving \p port on the queue left behind it. */
    void MarkAtDequeue(uint32_t port, uint8_t tc, Ptr<Packet> frame, DcbFrameRecord* record);
    /**
     * Count a drop; the Drop trace gets the packet after its Ethernet header: an IPv4 packet
     * from its IPv4 header, as written by the record (checksum 0), options kept.
     */
    void DropFrame(Ptr<Packet> frame, const DcbFrameRecord& record, DropReason reason);
    void OnPfc(uint32_t port, uint8_t pg, bool xoff);
    uint32_t Seed() const;
    /** HashFlow on the record's fields (host-order addresses): no Ipv4Address per frame. */
    uint32_t Hash(uint32_t src, uint32_t dst, uint8_t protocol, uint16_t sport,
                  uint16_t dport) const;
    /** SelectPort on the record's fields (host-order addresses). */
    int64_t Route(uint32_t src, uint32_t dst, uint8_t protocol, uint16_t sport,
                  uint16_t dport) const;

    uint32_t m_ecmpSeed;
    uint32_t m_ecmpSeedSalt{0};
    bool m_hashSourcePort{true};
    uint32_t m_nodeSeed{1}; //!< node id + 1 (+ salt), set at Setup (no GetObject per packet)
    Ptr<DcbLoadBalancer> m_loadBalancer; //!< null: ECMP (Hash % group size)
    std::vector<Ptr<DcbNetDevice>> m_ports;
    std::vector<DcbMac> m_peerMac;
    std::vector<DcbMac> m_portMac; //!< each port's own address (copied per frame, inline)
    std::vector<Ptr<EcnMarker>> m_ecnMarkers;
    Ptr<BufferManager> m_buffer;
    std::array<uint8_t, 64> m_dscpToTc;
    std::vector<uint8_t> m_portDscpToTc; //!< port * 64 + DSCP -> class, built at Setup

    uint32_t m_addressBase{0};
    std::vector<uint32_t> m_routeOfAddress;      //!< address index -> group index (0 = none)
    std::vector<std::vector<uint32_t>> m_groups; //!< group 0 is the empty group
    /**
     * The forwarding path's table, one load per frame: address index -> (value << 8) |
     * group size; value is the port itself for a one-port group, else the group's
     * offset in m_groupPorts. Size 0: no route.
     */
    std::vector<uint32_t> m_routeEntry;
    std::vector<uint32_t> m_groupPorts;  //!< the multi-port groups, concatenated
    std::vector<uint32_t> m_groupOffset; //!< group index -> offset in m_groupPorts

    std::vector<std::pair<uint64_t, uint32_t>> m_pins; //!< ((src << 32) | dst, port), sorted
    std::vector<uint8_t> m_stormDrop; //!< per port: classes dropped by the watchdog

    uint64_t m_forwarded{0};
    std::array<uint64_t, N_DROP_REASONS> m_drops{};
    TracedCallback<Ptr<const Packet>, uint8_t> m_dropTrace;
};

} // namespace ns3

#endif /* DCB_SWITCH_H */
