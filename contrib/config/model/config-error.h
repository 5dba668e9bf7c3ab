/*
 * The one error type for a problem in a file the suite reads.
 */
#ifndef CONFIG_ERROR_H
#define CONFIG_ERROR_H

#include <cstdint>
#include <stdexcept>
#include <string>

namespace ns3
{

/**
 * \ingroup config
 * A problem in an input file, located: "<file>: <JSON pointer>: <reason>" (the
 * pointer of the offending value, RFC 6901, "(root)" for the whole document),
 * "<file>:<line>:<column>: <reason>" for a syntax error, or "<file>: <reason>"
 * for a problem with the file as a whole (it cannot be opened, it is no JSON).
 *
 * Every reader of the suite throws it: JsonSchemaReader (this module), SonicConfigLoader
 * for config_db files (dcb), and the experiment parser and its section readers
 * (dc-experiment, where it is also named ExperimentConfigError).
 */
class ConfigError : public std::runtime_error
{
  public:
    /** A problem with the value at JSON pointer \p pointer ("" for the root). */
    ConfigError(const std::string& file, const std::string& pointer, const std::string& reason);
    /** A syntax error at \p line, \p column (both from 1). */
    ConfigError(const std::string& file, uint64_t line, uint64_t column, const std::string& reason);
    /** A problem with the file as a whole (no pointer, no position). */
    ConfigError(const std::string& file, const std::string& reason);

    const std::string& GetFile() const;
    /** \return the JSON pointer of the offending value ("" for syntax and whole-file errors). */
    const std::string& GetPointer() const;
    const std::string& GetReason() const;

  private:
    std::string m_file;
    std::string m_pointer;
    std::string m_reason;
};

} // namespace ns3

#endif /* CONFIG_ERROR_H */
