/*
 * A RoCEv2 RDMA NIC attached to a host's DcbNetDevice.
 */
#ifndef RDMA_NIC_H
#define RDMA_NIC_H

#include "qp-scheduler.h"
#include "rdma-firmware-cnp-queue.h"
#include "rdma-inbound-request.h"
#include "rdma-path-entropy.h"
#include "rdma-qp-owner.h"
#include "rdma-queue-pair.h"
#include "rdma-rx-pipeline.h"
#include "rdma-tx-pipeline.h"
#include "rdma-work-request.h"
#include "rnic-cache-model.h"

#include "ns3/dcb-net-device.h"
#include "ns3/dcb-tx-source.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/object-factory.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * RoCEv2 NIC: owns the queue pairs of one port, encapsulates their packets in
 * UDP (destination port 4791) / IPv4 (DSCP, ECN-capable) / Ethernet 802.1Q, and
 * feeds the port from a transmit scheduler that serves, round robin, the queue
 * pairs that have work, whose class is not paused by PFC and whose rate limiter
 * allows a packet now. ACKs, NAKs and CNPs go straight to the port's queues (CNPs
 * with CnpDscp, a high-priority class).
 *
 * Aggregated onto the host Node. Models never write files: completions, data
 * placement and messages are exposed as trace sources.
 */
class RdmaNic : public Object, public DcbTxSource, public RdmaQpOwner
{
  public:
    static constexpr uint32_t FIRST_QPN = 0x100; //!< QPs 0 and 1 are IBTA special QPs

    static TypeId GetTypeId();
    RdmaNic();
    ~RdmaNic() override;

    /** Attach to the host's port and give the NIC its IPv4 address. */
    void Setup(Ptr<DcbNetDevice> device, Ipv4Address address);
    Ptr<DcbNetDevice> GetDevice() const;
    /** \return the NIC's first (primary) address. */
    Ipv4Address GetAddress() const;
    /**
     * Add an IPv4 alias (a virtual NIC address, as Maestro's vNICs): packets to any
     * of the NIC's addresses are received, and QPs may be created on it. Routing
     * must list the alias too (DcbRoutingHelper takes (address, host) pairs).
     */
    void AddAddress(Ipv4Address address);
    /** \return all addresses, the primary first. */
    const std::vector<Ipv4Address>& GetAddresses() const;
    /** \return true if \p address is one of the NIC's. */
    bool HasAddress(Ipv4Address address) const;
    DataRate GetLineRate() const;

    /** Congestion control forked for each new QP (default: CongestionControl type). */
    void SetCongestionControl(Ptr<RdmaCongestionOps> prototype);
    /** \return the congestion control forked for each new QP (created on first use). */
    Ptr<RdmaCongestionOps> GetCongestionControl();
    /** Loss recovery forked for each new QP (default: LossRecovery type). */
    void SetLossRecovery(Ptr<RdmaLossRecovery> prototype);
    void SetQueuePairAttribute(const std::string& name, const AttributeValue& value);
    /** Use \p scheduler (default: one of the QpScheduler type); before any QP has work. */
    void SetQpScheduler(Ptr<QpScheduler> scheduler);
    Ptr<QpScheduler> GetQpScheduler() const;
    /** Model the NIC's on-chip caches with \p cache (default none: all on chip). */
    void SetCacheModel(Ptr<RnicCacheModel> cache);
    Ptr<RnicCacheModel> GetCacheModel() const;
    /**
     * Choose each data packet's UDP source port (its ECMP entropy) with \p entropy, one
     * object per NIC (null, the default: every packet of a QP carries the QP's fixed port).
     * A NIC with one also echoes, in each ACK/NAK, the source port and ECN mark of the data
     * packet that drew it (load-balancing.md, "NIC-side entropy").
     */
    void SetPathEntropy(Ptr<RdmaPathEntropy> entropy);
    Ptr<RdmaPathEntropy> GetPathEntropy() const;

