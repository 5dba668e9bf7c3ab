// SonicConfigLoader in the tests: its reads as a result and an error text, so that a
// test states what a read gives, or the located error it refuses with, in one line.
#ifndef ROCE_LAB_TEST_SONIC_LOADER_PROBE_H
#define ROCE_LAB_TEST_SONIC_LOADER_PROBE_H

#include "ns3/config-error.h"
#include "ns3/sonic-config-loader.h"

#include <string>
#include <vector>

namespace ns3
{

/** A SonicConfigLoader whose reads store the ConfigError's text instead of throwing it. */
class SonicLoaderProbe : public SonicConfigLoader
{
  public:
    /** Read \p path (comma-separated files) into \p c; \return false on a ConfigError. */
    bool LoadFile(const std::string& path, SonicBufferConfig& c)
    {
        return Probe([&] { c = Read(path); });
    }

    bool LoadFiles(const std::vector<std::string>& paths, SonicBufferConfig& c)
    {
        return Probe([&] { c = Read(paths); });
    }

    bool LoadString(const std::string& text, const std::string& source, SonicBufferConfig& c)
    {
        return Probe([&] { c = ReadString(text, source); });
    }

    /** \return the text of the last read's ConfigError ("" after a success). */
    const std::string& GetError() const { return m_error; }

  private:
    template <typename F>
    bool Probe(F read)
    {
        m_error.clear();
        try
        {
            read();
        }
        catch (const ConfigError& e)
        {
            m_error = e.what();
            return false;
        }
        return true;
    }

    std::string m_error;
};

} // namespace ns3

#endif
