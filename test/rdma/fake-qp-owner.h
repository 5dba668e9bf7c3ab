// A stand-in for RdmaNic in the requester and responder unit tests: records what the
// queue-pair side reports (transmit notifications, completions, control packets, data
// placement, messages) and sends nothing.
#ifndef ROCE_LAB_TEST_FAKE_QP_OWNER_H
#define ROCE_LAB_TEST_FAKE_QP_OWNER_H

#include "ns3/rdma-congestion-ops.h"
#include "ns3/rdma-loss-recovery.h"
#include "ns3/rdma-qp-owner.h"
#include "ns3/rdma-requester.h"
#include "ns3/rdma-responder.h"
#include "ns3/roce-aeth-header.h"
#include "ns3/roce-bth-header.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class FakeQpOwner : public RdmaQpOwner
{
  public:
    /** A control packet the side sent, decoded. */
    struct Control
    {
        RoceBthHeader bth;
        RoceAethHeader aeth;
        Ptr<Packet> rest; //!< what follows the AETH (a SACK)
        bool cnp;
    };

    struct Placement
    {
        uint64_t address;
        uint32_t bytes;
    };

    void NotifyTxWork(RdmaQueuePair*) override { ++txNotifications; }

    void RequestCnp(RdmaQueuePair*) override { ++cnpRequests; }

    void SendControl(RdmaQueuePair*, Ptr<Packet> packet, bool cnp) override
    {
        Control c;
        c.cnp = cnp;
        Ptr<Packet> p = packet->Copy();
        p->RemoveHeader(c.bth);
        if (!cnp)
        {
            p->RemoveHeader(c.aeth);
        }
        c.rest = p;
        controls.push_back(c);
    }

    void NotifyCompletion(const RdmaCompletion& completion) override
    {
        completions.push_back(completion);
    }

    void NotifyDataPlaced(uint32_t, uint64_t address, uint32_t bytes) override
    {
        placements.push_back({address, bytes});
    }

    void NotifyMessageReceived(uint32_t, uint64_t bytes) override { messages.push_back(bytes); }

    uint32_t GetEncapsulationBytes() const override { return 0; }

    /**
     * A requester side reporting to this owner: QP 0x100 talking to QP 0x200, 100 Gb/s,
     * a 10 us RNR wait, payload \p mtu, \p cc and \p loss, counting into \p counters.
     */
    RdmaRequester::Config RequesterConfig(uint32_t mtu, Ptr<RdmaCongestionOps> cc,
                                          Ptr<RdmaLossRecovery> loss, RdmaQpCounters* counters)
    {
        RdmaRequester::Config config;
        config.owner = this;
        config.qpn = 0x100;
        config.mtu = mtu;
        config.rnrTimer = MicroSeconds(10);
        config.lineRate = DataRate("100Gbps");
        config.cc = cc;
        config.loss = loss;
        config.counters = counters;
        return config;
    }

    /** The responder side of that pair (QP 0x200), acknowledging every \p ackInterval. */
    RdmaResponder::Config ResponderConfig(uint32_t mtu, uint32_t ackInterval,
                                          Ptr<RdmaCongestionOps> cc, Ptr<RdmaLossRecovery> loss,
                                          RdmaQpCounters* counters)
    {
        RdmaResponder::Config config;
        config.owner = this;
        config.qpn = 0x200;
        config.mtu = mtu;
        config.ackInterval = ackInterval;
        config.cc = cc;
        config.loss = loss;
        config.counters = counters;
        return config;
    }

    uint32_t txNotifications{0};
    uint32_t cnpRequests{0};
    std::vector<Control> controls;
    std::vector<RdmaCompletion> completions;
    std::vector<Placement> placements;
    std::vector<uint64_t> messages;
};

} // namespace ns3

#endif // ROCE_LAB_TEST_FAKE_QP_OWNER_H
