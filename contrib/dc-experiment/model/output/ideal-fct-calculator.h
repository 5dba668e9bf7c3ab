/*
 * Ideal flow completion time of a flow on an empty network, for slowdowns.
 */
#ifndef IDEAL_FCT_CALCULATOR_H
#define IDEAL_FCT_CALCULATOR_H

#include "ns3/data-rate.h"
#include "ns3/experiment-config.h"
#include "ns3/nstime.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Computes the FCT a flow would have alone in the network:
 *
 *   ideal = wireBytes / bottleneckRate + baseRtt
 *   wireBytes = bytes + ceil(bytes / mtu) x headerBytes
 *   bottleneckRate = min(rate of src's host link, rate of dst's host link)
 *   baseRtt = 2 x sum(link delays on the path)
 *             + sum over the links after the first of ser(last packet, link rate)
 *
 * headerBytes is everything a data packet carries besides payload on the wire
 * (Ethernet+802.1Q, IPv4, UDP, BTH, ICRC, preamble/FCS/inter-frame gap). The
 * second term of baseRtt is the store-and-forward delay of the flow's last
 * packet at each switch (an MTU-sized packet unless bytes is not a multiple of
 * the MTU; the last packet's real size keeps the ideal a lower bound). The path
 * is the route the switches use: fewest hops, and among those the smallest
 * delay. ACK serialization and per-message headers (RETH) are left out, so with
 * equal host link rates the ideal never exceeds a measured FCT.
 *
 * \p trailerBytes (GetWireBytes, GetBaseRtt, GetIdealFct) adds to headerBytes what only
 * some flows' data packets carry: HPCC's INT trailer (IntTrailer::SizeFor(MaxHops), on
 * SEND/WRITE data of a QP whose RdmaCongestionOps::GetIntHops() > 0). The HPCC
 * simulator's slowdown counts the INT header in its "bytes with headers" likewise.
 */
class IdealFctCalculator
{
  public:
    IdealFctCalculator(const ExperimentTopology& topology, uint32_t headerBytes);

    /** \return payload plus per-packet headers of a \p bytes message sent in \p mtu packets. */
    uint64_t GetWireBytes(uint64_t bytes, uint32_t mtu, uint32_t trailerBytes = 0) const;
    DataRate GetBottleneckRate(uint32_t srcHost, uint32_t dstHost) const;
    /** \return the base RTT for a message whose last packet carries \p lastPayload bytes. */
    Time GetBaseRtt(uint32_t srcHost, uint32_t dstHost, uint32_t lastPayload,
                    uint32_t trailerBytes = 0) const;
    Time GetIdealFct(uint32_t srcHost, uint32_t dstHost, uint64_t bytes, uint32_t mtu,
                     uint32_t trailerBytes = 0) const;

  private:
    struct Adjacent
    {
        uint32_t peer;
        DataRate rate;
        Time delay;
    };

    const ExperimentTopology& m_topology;
    uint32_t m_headerBytes;
    std::vector<std::vector<Adjacent>> m_adjacency;
};

} // namespace ns3

#endif /* IDEAL_FCT_CALCULATOR_H */
