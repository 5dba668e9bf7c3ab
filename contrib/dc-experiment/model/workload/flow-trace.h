/*
 * Flow traces: our CSV format (read and write) and the HPCC simulator's flow
 * file format (read).
 */
#ifndef FLOW_TRACE_H
#define FLOW_TRACE_H

#include "ns3/experiment-config.h"

#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Reads and writes lists of flows.
 *
 * CSV format (one flow per row, header required, columns in this order):
 * `id,src,dst,bytes,start,priority,verb` where id is a non-negative integer
 * (strictly increasing down the file; informational), src and dst are host
 * indices (0-based, different), bytes is in [1, 2^30], start is a duration
 * with its unit (`12.345678us`, written by WriteCsv in microseconds with 6
 * decimals, exact to the picosecond), priority is in [0, 7] and verb is
 * `write`, `send` or `read`. Lines starting with `#` are comments. A trace of
 * message streams has two more columns, `message_bytes,outstanding`
 * (ExperimentFlow; message_bytes 0 with outstanding 1 is a single-message flow,
 * and a stream's bytes may then reach ExperimentConfig::MAX_STREAM_BYTES);
 * WriteCsv writes them only when a flow is a stream.
 *
 * HPCC format: the first line is the number of flows, then one line per flow
 * `src dst priority dport bytes start_seconds`, where src and dst are HPCC
 * node ids (hosts and switches share one numbering), dport is ignored and
 * start_seconds is a decimal number of seconds.
 *
 * Every error names the file, line and column. ids of the flows read are
 * their row index; ExperimentConfig renumbers them.
 */
class FlowTrace
{
  public:
    /**
     * Read CSV \p text named \p name for a network of \p nHosts hosts.
     * \throw ExperimentConfigError
     */
    static std::vector<ExperimentFlow> ReadCsv(const std::string& text, const std::string& name,
                                               uint32_t nHosts);
    /**
     * Read HPCC flow-file \p text. \p hostOfNode maps an HPCC node id to a host
     * index (-1 for a switch or an id that is not a host); a node id beyond its
     * size is an error. \p timeOrigin is subtracted from every start time (HPCC
     * generators start at 2 s); a flow starting before it is an error. As the HPCC
     * simulator, the reader takes the flows the first line announces and ignores the
     * lines after them (its example file ends with more flows and notes on the format):
     * one line of \p warnings says so. Every flow line is checked and the problems are
     * thrown together (ConfigErrorList).
     * \throw ExperimentConfigError
     */
    static std::vector<ExperimentFlow> ReadHpcc(const std::string& text, const std::string& name,
                                                const std::vector<int64_t>& hostOfNode,
                                                Time timeOrigin,
                                                std::vector<std::string>& warnings);
    /** Write \p flows as CSV with the header row. */
    static void WriteCsv(std::ostream& os, const std::vector<ExperimentFlow>& flows);
    /** \return the CSV header line (without newline). */
    static const char* CsvHeader();
    /** \return the CSV header line of a trace with message streams (without newline). */
    static const char* CsvStreamHeader();
    /** \return the header WriteCsv writes for \p flows: CsvStreamHeader if any flow is a
     *  message stream, else CsvHeader. */
    static const char* CsvHeaderFor(const std::vector<ExperimentFlow>& flows);
    /** \return the contents of \p path. \throw ExperimentConfigError if unreadable */
    static std::string ReadWholeFile(const std::string& path, const std::string& what);
};

} // namespace ns3

#endif /* FLOW_TRACE_H */
