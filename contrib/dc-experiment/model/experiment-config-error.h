/*
 * The error every configuration problem is reported with.
 */
#ifndef EXPERIMENT_CONFIG_ERROR_H
#define EXPERIMENT_CONFIG_ERROR_H

#include <cstdint>
#include <stdexcept>
#include <string>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * A configuration error: "<file>: <JSON pointer>: <reason>", or
 * "<file>:<line>:<column>: <reason>" for a JSON syntax error.
 */
class ExperimentConfigError : public std::runtime_error
{
  public:
    ExperimentConfigError(const std::string& file, const std::string& pointer,
                          const std::string& reason);
    /** A syntax error at \p line, \p column (both from 1). */
    ExperimentConfigError(const std::string& file, uint64_t line, uint64_t column,
                          const std::string& reason);

    const std::string& GetFile() const;
    /** \return the JSON pointer of the offending value ("" for syntax errors). */
    const std::string& GetPointer() const;
    const std::string& GetReason() const;

  private:
    std::string m_file;
    std::string m_pointer;
    std::string m_reason;
};

} // namespace ns3

#endif /* EXPERIMENT_CONFIG_ERROR_H */
