/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef HOSTPING_H
#define HOSTPING_H

#include "host-model.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/object.h"

#include <vector>

namespace ns3
{

/// One loopback measurement between an RNIC and an endpoint (Hostping §4.1.1).
struct HostpingProbe
{
    uint32_t rnic;      //!< resource index of the RnicPort
    uint32_t endpoint;  //!< resource index of the GPU or memory
    Time smallLatency;  //!< loopback latency of the small message (intra-host latency)
    Time largeLatency;  //!< loopback latency of the large message
    DataRate bandwidth; //!< (large - small) bytes / (large - small) latency; zero on timeout
    bool completed;     //!< false when a probe timed out (a failed link)
};

/// Algorithm 1's verdict on one resource.
enum class HostLinkStatus
{
    UNCERTAIN, //!< on no probed path, or only on paths that did not decide it
    NORMAL,
    ABNORMAL,
    GRAY //!< on an abnormal path whose links all looked normal: flapping suspect
};

/// The outcome of Hostping's tomography.
struct HostpingDiagnosis
{
    std::vector<bool> pathAbnormal;      //!< per probe, bandwidth below the baseline
    std::vector<bool> latencyAbnormal;   //!< per probe, small-message latency above it
    std::vector<HostLinkStatus> status;  //!< per resource index
    std::vector<uint32_t> abnormalCount; //!< per resource: RNICs that marked it abnormal
    std::vector<uint32_t> abnormalLinks; //!< resource indices, ABNORMAL
    std::vector<uint32_t> grayLinks;     //!< resource indices, GRAY
};

/**
 * \ingroup host
 * Hostping (Liu et al., NSDI'23): loopback probes from every RNIC to every endpoint (GPUs and
 * memory) of a HostModel, run one at a time on an idle host, and the path/link tomography of
 * Algorithm 1 against a baseline from a healthy host of the same configuration.
 * The trigger rule (periodic on idle hosts, pause ratio or drops on busy ones) is not modelled.
 */
class Hostping : public Object
{
  public:
    typedef Callback<void, const std::vector<HostpingProbe>&> DoneCallback;

    static TypeId GetTypeId();
    Hostping();

    void SetHost(Ptr<HostModel> host);
    /// Probe every (RnicPort, GpuDevice or MemoryChannel) pair in turn; done gets the results.
    void Start(DoneCallback done);
    /// Run the tomography. baseline and measured list the same pairs in the same order.
    HostpingDiagnosis Diagnose(const std::vector<HostpingProbe>& baseline,
                               const std::vector<HostpingProbe>& measured) const;

  protected:
    void DoDispose() override;

  private:
    void StartProbe();
    void OnSmallDone(Time latency);
    void OnLargeDone(Time latency);
    void OnTimeout();
    void Next();

    Ptr<HostModel> m_host;
    uint64_t m_smallBytes;
    uint64_t m_largeBytes;
    Time m_processing;
    Time m_timeout;
    double m_abnormalBandwidth;
    double m_abnormalLatency;
    std::vector<std::pair<uint32_t, uint32_t>> m_pairs;
    std::vector<HostpingProbe> m_results;
    uint32_t m_current;
    uint64_t m_dma;
    EventId m_timeoutEvent;
    DoneCallback m_done;
};

} // namespace ns3

#endif /* HOSTPING_H */
