/*
 * pfc_events.csv: the PFC frames each port sent, in time order ("outputs": {"pfc_events": true}).
 */
#ifndef PFC_EVENT_WRITER_H
#define PFC_EVENT_WRITER_H

#include "experiment-monitor.h"

#include "ns3/experiment-topology.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Records every PFC frame a port sends (DcbNetDevice trace source PfcSent: one per class
 * whose state the frame sets) and writes them after the run as pfc_events.csv:
 * `time_ns,node,port,class,event,quanta` with event XOFF (pause, quanta > 0) or XON
 * (resume, quanta 0). node and port are the port that sent the frame (an ingress whose
 * buffer crossed its threshold, or a NIC); the transmitter it pauses is its neighbour in
 * ports.csv. time_ns is exact (three decimals: the simulator counts picoseconds).
 *
 * The trace callback appends one 24-byte record to a vector (no formatting, no lookup);
 * the text is formatted once, after the run. Not available in distributed runs.
 */
class PfcEventWriter : public ExperimentMonitor
{
  public:
    static constexpr const char* COLUMNS = "time_ns,node,port,class,event,quanta";

    /** \param topology the experiment's topology (names the nodes; must outlive the writer) */
    explicit PfcEventWriter(const ExperimentTopology& topology);

    /** Record the PFC frames sent by every port of \p builder's nodes. */
    void Connect(const TopologyBuilder& builder);

    /** Refuses outputs/pfc_events in a distributed run. */
    void CheckConfig(const ExperimentRunContext& context) override;
    /** Connect to the run's network. */
    void Install(ExperimentRunContext& context) override;
    /**
     * Write pfc_events.csv and register it in the README.
     * \throw std::runtime_error if it cannot be written
     */
    void Write(ExperimentRunContext& context) override;

    /** \return the number of events recorded so far. */
    std::size_t GetNEvents() const;

  private:
    /** One PFC frame (class) sent. */
    struct Event
    {
        int64_t ps;
        uint32_t node;
        uint16_t port;
        uint8_t cls;
        uint16_t quanta;
    };

    static_assert(sizeof(Event) == 24, "the record size the documentation gives");

    static void PfcSent(PfcEventWriter* writer, uint32_t node, uint32_t port, uint8_t cls,
                        uint16_t quanta);

    const ExperimentTopology& m_topology;
    std::vector<Event> m_events;
};

} // namespace ns3

#endif /* PFC_EVENT_WRITER_H */
