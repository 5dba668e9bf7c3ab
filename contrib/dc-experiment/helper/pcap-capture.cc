#include "pcap-capture.h"

#include "ns3/dcb-net-device.h"
#include "ns3/experiment-config-error.h"

#include <filesystem>
#include <stdexcept>

namespace ns3
{

void
PcapCapture::CheckConfig(const ExperimentRunContext& context)
{
    if (context.IsDistributed() && !context.GetConfig().GetPcap().IsEmpty())
    {
        throw ExperimentConfigError(context.GetConfig().GetSource(), "/pcap",
                                    "not available in distributed runs (each rank sees only "
                                    "its own ports)");
    }
}

void
PcapCapture::Install(ExperimentRunContext& context)
{
    const ExperimentConfig& config = context.GetConfig();
    Enable(config.GetPcap(), config.GetTopology(), context.GetTopology(),
           context.GetOutputDirectory(), context.GetReadme());
}

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
