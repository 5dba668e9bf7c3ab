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
    const std::filesystem::path folder =
        std::filesystem::path(context.GetOutputDirectory()) / "pcap";
    std::error_code ec;
    if (!context.GetConfig().GetPcap().IsEmpty() && std::filesystem::is_symlink(folder, ec))
    {
        // Captures are written (and a later run's cleared) in the run's own folder only.
        throw std::runtime_error(folder.string() +
                                 ": a symbolic link: captures are not written through it "
                                 "(remove the link, or give another --out)");
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
    std::vector<std::string> names;
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
                names.push_back(std::filesystem::path(name).filename().string());
            }
        }
    }
    readme.AddFiles("pcap/<node>-<port>.pcap",
                    "packet captures of the ports /pcap selects (" + std::to_string(names.size()) +
                        " files, listed below): every frame each sent and received, "
                        "Ethernet with nanosecond timestamps (tshark -r FILE)",
                    names);
    return static_cast<uint32_t>(names.size());
}

} // namespace ns3
