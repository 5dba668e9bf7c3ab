// ecmp-fat-tree: equal-cost multipath spreading queue pairs over a k=4 fat-tree.
//
//   pod 0: h0 -- tor0 ==(2 uplinks)== agg0, agg1 ==== core0..core3 ==== pods 1..3
//
// What to look at: each switch hashes a packet's 5-tuple (addresses, UDP ports: RoCEv2
// gives each QP its own source port) and picks one of its equal-cost next hops; all
// packets of a QP take one path (no reordering), different QPs spread. h0 opens QPS
// queue pairs to hosts in the other pods and sends 200 KB on each; the program prints
// the bytes each of tor0's uplinks and each core switch carried (ports as ports.csv
// numbers them). With --qps=1 one path carries everything; with many, all are used.
#include "../scratch/log-notice.h"

#include "ns3/command-line.h"
#include "ns3/dcb-net-device.h"
#include "ns3/experiment-config.h"
#include "ns3/port-map-writer.h"
#include "ns3/rdma-helper.h"
#include "ns3/simulator.h"
#include "ns3/topology-builder.h"

#include <cstdio>
#include <string>

using namespace ns3;

namespace
{
/** \return the data bytes node \p node sent on port \p port (all traffic classes). */
uint64_t
TxBytes(const TopologyBuilder& fabric, uint32_t node, uint32_t port)
{
    Ptr<DcbNetDevice> dev = DynamicCast<DcbNetDevice>(fabric.GetNode(node)->GetDevice(port));
    uint64_t bytes = 0;
    for (uint8_t cls = 0; cls < 8; ++cls)
    {
        bytes += dev->GetCounters(cls).txBytes;
    }
    return bytes;
}
} // namespace

int
main(int argc, char** argv)
{
    NoticeLoggingCompiledOut(argv[0]);
    Time::SetResolution(Time::PS);
    uint32_t qps = 16;
    CommandLine cmd(__FILE__);
    cmd.AddValue("qps", "queue pairs from h0 to hosts in other pods", qps);
    cmd.Parse(argc, argv);

    const ExperimentConfig config = ExperimentConfig::LoadString(
        R"({"topology": {"type": "fat_tree", "k": 4},
            "flows": [{"src": "h0", "dst": "h15", "bytes": 1}]})",
        "ecmp-fat-tree");
    TopologyBuilder fabric(config);
    fabric.Build();
    const ExperimentTopology& topo = config.GetTopology();
    const uint32_t nHosts = fabric.GetNHosts();

    for (uint32_t i = 0; i < qps; ++i)
    {
        const uint32_t dst = 4 + i % (nHosts - 4); // hosts of pods 1..3
        auto [qp, peer] = RdmaHelper::Connect(fabric.GetNic(0), fabric.GetNic(dst));
        RdmaWorkRequest wr;
        wr.verb = RdmaVerb::Write;
        wr.length = 200000;
        Simulator::Schedule(MicroSeconds(1), &RdmaQueuePair::PostSend, qp, wr);
    }
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();

    // Every port of tor0 that leads to an aggregation switch, and every core's traffic.
    uint32_t coresUsed = 0;
    uint32_t cores = 0;
    for (const PortMapWriter::Port& p : PortMapWriter::GetPorts(topo))
    {
        const bool tor0Uplink = topo.GetNodeName(p.node) == "tor0" && p.peerNode >= nHosts &&
                                topo.switchRoles[p.peerNode - nHosts] == "agg";
        if (tor0Uplink)
        {
            std::printf("tor0 port %u -> %-5s %9llu bytes\n", p.port,
                        topo.GetNodeName(p.peerNode).c_str(),
                        static_cast<unsigned long long>(TxBytes(fabric, p.node, p.port)));
        }
    }
    for (uint32_t s = 0; s < topo.switches.size(); ++s)
    {
        if (topo.switchRoles[s] != "core")
        {
            continue;
        }
        uint64_t bytes = 0;
        Ptr<Node> node = fabric.GetNode(nHosts + s);
        for (uint32_t d = 0; d < node->GetNDevices(); ++d)
        {
            bytes += TxBytes(fabric, nHosts + s, d);
        }
        std::printf("%-6s forwarded %9llu bytes\n", topo.switches[s].c_str(),
                    static_cast<unsigned long long>(bytes));
        ++cores;
        coresUsed += bytes > 0;
    }
    std::printf("cores carrying traffic: %u of %u\n", coresUsed, cores);
    Simulator::Destroy();
    return 0;
}
