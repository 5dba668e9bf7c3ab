/*
 * Husky's RNIC processing units (contrib/host NicProcessingUnits) in an RdmaNic's receive path.
 */
#ifndef RDMA_PROCESSING_UNITS_H
#define RDMA_PROCESSING_UNITS_H

#include "rdma-inbound-request.h"

#include "ns3/nic-processing-units.h"
#include "ns3/object.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace ns3
{

class RdmaNic;

/**
 * \ingroup rdma
 * Puts a NicProcessingUnits (Husky, OSDI'23 §3.3) in the path of the requests an RdmaNic
 * receives as responder, so that requests from every remote requester queue on the same
 * units in arrival order before their queue pair sees them.
 *
 * A verb request, in Husky's sense (one work request of a requester, counted in requests
 * per second), is the packet that starts a message at the responder: a READ request (cost
 * ReadCost), WRITE First/Only (WriteCost), SEND First/Only (SendCost). The further packets
 * of a multi-packet WRITE or SEND are payload of the same request: they take no unit but
 * are delivered in order after it. Every queue pair's packets leave in arrival order (a
 * request a cache miss holds on one unit holds back its QP's later packets, not other
 * QPs'). Responses, ACKs and CNPs (the requester side) do not pass through the units.
 * The tenant of a request (NicProcessingUnits::GetProcessed) is its queue pair's index,
 * QPN - RdmaNic::FIRST_QPN.
 *
 * Install() sets the NIC's request gate (RdmaNic::SetRequestGate). Atomics do not exist in
 * the rdma module, so the units' CompareSwapCost and FetchAddCost are unused here.
 */
class RdmaProcessingUnits : public Object
{
  public:
    static TypeId GetTypeId();
    RdmaProcessingUnits();
    ~RdmaProcessingUnits() override;

    /** Serve \p nic's received requests on \p units. \return "" or what is wrong. */
    std::string Install(Ptr<RdmaNic> nic, Ptr<NicProcessingUnits> units);
    Ptr<NicProcessingUnits> GetUnits() const;
    /** \return verb requests the units have processed, all QPs. */
    uint64_t GetRequests() const;
    /** \return packets that waited behind a request of their QP without a unit of their own. */
    uint64_t GetFollowers() const;

  protected:
    void DoDispose() override;

  private:
    struct Held
    {
        RdmaInboundRequest request;
        bool done; //!< processed (or needs no unit): may leave once it is at the front
    };

    /** Per queue pair: its held packets in arrival order; front() has sequence number front. */
    struct QpLane
    {
        std::deque<Held> held;
        uint64_t front{0};
    };

    void Arrive(const RdmaInboundRequest& request);
    /** The units finished request \p seq of queue pair index \p lane (a bound callback). */
    static void Processed(RdmaProcessingUnits* self, uint32_t lane, uint64_t seq);
    void Release(uint32_t lane);

    Ptr<RdmaNic> m_nic;
    Ptr<NicProcessingUnits> m_units;
    std::vector<QpLane> m_lanes; //!< index = qpn - RdmaNic::FIRST_QPN
    uint64_t m_requests{0};
    uint64_t m_followers{0};
};

} // namespace ns3

#endif /* RDMA_PROCESSING_UNITS_H */
