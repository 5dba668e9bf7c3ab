/*
 * The problems found in one pass over a text input file, reported together.
 */
#ifndef CONFIG_ERROR_LIST_H
#define CONFIG_ERROR_LIST_H

#include "experiment-config-error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Collects the ExperimentConfigErrors of the independent lines of a text file (an HPCC
 * simulator's config.txt, flow file or topology links), so that the user sees every
 * problem of the file in one run rather than one per run. ThrowIfAny() throws one
 * ExperimentConfigError whose message holds each problem on a line of its own, in the
 * order found (the first is also the error's position), and their count; a problem given
 * twice (the same message) is kept once. Past MAX_PROBLEMS the rest are counted only.
 */
class ConfigErrorList
{
  public:
    static constexpr uint32_t MAX_PROBLEMS = 50;

    /** \param file the file the problems are in (for the count line) */
    explicit ConfigErrorList(std::string file);

    /** Record \p error. */
    void Add(const ExperimentConfigError& error);
    /** \return true if no problem was recorded. */
    bool IsEmpty() const;
    /** Throw the recorded problems as one ExperimentConfigError; nothing if there are none. */
    void ThrowIfAny() const;

  private:
    std::string m_file;
    std::vector<ExperimentConfigError> m_errors;
    uint64_t m_dropped{0};
};

} // namespace ns3

#endif /* CONFIG_ERROR_LIST_H */
