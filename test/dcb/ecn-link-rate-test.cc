// ECN thresholds per link rate (DcbHelper::SetEcnMarkerAttributeForRate): a 100G and a 400G
// egress port that see the same queue depths mark by their own thresholds, as the HPCC
// simulator's KMIN_MAP / KMAX_MAP / PMAX_MAP configure them; with one threshold set they mark
// alike (the control).
#include "dcb-bulk-source.h"

#include "ns3/config-error.h"
#include "ns3/data-rate.h"
#include "ns3/dcb-helper.h"
#include "ns3/dcb-net-device.h"
#include "ns3/dcb-switch.h"
#include "ns3/double.h"
#include "ns3/node.h"
#include "ns3/queue-size.h"
#include "ns3/red-ecn-marker.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint8_t TC = 3;
constexpr uint64_t FLOW_BYTES = 1500000; //!< per sender: the egress queue peaks near 1.5 MB

/** The peer's 100G set (run.py: 400 KB / 1600 KB / 0.2), the section's defaults here. */
void
SetSectionThresholds(DcbHelper& h)
{
    h.SetEcnMarkerAttribute("Kmin", QueueSizeValue(QueueSize("400000B")));
    h.SetEcnMarkerAttribute("Kmax", QueueSizeValue(QueueSize("1600000B")));
    h.SetEcnMarkerAttribute("Pmax", DoubleValue(0.2));
}

/** The peer's 400G set: 4x the thresholds. */
void
SetFabricThresholds(DcbHelper& h)
{
    const DataRate fabric("400Gbps");
    h.SetEcnMarkerAttributeForRate(fabric, "Kmin", QueueSizeValue(QueueSize("1600000B")));
    h.SetEcnMarkerAttributeForRate(fabric, "Kmax", QueueSizeValue(QueueSize("6400000B")));
}

struct Marks
{
    uint64_t at100G{0};
    uint64_t at400G{0};
};

/**
 * One switch, two 2 -> 1 incasts of FLOW_BYTES per sender at line rate: hosts 0, 1 -> 2 on
 * 100G links, hosts 3, 4 -> 5 on 400G links. Both egress queues (ports 2 and 5) climb to
 * about FLOW_BYTES and drain: the same depths, at four times the pace on the 400G port.
 */
Marks
RunTwoIncasts(bool perRate)
{
    DcbHelper h;
    SetSectionThresholds(h);
    if (perRate)
    {
        SetFabricThresholds(h);
    }
    Ptr<Node> s = CreateObject<Node>();
    std::vector<Ptr<DcbNetDevice>> nics;
    for (uint32_t i = 0; i < 6; ++i)
    {
        h.SetDeviceAttribute("DataRate", DataRateValue(DataRate(i < 3 ? "100Gbps" : "400Gbps")));
        nics.push_back(DynamicCast<DcbNetDevice>(h.Install(CreateObject<Node>(), s).Get(0)));
    }
    Ptr<DcbSwitch> sw = h.InstallSwitch(s);
    DcbHelper::AssignStreams(NodeContainer(s), 1);
    sw->SetAddressRange(BulkSource::Host(0), 6);
    for (uint32_t i = 0; i < 6; ++i)
    {
        sw->SetRoute(BulkSource::Host(i), {i});
    }
    std::vector<std::unique_ptr<BulkSource>> src;
    for (uint32_t i : {0u, 1u, 3u, 4u})
    {
        src.emplace_back(new BulkSource(i, i < 3 ? 2 : 5, FLOW_BYTES, TC, true));
        nics[i]->SetTxSource(src.back().get());
        Simulator::ScheduleNow(&DcbNetDevice::NotifyTxReady, nics[i]);
    }
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
    Marks m{sw->GetEcnMarker(2)->GetMarks(TC), sw->GetEcnMarker(5)->GetMarks(TC)};
    for (auto& n : nics)
    {
        n->SetTxSource(nullptr);
    }
    Simulator::Destroy();
    return m;
}

TEST(EcnLinkRate, EachPortTakesTheThresholdsOfItsLinkRate)
{
    DcbHelper h;
    SetSectionThresholds(h);
    SetFabricThresholds(h);
    Ptr<Node> s = CreateObject<Node>();
    for (const char* rate : {"100Gbps", "400Gbps", "25Gbps"})
    {
        h.SetDeviceAttribute("DataRate", DataRateValue(DataRate(rate)));
        h.Install(CreateObject<Node>(), s);
    }
    Ptr<DcbSwitch> sw = h.InstallSwitch(s);
    auto red = [&sw](uint32_t p) { return DynamicCast<RedEcnMarker>(sw->GetEcnMarker(p)); };
    // 1 MB queued: 100G (and 25G, not in the table) 0.2 x 600/1200; 400G below its Kmin.
    EXPECT_DOUBLE_EQ(red(0)->GetProbability(TC, 1000000), 0.1);
    EXPECT_DOUBLE_EQ(red(1)->GetProbability(TC, 1000000), 0.0);
    EXPECT_DOUBLE_EQ(red(2)->GetProbability(TC, 1000000), 0.1);
    // 4 MB: above the 100G Kmax; 0.2 x 2400/4800 at 400G (Pmax is the section's).
    EXPECT_DOUBLE_EQ(red(0)->GetProbability(TC, 4000000), 1.0);
    EXPECT_DOUBLE_EQ(red(1)->GetProbability(TC, 4000000), 0.1);
    Simulator::Destroy();
}

