/*
 * fct.txt and pfc.txt in the columns of the HPCC ns-3 simulator, so that analysis scripts
 * written for it read a roce-lab run unchanged.
 */
#ifndef HPCC_OUTPUT_WRITER_H
#define HPCC_OUTPUT_WRITER_H

#include "experiment-monitor.h"

#include "ns3/experiment-config.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Writes a run's flow completions and PFC frames in the file formats of the HPCC simulator
 * (alibaba-edu/High-Precision-Congestion-Control, scratch/third.cc), when the experiment asks
 * for them ("outputs": {"hpcc": true}). Both files are blank-separated, one record per line,
 * with no header row, as that simulator writes them:
 *
 * - fct.txt, one line per finished flow in order of completion (then flow id):
 *   `sip dip sport dport size start_time fct standalone_fct`; sip and dip are 8 hexadecimal
 *   digits, the address the HPCC simulator gives the node id of the flow's src and dst host
 *   (0x0b000001 + 0x10000 x (id / 256) + 0x100 x (id % 256), so its scripts recover the id as
 *   (ip >> 8) & 0xffff); sport is 10000 + the number of earlier flows from the same host (its
 *   numbering); dport is the HPCC flow file's dport column (4791 for flows from elsewhere);
 *   size in bytes; start_time, fct and standalone_fct in integer nanoseconds (picoseconds
 *   divided by 1000, rounded down), start_time on the flow file's clock (the run's time plus
 *   the flows file's time_origin); standalone_fct is our ideal FCT (flows.csv ideal_fct_us,
 *   IdealFctCalculator: our header bytes and serialization), not the peer's formula.
 * - pfc.txt, one line per PFC frame (and class) received by a port, in time order:
 *   `time node_id node_type if_index type`; time in integer nanoseconds on the same clock;
 *   node_id as above (switches too); node_type 0 for a host, 1 for a switch; if_index the
 *   port's interface index + 1 (the HPCC simulator's nodes have a loopback device 0 and then
 *   one device per link in topology-file order, as ours have without the loopback); type 1
 *   for XOFF (pause), 0 for XON (resume).
 *
 * Node ids are those of the HPCC topology file when the topology is one, else our node
 * numbering (hosts 0 .. H-1, then switches). The PFC records are taken from each port's
 * PfcReceived trace (one vector append per frame, no formatting on the packet path) and
 * written after the run. Not available in distributed runs (each rank sees its own ports).
 */
class HpccOutputWriter : public ExperimentMonitor
{
  public:
    /** Columns of fct.txt and pfc.txt, for the run's README and the docs. */
    static constexpr const char* FCT_COLUMNS =
        "sip dip sport dport size start_time fct standalone_fct";
    static constexpr const char* PFC_COLUMNS = "time node_id node_type if_index type";

    /** \param config the experiment (must outlive the writer) */
    explicit HpccOutputWriter(const ExperimentConfig& config);

    /** Record the PFC frames received by every port of \p topology's nodes. */
    void Connect(const TopologyBuilder& topology);

    /** Refuses outputs/hpcc in a distributed run. */
    void CheckConfig(const ExperimentRunContext& context) override;
    /** Connect to the run's network. */
    void Install(ExperimentRunContext& context) override;
    /**
     * Write fct.txt (from the run's flow results) and pfc.txt and register them in the README.
     * \throw std::runtime_error if a file cannot be written
     */
    void Write(ExperimentRunContext& context) override;

    /** \return the HPCC node id of node \p index of the configuration's numbering. */
    uint32_t GetNodeId(uint32_t index) const;
    /** \return the IPv4 address (host order) the HPCC simulator gives node \p nodeId. */
    static uint32_t GetHpccAddress(uint32_t nodeId);

  private:
    /** One PFC frame (class) received. */
    struct PfcRecord
    {
        int64_t ps;
        uint32_t node;    //!< index in the configuration's numbering
        uint32_t ifIndex; //!< the device's interface index
        uint8_t type;     //!< 1 XOFF, 0 XON
    };

    static void PfcReceived(HpccOutputWriter* writer, uint32_t node, uint32_t ifIndex, uint8_t cls,
                            uint16_t quanta);

    void WriteFct(const std::string& path, const std::vector<ExperimentFlowResult>& results) const;
    void WritePfc(const std::string& path) const;

    const ExperimentConfig& m_config;
    int64_t m_originPs{0};           //!< the flows file's time_origin
    std::vector<uint32_t> m_nodeIds; //!< HPCC node id of each node index
    std::vector<PfcRecord> m_pfc;
};

} // namespace ns3

#endif /* HPCC_OUTPUT_WRITER_H */
