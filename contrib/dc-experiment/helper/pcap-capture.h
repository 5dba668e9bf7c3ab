/*
 * Packet captures of the ports an experiment's "pcap" section selects.
 */
#ifndef PCAP_CAPTURE_H
#define PCAP_CAPTURE_H

#include "experiment-monitor.h"

#include "ns3/experiment-topology.h"
#include "ns3/pcap-selection.h"

#include <string>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Turns on DcbNetDevice::EnablePcap for each selected port: the file
 * <directory>/pcap/<node>-<port>.pcap (LINKTYPE_ETHERNET, nanosecond timestamps, pcap
 * magic 0xa1b23c4d; tshark and Wireshark read it) receives every frame the port sends and
 * receives, data and PFC alike.
 */
class PcapCapture : public ExperimentMonitor
{
  public:
    /** Refuses /pcap in a distributed run. */
    void CheckConfig(const ExperimentRunContext& context) override;
    /** Enable the captures /pcap selects (Enable). */
    void Install(ExperimentRunContext& context) override;

    /**
     * Enable the captures before the run and register them in \p readme.
     * \return the number of files opened
     * \throw std::runtime_error if the pcap directory cannot be created
     */
    static uint32_t Enable(const PcapSelection& selection, const ExperimentTopology& topology,
                           const TopologyBuilder& builder, const std::string& directory,
                           RunReadmeWriter& readme);
};

} // namespace ns3

#endif /* PCAP_CAPTURE_H */
