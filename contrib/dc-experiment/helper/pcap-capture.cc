#include "pcap-capture.h"

#include "ns3/dcb-net-device.h"

#include <filesystem>
#include <stdexcept>

namespace ns3
{

uint32_t
PcapCapture::Enable(const PcapSelection& selection, const ExperimentTopology& topology,
                    const TopologyBuilder& builder, const std::string& directory,
                    RunReadmeWriter& readme)
{
    if (selection.IsEmpty())
    {
        return 0;
    }
    const std::filesystem::path dir(directory);
    std::error_code ec;
    std::filesystem::create_directories(dir / "pcap", ec);
    if (ec)
    {
        throw std::runtime_error("cannot create " + (dir / "pcap").string() + ": " + ec.message());
    }
    uint32_t files = 0;
    for (uint32_t n : selection.GetNodes())
    {
        Ptr<Node> node = builder.GetNode(n);
        for (uint32_t d = 0; d < node->GetNDevices(); ++d)
        {
            Ptr<DcbNetDevice> dev = DynamicCast<DcbNetDevice>(node->GetDevice(d));
            if (dev && selection.IncludesPort(dev->GetIfIndex()))
            {
                const std::string name =
                    PcapSelection::FileName(topology.GetNodeName(n), dev->GetIfIndex());
                dev->EnablePcap((dir / name).string());
                ++files;
            }
        }
    }
    readme.AddFile("pcap/<node>-<port>.pcap",
                   "packet captures of the ports /pcap selects (" + std::to_string(files) +
                       " files): every frame each sent and received, Ethernet with "
                       "nanosecond timestamps (tshark -r FILE)");
    return files;
}

} // namespace ns3
