/*
 * The responder side of a reliable-connected queue pair.
 */
#ifndef RDMA_RESPONDER_H
#define RDMA_RESPONDER_H

#include "rdma-congestion-ops.h"
#include "rdma-loss-recovery.h"
#include "rdma-qp-counters.h"
#include "rdma-qp-endpoint-config.h"
#include "rdma-qp-owner.h"
#include "rdma-srnic-wire-extensions.h"
#include "rdma-work-request.h"
#include "roce-aeth-header.h"
#include "roce-bth-header.h"
#include "roce-reth-header.h"
#include "roce-sack-header.h"

#include "ns3/nstime.h"
#include "ns3/packet.h"

#include <deque>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * Responder of an RC queue pair (IBTA 9.7): executes requests in PSN order (placing
 * WRITE and SEND data, consuming receive WQEs), acknowledges them (every AckInterval
 * packets and whenever the AckReq bit is set), NAKs sequence errors and missing receive
 * WQEs (RNR), answers duplicates, and sends READ responses. Under selective repeat it
 * keeps packets ahead of the expected PSN in a ring and reports them in SACKs.
 *
 * A plain member of RdmaQueuePair; it reports to the NIC through RdmaQpOwner only, so a
 * test drives it with a fake owner and no network.
 */
class RdmaResponder
{
  public:
    /** What the responder works with, given by its queue pair at setup. */
    struct Config : RdmaQpEndpointConfig
    {
        uint32_t ackInterval{1}; //!< in-order packets per ACK
    };

    void Setup(const Config& config);
    /** The peer's QP number, the BTH destination of every response. */
    void SetRemoteQpn(uint32_t remoteQpn);
    /** Drop the kept packets and the references (RdmaQueuePair::DoDispose). */
    void Dispose();

    /** ibv_post_recv; flushed at once when \p qpInError. */
    void PostRecv(const RdmaRecvRequest& rr, bool qpInError);
    /** Drop the READ responses not yet sent and flush every posted receive. */
    void Flush();

    /** A request packet arrived (\p packet after the BTH \p bth), CE-marked or not. */
    void ReceiveRequest(const RoceBthHeader& bth, Ptr<Packet> packet, bool ceMarked);
    /** A CE-marked packet not for the responder (a READ response): echo it in the next ACK. */
    void NoteCongestionExperienced(bool ceMarked);
    /**
     * The notification point decided a CNP for the request about to be received, to be
     * carried as BECN (RdmaCongestionOps::WantsCnpInAckBecn): the next ACK or NAK sets
     * BECN and counts as a CNP sent; an in-order request is acknowledged at once, ending
     * any AckInterval coalescing. A request that draws no acknowledge (go-back-N drops
     * after the NAK of a gap) leaves BECN to the next one.
     */
    void RequestCnpInAck();
    /** Selective repeat: execute the kept packets now in order, below \p limit. */
    void DeliverKept(uint64_t limit);

    /** \return true if a READ response waits to be sent. */
    bool HasReadResponse() const;
    /** Build the next READ response packet (BTH onwards); HasReadResponse() must hold. */
    Ptr<Packet> BuildReadResponse();

    /** \return the expected PSN (the next request to execute). */
    uint64_t GetExpectedPsn() const;

  private:
    struct RecvWqe
    {
        RdmaRecvRequest rr;
        Time postTime;
    };

    struct ReadResponseJob
    {
        uint64_t firstPsn;
        uint32_t nPackets;
        uint32_t next;
        uint64_t length;
        RdmaSrnicWireExtensions::ReadEcho echo; //!< SRNIC: echoed per response
    };

    /** A request packet received ahead of the expected PSN (selective repeat). */
    struct OutOfOrderSlot
    {
        uint64_t psnPlusOne{0}; //!< 0: empty
        RoceBthHeader bth;
        Ptr<Packet> packet;
    };

    void HandleRequest(uint64_t psn, const RoceBthHeader& bth, Ptr<Packet> packet);
    /** A duplicate READ request: re-execute it from \p psn (IBTA 9.7.5.1.3). */
    void ReexecuteRead(uint64_t psn, Ptr<Packet> packet);
    void ExecuteRequest(uint64_t psn, const RoceBthHeader& bth, Ptr<Packet> packet);
    /** Complete the head receive WQE for a message of \p bytes ending now. */
    void CompleteReceive(RdmaVerb verb, bool hasImm, uint32_t imm);
    /** A READ response job for the request at \p psn. */
    ReadResponseJob MakeReadJob(uint64_t psn, const RoceRethHeader& reth,
                                const RoceSrnicExtHeader& ext) const;
    void SendAck(uint64_t psn);
    void SendNak(uint64_t psn, uint8_t code, bool rnr,
                 uint64_t sackPsn = RdmaLossRecovery::NO_SACK);
    /** Send an Acknowledge packet (ACK or NAK per \p aeth) for \p psn. */
    void SendAcknowledge(uint64_t psn, RoceAethHeader& aeth, bool becn,
                         const RoceSackHeader* sack = nullptr);
    /** Selective repeat: keep an out-of-order packet and report it in a SACK. */
    void BufferOutOfOrder(uint64_t psn, const RoceBthHeader& bth, Ptr<Packet> packet);
    /** Selective repeat: execute the kept packets that are now in order, below \p limit. */
    void DrainInOrder(uint64_t limit = UINT64_MAX);
    /** Count a request arriving after one of higher PSN (RdmaQpCounters::reorderedPackets). */
    void NoteArrivalOrder(uint64_t psn);

    RdmaQpOwner* m_owner{nullptr};
    RdmaQueuePair* m_qp{nullptr};
    uint32_t m_qpn{0};
    uint32_t m_remoteQpn{0};
    uint32_t m_mtu{1024};
    uint32_t m_ackInterval{1};
    Ptr<RdmaCongestionOps> m_cc;
    Ptr<RdmaLossRecovery> m_loss;
    RdmaQpCounters* m_counters{nullptr};
    RdmaSrnicWireExtensions m_ext;
    IntTrailer m_intEcho; //!< INT of the last HPCC data packet, echoed by ACK/NAKs

    uint64_t m_epsn{0};
    uint64_t m_highestPsnPlusOne{0}; //!< one past the highest request PSN received
    uint32_t m_msn{0};
    bool m_nakSent{false};
    uint32_t m_unackedPackets{0};
    bool m_ceSinceAck{false};
    bool m_cnpInNextAck{false}; //!< DCQCN NP: the next ACK/NAK carries a CNP in BECN
    RdmaSrnicWireExtensions::AckEcho m_answerEcho; //!< what the next ACK/NAK echoes
    uint64_t m_rxMessageOffset{0};
    uint64_t m_rxRemoteBase{0};
    bool m_rxRecvActive{false};
    std::deque<RecvWqe> m_rq;
    std::deque<ReadResponseJob> m_readJobs;
    uint64_t m_responseHigh{0}; //!< one past the highest READ response PSN sent
    /** Receive bitmap and kept packets, a ring of the loss recovery's in-flight cap. */
    std::vector<OutOfOrderSlot> m_oooRing;
};

} // namespace ns3

#endif /* RDMA_RESPONDER_H */
