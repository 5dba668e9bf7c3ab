/*
 * Configuration files of the HPCC ns-3 simulator (its mix/config.txt key/value
 * format), translated into roce-lab's JSON experiment dialect.
 */
#ifndef HPCC_CONFIG_TRANSLATOR_H
#define HPCC_CONFIG_TRANSLATOR_H

#include "ns3/experiment-config-error.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Turns an HPCC-simulator configuration file (alibaba-edu/High-Precision-Congestion-Control,
 * mix/config.txt: one `KEY value...` per line) into the JSON experiment that
 * ExperimentConfig reads, so that there is one dialect: translate, then the normal reader
 * parses and checks the result. Every key of that format is either mapped to our
 * configuration or refused with an ExperimentConfigError naming the file, the line and the
 * key (never silently ignored); doc/dc-experiment.md ("HPCC-simulator configuration files")
 * has the full table.
 *
 * Mapped: TOPOLOGY_FILE and FLOW_FILE (its file formats; a relative path is read from the
 * working directory as the peer does, else from the configuration file's directory; the
 * flows on the peer's clock: time origin 0, those after the stop time not started),
 * SIMULATOR_STOP_TIME (seconds; default 3.01 s as the peer's), PACKET_PAYLOAD_SIZE
 * (/qp/Mtu), CC_MODE 1 (ns3::RdmaDcqcn) with ALPHA_RESUME_INTERVAL, RATE_DECREASE_INTERVAL,
 * CLAMP_TARGET_RATE, RP_TIMER, EWMA_GAIN, FAST_RECOVERY_TIMES, RATE_AI, RATE_HAI, MIN_RATE,
 * CC_MODE 3 (ns3::RdmaHpcc, BaseRtt = the topology's largest base RTT as GLOBAL_T 1) with
 * U_TARGET (TargetUtilization), MI_THRESH (MaxStage), RATE_AI (AdditiveIncrease), MIN_RATE
 * (MinRate) and the
 * switches it implements (FAST_REACT 1, MULTI_RATE 0, SAMPLE_FEEDBACK 0, GLOBAL_T 1,
 * VAR_WIN 1, HAS_WIN 1; the other values refused),
 * ENABLE_QCN, KMIN_MAP / KMAX_MAP / PMAX_MAP (one threshold set: the maps must agree on
 * every link rate of the topology), BUFFER_SIZE (MiB, as the peer multiplies by 1024 x 1024),
 * USE_DYNAMIC_PFC_THRESHOLD 1, FCT_OUTPUT_FILE / PFC_OUTPUT_FILE (/outputs/hpcc: fct.txt and
 * pfc.txt in the run's output directory), L2_ACK_INTERVAL up to one packet (an ACK per
 * packet), L2_BACK_TO_ZERO 0 (go-back-N), and values that select what we do anyway
 * (ERROR_RATE_PER_LINK 0, LINK_DOWN 0 0 0, HAS_WIN 0 under DCQCN, RATE_BOUND 1,
 * ACK_HIGH_PRIO 0), ENABLE_TRACE 1 with TRACE_FILE (/pcap: captures of the nodes it lists,
 * in place of the .tr text trace), QLEN_MON_FILE / QLEN_MON_START / QLEN_MON_END (the
 * queue monitor over that window, queues.csv). Keys with no effect under the chosen
 * CC_MODE in the peer either (the other algorithms' parameters, L2_CHUNK_SIZE with
 * go-back-N and per-packet ACKs, TRACE_OUTPUT_FILE, DATA_RATE, LINK_DELAY) and INT_MULTI
 * (our INT units are fixed) are accepted, listed in the description and named once on
 * the terminal (the warnings). Refused: CC_MODE 7, 8, 10 (the peer's TIMELY with
 * built-in thresholds, its rate-based DCTCP, HPCC-PINT) and every other value we cannot
 * reproduce.
 */
class HpccConfigTranslator
{
  public:
    /**
     * \return true if \p text reads as an HPCC-simulator configuration rather than JSON:
     * its first word (after blank lines and `#` comment lines) is an upper-case key
     * (A-Z, 0-9, _) followed by a value on the same line.
     */
    static bool IsHpccConfig(const std::string& text);

    /**
     * Translate \p text, read from the file \p name (used in errors; the JSON's relative
     * paths are those of the file, resolved against its directory by the reader).
     * \return the JSON experiment
     * \throw ExperimentConfigError naming name:line:column and the key
     */
    static nlohmann::ordered_json Translate(const std::string& text, const std::string& name);
    /**
     * As above; \p warnings also gets the lines for the user's terminal: which path each
     * input file was read from, the keys with no effect (each once, with the reason), and
     * what ENABLE_TRACE and QLEN_MON_* write. Every problem of the file is reported
     * together, in one ExperimentConfigError (ConfigErrorList).
     */
    static nlohmann::ordered_json Translate(const std::string& text, const std::string& name,
                                            std::vector<std::string>& warnings);
};

} // namespace ns3

#endif /* HPCC_CONFIG_TRANSLATOR_H */