    /**
     * The receive pipeline (buffer, processing delays, host DMA, PFC push-back), created on
     * first use. Inactive (ideal host, no buffer) until a host model or delay is set on it.
     */
    Ptr<RdmaRxPipeline> GetRxPipeline();
    /**
     * Attach the node's intra-host model: received payload is written by DMA from the RnicPort
     * \p rnic to \p memory (resource names in \p host). \return "" or what is wrong.
     */
    std::string SetHostModel(Ptr<HostModel> host, const std::string& rnic,
                             const std::string& memory);
    /**
     * Payload of queue pair \p qpn is read from / written to the host-model device \p target
     * (e.g. a GPU for GPUDirect) instead of SetHostModel's memory. \return "" or what is wrong.
     */
    std::string SetQueuePairHostTarget(uint32_t qpn, const std::string& target);
    /**
     * Hand every received request-direction packet (READ request, WRITE, SEND) to \p gate
     * (e.g. RdmaProcessingUnits) instead of its QP; the gate returns it by DeliverRequest.
     */
    void SetRequestGate(Callback<void, const RdmaInboundRequest&> gate);
    /** Deliver a packet a request gate held (dropped if its QP is gone). */
    void DeliverRequest(const RdmaInboundRequest& request);
    /** The transmit payload-read stage (null until SetHostModel). */
    Ptr<RdmaTxPipeline> GetTxPipeline() const;
    /** \return the host model SetHostModel attached, or null. */
    Ptr<HostModel> GetHostModel() const;
    /** \return the host model's ids of the NIC's RnicPort and memory (valid with GetHostModel). */
    uint32_t GetHostRnic() const;
    uint32_t GetHostMemory() const;

    /** Create an unconnected QP towards \p remote. */
    Ptr<RdmaQueuePair> CreateQueuePair(Ipv4Address remote);
    /** Create an unconnected QP from the NIC's address \p local (see AddAddress). */
    Ptr<RdmaQueuePair> CreateQueuePair(Ipv4Address local, Ipv4Address remote);
    /**
     * Reserve the next QP number without creating its QP (CreateQueuePair(local, remote, qpn)
     * creates it later). QP numbers are handed out in order, reserved or created, so a run
     * that creates its QPs late gets the numbers (and UDP source ports) of one that creates
     * them all at set-up.
     */
    uint32_t ReserveQpn();
    /** Create an unconnected QP at the reserved, not yet created, number \p qpn. */
    Ptr<RdmaQueuePair> CreateQueuePair(Ipv4Address local, Ipv4Address remote, uint32_t qpn);
    /**
     * Destroy queue pair \p qpn (its pending timers are cancelled; it must not be in the
     * transmit scheduler, see RdmaQueuePair::IsQuiescent). Its number is not reused: packets
     * that still arrive for it are dropped as for an unknown QP.
     */
    void ReleaseQueuePair(uint32_t qpn);
    /** \return true unless the firmware CNP queue holds a request of queue pair \p qpn. */
    bool IsCnpIdle(uint32_t qpn) const;
    /** \return the Mtu of the QPs this NIC creates (without creating one). */
    uint32_t GetQueuePairMtu() const;
    /** \return the QP \p qpn, or null if it was never created or has been released. */
    Ptr<RdmaQueuePair> GetQueuePair(uint32_t qpn) const;
    /** \return the QP numbers handed out (created, reserved or released). */
    uint32_t GetNQueuePairs() const;
    /** \return the queue pairs that exist now (created and not released). */
    uint32_t GetNLiveQueuePairs() const;

    /** How the NIC's frames count on the wire (Framing). */
    enum Framing
    {
        FRAMING_ROCE_V2,  //!< the real RoCEv2 frame and the port's WireOverhead
        FRAMING_HPCC_SIM, //!< the HPCC simulator's packet sizes, whole-ns times
    };
    /** The HPCC simulator's data packet: payload + 48 bytes [HPCC-SIM-FRAMING]. */
    static constexpr uint32_t HPCC_SIM_DATA_HEADER_BYTES = 48;
    /** The HPCC simulator's ACK/NAK (and CNP-carrying ACK): 60 bytes [HPCC-SIM-FRAMING]. */
    static constexpr uint32_t HPCC_SIM_CONTROL_BYTES = 60;

