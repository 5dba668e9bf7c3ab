// Unit tests of the RoCEv2 transport headers: sizes, round trips through ns3::Packet,
// byte-exact wire layouts, PSN arithmetic, AETH syndromes and the ICRC.
#include "ns3/crc32.h"
#include "ns3/packet.h"
#include "ns3/roce-aeth-header.h"
#include "ns3/roce-bth-header.h"
#include "ns3/roce-cnp-header.h"
#include "ns3/roce-icrc-trailer.h"
#include "ns3/roce-reth-header.h"
#include "ns3/simulator.h"

#include <cstring>
#include <gtest/gtest.h>
#include <sstream>
#include <vector>

using namespace ns3;

namespace
{

class RoceHeadersTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }
};

std::vector<uint8_t>
Bytes(Ptr<const Packet> packet)
{
    std::vector<uint8_t> bytes(packet->GetSize());
    packet->CopyData(bytes.data(), bytes.size());
    return bytes;
}

template <typename T>
std::vector<uint8_t>
Serialize(const T& header)
{
    Ptr<Packet> packet = Create<Packet>();
    packet->AddHeader(header);
    return Bytes(packet);
}

template <typename T>
std::string
ToString(const T& header)
{
    std::ostringstream os;
    header.Print(os);
    return os.str();
}

