/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "verb-pcie-cost.h"

#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(VerbPcieCost);

TypeId
VerbPcieCost::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::VerbPcieCost")
            .SetParent<Object>()
            .SetGroupName("Host")
            .AddConstructor<VerbPcieCost>()
            .AddAttribute("MaxPayloadSize",
                          "PCIe max payload per TLP, in bytes. Default 128 B, the worst setting "
                          "Husky's appendix A assumes.",
                          UintegerValue(128), MakeUintegerAccessor(&VerbPcieCost::m_mps),
                          MakeUintegerChecker<uint32_t>(64, 4096))
            .AddAttribute("TlpOverhead",
                          "PCIe bytes per TLP besides payload. Default 20 B, a typical PCIe "
                          "3.0 device (Husky appendix A, after Kalia ATC'16).",
                          UintegerValue(20), MakeUintegerAccessor(&VerbPcieCost::m_tlp),
                          MakeUintegerChecker<uint32_t>(0, 128))
            .AddAttribute("WqeBytes",
                          "Work-queue element fetched per request. Default 36 B (RC/UC; 68 B "
                          "for UD; Husky appendix A).",
                          UintegerValue(36), MakeUintegerAccessor(&VerbPcieCost::m_wqe),
                          MakeUintegerChecker<uint32_t>(0, 4096))
            .AddAttribute("DoorbellBytes",
                          "Doorbell MMIO per request. Default 64 B, one cache line (Husky "
                          "appendix A).",
                          UintegerValue(64), MakeUintegerAccessor(&VerbPcieCost::m_doorbell),
                          MakeUintegerChecker<uint32_t>(0, 4096))
            .AddAttribute("MaxInlineSize",
                          "Largest payload carried inline in the doorbell with the WQE. Default "
                          "28 B (Husky Fig. 6, ConnectX-5).",
                          UintegerValue(28), MakeUintegerAccessor(&VerbPcieCost::m_maxInline),
                          MakeUintegerChecker<uint32_t>(0, 4096))
            .AddAttribute("Mtu", "RoCE MTU in bytes. Default 4096 (Husky appendix A).",
                          UintegerValue(4096), MakeUintegerAccessor(&VerbPcieCost::m_mtu),
                          MakeUintegerChecker<uint32_t>(256, 9000))
            .AddAttribute("HeaderBytes",
                          "Wire bytes per packet besides payload. Default 98 B: Ethernet 38 "
                          "(with preamble, SFD and gap), IPv4 20, UDP 8, BTH+RETH+ICRC 32 "
                          "(Husky appendix A).",
                          UintegerValue(98), MakeUintegerAccessor(&VerbPcieCost::m_headers),
                          MakeUintegerChecker<uint32_t>(0, 1024));
    return tid;
}

VerbPcieCost::VerbPcieCost()
    : m_mps(128)
    , m_tlp(20)
    , m_wqe(36)
    , m_doorbell(64)
    , m_maxInline(28)
    , m_mtu(4096)
    , m_headers(98)
{
}

uint64_t
VerbPcieCost::GetPcieBytes(uint64_t payload) const
{
    if (payload <= m_maxInline)
    {
        return m_doorbell + m_tlp;
    }
    uint64_t tlps = (payload + m_mps - 1) / m_mps;
    return payload + tlps * m_tlp + m_wqe + m_tlp + m_doorbell + m_tlp;
}

uint64_t
VerbPcieCost::GetWireBytes(uint64_t payload) const
{
    uint64_t packets = payload == 0 ? 1 : (payload + m_mtu - 1) / m_mtu;
    return payload + packets * m_headers;
}

DataRate
VerbPcieCost::GetPcieRate(uint64_t payload, DataRate wire) const
{
    return DataRate(static_cast<uint64_t>(double(wire.GetBitRate()) * GetPcieBytes(payload) /
                                          GetWireBytes(payload)));
}

} // namespace ns3
