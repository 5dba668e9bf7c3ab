/*
 * Congestion control for RDMA queue pairs, in the shape of ns-3's TcpCongestionOps:
 * an algorithm object chosen by TypeId, forked once per queue pair, working on
 * that queue pair's RdmaCcState. It can be unit-tested without any network.
 */
#ifndef RDMA_CONGESTION_OPS_H
#define RDMA_CONGESTION_OPS_H

#include "rdma-ack-sample.h"
#include "rdma-cc-state.h"

#include "ns3/data-rate.h"
#include "ns3/int-trailer.h"
#include "ns3/object.h"

#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * Base class of RDMA congestion-control algorithms.
 *
 * One instance serves one queue pair in both roles: reaction point (the sender
 * side: OnCnp, OnAck, OnDataSent) and notification point (the receiver side:
 * OnDataReceived decides whether a CNP goes back to the sender).
 */
class RdmaCongestionOps : public Object
{
  public:
    static TypeId GetTypeId();
    ~RdmaCongestionOps() override;

    /** \return the algorithm name, e.g. "Dcqcn". */
    virtual std::string GetName() const = 0;

    /** \return a fresh instance with the same attribute values and no per-QP state. */
    virtual Ptr<RdmaCongestionOps> Fork() const = 0;

    /**
     * Bind to a queue pair's state and initialise it (rates, window) for a new QP.
     * The state outlives this object's use of it (the QP owns both).
     */
    virtual void Init(RdmaCcState* state) = 0;

    /** Reaction point: a CNP arrived for this queue pair. */
    virtual void OnCnp() = 0;

    /** Reaction point: \p bytes of payload were put on the wire (byte counters). */
    virtual void OnDataSent(uint32_t bytes) = 0;

    /**
     * Reaction point: an ACK acknowledged new bytes.
     * \param ack what the ACK carries: bytes, CE echo and, when WantsRttSamples(), the
     * NIC-timestamped RTT and hop count
     */
    virtual void OnAck(const RdmaAckSample& ack) = 0;

    /**
     * Reaction point: the loss recovery retransmits, after a retransmission timeout
     * (\p timeout) or a PSN-sequence-error NAK (or a READ response out of order).
     * Default: nothing (DCQCN and DCTCP react to congestion marks only).
     */
    virtual void OnRetransmit(bool timeout);

    /**
     * \return true if the QP must keep per-PSN transmit timestamps so that OnAck gets
     * RTT samples (delay-based algorithms). Default false: no timestamp ring.
     */
    virtual bool WantsRttSamples() const;

    /**
     * \return the hop records (1 .. IntTrailer::MAX_HOPS) for which the requester reserves
     * an INT trailer in each SEND/WRITE data packet, so that switches report their egress
     * ports (HPCC); 0 (default): no INT
     */
    virtual uint8_t GetIntHops() const;

    /**
     * Reaction point: an ACK echoed the INT of the data packet it answers. Called before
     * the ACK is applied (and before OnAck), for every ACK that carries an echo.
     * \param echo the hop records, in path order
     * \param ackedPsn the PSN the ACK acknowledges (cumulative, unwrapped)
     * \param nextPsn the requester's next PSN to send (HPCC's snd_nxt)
     */
    virtual void OnIntAck(const IntTrailer& echo, uint64_t ackedPsn, uint64_t nextPsn);

    /**
     * Notification point: a data packet arrived for this queue pair.
     * \param ceMarked the packet carried ECN CE
     * \return true if a CNP must be sent to the sender now
     */
    virtual bool OnDataReceived(bool ceMarked) = 0;

    /**
     * \return true if ACKs must echo CE marks (window algorithms that react to ACKs
     * rather than CNPs).
     */
    virtual bool WantsEcnEcho() const;

    /**
     * How congestion notifications travel between the two ends of the queue pair, for
     * both roles. Default false: as RoCEv2 CNP packets (IBTA Vol. 1 Annex A17), and the
     * BTH BECN bit of a received ACK is no notification (OnAck sees it as a CE echo).
     * True: the notification point sets BECN in the ACK (or NAK) of the CE-marked packet
     * instead of sending a CNP (READ responses and READ requests, which draw no ACK of
     * their own, still get a CNP packet), and the reaction point takes every ACK/NAK with
     * BECN set as one CNP (OnCnp) besides CNP packets.
     * \return true if CNPs travel as the BECN bit of ACKs
     */
    virtual bool WantsCnpInAckBecn() const;

    /**
     * NIC-wide capacity of the notification point's CNP generation on a NIC that
     * runs this algorithm (RdmaFirmwareCnpQueue). Read once per QP creation.
     * \return firmware time per generated CNP; 0 (default): CNPs are generated in
     * hardware and leave as soon as they are decided
     */
    virtual Time GetCnpGenerationTime() const;

    /**
     * \return CNP requests that may wait while the firmware generates another
     * (used only when GetCnpGenerationTime() > 0)
     */
    virtual uint32_t GetCnpGenerationQueue() const;

    /**
     * Check the attribute values against each other and against the line rate of the
     * NIC port that will run the algorithm. Init() aborts on a value this rejects;
     * configuration readers call it first, so that the error names the file and field
     * that set the value.
     * \param lineRate the port's line rate
     * \param attribute set to the name of the offending attribute of this TypeId
     * \param reason set to why its value is rejected (naming both values when the
     * constraint involves two)
     * \return true if the configuration is valid
     */
    virtual bool CheckAttributes(DataRate lineRate, std::string& attribute,
                                 std::string& reason) const;

    /** Cancel any timers; the QP is going away. */
    virtual void Stop();

  protected:
    void DoDispose() override;
};

} // namespace ns3

#endif /* RDMA_CONGESTION_OPS_H */