    // DcbTxSource
    Ptr<Packet> PullFrame(uint8_t pausedMask, uint8_t& tc, DcbFrameRecord& record) override;
    bool HasTxWork() const override;
    /**
     * The next encapsulated frame the QP scheduler releases (PullFrame without the host's
     * payload read); \p qpn and \p payload (bytes after the transport headers) if not null;
     * \p readsWqe, if not null: the frame opens a work request (First/Only, READ request) whose
     * WQE the scheduler did not read itself (QpScheduler::WqeAlreadyRead); \p record, if not
     * null: the frame's DcbFrameRecord (see Encapsulate), with its wire-size override
     * (DcbFrameRecord::wireBytes, 0 under RoCEv2 framing).
     */
    Ptr<Packet> DequeueFrame(uint8_t pausedMask, uint8_t& tc, uint32_t* qpn, uint32_t* payload,
                             bool* readsWqe = nullptr, DcbFrameRecord* record = nullptr);

    // RdmaQpOwner: used by RdmaQueuePair and its requester and responder
    void NotifyTxWork(RdmaQueuePair* qp) override;
    /**
     * The notification point of \p qp decided to send a CNP: sent at once, or through
     * the NIC's firmware CNP queue when its congestion control has one (Gen1).
     */
    void RequestCnp(RdmaQueuePair* qp) override;
    /** Encapsulate and queue a control packet (ACK/NAK, or a CNP when \p cnp). */
    void SendControl(RdmaQueuePair* qp, Ptr<Packet> packet, bool cnp) override;
    void NotifyCompletion(const RdmaCompletion& completion) override;
    void NotifyDataPlaced(uint32_t qpn, uint64_t address, uint32_t bytes) override;
    void NotifyMessageReceived(uint32_t qpn, uint64_t bytes) override;
    /**
     * \return bytes added around a QP packet: Ethernet+802.1Q, IPv4, UDP, ICRC, wire overhead
     * (74); under Framing HpccSim the HPCC simulator's data header less a BTH (36).
     */
    uint32_t GetEncapsulationBytes() const override;
    /** \return the wire size of \p packet (BTH first) under the NIC's Framing. */
    RdmaWireSize GetWireSize(Ptr<const Packet> packet) const override;

    uint64_t GetDroppedNoQp() const;
    /**
     * \return the firmware CNP generator (Gen1 notification point), or null when CNPs
     * are generated in hardware (created by the first CreateQueuePair whose congestion
     * control reports a positive RdmaCongestionOps::GetCnpGenerationTime())
     */
    Ptr<RdmaFirmwareCnpQueue> GetCnpFirmware() const;

  protected:
    void DoDispose() override;

