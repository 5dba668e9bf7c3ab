/*
 * SRNIC header extensions of one queue pair: what each packet adds and reads.
 */
#ifndef RDMA_SRNIC_WIRE_EXTENSIONS_H
#define RDMA_SRNIC_WIRE_EXTENSIONS_H

#include "rdma-work-request.h"
#include "roce-bth-header.h"
#include "roce-srnic-ext-header.h"

#include "ns3/packet.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * The one place that writes and reads RoceSrnicExtHeader for a queue pair (SRNIC,
 * NSDI'23 section 4.4.1; RdmaQueuePair::SrnicHeaderExtensions). The requester adds
 * extensions to its requests and takes the echoes off ACK/NAKs and READ responses; the
 * responder reads them off requests and echoes them on its responses. Disabled (plain
 * RoCEv2), every call adds and reads nothing.
 */
class RdmaSrnicWireExtensions
{
  public:
    /** What an ACK/NAK echoes: the SSN and PSN offset of the request packet it answers. */
    struct AckEcho
    {
        uint32_t ssn{0};
        uint32_t psnOffset{0};
    };

    /** What a READ's responses echo: the requester's destination of the first response. */
    struct ReadEcho
    {
        uint64_t va{0};     //!< requester's destination of the first response
        uint32_t key{0};    //!< requester's key
        uint32_t length{0}; //!< bytes the request asked for
        uint32_t offset{0}; //!< PSN offset (in the READ) of the first response
    };

    void SetEnabled(bool enabled);
    bool IsEnabled() const;

    // ---- requester
    /**
     * Add the extension of a READ request packet: where its responses go (\p localVa,
     * \p length bytes) and its PSN offset \p index in the READ.
     */
    void AddToReadRequest(Ptr<Packet> packet, uint64_t localVa, uint32_t length,
                          uint32_t index) const;
    /**
     * Add the extension of a SEND or WRITE packet \p op of \p wr (whose message starts
     * at \p firstPsn) at byte \p offset, PSN offset \p index.
     */
    void AddToRequest(Ptr<Packet> packet, RoceOpcode op, const RdmaWorkRequest& wr,
                      uint64_t firstPsn, uint64_t offset, uint32_t index) const;
    /** Take the echo off an ACK/NAK (after its BTH). */
    void RemoveAckEcho(Ptr<Packet> packet) const;
    /**
     * Take the echo off a READ response (after its BTH).
     * \param[out] psnOffset the response's PSN offset in its READ
     * \param[out] placeAt where its data goes
     * \return false when disabled (nothing read)
     */
    bool RemoveFromReadResponse(Ptr<Packet> packet, uint32_t& psnOffset, uint64_t& placeAt) const;

    // ---- responder
    /**
     * Read (\p remove: take) the extension of request packet \p psn, opcode \p op, into
     * \p ext and note in \p echo what the next ACK/NAK echoes.
     * \return false when disabled (nothing read)
     */
    bool ReadRequest(uint64_t psn, RoceOpcode op, Ptr<Packet> packet, bool remove,
                     RoceSrnicExtHeader& ext, AckEcho& echo) const;
    /** \return the READ echo of a READ request's extension \p ext (zero when disabled). */
    ReadEcho MakeReadEcho(const RoceSrnicExtHeader& ext) const;
    /** Add the echo of READ response \p index (byte \p offset) of the READ echoed by \p echo. */
    void AddToReadResponse(Ptr<Packet> packet, const ReadEcho& echo, uint64_t offset,
                           uint32_t index) const;
    /** Add \p echo to an ACK/NAK (before its BTH is added). */
    void AddToAcknowledge(Ptr<Packet> packet, const AckEcho& echo) const;

  private:
    bool m_enabled{false};
};

} // namespace ns3

#endif /* RDMA_SRNIC_WIRE_EXTENSIONS_H */
