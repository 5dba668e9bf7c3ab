/*
 * The entropy value a RoCEv2 NIC writes into each data packet's UDP source port, where
 * the switches' ECMP hash reads it: per packet, chosen by the sender.
 */
#ifndef RDMA_PATH_ENTROPY_H
#define RDMA_PATH_ENTROPY_H

#include "ns3/object.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * Chooses the UDP source port (the entropy value, EV) of each data packet a NIC sends
 * (RdmaNic attribute PathEntropy; without one every packet of a QP carries the QP's fixed
 * port). The switches hash the port with the rest of the 5-tuple (DcbSwitch
 * EcmpHashSourcePort), so a new value sends the packet down a path the sender does not
 * know but can learn from: the receiving NIC echoes each data packet's value, and its ECN
 * mark, in the ACK it draws (RdmaNic, "NIC-side entropy" in load-balancing.md).
 *
 * The QueueDisc shape: public non-virtual entry points that check and call private Do
 * hooks. State is per connection (the NIC's QP index, qpn - RdmaNic::FIRST_QPN), sized
 * when the NIC reserves a QP number (AddConnection), never per packet.
 *
 * One object per NIC: its state is that NIC's connections.
 */
class RdmaPathEntropy : public Object
{
  public:
    static TypeId GetTypeId();
    RdmaPathEntropy();
    ~RdmaPathEntropy() override;

    /** Make room for connections 0 .. \p connection (at QP set-up, not per packet). */
    void AddConnection(uint32_t connection);
    /** \return the connections there is room for. */
    uint32_t GetNConnections() const;
    /** \return the entropy value (UDP source port) of the next data packet of \p connection. */
    uint16_t Select(uint32_t connection);
    /**
     * An ACK of \p connection came back echoing the entropy \p entropy of the data packet
     * that drew it, and whether that packet arrived ECN-marked (\p ecnMarked).
     */
    void NotifyAck(uint32_t connection, uint16_t entropy, bool ecnMarked);

    /**
     * Use a fixed random stream from \p stream on (RandomVariableStream::SetStream).
     * \return the number of streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

    /** \return the values drawn fresh from the stream (Explore), all connections. */
    uint64_t GetExplored() const;

  protected:
    /** \return a value drawn uniformly from [FirstValue, FirstValue + Values). */
    uint16_t Explore();

  private:
    /** Size the state of the subclass for \p n connections. */
    virtual void DoAddConnections(uint32_t n);
    virtual uint16_t DoSelect(uint32_t connection) = 0;
    virtual void DoNotifyAck(uint32_t connection, uint16_t entropy, bool ecnMarked);

    Ptr<UniformRandomVariable> m_rng;
    uint16_t m_firstValue; //!< attribute FirstValue
    uint32_t m_nValues;    //!< attribute Values
    uint32_t m_nConnections{0};
    uint64_t m_explored{0};
};

} // namespace ns3

#endif /* RDMA_PATH_ENTROPY_H */
