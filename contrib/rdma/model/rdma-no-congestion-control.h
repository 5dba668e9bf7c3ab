/*
 * The null congestion-control algorithm: queue pairs send at line rate.
 */
#ifndef RDMA_NO_CONGESTION_CONTROL_H
#define RDMA_NO_CONGESTION_CONTROL_H

#include "rdma-congestion-ops.h"

namespace ns3
{

/**
 * \ingroup rdma
 * No congestion control: the queue pair always sends at line rate with no
 * window cap, never asks for a CNP and ignores CNPs, ACK feedback and sent
 * bytes. Useful as a baseline (PFC only) and in tests of other components.
 */
class RdmaNoCongestionControl : public RdmaCongestionOps
{
  public:
    static TypeId GetTypeId();

    RdmaNoCongestionControl();
    ~RdmaNoCongestionControl() override;

    std::string GetName() const override;
    Ptr<RdmaCongestionOps> Fork() const override;
    /** Set m_rate and m_targetRate to the line rate and lift the window cap. */
    void Init(RdmaCcState* state) override;
    void OnCnp() override;
    void OnDataSent(uint32_t bytes) override;
    void OnAck(const RdmaAckSample& ack) override;
    /** \return false: no CNP is ever sent */
    bool OnDataReceived(bool ceMarked) override;
};

} // namespace ns3

#endif /* RDMA_NO_CONGESTION_CONTROL_H */
