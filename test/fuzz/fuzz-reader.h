// Shared by the libFuzzer targets of test/fuzz: run a reader on the input and accept
// only its documented failure (ExperimentConfigError, or false with an error message).
// Anything else (another exception, an abort, a sanitizer report) is a finding.
#ifndef ROCE_LAB_FUZZ_READER_H
#define ROCE_LAB_FUZZ_READER_H

#include "ns3/experiment-config-error.h"

#include <cstdint>
#include <cstdlib>
#include <string>

namespace ns3
{
namespace fuzz
{

/** The input as text. */
inline std::string
Text(const uint8_t* data, std::size_t size)
{
    return std::string(reinterpret_cast<const char*>(data), size);
}

/** Run \p read; an ExperimentConfigError must name the file it was given. */
template <typename F>
void
Expect(const std::string& name, F read)
{
    try
    {
        read();
    }
    catch (const ExperimentConfigError& e)
    {
        if (e.GetFile().empty() || std::string(e.what()).find(name) == std::string::npos)
        {
            std::abort(); // an error that does not say which file it is about
        }
    }
}

} // namespace fuzz
} // namespace ns3

#endif
