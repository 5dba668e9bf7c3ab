// HostModelReader: host graph files (contrib/host) read with the experiment files' reader
// and error type. Moved here with the reader from test/host (JsonMatchesPreset, JsonFile,
// JsonErrorsNameFileAndPointer from host-model-test.cc; LoaderReadsCxlResources,
// ExampleRackFileMatchesThePreset from dfabric-test.cc): the same assertions, the errors
// in the located form "file: /pointer: reason" of ExperimentConfigError.
#include "ns3/data-rate.h"
#include "ns3/dfabric-rack-helper.h"
#include "ns3/experiment-config-error.h"
#include "ns3/host-model-reader.h"
#include "ns3/host-model.h"
#include "ns3/host-preset-helper.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <string>

using namespace ns3;

namespace
{

class HostModelReaderTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }

    /** \return the error reading \p text as \p file ("" when it reads). */
    static std::string ErrorOf(const std::string& text, const std::string& file)
    {
        try
        {
            HostModelReader::ReadText(text, file);
        }
        catch (const ExperimentConfigError& e)
        {
            return e.what();
        }
        return "";
    }
};

const std::string PLAIN_JSON = R"({
  "devices": [
    {"name": "rnic0", "type": "RnicPort", "attributes": {"LineRate": "200Gbps"}},
    {"name": "rp0", "type": "RootPort"},
    {"name": "rc0", "type": "RootComplex"},
    {"name": "mem0", "type": "MemoryChannel", "attributes": {"Channels": 8}}
  ],
  "links": [
    {"name": "pcie-rnic0", "type": "PcieLink", "ends": ["rnic0", "rp0"],
     "attributes": {"Generation": 4, "Lanes": 16}},
    {"ends": ["rp0", "rc0"]},
    {"ends": ["rc0", "mem0"]}
  ]
})";

TEST_F(HostModelReaderTest, JsonMatchesPreset)
{
    Ptr<HostModel> fromJson = HostModelReader::ReadText(PLAIN_JSON, "plain.json");
    auto preset = HostPresetHelper().CreatePlainServer();
    for (auto host : {fromJson, preset})
    {
        uint32_t a = host->GetResourceId("rnic0");
        uint32_t b = host->GetResourceId("mem0");
        EXPECT_EQ(host->GetPathLatency(a, b), preset->GetPathLatency(a, b));
        EXPECT_EQ(host->GetPathCapacity(a, b), preset->GetPathCapacity(a, b));
    }
}

TEST_F(HostModelReaderTest, JsonFile)
{
    Ptr<HostModel> host = HostModelReader::ReadFile(std::string(ROCE_LAB_SOURCE_DIR) +
                                                    "/contrib/host/examples/dgx-like.json");
    auto preset = HostPresetHelper().CreateDgxLike();
    EXPECT_EQ(host->GetResourceCount(), preset->GetResourceCount());
    for (std::string ep : {"gpu0", "gpu1", "gpu2", "gpu4", "mem0", "mem1"})
    {
        uint32_t a = host->GetResourceId("rnic0");
        uint32_t b = host->GetResourceId(ep);
        uint32_t pa = preset->GetResourceId("rnic0");
        uint32_t pb = preset->GetResourceId(ep);
        EXPECT_EQ(host->GetPathLatency(a, b), preset->GetPathLatency(pa, pb)) << ep;
        EXPECT_EQ(host->GetDmaRateLimit(a, b, HostModel::DMA_READ),
                  preset->GetDmaRateLimit(pa, pb, HostModel::DMA_READ))
            << ep;
    }
}

TEST_F(HostModelReaderTest, JsonErrorsNameFileAndPointer)
{
    auto fails = [&](std::string from, std::string to, std::string expect)
    {
        std::string text = PLAIN_JSON;
        text.replace(text.find(from), from.size(), to);
        const std::string error = ErrorOf(text, "plain.json");
        EXPECT_NE(error.find(expect), std::string::npos) << error;
    };
    fails("\"RootPort\"", "\"RootPorts\"", "plain.json: /devices/1/type: value \"RootPorts\"");
    fails("\"Lanes\": 16", "\"Lanes\": 3", "plain.json: /links/0/attributes/Lanes");
    fails("\"Channels\": 8", "\"Colour\": 8", "plain.json: /devices/3/attributes/Colour");
    fails("[\"rp0\", \"rc0\"]", "[\"rp0\", \"rc9\"]", "plain.json: /links/1/ends/1");
    fails("\"200Gbps\"", "\"fast\"", "plain.json: /devices/0/attributes/LineRate");
    // A number too large for a double threw out of the reader (found by fuzzing).
    fails("\"Lanes\": 16", "\"Lanes\": 10E8577",
          "plain.json: /links/0/attributes/Lanes: invalid JSON");
    try
    {
        HostModelReader::ReadFile("/nonexistent/host.json");
        ADD_FAILURE() << "no error for a missing file";
    }
    catch (const ExperimentConfigError& e)
    {
        EXPECT_NE(std::string(e.what()).find("/nonexistent/host.json"), std::string::npos);
    }
}

