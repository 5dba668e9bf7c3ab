/*
 * The keys of a "collectives" entry that choose and tune its driver beyond the
 * ring collectives: the token ring, the message stream and per-path sampling.
 */
#ifndef COLLECTIVE_DRIVER_READER_H
#define COLLECTIVE_DRIVER_READER_H

#include "experiment-collective.h"

#include "ns3/json-schema-reader.h"

#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Reads what CollectiveWorkloadReader leaves to the drivers of a "collectives" entry
 * (doc/dc-experiment.md, "Collectives"):
 * - "type": "token_ring" (MaestroTokenRing: a "bytes"-byte token around the hosts,
 *   "iterations" rounds; no compute phase) and "message_stream" (MaestroMessageStream:
 *   two hosts, sender then receiver, "outstanding" messages of "bytes" in flight for
 *   "duration"; "over": "maestro" only; one iteration, no compute phase);
 * - "path_interval" (with "over": "maestro"): per-path throughput of every endpoint
 *   into paths.csv every interval;
 * - "maestro"/"probe": a probe on every path of each endpoint when it is set up.
 */
class CollectiveDriverReader
{
  public:
    /** Keys of an entry this reader owns (CollectiveWorkloadReader allows them). */
    static const std::vector<std::string>& EntryKeys();

    /**
     * Read them from entry \p e at \p p into \p c (whose type, hosts, over, iterations
     * and compute time are read) and add them to \p effective.
     * \throw ExperimentConfigError naming the file and the JSON pointer
     */
    static void Read(const JsonSchemaReader& reader, const nlohmann::json& e, const std::string& p,
                     ExperimentCollective& c, nlohmann::ordered_json& effective);

    /** "probe" of the entry's "maestro" object \p m at \p mp (default false). */
    static bool ReadProbe(const JsonSchemaReader& reader, const nlohmann::json& m,
                          const std::string& mp);
};

} // namespace ns3

#endif /* COLLECTIVE_DRIVER_READER_H */
