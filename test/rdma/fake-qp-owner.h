// A stand-in for RdmaNic in the requester and responder unit tests: records what the
// queue-pair side reports (transmit notifications, completions, control packets, data
// placement, messages) and sends nothing.
#ifndef ROCE_LAB_TEST_FAKE_QP_OWNER_H
#define ROCE_LAB_TEST_FAKE_QP_OWNER_H

#include "ns3/rdma-qp-owner.h"
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

    uint32_t txNotifications{0};
    uint32_t cnpRequests{0};
    std::vector<Control> controls;
    std::vector<RdmaCompletion> completions;
    std::vector<Placement> placements;
    std::vector<uint64_t> messages;
};

} // namespace ns3

#endif // ROCE_LAB_TEST_FAKE_QP_OWNER_H
