/*
 * The kind of experiment part that makes traffic: flows, collectives, DMA streams
 * inside the hosts.
 */
#ifndef EXPERIMENT_WORKLOAD_H
#define EXPERIMENT_WORKLOAD_H

#include "experiment-run-context.h"

#include "ns3/callback.h"

#include <nlohmann/json.hpp>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * A part of a run that makes traffic (FlowWorkload, CollectiveWorkload,
 * HostDmaFlowWorkload) and says when it is done. ExperimentRunner stops the run when
 * every workload is done (IsDone; it learns of it from the done callback) or at
 * stop_time, whichever comes first; a run none of whose workloads ever calls NotifyDone
 * runs to stop_time. A workload that runs in the background until the end (DMA
 * streams) is always done: it never holds the run open.
 *
 * The runner calls, on each workload in the order they were added (FlowWorkload
 * first, then the configuration's, then those of ExperimentRunner::AddWorkload):
 *
 * 1. CheckConfig: refuse what the run cannot do (ExperimentConfigError), before the
 *    network is built.
 * 2. SetUp: the model is composed (ExperimentComposer::Compose), no monitor is
 *    installed: create what the traffic needs before anything else holds a QP
 *    number, and schedule what must come before the monitors' events. ExperimentRunner::
 *    Check stops after this step.
 * 3. Start: the monitors are installed: build and schedule the traffic.
 * 4. Collect: the run is over, on every rank: take the results from the model.
 * 5. Write and AddToSummary, on the writing rank, after every monitor's: report the
 *    workload's own outcome (its rows, its summary key). What observes the network
 *    is a monitor's.
 *
 * Every step but IsDone does nothing unless overridden.
 */
class ExperimentWorkload
{
  public:
    virtual ~ExperimentWorkload() = default;

    /** \throw ExperimentConfigError for a setting this workload cannot honour in this run */
    virtual void CheckConfig(const ExperimentRunContext& context);
    virtual void SetUp(ExperimentRunContext& context);
    virtual void Start(ExperimentRunContext& context);
    /** \return true when this workload (this rank's part of it) has made all its traffic */
    virtual bool IsDone() const = 0;
    virtual void Collect(ExperimentRunContext& context);
    /** \throw std::runtime_error if a file cannot be written */
    virtual void Write(ExperimentRunContext& context);
    virtual void AddToSummary(const ExperimentRunContext& context,
                              nlohmann::ordered_json& summary) const;

    /** \p done is called each time the workload becomes done (NotifyDone). */
    void SetOnDone(Callback<void> done);

  protected:
    /** Call when IsDone() has become true. */
    void NotifyDone() const;

  private:
    Callback<void> m_onDone;
};

} // namespace ns3

#endif /* EXPERIMENT_WORKLOAD_H */