// The experiment files' dialect: unknown and duplicate keys, integers given as strings or
// fractions, and a NUL in a name are errors at their pointer (the former loader ignored
// the keys and passed the rest through ns-3's string conversion).
TEST_F(HostModelReaderTest, ExperimentDialect)
{
    auto fails = [&](std::string from, std::string to, std::string expect)
    {
        std::string text = PLAIN_JSON;
        text.replace(text.find(from), from.size(), to);
        const std::string error = ErrorOf(text, "plain.json");
        EXPECT_NE(error.find(expect), std::string::npos) << error;
    };
    fails("\"type\": \"RootPort\"", "\"type\": \"RootPort\", \"colour\": 1",
          "plain.json: /devices/1/colour: unknown key");
    fails("\"type\": \"RootPort\"", "\"type\": \"RootPort\", \"type\": \"RootPort\"",
          "plain.json: /devices/1/type: duplicate key");
    fails("\"Lanes\": 16", "\"Lanes\": 15.5", "plain.json: /links/0/attributes/Lanes: expected");
    fails("\"Lanes\": 16", "\"Lanes\": \"16\"", "plain.json: /links/0/attributes/Lanes: expected");
    fails("{\"ends\": [\"rp0\", \"rc0\"]}", "{\"ends\": [\"rp0\", \"rc0\"], \"attributes\": {}}",
          "plain.json: /links/1/attributes: an ideal connection");
    fails("\"name\": \"rp0\"", "\"name\": \"rnic0\"",
          "plain.json: /devices/1/name: duplicate name");
    fails("\"links\": [", "\"links\": 3, \"x\": [", "plain.json: /x: unknown key");
    EXPECT_NE(ErrorOf("{\"devices\": 1}", "h.json").find("h.json: /devices: required array"),
              std::string::npos);
    EXPECT_NE(ErrorOf("{\"devices\": [\n", "h.json").find("h.json:2:1: invalid JSON"),
              std::string::npos);
    EXPECT_EQ(ErrorOf(R"({"_comment": "x", "devices": [{"name": "m", "type": "MemoryChannel",
                          "description": "one channel"}]})",
                      "h.json"),
              "");
}

TEST_F(HostModelReaderTest, LoaderReadsCxlResources)
{
    Ptr<HostModel> host = HostModelReader::ReadText(R"({"devices": [
        {"name": "nic0", "type": "RnicPort"}, {"name": "sw", "type": "CxlSwitch"},
        {"name": "pmem0", "type": "CxlMemoryDevice", "attributes": {"Channels": 4}}],
      "links": [{"name": "l0", "type": "CxlLink", "ends": ["nic0", "sw"],
                 "attributes": {"Lanes": 8}},
                {"name": "l1", "type": "CxlLink", "ends": ["sw", "pmem0"]}]})",
                                                    "cxl.json");
    EXPECT_EQ(host->GetResource("l0")->GetCapacity().GetBitRate(), 480000000000ULL);
    EXPECT_EQ(host->GetPathLatency(host->GetResourceId("nic0"), host->GetResourceId("pmem0")),
              NanoSeconds(500 + 70 + 170));
}

TEST_F(HostModelReaderTest, ExampleRackFileMatchesThePreset)
{
    // contrib/host/examples/dfabric-rack.json describes the preset's graph (two nodes, two
    // pooled NICs, two pool devices): same paths, latencies and capacities.
    Ptr<HostModel> file =
        HostModelReader::ReadFile(ROCE_LAB_SOURCE_DIR "/contrib/host/examples/dfabric-rack.json");
    DfabricRackHelper helper;
    helper.SetHosts(2);
    helper.SetNicPoolSize(2);
    helper.SetMemoryPoolDevices(2);
    helper.SetNicAttribute("LineRate", DataRateValue(DataRate("100Gbps")));
    DfabricRack rack = helper.Create();
    for (const char* target : {"cn1-mem", "pmem1"})
    {
        auto a = [&](Ptr<HostModel> h) { return h->GetResourceId("nic1"); };
        auto b = [&](Ptr<HostModel> h) { return h->GetResourceId(target); };
        EXPECT_EQ(file->GetPathLatency(a(file), b(file)),
                  rack.host->GetPathLatency(a(rack.host), b(rack.host)));
        EXPECT_EQ(file->GetDmaRateLimit(a(file), b(file), HostModel::DMA_READ),
                  rack.host->GetDmaRateLimit(a(rack.host), b(rack.host), HostModel::DMA_READ));
    }
}

} // namespace
