/*
 * The experiment's PFC safety parts: installs the deadlock monitor and PFC
 * watchdogs the configuration asks for and writes what they saw.
 */
#ifndef PFC_SAFETY_OUTPUT_WRITER_H
#define PFC_SAFETY_OUTPUT_WRITER_H

#include "experiment-monitor.h"

#include "ns3/experiment-config.h"
#include "ns3/pfc-deadlock-monitor.h"
#include "ns3/pfc-watchdog.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * With "monitors": {"deadlock": {...}} a PfcDeadlockMonitor watches every switch
 * and deadlocks.csv gets one row per queue of each deadlock found:
 * deadlock,formed_us,detected_us,node,port,class,paused_since_us,queued_bytes
 * (deadlock numbers from 0 in detection order; node is the switch's name, port
 * its interface index). With "pfc_watchdog": {...} every switch gets a
 * PfcWatchdog with those attributes (a SONiC config_db's PFC_WD table, where the
 * switch has one, sets the per-port values). summary.json gets "deadlocks" and
 * "pfc_watchdog".
 */
class PfcSafetyOutputWriter : public ExperimentMonitor
{
  public:
    explicit PfcSafetyOutputWriter(const ExperimentConfig& config);

    /** Refuses the monitor and the watchdog in a distributed run. */
    void CheckConfig(const ExperimentRunContext& context) override;
    /** Install what the configuration asks for on the built network. */
    void Install(ExperimentRunContext& context) override;
    /** deadlocks.csv (when the monitor is on), registered in the README. */
    void Write(ExperimentRunContext& context) override;
    /** Add "deadlocks" and "pfc_watchdog" to \p summary. */
    void AddToSummary(const ExperimentRunContext& context,
                      nlohmann::ordered_json& summary) const override;
    /** \return the monitor (nullptr when off). */
    Ptr<PfcDeadlockMonitor> GetMonitor() const;

  private:
    const ExperimentConfig& m_config;
    const TopologyBuilder* m_topology{nullptr};
    Ptr<PfcDeadlockMonitor> m_monitor;
    std::vector<Ptr<PfcWatchdog>> m_watchdogs;
};

} // namespace ns3

#endif /* PFC_SAFETY_OUTPUT_WRITER_H */