// A CNP captured on a ConnectX-4 Lx (from the IPv4 header to the end of the CNP's
// reserved bytes), and the 4 ICRC bytes that followed it on the wire.
const std::vector<uint8_t> CAPTURED_CNP = {
    0x45, 0xc2, 0x00, 0x3c, 0x71, 0x8c, 0x40, 0x00, 0x40, 0x11, 0x91, 0x61, 0x0a, 0x00,
    0x11, 0x01, 0x0a, 0x00, 0x12, 0x01, 0x00, 0x00, 0x12, 0xb7, 0x00, 0x28, 0x00, 0x00,
    0x81, 0x00, 0xff, 0xff, 0x40, 0x00, 0x01, 0x18, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
const std::vector<uint8_t> CAPTURED_CNP_ICRC = {0x82, 0xfd, 0x00, 0x2a};
constexpr std::size_t CAPTURED_CNP_BTH_OFFSET = 28;

// An IPv6 RoCEv2 SendOnly packet; its ICRC was computed independently with zlib.crc32
// over 8 bytes of 0xFF and the packet with the IBTA A17.8 fields masked.
const std::vector<uint8_t> IPV6_SEND_ONLY = {
    0x66, 0x81, 0x23, 0x45, 0x00, 0x28, 0x11, 0x40, 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0xc0, 0x00, 0x12, 0xb7, 0x00, 0x28, 0xab, 0xcd,
    0x04, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x12, 0x80, 0x00, 0x00, 0x07, 0x52, 0x6f, 0x43, 0x45,
    0x76, 0x32, 0x20, 0x6f, 0x76, 0x65, 0x72, 0x20, 0x49, 0x50, 0x76, 0x36};
constexpr uint32_t IPV6_SEND_ONLY_ICRC = 0x40e7ee84;

TEST_F(RoceHeadersTest, SerializedSizes)
{
    EXPECT_EQ(RoceBthHeader().GetSerializedSize(), 12u);
    EXPECT_EQ(RoceRethHeader().GetSerializedSize(), 16u);
    EXPECT_EQ(RoceAethHeader().GetSerializedSize(), 4u);
    EXPECT_EQ(RoceCnpHeader().GetSerializedSize(), 16u);
    EXPECT_EQ(RoceIcrcTrailer().GetSerializedSize(), 4u);
    EXPECT_EQ(Serialize(RoceBthHeader()).size(), 12u);
    EXPECT_EQ(Serialize(RoceRethHeader()).size(), 16u);
    EXPECT_EQ(Serialize(RoceAethHeader()).size(), 4u);
    EXPECT_EQ(Serialize(RoceCnpHeader()).size(), 16u);
    Ptr<Packet> packet = Create<Packet>();
    packet->AddTrailer(RoceIcrcTrailer());
    EXPECT_EQ(packet->GetSize(), 4u);
}

TEST_F(RoceHeadersTest, TypeIds)
{
    EXPECT_EQ(RoceBthHeader().GetInstanceTypeId().GetName(), "ns3::RoceBthHeader");
    EXPECT_EQ(RoceRethHeader().GetInstanceTypeId().GetName(), "ns3::RoceRethHeader");
    EXPECT_EQ(RoceAethHeader().GetInstanceTypeId().GetName(), "ns3::RoceAethHeader");
    EXPECT_EQ(RoceCnpHeader().GetInstanceTypeId().GetName(), "ns3::RoceCnpHeader");
    EXPECT_EQ(RoceIcrcTrailer().GetInstanceTypeId().GetName(), "ns3::RoceIcrcTrailer");
    EXPECT_EQ(RoceBthHeader::GetTypeId().GetParent(), Header::GetTypeId());
    EXPECT_EQ(RoceIcrcTrailer::GetTypeId().GetParent(), Trailer::GetTypeId());
}

TEST_F(RoceHeadersTest, BthDefaults)
{
    RoceBthHeader bth;
    EXPECT_EQ(bth.GetPartitionKey(), 0xFFFF);
    EXPECT_EQ(bth.GetTransportVersion(), 0);
    EXPECT_FALSE(bth.GetFecn());
    EXPECT_FALSE(bth.GetBecn());
    std::vector<uint8_t> bytes = Serialize(bth);
    EXPECT_EQ(bytes[4], 0x00);        // resv8a
    EXPECT_EQ(bytes[8] & 0x7F, 0x00); // resv7
}

TEST_F(RoceHeadersTest, BthWireLayout)
{
    RoceBthHeader bth;
    bth.SetOpcode(RoceOpcode::WriteOnly);
    bth.SetPartitionKey(0xFFFF);
    bth.SetDestQp(0x000123);
    bth.SetAckRequest(true);
    bth.SetPsn(0x00ABCD);
    const std::vector<uint8_t> expected = {0x0A, 0x00, 0xFF, 0xFF, 0x00, 0x00,
                                           0x01, 0x23, 0x80, 0x00, 0xAB, 0xCD};
    EXPECT_EQ(Serialize(bth), expected);
}

TEST_F(RoceHeadersTest, BthWireLayoutAllFlags)
{
    RoceBthHeader bth;
    bth.SetOpcode(RoceOpcode::SendLastImm);
    bth.SetSolicitedEvent(true);
    bth.SetMigReq(true);
    bth.SetPadCount(2);
    bth.SetPartitionKey(0x1234);
    bth.SetFecn(true);
    bth.SetDestQp(0xABCDEF);
    bth.SetPsn(0xFFFFFF);
    const std::vector<uint8_t> expected = {0x03, 0xE0, 0x12, 0x34, 0x80, 0xAB,
                                           0xCD, 0xEF, 0x00, 0xFF, 0xFF, 0xFF};
    EXPECT_EQ(Serialize(bth), expected);
    bth.SetFecn(false);
    bth.SetBecn(true);
    bth.SetTransportVersion(0xF);
    std::vector<uint8_t> bytes = Serialize(bth);
    EXPECT_EQ(bytes[1], 0xEF);
    EXPECT_EQ(bytes[4], 0x40);
}

TEST_F(RoceHeadersTest, BthRoundTrip)
{
    RoceBthHeader sent;
    sent.SetOpcode(RoceOpcode::ReadResponseMiddle);
    sent.SetSolicitedEvent(true);
    sent.SetMigReq(true);
    sent.SetPadCount(3);
    sent.SetTransportVersion(0);
    sent.SetPartitionKey(0x8001);
    sent.SetFecn(true);
    sent.SetBecn(true);
    sent.SetDestQp(0xFFFFFF);
    sent.SetAckRequest(true);
    sent.SetPsn(0xFFFFFF);

    Ptr<Packet> packet = Create<Packet>(100);
    packet->AddHeader(sent);
    RoceBthHeader received;
    EXPECT_EQ(packet->RemoveHeader(received), 12u);
    EXPECT_EQ(packet->GetSize(), 100u);
    EXPECT_EQ(received.GetOpcode(), RoceOpcode::ReadResponseMiddle);
    EXPECT_TRUE(received.GetSolicitedEvent());
    EXPECT_TRUE(received.GetMigReq());
    EXPECT_EQ(received.GetPadCount(), 3);
    EXPECT_EQ(received.GetTransportVersion(), 0);
    EXPECT_EQ(received.GetPartitionKey(), 0x8001);
    EXPECT_TRUE(received.GetFecn());
    EXPECT_TRUE(received.GetBecn());
    EXPECT_EQ(received.GetDestQp(), 0xFFFFFFu);
    EXPECT_TRUE(received.GetAckRequest());
    EXPECT_EQ(received.GetPsn(), 0xFFFFFFu);

    RoceBthHeader zero;
    zero.SetOpcode(RoceOpcode::Acknowledge);
    zero.SetDestQp(0x000001);
    zero.SetPsn(0);
    packet = Create<Packet>();
    packet->AddHeader(zero);
    packet->RemoveHeader(received);
    EXPECT_EQ(received.GetOpcode(), RoceOpcode::Acknowledge);
    EXPECT_FALSE(received.GetSolicitedEvent());
    EXPECT_FALSE(received.GetMigReq());
    EXPECT_EQ(received.GetPadCount(), 0);
    EXPECT_EQ(received.GetPartitionKey(), 0xFFFF);
    EXPECT_FALSE(received.GetFecn());
    EXPECT_FALSE(received.GetBecn());
    EXPECT_EQ(received.GetDestQp(), 1u);
    EXPECT_FALSE(received.GetAckRequest());
    EXPECT_EQ(received.GetPsn(), 0u);
}

TEST_F(RoceHeadersTest, BthDecodesCapturedCnp)
{
    Ptr<Packet> packet = Create<Packet>(CAPTURED_CNP.data() + CAPTURED_CNP_BTH_OFFSET,
                                        CAPTURED_CNP.size() - CAPTURED_CNP_BTH_OFFSET);
    RoceBthHeader bth;
    packet->RemoveHeader(bth);
    EXPECT_EQ(bth.GetOpcode(), RoceOpcode::Cnp);
    EXPECT_EQ(bth.GetPartitionKey(), 0xFFFF);
    EXPECT_TRUE(bth.GetBecn()); // this NIC sets BECN in its CNPs
    EXPECT_FALSE(bth.GetFecn());
    EXPECT_EQ(bth.GetDestQp(), 0x118u);
    EXPECT_EQ(bth.GetPsn(), 0u);
    RoceCnpHeader cnp;
    EXPECT_EQ(packet->RemoveHeader(cnp), 16u);
    EXPECT_EQ(packet->GetSize(), 0u);
}

TEST_F(RoceHeadersTest, BthPrint)
{
    RoceBthHeader bth;
    bth.SetOpcode(RoceOpcode::WriteOnly);
    bth.SetDestQp(0x000123);
    bth.SetAckRequest(true);
    bth.SetPsn(0x00ABCD);
    std::string text = ToString(bth);
    EXPECT_NE(text.find("WriteOnly(0x0a)"), std::string::npos) << text;
    EXPECT_NE(text.find("DestQP=0x000123"), std::string::npos) << text;
    EXPECT_NE(text.find("PSN=43981"), std::string::npos) << text;
    EXPECT_STREQ(RoceBthHeader::GetOpcodeName(RoceOpcode::Cnp), "Cnp");
    EXPECT_STREQ(RoceBthHeader::GetOpcodeName(static_cast<RoceOpcode>(0x64)), "Unknown");
}

TEST_F(RoceHeadersTest, OpcodeValues)
{
    EXPECT_EQ(static_cast<uint8_t>(RoceOpcode::SendFirst), 0x00);
    EXPECT_EQ(static_cast<uint8_t>(RoceOpcode::SendOnlyImm), 0x05);
    EXPECT_EQ(static_cast<uint8_t>(RoceOpcode::WriteOnly), 0x0A);
    EXPECT_EQ(static_cast<uint8_t>(RoceOpcode::ReadRequest), 0x0C);
    EXPECT_EQ(static_cast<uint8_t>(RoceOpcode::ReadResponseOnly), 0x10);
    EXPECT_EQ(static_cast<uint8_t>(RoceOpcode::Acknowledge), 0x11);
    EXPECT_EQ(static_cast<uint8_t>(RoceOpcode::Cnp), 0x81);
}

TEST_F(RoceHeadersTest, OpcodePredicates)
{
    static_assert(RoceBthHeader::HasReth(RoceOpcode::WriteFirst), "usable at compile time");
    using Op = RoceOpcode;
    struct Row
    {
        Op op;
        bool reth, aeth, imm, first, last;
    };
    const Row rows[] = {
        {Op::SendFirst, false, false, false, true, false},
        {Op::SendMiddle, false, false, false, false, false},
        {Op::SendLast, false, false, false, false, true},
        {Op::SendLastImm, false, false, true, false, true},
        {Op::SendOnly, false, false, false, true, true},
        {Op::SendOnlyImm, false, false, true, true, true},
        {Op::WriteFirst, true, false, false, true, false},
        {Op::WriteMiddle, false, false, false, false, false},
        {Op::WriteLast, false, false, false, false, true},
        {Op::WriteLastImm, false, false, true, false, true},
        {Op::WriteOnly, true, false, false, true, true},
        {Op::WriteOnlyImm, true, false, true, true, true},
        {Op::ReadRequest, true, false, false, true, true},
        {Op::ReadResponseFirst, false, true, false, true, false},
        {Op::ReadResponseMiddle, false, false, false, false, false},
        {Op::ReadResponseLast, false, true, false, false, true},
        {Op::ReadResponseOnly, false, true, false, true, true},
        {Op::Acknowledge, false, true, false, false, false},
        {Op::Cnp, false, false, false, false, false},
    };
    for (const Row& row : rows)
    {
        SCOPED_TRACE(RoceBthHeader::GetOpcodeName(row.op));
        EXPECT_EQ(RoceBthHeader::HasReth(row.op), row.reth);
        EXPECT_EQ(RoceBthHeader::HasAeth(row.op), row.aeth);
        EXPECT_EQ(RoceBthHeader::HasImmDt(row.op), row.imm);
        EXPECT_EQ(RoceBthHeader::IsFirstOrOnly(row.op), row.first);
        EXPECT_EQ(RoceBthHeader::IsLastOrOnly(row.op), row.last);
        uint8_t value = static_cast<uint8_t>(row.op);
        EXPECT_EQ(RoceBthHeader::IsSend(row.op), value <= 0x05);
        EXPECT_EQ(RoceBthHeader::IsWrite(row.op), value >= 0x06 && value <= 0x0B);
        EXPECT_EQ(RoceBthHeader::IsReadResponse(row.op), value >= 0x0D && value <= 0x10);
    }
}

TEST_F(RoceHeadersTest, PsnArithmetic)
{
    EXPECT_EQ(RoceBthHeader::PsnAdd(0xFFFFFF, 1), 0u);
    EXPECT_EQ(RoceBthHeader::PsnAdd(0xFFFFF0, 0x20), 0x10u);
    EXPECT_EQ(RoceBthHeader::PsnAdd(0, -1), 0xFFFFFFu);
    EXPECT_EQ(RoceBthHeader::PsnAdd(5, -5), 0u);
    EXPECT_EQ(RoceBthHeader::PsnAdd(0x123456, 0), 0x123456u);

    EXPECT_EQ(RoceBthHeader::PsnDiff(5, 5), 0);
    EXPECT_EQ(RoceBthHeader::PsnDiff(0, 0xFFFFFF), 1);
    EXPECT_EQ(RoceBthHeader::PsnDiff(0xFFFFFF, 0), -1);
    EXPECT_EQ(RoceBthHeader::PsnDiff(0x10, 0xFFFFF0), 0x20);
    EXPECT_EQ(RoceBthHeader::PsnDiff(0xFFFFF0, 0x10), -0x20);
    EXPECT_EQ(RoceBthHeader::PsnDiff(0x7FFFFF, 0), 0x7FFFFF);
    EXPECT_EQ(RoceBthHeader::PsnDiff(0x800000, 0), -0x800000);

    const uint32_t bases[] = {0, 1, 0x7FFFFF, 0x800000, 0xFFFFFE, 0xFFFFFF};
    const int32_t deltas[] = {0, 1, -1, 1000, -1000, 0x7FFFFF, -0x800000};
    for (uint32_t base : bases)
    {
        for (int32_t delta : deltas)
        {
            uint32_t psn = RoceBthHeader::PsnAdd(base, delta);
            EXPECT_LE(psn, RoceBthHeader::PSN_MASK);
            EXPECT_EQ(RoceBthHeader::PsnDiff(psn, base), delta) << base << " " << delta;
        }
    }
}

TEST_F(RoceHeadersTest, RethRoundTripAndLayout)
{
    RoceRethHeader sent;
    sent.SetVirtualAddress(0x0123456789ABCDEFull);
    sent.SetRemoteKey(0xDEADBEEF);
    sent.SetDmaLength(0x00100000);
    const std::vector<uint8_t> expected = {0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF,
                                           0xDE, 0xAD, 0xBE, 0xEF, 0x00, 0x10, 0x00, 0x00};
    EXPECT_EQ(Serialize(sent), expected);

    Ptr<Packet> packet = Create<Packet>(8);
    packet->AddHeader(sent);
    RoceRethHeader received;
    EXPECT_EQ(packet->RemoveHeader(received), 16u);
    EXPECT_EQ(received.GetVirtualAddress(), 0x0123456789ABCDEFull);
    EXPECT_EQ(received.GetRemoteKey(), 0xDEADBEEFu);
    EXPECT_EQ(received.GetDmaLength(), 0x00100000u);
    EXPECT_EQ(packet->GetSize(), 8u);
    EXPECT_NE(ToString(received).find("RKey=0xdeadbeef"), std::string::npos);
}

TEST_F(RoceHeadersTest, AethSyndromes)
{
    RoceAethHeader aeth;
    EXPECT_TRUE(aeth.IsAck());
    EXPECT_EQ(aeth.GetSyndrome(), 0x1F);
    EXPECT_EQ(aeth.GetCreditCount(), RoceAethHeader::INVALID_CREDIT);

    aeth.SetAck(0);
    EXPECT_EQ(aeth.GetSyndrome(), 0x00);
    EXPECT_TRUE(aeth.IsAck());
    EXPECT_FALSE(aeth.IsNak());
    EXPECT_FALSE(aeth.IsRnrNak());

    const std::pair<RoceNakCode, uint8_t> naks[] = {
        {RoceNakCode::PsnSequenceError, 0x60},
        {RoceNakCode::InvalidRequest, 0x61},
        {RoceNakCode::RemoteAccessError, 0x62},
        {RoceNakCode::RemoteOperationalError, 0x63},
    };
    for (const auto& [code, syndrome] : naks)
    {
        aeth.SetNak(code);
        EXPECT_EQ(aeth.GetSyndrome(), syndrome);
        EXPECT_TRUE(aeth.IsNak());
        EXPECT_FALSE(aeth.IsAck());
        EXPECT_FALSE(aeth.IsRnrNak());
        EXPECT_EQ(aeth.GetNakCode(), code);
    }

    aeth.SetRnrNak(14);
    EXPECT_EQ(aeth.GetSyndrome(), 0x2E);
    EXPECT_TRUE(aeth.IsRnrNak());
    EXPECT_FALSE(aeth.IsNak());
    EXPECT_FALSE(aeth.IsAck());
    EXPECT_EQ(aeth.GetRnrTimer(), 14);

    aeth.SetSyndrome(0x40); // type 10 is reserved
    EXPECT_FALSE(aeth.IsAck());
    EXPECT_FALSE(aeth.IsNak());
    EXPECT_FALSE(aeth.IsRnrNak());
}

TEST_F(RoceHeadersTest, AethRoundTripAndLayout)
{
    RoceAethHeader sent;
    sent.SetNak(RoceNakCode::InvalidRequest);
    sent.SetMsn(0x123456);
    EXPECT_EQ(Serialize(sent), (std::vector<uint8_t>{0x61, 0x12, 0x34, 0x56}));

    sent.SetAck();
    sent.SetMsn(0xFFFFFF);
    EXPECT_EQ(Serialize(sent), (std::vector<uint8_t>{0x1F, 0xFF, 0xFF, 0xFF}));
    Ptr<Packet> packet = Create<Packet>();
    packet->AddHeader(sent);
    RoceAethHeader received;
    received.SetNak(RoceNakCode::PsnSequenceError);
    EXPECT_EQ(packet->RemoveHeader(received), 4u);
    EXPECT_TRUE(received.IsAck());
    EXPECT_EQ(received.GetCreditCount(), 0x1F);
    EXPECT_EQ(received.GetMsn(), 0xFFFFFFu);

    sent.SetNak(RoceNakCode::RemoteAccessError);
    sent.SetMsn(7);
    packet->AddHeader(sent);
    packet->RemoveHeader(received);
    EXPECT_TRUE(received.IsNak());
    EXPECT_EQ(received.GetNakCode(), RoceNakCode::RemoteAccessError);
    EXPECT_EQ(received.GetMsn(), 7u);
    EXPECT_NE(ToString(received).find("RemoteAccessError"), std::string::npos);
}

TEST_F(RoceHeadersTest, CnpIsSixteenZeroBytes)
{
    EXPECT_EQ(Serialize(RoceCnpHeader()), std::vector<uint8_t>(16, 0));
    // Reserved bytes are ignored on receipt; the header consumes exactly 16 bytes.
    std::vector<uint8_t> junk(20, 0xA5);
    Ptr<Packet> packet = Create<Packet>(junk.data(), junk.size());
    RoceCnpHeader cnp;
    EXPECT_EQ(packet->RemoveHeader(cnp), 16u);
    EXPECT_EQ(packet->GetSize(), 4u);
}

TEST_F(RoceHeadersTest, IcrcTrailerRoundTripLsbFirst)
{
    RoceIcrcTrailer sent;
    sent.SetIcrc(0x2a00fd82);
    Ptr<Packet> packet = Create<Packet>(10);
    packet->AddTrailer(sent);
    EXPECT_EQ(packet->GetSize(), 14u);
    std::vector<uint8_t> bytes = Bytes(packet);
    EXPECT_EQ(std::vector<uint8_t>(bytes.end() - 4, bytes.end()), CAPTURED_CNP_ICRC);
    RoceIcrcTrailer received;
    EXPECT_EQ(packet->RemoveTrailer(received), 4u);
    EXPECT_EQ(received.GetIcrc(), 0x2a00fd82u);
    EXPECT_EQ(packet->GetSize(), 10u);
}

TEST_F(RoceHeadersTest, Crc32KnownAnswer)
{
    const char* check = "123456789";
    EXPECT_EQ(RoceIcrcTrailer::Crc32(reinterpret_cast<const uint8_t*>(check), 9), 0xCBF43926u);
    EXPECT_EQ(RoceIcrcTrailer::Crc32(nullptr, 0), 0u);
    // Same CRC as the Ethernet FCS that ns-3 computes.
    EXPECT_EQ(RoceIcrcTrailer::Crc32(CAPTURED_CNP.data(), CAPTURED_CNP.size()),
              CRC32Calculate(CAPTURED_CNP.data(), CAPTURED_CNP.size()));
}

TEST_F(RoceHeadersTest, IcrcMatchesHardwareCapture)
{
    uint32_t icrc = RoceIcrcTrailer::ComputeIcrc(CAPTURED_CNP.data(), CAPTURED_CNP.size());
    EXPECT_EQ(icrc, 0x2a00fd82u);

    // Rebuild the capture from our headers and check every byte, ICRC included.
    RoceBthHeader bth;
    bth.SetOpcode(RoceOpcode::Cnp);
    bth.SetBecn(true);
    bth.SetDestQp(0x118);
    Ptr<Packet> packet = Create<Packet>();
    packet->AddHeader(RoceCnpHeader());
    packet->AddHeader(bth);
    Ptr<Packet> ipUdp = Create<Packet>(CAPTURED_CNP.data(), CAPTURED_CNP_BTH_OFFSET);
    ipUdp->AddAtEnd(packet);
    EXPECT_EQ(Bytes(ipUdp), CAPTURED_CNP);
    EXPECT_EQ(RoceIcrcTrailer::ComputeIcrc(ipUdp), 0x2a00fd82u);
    RoceIcrcTrailer trailer;
    trailer.SetIcrc(RoceIcrcTrailer::ComputeIcrc(ipUdp));
    ipUdp->AddTrailer(trailer);
    std::vector<uint8_t> wire = CAPTURED_CNP;
    wire.insert(wire.end(), CAPTURED_CNP_ICRC.begin(), CAPTURED_CNP_ICRC.end());
    EXPECT_EQ(Bytes(ipUdp), wire);
}

TEST_F(RoceHeadersTest, IcrcIpv4MasksVariantFields)
{
    const uint32_t reference =
        RoceIcrcTrailer::ComputeIcrc(CAPTURED_CNP.data(), CAPTURED_CNP.size());
    // Variant fields: IPv4 TOS (1), TTL (8), checksum (10, 11); UDP checksum (26, 27);
    // BTH resv8a (32). Changing them keeps the ICRC.
    for (std::size_t offset : {1, 8, 10, 11, 26, 27, 32})
    {
        std::vector<uint8_t> copy = CAPTURED_CNP;
        copy[offset] ^= 0x5A;
        EXPECT_EQ(RoceIcrcTrailer::ComputeIcrc(copy.data(), copy.size()), reference)
            << "offset " << offset;
    }
    // Everything else is covered: addresses, ports, opcode, P_Key, DestQP, PSN, payload.
    for (std::size_t offset : {3, 5, 12, 19, 20, 23, 25, 28, 29, 30, 33, 35, 36, 39, 55})
    {
        std::vector<uint8_t> copy = CAPTURED_CNP;
        copy[offset] ^= 0x5A;
        EXPECT_NE(RoceIcrcTrailer::ComputeIcrc(copy.data(), copy.size()), reference)
            << "offset " << offset;
    }
}

TEST_F(RoceHeadersTest, IcrcIpv6)
{
    EXPECT_EQ(RoceIcrcTrailer::ComputeIcrc(IPV6_SEND_ONLY.data(), IPV6_SEND_ONLY.size()),
              IPV6_SEND_ONLY_ICRC);
    // Traffic class, flow label, hop limit, UDP checksum and BTH resv8a are masked.
    for (std::size_t offset : {1, 2, 3, 7, 46, 47, 52})
    {
        std::vector<uint8_t> copy = IPV6_SEND_ONLY;
        copy[offset] ^= 0x5A;
        EXPECT_EQ(RoceIcrcTrailer::ComputeIcrc(copy.data(), copy.size()), IPV6_SEND_ONLY_ICRC)
            << "offset " << offset;
    }
    std::vector<uint8_t> copy = IPV6_SEND_ONLY;
    copy[0] ^= 0x05; // low nibble of byte 0: traffic class
    EXPECT_EQ(RoceIcrcTrailer::ComputeIcrc(copy.data(), copy.size()), IPV6_SEND_ONLY_ICRC);
    for (std::size_t offset : {4, 8, 39, 40, 43, 48, 55, 59, 75})
    {
        std::vector<uint8_t> copy = IPV6_SEND_ONLY;
        copy[offset] ^= 0x5A;
        EXPECT_NE(RoceIcrcTrailer::ComputeIcrc(copy.data(), copy.size()), IPV6_SEND_ONLY_ICRC)
            << "offset " << offset;
    }
}

} // namespace