TEST(EcnLinkRate, ATableEntryThatBreaksKmaxAboveKminIsAnError)
{
    DcbHelper h;
    SetSectionThresholds(h);
    h.SetEcnMarkerAttributeForRate(DataRate("400Gbps"), "Kmin", QueueSizeValue(QueueSize("2MB")));
    Ptr<Node> s = CreateObject<Node>();
    for (const char* rate : {"100Gbps", "400Gbps"})
    {
        h.SetDeviceAttribute("DataRate", DataRateValue(DataRate(rate)));
        h.Install(CreateObject<Node>(), s);
    }
    try
    {
        h.InstallSwitch(s);
        ADD_FAILURE() << "the switch was installed";
    }
    catch (const ConfigError& e)
    {
        const std::string error = e.what();
        EXPECT_NE(error.find("Kmax (1600000B) must not be below Kmin (2000000B)"),
                  std::string::npos)
            << error;
    }
    Simulator::Destroy();
}

// The helper locates its refusals where it was told its settings came from: an ECN marker
// at the ECN settings' pointer, a buffer at the buffer settings'; the switch by its name.
// Told nothing, the file is named after the helper and the switch after its node.
TEST(EcnLinkRate, RefusalsAreLocatedAtTheirSettings)
{
    auto refusal = [](DcbHelper& h, const std::string& name)
    {
        Ptr<Node> s = CreateObject<Node>();
        h.Install(CreateObject<Node>(), s);
        try
        {
            h.InstallSwitch(s, name);
        }
        catch (const ConfigError& e)
        {
            return std::make_pair(std::string(e.what()), e.GetPointer());
        }
        return std::make_pair(std::string("accepted"), std::string());
    };
    DcbHelper ecn;
    ecn.SetEcnMarkerAttribute("Kmin", QueueSizeValue(QueueSize("2MB")));
    ecn.SetEcnMarkerAttribute("Kmax", QueueSizeValue(QueueSize("1MB")));
    ecn.SetSource("x.json", "/buffer_switches/1/buffer", "/ecn");
    auto [what, pointer] = refusal(ecn, "leaf0");
    EXPECT_EQ(pointer, "/ecn");
    EXPECT_EQ(what.rfind("x.json: /ecn: switch leaf0: ns3::RedEcnMarker: ", 0), 0u) << what;

    DcbHelper buffer;
    buffer.SetBufferManager("ns3::DeepBufferVoq");
    buffer.SetBufferManagerAttribute("DramBandwidthFraction", DoubleValue(0));
    buffer.SetSource("x.json", "/buffer_switches/1/buffer", "/ecn");
    std::tie(what, pointer) = refusal(buffer, "spine1");
    EXPECT_EQ(pointer, "/buffer_switches/1/buffer");
    EXPECT_EQ(
        what.rfind("x.json: /buffer_switches/1/buffer: switch spine1: ns3::DeepBufferVoq: ", 0), 0u)
        << what;

    DcbHelper byCode;
    byCode.SetBufferManager("ns3::DeepBufferVoq");
    byCode.SetBufferManagerAttribute("DramBandwidthFraction", DoubleValue(0));
    Ptr<Node> s = CreateObject<Node>();
    byCode.Install(CreateObject<Node>(), s);
    try
    {
        byCode.InstallSwitch(s);
        ADD_FAILURE() << "the switch was installed";
    }
    catch (const ConfigError& e)
    {
        EXPECT_EQ(e.GetFile(), "DcbHelper");
        EXPECT_EQ(e.GetPointer(), "");
        EXPECT_EQ(std::string(e.what()).rfind("DcbHelper: switch node " +
                                                  std::to_string(s->GetId()) +
                                                  ": ns3::DeepBufferVoq: ",
                                              0),
                  0u)
            << e.what();
    }
    Simulator::Destroy();
}

TEST(EcnLinkRate, ThresholdsInPacketsAreRefused)
{
    // The marker compares Kmin and Kmax with the queue's bytes: "10p" would mean 10 bytes.
    Ptr<RedEcnMarker> red = CreateObject<RedEcnMarker>();
    red->SetAttribute("Kmin", QueueSizeValue(QueueSize("10p")));
    red->SetAttribute("Kmax", QueueSizeValue(QueueSize("20p")));
    EXPECT_NE(red->CheckConfig().find("Kmin (10p) must be in bytes"), std::string::npos)
        << red->CheckConfig();
    red->SetAttribute("Kmin", QueueSizeValue(QueueSize("10KB")));
    EXPECT_NE(red->CheckConfig().find("Kmax (20p) must be in bytes"), std::string::npos)
        << red->CheckConfig();
    red->SetAttribute("Kmax", QueueSizeValue(QueueSize("20KB")));
    EXPECT_EQ(red->CheckConfig(), "");
}

TEST(EcnLinkRate, SameQueueDepthsMarkByEachPortsOwnThresholds)
{
    const Marks one = RunTwoIncasts(false);
    const Marks byRate = RunTwoIncasts(true);
    // Control: one threshold set, the same queue depths -> both ports mark, about as often.
    EXPECT_GT(one.at100G, 20u);
    EXPECT_GT(one.at400G, 20u);
    EXPECT_NEAR(static_cast<double>(one.at400G) / static_cast<double>(one.at100G), 1.0, 0.4)
        << one.at100G << " vs " << one.at400G;
    // Per rate: the 100G port marks as before; the 400G port's queue never reaches its Kmin.
    EXPECT_EQ(byRate.at100G, one.at100G);
    EXPECT_EQ(byRate.at400G, 0u);
    RecordProperty("marks_100g", std::to_string(byRate.at100G));
    RecordProperty("marks_400g_single_set", std::to_string(one.at400G));
}

} // namespace
