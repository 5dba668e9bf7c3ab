// Message streams ("message_bytes", "outstanding" on a flow): one QP posting
// messages of a fixed size with at most N posted and not completed, a new one at
// each completion (Azure NSDI'23 App. B: 64 KB WRITEs, up to 160 in flight).
// Parsing and its errors (JSON pointer, trace file:line:column), the trace
// round trip, and runs that show the outstanding bound acts.
#include "output-file-reader.h"

#include "ns3/experiment-config.h"
#include "ns3/experiment-runner.h"
#include "ns3/flow-trace.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <gtest/gtest.h>
#include <sstream>
#include <string>

namespace ns3
{
namespace
{

using test::OutputDir;

/** Load \p text as "stream.json" and return the error (fails the test if none). */
ExperimentConfigError
Error(const std::string& text)
{
    try
    {
        ExperimentConfig::LoadString(text, "stream.json");
    }
    catch (const ExperimentConfigError& e)
    {
        return e;
    }
    ADD_FAILURE() << "no error for: " << text;
    return ExperimentConfigError("", "", "");
}

std::string
WithFlow(const std::string& flow)
{
    return R"({"progress": false, "topology": {"type": "incast", "senders": 2},
               "flows": [)" +
           flow + "]}";
}

bool
Contains(const std::string& s, const std::string& part)
{
    return s.find(part) != std::string::npos;
}

class MessageStreamTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }
};

TEST_F(MessageStreamTest, ParsedWithDefaultsAndKeptInTheEffectiveConfig)
{
    const ExperimentConfig c = ExperimentConfig::LoadString(
        WithFlow(R"({"src": "h1", "dst": "h0", "bytes": 1099511627776, "message_bytes": 65536,
                     "outstanding": 160},
                    {"src": "h2", "dst": "h0", "bytes": 100000, "message_bytes": 30000},
                    {"src": "h2", "dst": "h0", "bytes": 1000})"),
        "stream.json");
    const auto& f = c.GetFlows();
    ASSERT_EQ(f.size(), 3u);
    EXPECT_TRUE(f[0].IsStream());
    EXPECT_EQ(f[0].messageBytes, 65536u);
    EXPECT_EQ(f[0].outstanding, 160u);
    EXPECT_EQ(f[0].GetMessageCount(), 16777216u);
    EXPECT_EQ(f[1].outstanding, 1u); // default
    EXPECT_EQ(f[1].GetMessageCount(), 4u);
    EXPECT_EQ(f[1].GetMessageBytes(0), 30000u);
    EXPECT_EQ(f[1].GetMessageBytes(3), 10000u); // the last message is the remainder
    EXPECT_FALSE(f[2].IsStream());
    EXPECT_EQ(f[2].GetMessageCount(), 1u);
    EXPECT_EQ(f[2].GetMessageBytes(0), 1000u);

    const auto& eff = c.EffectiveJson()["flows"];
    EXPECT_EQ(eff[0]["message_bytes"], 65536);
    EXPECT_EQ(eff[0]["outstanding"], 160);
    EXPECT_FALSE(eff[2].contains("message_bytes"));
    const ExperimentConfig again = ExperimentConfig::LoadString(c.EffectiveJson().dump(), "eff");
    EXPECT_EQ(again.GetFlows()[0].outstanding, 160u);
    EXPECT_EQ(again.GetFlows()[1].messageBytes, 30000u);

    // Flow sets take the same keys.
    const ExperimentConfig s = ExperimentConfig::LoadString(
        R"({"topology": {"type": "incast", "senders": 2},
            "flow_sets": [{"type": "incast", "dst": "h0", "bytes": 1000000,
                           "message_bytes": 4096, "outstanding": 8}]})",
        "set.json");
    ASSERT_EQ(s.GetFlows().size(), 2u);
    EXPECT_EQ(s.GetFlows()[1].outstanding, 8u);
}

