#include "config-error.h"

namespace ns3
{

ConfigError::ConfigError(const std::string& file, const std::string& pointer,
                         const std::string& reason)
    : std::runtime_error(file + ": " + (pointer.empty() ? "(root)" : pointer) + ": " + reason)
    , m_file(file)
    , m_pointer(pointer)
    , m_reason(reason)
{
}

ConfigError::ConfigError(const std::string& file, uint64_t line, uint64_t column,
                         const std::string& reason)
    : std::runtime_error(file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " +
                         reason)
    , m_file(file)
    , m_reason(reason)
{
}

ConfigError::ConfigError(const std::string& file, const std::string& reason)
    : std::runtime_error(file + ": " + reason)
    , m_file(file)
    , m_reason(reason)
{
}

const std::string&
ConfigError::GetFile() const
{
    return m_file;
}

const std::string&
ConfigError::GetPointer() const
{
    return m_pointer;
}

const std::string&
ConfigError::GetReason() const
{
    return m_reason;
}

} // namespace ns3
