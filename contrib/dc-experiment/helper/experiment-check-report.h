/*
 * What a run would do, printed by roce-run --check: nodes, flows, faults, outputs.
 */
#ifndef EXPERIMENT_CHECK_REPORT_H
#define EXPERIMENT_CHECK_REPORT_H

#include "output-directory.h"

#include "ns3/experiment-config.h"

#include <ostream>
#include <string>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * The report of roce-run --check (ExperimentRunner::Check): the experiment was loaded,
 * its fabric built and its parts validated; this says what running it would do, in a few
 * lines per part: the nodes (and their composition), the flows, collectives and host DMA
 * streams, the faults (one line each, as in the README of a run), and the outputs (the
 * directory, what a run would clear in it, the files every run writes and the optional
 * ones the configuration asks for).
 */
class ExperimentCheckReport
{
  public:
    /**
     * Print the report to \p out.
     * \param directory the output directory; \p plan what Prepare() would do with it
     */
    static void Print(const ExperimentConfig& config, const std::string& directory,
                      const OutputDirectory::Plan& plan, std::ostream& out);
};

} // namespace ns3

#endif /* EXPERIMENT_CHECK_REPORT_H */
