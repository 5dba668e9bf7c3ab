#include "config-error-list.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <tuple>

namespace ns3
{

namespace
{

/** \return true if \p error is "file:line:column: reason", with \p line and \p column set. */
bool
Position(const ExperimentConfigError& error, uint64_t& line, uint64_t& column)
{
    const std::string what = error.what();
    const std::string& file = error.GetFile();
    const std::string middle =
        what.substr(file.size(), what.size() - file.size() - error.GetReason().size());
    char tail = 0;
    line = 0;
    column = 0;
    return std::sscanf(middle.c_str(), ":%" SCNu64 ":%" SCNu64 "%c", &line, &column, &tail) == 3 &&
           tail == ':';
}

} // namespace

ConfigErrorList::ConfigErrorList(std::string file)
    : m_file(std::move(file))
{
}

void
ConfigErrorList::Add(const ExperimentConfigError& error)
{
    const std::string message = error.what();
    if (std::any_of(m_errors.begin(), m_errors.end(),
                    [&message](const ExperimentConfigError& e) { return message == e.what(); }))
    {
        return;
    }
    if (m_errors.size() == MAX_PROBLEMS)
    {
        ++m_dropped;
        return;
    }
    m_errors.push_back(error);
}

bool
ConfigErrorList::IsEmpty() const
{
    return m_errors.empty();
}

void
ConfigErrorList::ThrowIfAny() const
{
    if (m_errors.empty())
    {
        return;
    }
    if (m_errors.size() == 1)
    {
        throw m_errors.front();
    }
    // In file order: this file's problems by line and column, then the other files'.
    std::vector<ExperimentConfigError> errors = m_errors;
    auto key = [this](const ExperimentConfigError& e)
    {
        uint64_t line = 0;
        uint64_t column = 0;
        Position(e, line, column);
        return std::make_tuple(e.GetFile() != m_file, line, column);
    };
    std::stable_sort(errors.begin(), errors.end(),
                     [&key](const ExperimentConfigError& a, const ExperimentConfigError& b)
                     { return key(a) < key(b); });
    // The first problem keeps its own form (file:line:column: reason); the others follow,
    // one a line, as they would have been reported alone.
    std::string reason = errors.front().GetReason();
    for (std::size_t i = 1; i < errors.size(); ++i)
    {
        reason += "\n";
        reason += errors[i].what();
    }
    const uint64_t total = errors.size() + m_dropped;
    reason += "\n" + m_file + ": " + std::to_string(total) + " problems" +
              (m_dropped > 0 ? " (the first " + std::to_string(errors.size()) + " shown)" : "");
    const ExperimentConfigError& first = errors.front();
    uint64_t line = 0;
    uint64_t column = 0;
    if (Position(first, line, column))
    {
        throw ExperimentConfigError(first.GetFile(), line, column, reason);
    }
    if (!first.GetPointer().empty())
    {
        throw ExperimentConfigError(first.GetFile(), first.GetPointer(), reason);
    }
    throw ExperimentConfigError(first.GetFile(), reason);
}

} // namespace ns3