  private:
    /**
     * A frame arrived with its record (every frame: tagged or not, IPv4 options or not): the
     * headers are read from the record, not parsed.
     */
    void ReceiveFrame(Ptr<DcbNetDevice> device, Ptr<Packet> frame, const DcbFrameRecord& record);
    /** Deliver a RoCE packet (BTH first, ICRC last) that arrived with \p ce and IPv4 \p ttl. */
    void ReceiveRoce(Ptr<Packet> packet, bool ce, uint32_t frameBytes, uint8_t pcp, uint8_t ttl,
                     uint16_t sport);
    static uint32_t PayloadBytes(Ptr<const Packet> packet, RoceOpcode op);
    /** \return the payload of \p packet (BTH first), an INT trailer not counted. */
    static uint32_t PayloadBytes(Ptr<const Packet> packet, const RoceBthHeader& bth);
    static uint32_t PayloadBytes(Ptr<const Packet> packet);
    /**
     * Add ICRC, UDP, IPv4 and Ethernet + 802.1Q to \p packet (BTH first); if \p record is not
     * null, fill it with what DcbFrameRecord::Parse would read of the frame, and with its
     * wire-size override under the NIC's Framing (FramingWireBytes). A packet too short for
     * a BTH leaves \p record untouched (the first hop parses it). The IPv4 ECN field is
     * \p ecn, the UDP source port \p sport.
     */
    Ptr<Packet> Encapsulate(RdmaQueuePair* qp, Ptr<Packet> packet, uint8_t dscp, uint8_t ecn,
                            uint16_t sport, DcbFrameRecord* record = nullptr) const;
    /**
     * \return the wire-size override of \p packet (BTH first, opcode \p op, INT hop
     * capacity \p intHops as its BTH carries them) under the
     * NIC's Framing: 0 under RoceV2; under HpccSim the HPCC simulator's size of the packet
     * (a data packet: payload + 48 bytes; ACK, NAK, CNP, READ request: 60 bytes), plus
     * the INT trailer it carries.
     */
    uint16_t FramingWireBytes(Ptr<const Packet> packet, RoceOpcode op, uint8_t intHops) const;
    void Wake();
    /** The firmware CNP queue serves queue pair \p qpn: send its CNP. */
    void EmitCnp(uint32_t qpn);

    Ptr<DcbNetDevice> m_device;
    std::vector<Ipv4Address> m_addresses; //!< primary first
    TypeId m_schedulerType;
    Ptr<QpScheduler> m_scheduler;
    Ptr<RnicCacheModel> m_cache;
    Ptr<RdmaRxPipeline> m_rx; //!< null or inactive: ideal receive
    Ptr<RdmaTxPipeline> m_tx; //!< null: payload needs no host read
    /// Null: received requests go straight to their QP (see SetRequestGate).
    Callback<void, const RdmaInboundRequest&> m_requestGate;
    uint32_t m_hostRnic{0};   //!< the host model's RNIC port (valid while m_tx is set)
    uint32_t m_hostMemory{0}; //!< the host model's memory for slow-path transfers
    Ptr<RdmaFirmwareCnpQueue> m_cnpFirmware; //!< null: CNPs generated in hardware
    Ptr<RdmaPathEntropy> m_entropy;          //!< null: the QP's fixed source port
    /// Per QP index, with m_entropy: the last WRITE/SEND packet's source port (bits 0-15),
    /// CE mark (ENTROPY_ECHO_CE) and ENTROPY_ECHO_SET, echoed by the QP's next ACK/NAK.
    std::vector<uint32_t> m_entropyEcho;
    Mac48Address m_gatewayMac;
    Mac48Address m_deviceMac; //!< the device's address, read once at Setup
    TypeId m_ccType;
    TypeId m_lossType;
    Ptr<RdmaCongestionOps> m_ccPrototype;
    Ptr<RdmaLossRecovery> m_lossPrototype;
    ObjectFactory m_qpFactory;
    uint8_t m_cnpDscp;
    int16_t m_ackDscp;        //!< -1: the QP's own DSCP
    int16_t m_ackEgressClass; //!< -1: the class of the ACK's DSCP
    bool m_ecnCapable;
    bool m_computeIcrc;
    uint8_t m_ttl;
    Framing m_framing{FRAMING_ROCE_V2};

    std::vector<Ptr<RdmaQueuePair>> m_qps; //!< index = qpn - FIRST_QPN; null: reserved/released
    uint32_t m_liveQps{0};                 //!< non-null entries of m_qps
    EventId m_wakeEvent;
    uint64_t m_droppedNoQp{0};

    TracedCallback<const RdmaCompletion&> m_completionTrace;
    TracedCallback<uint32_t, uint64_t, uint32_t> m_dataPlacedTrace;
    TracedCallback<uint32_t, uint64_t> m_messageReceivedTrace;
};

} // namespace ns3

#endif /* RDMA_NIC_H */
