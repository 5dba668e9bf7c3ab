/*
 * The kind of experiment part that changes the model before the run: node
 * composition, faults.
 */
#ifndef EXPERIMENT_COMPOSER_H
#define EXPERIMENT_COMPOSER_H

#include "experiment-run-context.h"

namespace ns3
{

/**
 * \ingroup dc-experiment
 * A part of a run that changes the model: gives nodes what the configuration says
 * (NodeComposer) or perturbs the network (FaultInjector). It makes no traffic (that
 * is an ExperimentWorkload) and writes no file: what it did is kept for a monitor
 * to write (FaultLogWriter, NodeCompositionWriter). ExperimentRunner calls, on each
 * composer in the order they were added (its own first):
 *
 * 1. CheckConfig: refuse what the run cannot do (ExperimentConfigError), before the
 *    network is built.
 * 2. Compose: the network is built, no QP exists yet: change the model, install
 *    loss models, schedule timed perturbations. Composers compose in order, before
 *    any monitor's Prepare and any workload's SetUp.
 * 3. Install: every composer composed and the workloads are set up: check what
 *    depends on another composer's work (not run by ExperimentRunner::Check).
 *
 * Every step does nothing unless overridden.
 */
class ExperimentComposer
{
  public:
    virtual ~ExperimentComposer() = default;

    /** \throw ExperimentConfigError for a setting this composer cannot honour in this run */
    virtual void CheckConfig(const ExperimentRunContext& context);
    /** \throw ExperimentConfigError when the model cannot take the change */
    virtual void Compose(ExperimentRunContext& context);
    /** \throw ExperimentConfigError when the composed model cannot take the change */
    virtual void Install(ExperimentRunContext& context);
};

} // namespace ns3

#endif /* EXPERIMENT_COMPOSER_H */