TEST_F(MessageStreamTest, BadStreamsAreErrorsNamingTheField)
{
    struct Case
    {
        const char* flow;
        const char* pointer;
        const char* says;
    };

    const Case cases[] = {
        {R"({"src": 1, "dst": 0, "bytes": 1000, "message_bytes": 4096})", "/flows/0/message_bytes",
         "exceeds the flow's bytes 1000"},
        {R"({"src": 1, "dst": 0, "bytes": 100000, "outstanding": 4})", "/flows/0/outstanding",
         "needs \"message_bytes\""},
        {R"({"src": 1, "dst": 0, "bytes": 10000000, "message_bytes": 65536,
             "outstanding": 0})",
         "/flows/0/outstanding", "[1, 65536]"},
        {R"({"src": 1, "dst": 0, "bytes": 1099511627776, "message_bytes": 1073741824,
             "outstanding": 2})",
         "/flows/0/outstanding", "24-bit PSN window"},
        {R"({"src": 1, "dst": 0, "bytes": 1099511627776, "message_bytes": 0})",
         "/flows/0/message_bytes", "[1, 1073741824]"},
        // Without message_bytes a flow is one message: at most 2^30 bytes.
        {R"({"src": 1, "dst": 0, "bytes": 2147483648})", "/flows/0/bytes", "1073741824"},
        {R"({"src": 1, "dst": 0, "bytes": 2251799813685249, "message_bytes": 65536})",
         "/flows/0/bytes", "1125899906842624"},
        {R"({"src": 1, "dst": 0, "bytes": 100000, "message_bytes": "64KB"})",
         "/flows/0/message_bytes", ""},
    };
    for (const Case& c : cases)
    {
        const ExperimentConfigError e = Error(WithFlow(c.flow));
        EXPECT_EQ(e.GetPointer(), c.pointer) << c.flow << ": " << e.what();
        EXPECT_TRUE(Contains(e.what(), c.says)) << e.what();
        EXPECT_TRUE(Contains(e.what(), "stream.json")) << e.what();
    }
}

TEST_F(MessageStreamTest, TraceCsvRoundTripAndErrors)
{
    const ExperimentConfig c = ExperimentConfig::LoadString(
        WithFlow(R"({"src": "h1", "dst": "h0", "bytes": 5000000000, "message_bytes": 65536,
                     "outstanding": 160},
                    {"src": "h2", "dst": "h0", "bytes": 1000, "verb": "send"})"),
        "stream.json");
    std::ostringstream csv;
    FlowTrace::WriteCsv(csv, c.GetFlows());
    EXPECT_EQ(csv.str(), "id,src,dst,bytes,start,priority,verb,message_bytes,outstanding\n"
                         "0,1,0,5000000000,0.000000us,3,write,65536,160\n"
                         "1,2,0,1000,0.000000us,3,send,0,1\n");
    const auto back = FlowTrace::ReadCsv(csv.str(), "t.csv", 3);
    ASSERT_EQ(back.size(), 2u);
    EXPECT_EQ(back[0].bytes, 5000000000u);
    EXPECT_EQ(back[0].messageBytes, 65536u);
    EXPECT_EQ(back[0].outstanding, 160u);
    EXPECT_FALSE(back[1].IsStream());

    // A trace without streams keeps the 7-column format.
    std::ostringstream plain;
    FlowTrace::WriteCsv(plain, {back[1]});
    EXPECT_EQ(plain.str().substr(0, plain.str().find('\n')), FlowTrace::CsvHeader());

    const std::string header = std::string(FlowTrace::CsvStreamHeader()) + "\n";
    const auto error = [](const std::string& text)
    {
        try
        {
            FlowTrace::ReadCsv(text, "t.csv", 3);
        }
        catch (const ExperimentConfigError& e)
        {
            return std::string(e.what());
        }
        return std::string();
    };
    EXPECT_TRUE(Contains(error(header + "0,1,0,1000,0us,3,write,4096,2\n"),
                         "t.csv:2:24: field message_bytes"));
    EXPECT_TRUE(Contains(error(header + "0,1,0,1000,0us,3,write,0,2\n"),
                         "field outstanding: expected 1 for a single-message flow"));
    EXPECT_TRUE(Contains(error(header + "0,1,0,5000000000,0us,3,write,0,1\n"), "field bytes"));
    EXPECT_TRUE(Contains(error(header + "0,1,0,1000,0us,3,write\n"), "expected 9"));
}

/** Run \p flowJson (one flow h0 -> h1 on a 10 Gb/s dumbbell with 50 us links). */
struct StreamRun
{
    bool finished{false};
    Time fct;
    uint64_t payloadSent{0};
    uint32_t maxOutstanding{0}; //!< requester's posted-not-completed WRs, sampled every 2 us
};

