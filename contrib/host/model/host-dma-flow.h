/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef HOST_DMA_FLOW_H
#define HOST_DMA_FLOW_H

#include "host-model.h"

#include "ns3/data-rate.h"
#include "ns3/object.h"

#include <string>

namespace ns3
{

/**
 * \ingroup host
 * Background traffic on the intra-host graph: an endless DMA stream from an RnicPort to a
 * device, issued as back-to-back chunks (the next chunk starts when the previous one's bytes
 * have crossed the bottleneck), optionally capped at MaxRate. It shares the graph max-min
 * fairly with everything else, which is how the issue's contention sources are modelled:
 * loopback RDMA between two VMs of one host (Kind Loopback: the NIC reads from memory and
 * writes the data back, never touching the wire; Azure NSDI'23 §8.3, Hostping §3.2.1), or
 * other GPUs' GPUDirect traffic (Kind Read/Write towards a GPU).
 */
class HostDmaFlow : public Object
{
  public:
    static TypeId GetTypeId();
    HostDmaFlow();
    ~HostDmaFlow() override;

    /** Run between the named RnicPort and device of \p host. \return "" or what is wrong. */
    std::string Setup(Ptr<HostModel> host, const std::string& rnic, const std::string& target);
    void Start();
    void Stop();
    bool IsRunning() const;
    /** \return bytes of the chunks that completed their transfer. */
    uint64_t GetBytesMoved() const;

  protected:
    void DoDispose() override;

  private:
    void Issue();
    void OnTransferred();

    HostModel::DmaKind m_kind;
    uint64_t m_chunk;
    DataRate m_maxRate;
    Ptr<HostModel> m_host;
    uint32_t m_rnic{HostModel::NONE};
    uint32_t m_target{HostModel::NONE};
    bool m_running{false};
    uint64_t m_current{0}; //!< id of the chunk in flight, 0 if none
    uint64_t m_moved{0};
};

} // namespace ns3

#endif /* HOST_DMA_FLOW_H */
