// Packet captures decode as RoCEv2 and PFC in tshark (Wireshark's dissectors).
#include "rdma-test-fabric.h"

#include "ns3/boolean.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/** Run tshark on \p pcap and return one line of tab-separated \p fields per frame. */
std::vector<std::string>
Tshark(const std::string& pcap, const std::string& filter, const std::vector<std::string>& fields)
{
    std::string cmd = "tshark -n -r " + pcap + " -Y '" + filter + "' -T fields";
    for (const auto& f : fields)
    {
        cmd += " -e " + f;
    }
    cmd += " 2>/dev/null";
    std::vector<std::string> lines;
    FILE* pipe = popen(cmd.c_str(), "r");
    if (!pipe)
    {
        return lines;
    }
    char buf[4096];
    while (fgets(buf, sizeof(buf), pipe))
    {
        std::string line(buf);
        while (!line.empty() && (line.back() == '\n' || line.back() == '\r'))
        {
            line.pop_back();
        }
        lines.push_back(line);
    }
    pclose(pipe);
    return lines;
}

bool
HaveTshark()
{
    return std::system("tshark --version >/dev/null 2>&1") == 0;
}

class RoceCaptureTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }
};

TEST_F(RoceCaptureTest, TsharkDecodesWriteAndAcks)
{
    if (!HaveTshark())
    {
        GTEST_SKIP() << "tshark not installed (./roce-lab installs it)";
    }
    DcbHelper dcb;
    RdmaHelper rdma;
    rdma.SetNicAttribute("ComputeIcrc", BooleanValue(true));
    RdmaLeafSpineFabric f = BuildStar(2, "100Gbps", MicroSeconds(1), dcb, rdma);
    const std::string pcap = std::string(ROCE_LAB_BINARY_DIR) + "/test/roce-capture-write.pcap";
    f.GetNics()[0]->GetDevice()->EnablePcap(pcap);
    auto [qa, qb] = RdmaHelper::Connect(f.GetNics()[0], f.GetNics()[1]);
    RdmaWorkRequest wr;
    wr.verb = RdmaVerb::Write;
    wr.length = 5 * 1024;
    wr.remoteAddr = 0x1000;
    qa->PostSend(wr);
    Simulator::Run();
    Simulator::Destroy(); // closes the capture

    const auto data = Tshark(
        pcap, "infiniband.bth.opcode != 17",
        {"udp.dstport", "infiniband.bth.opcode", "infiniband.bth.psn", "infiniband.bth.destqp"});
    ASSERT_EQ(data.size(), 5u);
    const char* expectOpcodes[] = {"6", "7", "7", "7", "8"}; // WRITE first, middle x3, last
    for (std::size_t i = 0; i < data.size(); ++i)
    {
        std::istringstream in(data[i]);
        std::string port;
        std::string opcode;
        std::string psn;
        std::string qp;
        in >> port >> opcode >> psn >> qp;
        EXPECT_EQ(port, "4791");
        EXPECT_EQ(opcode, expectOpcodes[i]) << data[i];
        EXPECT_EQ(psn, std::to_string(i)) << data[i];
        EXPECT_EQ(std::strtoul(qp.c_str(), nullptr, 0), qb->GetQpn()) << data[i];
    }
    const auto acks = Tshark(pcap, "infiniband.bth.opcode == 17",
                             {"infiniband.bth.psn", "infiniband.aeth.syndrome"});
    ASSERT_EQ(acks.size(), 5u); // an ACK per packet (AckInterval 1)
    EXPECT_EQ(acks.back().substr(0, 1), "4");
    // The RETH of the first packet carries the remote address and the length.
    const auto reth = Tshark(pcap, "infiniband.bth.opcode == 6",
                             {"infiniband.reth.va", "infiniband.reth.dmalen"});
    ASSERT_EQ(reth.size(), 1u);
    EXPECT_NE(reth[0].find("5120"), std::string::npos) << reth[0];
}