StreamRun
RunStream(const std::string& flowJson, const std::string& leaf)
{
    const ExperimentConfig config = ExperimentConfig::LoadString(
        R"({"progress": false, "stop_time": "20ms",
            "topology": {"type": "dumbbell", "hosts_per_side": 1, "host_link_rate": "10Gbps",
                         "fabric_link_rate": "10Gbps", "link_delay": "50us"},
            "flows": [)" +
            flowJson + "]}",
        leaf + ".json");
    StreamRun r;
    {
        ExperimentRunner runner(config, OutputDir(leaf));
        runner.SetQueuePairLifetimes(false); // reads QPs through the NICs
        const TopologyBuilder* topo = &runner.GetTopology();
        // The requester is h0's QP (src) for WRITE/SEND and h1's (dst) for READ.
        const uint32_t requesterHost =
            config.GetFlows()[0].verb == RdmaVerb::Read ? config.GetFlows()[0].dst : 0;
        std::function<void()> sample;
        sample = [&]()
        {
            Ptr<RdmaNic> nic = topo->GetNic(requesterHost);
            if (nic->GetNQueuePairs() > 0)
            {
                r.maxOutstanding =
                    std::max(r.maxOutstanding,
                             nic->GetQueuePair(RdmaNic::FIRST_QPN)->GetOutstandingWorkRequests());
            }
            Simulator::Schedule(MicroSeconds(2), sample);
        };
        Simulator::Schedule(MicroSeconds(1), sample);
        runner.Run();
        const ExperimentFlowResult& res = runner.GetFlowResults()[0];
        r.finished = res.finished;
        r.fct = res.finish - res.start;
        Ptr<RdmaNic> src = topo->GetNic(config.GetFlows()[0].src);
        for (uint32_t i = 0; i < src->GetNQueuePairs(); ++i)
        {
            r.payloadSent +=
                src->GetQueuePair(RdmaNic::FIRST_QPN + i)->GetCounters().payloadBytesSent;
        }
    }
    Simulator::Destroy();
    return r;
}

// 40 messages of 8 KB over a ~300 us RTT (three 50 us links each way): one
// outstanding message is stop-and-wait (~40 RTTs); 16 outstanding keep 128 KB in
// flight, below the 10 Gb/s x 300 us = 375 KB pipe, so the stream takes 40 / 16
// -> 3 RTTs; 64 outstanding post all 40 at once (the bound is the message count).
TEST_F(MessageStreamTest, OutstandingBoundsTheMessagesInFlight)
{
    const std::string flow = R"({"src": "h0", "dst": "h1", "bytes": 327680,
                                 "message_bytes": 8192, "outstanding": )";
    const StreamRun one = RunStream(flow + "1}", "one");
    const StreamRun sixteen = RunStream(flow + "16}", "sixteen");
    const StreamRun all = RunStream(flow + "64}", "all");
    for (const StreamRun* r : {&one, &sixteen, &all})
    {
        EXPECT_TRUE(r->finished);
        EXPECT_EQ(r->payloadSent, 327680u); // every message once, no loss
    }
    EXPECT_EQ(one.maxOutstanding, 1u);
    EXPECT_EQ(sixteen.maxOutstanding, 16u);
    EXPECT_EQ(all.maxOutstanding, 40u);
    RecordProperty("fct_us_1_16_64", std::to_string(one.fct.GetMicroSeconds()) + " " +
                                         std::to_string(sixteen.fct.GetMicroSeconds()) + " " +
                                         std::to_string(all.fct.GetMicroSeconds()));
    // Stop-and-wait: at least 40 round trips of 300 us.
    EXPECT_GT(one.fct, MicroSeconds(40 * 300));
    // 16 in flight: 3 round trips, far below stop-and-wait.
    EXPECT_GT(sixteen.fct, MicroSeconds(3 * 300));
    EXPECT_LT(sixteen.fct, MicroSeconds(4 * 300 + 300));
    EXPECT_LE(all.fct, sixteen.fct);
}

TEST_F(MessageStreamTest, SendAndReadStreamsFinish)
{
    // SEND: the responder keeps `outstanding` receives posted and reposts one per
    // receive completion; without that the fifth SEND would find no receive.
    for (const std::string verb : {"send", "read"})
    {
        SCOPED_TRACE(verb);
        const StreamRun run = RunStream(R"({"src": "h0", "dst": "h1", "bytes": 100000,
                                            "message_bytes": 10000, "outstanding": 4,
                                            "verb": ")" +
                                            verb + "\"}",
                                        verb);
        EXPECT_TRUE(run.finished);
        EXPECT_EQ(run.payloadSent, 100000u);
        EXPECT_EQ(run.maxOutstanding, 4u);
    }
}

} // namespace
} // namespace ns3
