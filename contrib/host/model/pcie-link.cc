/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pcie-link.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PcieLink");
NS_OBJECT_ENSURE_REGISTERED(PcieLink);

TypeId
PcieLink::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PcieLink")
            .SetParent<HostResource>()
            .SetGroupName("Host")
            .AddConstructor<PcieLink>()
            .AddAttribute("Generation",
                          "PCIe generation 1..5 (2.5, 5, 8, 16, 32 GT/s per lane). Default 4: "
                          "the RNIC and GPU links of a DGX A100 class server (Hostping Fig. 2).",
                          UintegerValue(4),
                          MakeUintegerAccessor(&PcieLink::SetGeneration, &PcieLink::GetGeneration),
                          MakeUintegerChecker<uint32_t>(1, 5))
            .AddAttribute(
                "Lanes", "Trained link width in lanes (1, 2, 4, 8, 12, 16, 32). Default 16.",
                UintegerValue(16), MakeUintegerAccessor(&PcieLink::SetLanes, &PcieLink::GetLanes),
                MakeUintegerChecker<uint32_t>(1, 32))
            .AddAttribute(
                "MaxPayloadSize",
                "Max payload size (MPS) in bytes per TLP. Default 256 B, the common "
                "server BIOS setting (Neugebauer et al., SIGCOMM'18).",
                UintegerValue(256),
                MakeUintegerAccessor(&PcieLink::SetMaxPayloadSize, &PcieLink::GetMaxPayloadSize),
                MakeUintegerChecker<uint32_t>(128, 4096))
            .AddAttribute("TlpOverhead",
                          "Bytes on the wire per TLP besides payload, in bytes: 16 B 4DW header "
                          "(64-bit MWr), 2 B sequence number, 4 B LCRC, 2 B framing = 24 B "
                          "(PCIe base spec; same count as Neugebauer et al. SIGCOMM'18).",
                          UintegerValue(24), MakeUintegerAccessor(&PcieLink::m_tlpOverhead),
                          MakeUintegerChecker<uint32_t>(0, 128))
            .AddAttribute("DllpOverhead",
                          "Data-link-layer packet bytes per TLP, in bytes: ACK and UpdateFC "
                          "DLLPs of 8 B each, about three per MPS-sized TLP under streaming load. "
                          "24 B reproduces the spec-table model of Neugebauer et al. (57.9 Gb/s "
                          "TLP rate for Gen3 x8) within 0.1%.",
                          UintegerValue(24), MakeUintegerAccessor(&PcieLink::m_dllpOverhead),
                          MakeUintegerChecker<uint32_t>(0, 128))
            .AddAttribute("Latency",
                          "Round-trip time added to a read crossing the link (SerDes, data link "
                          "layer and flight, both ways). Default 30 ns, calibrated with the "
                          "other hop latencies to Hostping Fig. 4 (doc/host.md).",
                          TimeValue(NanoSeconds(30)),
                          MakeTimeAccessor(&HostResource::SetLatency, &HostResource::GetLatency),
                          MakeTimeChecker());
    return tid;
}

PcieLink::PcieLink()
    : m_generation(4)
    , m_lanes(16)
    , m_mps(256)
    , m_tlpOverhead(24)
    , m_dllpOverhead(24)
{
}

bool
PcieLink::SetGeneration(uint32_t generation)
{
    if (generation < 1 || generation > 5)
    {
        return false;
    }
    m_generation = generation;
    NotifyChanged();
    return true;
}

uint32_t
PcieLink::GetGeneration() const
{
    return m_generation;
}

bool
PcieLink::SetLanes(uint32_t lanes)
{
    if (lanes != 1 && lanes != 2 && lanes != 4 && lanes != 8 && lanes != 12 && lanes != 16 &&
        lanes != 32)
    {
        return false;
    }
    m_lanes = lanes;
    NotifyChanged();
    return true;
}

uint32_t
PcieLink::GetLanes() const
{
    return m_lanes;
}

bool
PcieLink::SetMaxPayloadSize(uint32_t mps)
{
    if (mps < 128 || mps > 4096 || (mps & (mps - 1)) != 0)
    {
        return false;
    }
    m_mps = mps;
    NotifyChanged();
    return true;
}

uint32_t
PcieLink::GetMaxPayloadSize() const
{
    return m_mps;
}

void
PcieLink::Retrain(uint32_t generation, uint32_t lanes)
{
    NS_ABORT_MSG_UNLESS(generation >= 1 && generation <= 5, "PCIe generation 1..5");
    uint32_t old = m_generation;
    m_generation = generation;
    if (!SetLanes(lanes))
    {
        m_generation = old;
        NS_ABORT_MSG("PCIe lanes must be 1, 2, 4, 8, 12, 16 or 32, not " << lanes);
    }
}

DataRate
PcieLink::GetRawRate() const
{
    // GT/s per lane x line encoding.
    static constexpr double gigaTransfers[] = {2.5, 5.0, 8.0, 16.0, 32.0};
    double encoding = m_generation <= 2 ? 8.0 / 10.0 : 128.0 / 130.0;
    return DataRate(
        static_cast<uint64_t>(gigaTransfers[m_generation - 1] * 1e9 * m_lanes * encoding));
}

DataRate
PcieLink::DoGetCapacity() const
{
    double physical = GetRawRate().GetBitRate() * (1.0 - 4.0 / 1538.0);
    double payload = physical * m_mps / (m_mps + m_tlpOverhead + m_dllpOverhead);
    return DataRate(static_cast<uint64_t>(payload));
}

HostResource::Sharing
PcieLink::DoGetSharing() const
{
    return DUPLEX;
}

} // namespace ns3