// DCQCN CnpDelivery AckBecn: the ACK of a CE-marked packet carries the CNP as the BTH BECN
// bit (byte 4, bit 6), real bytes in the capture. tshark 4.0 names no BECN field, so the
// check reads byte 4 of the BTH it dissected; no CNP packet (opcode 0x81) is captured.
TEST_F(RoceCaptureTest, TsharkDecodesBecnOnAcks)
{
    if (!HaveTshark())
    {
        GTEST_SKIP() << "tshark not installed (./roce-lab installs it)";
    }
    DcbHelper dcb;
    dcb.SetEcnMarkerAttribute("Kmin", QueueSizeValue(QueueSize("0B")));
    dcb.SetEcnMarkerAttribute("Kmax", QueueSizeValue(QueueSize("0B")));
    RdmaHelper rdma;
    rdma.SetNicAttribute("ComputeIcrc", BooleanValue(true));
    rdma.SetCongestionControlAttribute("CnpInterval", TimeValue(Time(0)));
    rdma.SetCongestionControlAttribute("CnpDelivery", StringValue("AckBecn"));
    RdmaLeafSpineFabric f = BuildStar(3, "100Gbps", MicroSeconds(1), dcb, rdma);
    const std::string pcap = std::string(ROCE_LAB_BINARY_DIR) + "/test/roce-capture-becn.pcap";
    f.GetNics()[2]->GetDevice()->EnablePcap(pcap);
    std::vector<Ptr<RdmaQueuePair>> receivers;
    for (uint32_t s = 0; s < 2; ++s) // two senders into one port: a queue, CE marks
    {
        auto [qa, qb] = RdmaHelper::Connect(f.GetNics()[s], f.GetNics()[2]);
        receivers.push_back(qb);
        RdmaWorkRequest wr;
        wr.verb = RdmaVerb::Write;
        wr.length = 64 * 1024;
        qa->PostSend(wr);
    }
    Simulator::Run();
    uint64_t inAck = 0;
    for (const auto& qb : receivers)
    {
        inAck += qb->GetCounters().cnpsSentInAck;
    }
    Simulator::Destroy(); // closes the capture
    ASSERT_GT(inAck, 0u);

    const auto acks = Tshark(pcap, "infiniband.bth.opcode == 17", {"infiniband.bth"});
    uint64_t becn = 0;
    for (const auto& line : acks)
    {
        // The BTH as hex digits (colons or none, as tshark versions print bytes).
        std::string hex;
        for (char c : line)
        {
            if (std::isxdigit(static_cast<unsigned char>(c)))
            {
                hex += c;
            }
        }
        ASSERT_EQ(hex.size(), 24u) << line;
        const unsigned long byte4 = std::strtoul(hex.substr(8, 2).c_str(), nullptr, 16);
        becn += (byte4 & 0x40) ? 1 : 0;
        EXPECT_EQ(byte4 & 0xbf, 0u) << line; // FECN and the rest of resv8a clear
    }
    EXPECT_EQ(becn, inAck);
    EXPECT_TRUE(Tshark(pcap, "infiniband.bth.opcode == 129", {"infiniband.bth.opcode"}).empty());
}

TEST_F(RoceCaptureTest, TsharkDecodesPfcFrames)
{
    if (!HaveTshark())
    {
        GTEST_SKIP() << "tshark not installed (./roce-lab installs it)";
    }
    DcbHelper dcb;
    RdmaHelper rdma;
    rdma.SetCongestionControl("ns3::RdmaNoCongestionControl");
    RdmaLeafSpineFabric f = BuildStar(5, "100Gbps", MicroSeconds(1), dcb, rdma);
    const std::string pcap = std::string(ROCE_LAB_BINARY_DIR) + "/test/roce-capture-pfc.pcap";
    f.GetNics()[0]->GetDevice()->EnablePcap(pcap);
    for (uint32_t s = 0; s < 4; ++s)
    {
        auto [qa, qb] = RdmaHelper::Connect(f.GetNics()[s], f.GetNics()[4]);
        RdmaWorkRequest wr;
        wr.verb = RdmaVerb::Write;
        wr.length = 4000000;
        qa->PostSend(wr);
    }
    Simulator::Run();
    const uint64_t xoffReceived = f.GetNics()[0]->GetDevice()->GetCounters(3).pfcXoffReceived;
    const uint64_t xonReceived = f.GetNics()[0]->GetDevice()->GetCounters(3).pfcXonReceived;
    Simulator::Destroy();
    ASSERT_GT(xoffReceived, 0u);

    const auto pfc =
        Tshark(pcap, "macc.opcode == 0x0101", {"macc.cbfc.enbv.c3", "macc.cbfc.pause_time.c3"});
    ASSERT_EQ(pfc.size(), xoffReceived + xonReceived);
    uint64_t xoff = 0;
    for (const auto& line : pfc)
    {
        std::istringstream in(line);
        std::string enabled;
        std::string quanta;
        in >> enabled >> quanta;
        EXPECT_TRUE(enabled == "1" || enabled == "True") << line;
        if (quanta == "65535")
        {
            xoff++;
        }
        else
        {
            EXPECT_EQ(quanta, "0") << line;
        }
    }
    EXPECT_EQ(xoff, xoffReceived);
}

} // namespace
