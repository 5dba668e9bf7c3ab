#include "rdma-pcie-throttle.h"

#include "rdma-nic.h"
#include "rdma-rx-pipeline.h"

#include "ns3/data-rate.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaPcieThrottle);

TypeId
RdmaPcieThrottle::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaPcieThrottle")
            .SetParent<Object>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaPcieThrottle>()
            .AddAttribute("Rate",
                          "Rate of received payload written to host memory. Default 126 Gb/s: "
                          "PCIe 3.0 x16, the slot of a 100G ConnectX-5 (PCI-SIG: 8 GT/s per lane, "
                          "128b/130b encoding, so 16 x 8 x 128/130 Gb/s before TLP overhead).",
                          DataRateValue(DataRate("126Gbps")),
                          MakeDataRateAccessor(&RdmaPcieThrottle::m_rate), MakeDataRateChecker());
    return tid;
}

std::string
RdmaPcieThrottle::Install(Ptr<RdmaNic> nic)
{
    Ptr<RdmaRxPipeline> rx = nic->GetRxPipeline();
    if (rx->GetHostModel())
    {
        return "RdmaPcieThrottle: the NIC has a host model; degrade its PCIe links instead";
    }
    const std::string error = rx->CheckConfig();
    if (!error.empty())
    {
        return "ns3::RdmaRxPipeline: " + error;
    }
    rx->AddServiceDelay(
        MakeCallback(&RdmaPcieThrottle::GetServiceTime, Ptr<RdmaPcieThrottle>(this)));
    return "";
}

void
RdmaPcieThrottle::SetRate(DataRate rate)
{
    m_rate = rate;
}

DataRate
RdmaPcieThrottle::GetRate() const
{
    return m_rate;
}

Time
RdmaPcieThrottle::GetServiceTime(uint32_t /* qpn */, uint32_t payload) const
{
    return m_rate.CalculateBytesTxTime(payload);
}

} // namespace ns3
