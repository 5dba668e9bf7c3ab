#include "run-readme-writer.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ns3
{

void
RunReadmeWriter::SetRun(const std::string& configSource, uint32_t seed)
{
    m_configSource = configSource;
    m_seed = seed;
}

void
RunReadmeWriter::SetCommandLine(const std::string& commandLine)
{
    m_commandLine = commandLine;
}

void
RunReadmeWriter::AddCsv(const std::string& name, const std::string& what, const std::string& header)
{
    m_entries.push_back({name, what, "columns", header});
}

void
RunReadmeWriter::AddText(const std::string& name, const std::string& what,
                         const std::string& columns)
{
    m_entries.push_back({name, what, "columns (no header row)", columns});
}

void
RunReadmeWriter::AddJson(const std::string& name, const std::string& what, const std::string& keys)
{
    m_entries.push_back({name, what, "keys", keys});
}

void
RunReadmeWriter::AddFaults(const std::vector<std::string>& lines)
{
    m_faults.insert(m_faults.end(), lines.begin(), lines.end());
}

void
RunReadmeWriter::SetDetail(const std::string& label, const std::string& value)
{
    for (auto& detail : m_details)
    {
        if (detail.first == label)
        {
            detail.second = value;
            return;
        }
    }
    m_details.emplace_back(label, value);
}

void
RunReadmeWriter::AddFile(const std::string& name, const std::string& what)
{
    m_entries.push_back(Entry{name, what, "", ""});
}

void
RunReadmeWriter::AddFiles(const std::string& pattern, const std::string& what,
                          const std::vector<std::string>& names)
{
    std::string list;
    for (const std::string& name : names)
    {
        list += (list.empty() ? "" : " ") + name;
    }
    m_entries.push_back(Entry{pattern, what, "files", list});
}

std::string
RunReadmeWriter::GetText() const
{
    std::ostringstream out;
    out << "Output directory of one roce-lab run (file formats: "
           "contrib/dc-experiment/doc/dc-experiment.md, \"Outputs\").\n"
        << "configuration: " << m_configSource << '\n'
        << "seed: " << m_seed << '\n';
    if (!m_commandLine.empty())
    {
        out << "command: " << m_commandLine << '\n';
    }
    for (const auto& [label, value] : m_details)
    {
        out << label << ": " << value << '\n';
    }
    out << "The same configuration and seed give byte-identical files.\n\nFiles:\n";
    for (const Entry& e : m_entries)
    {
        out << e.name << ": " << e.what << '\n';
        if (!e.label.empty())
        {
            out << "    " << e.label << ": " << e.fields << '\n';
        }
    }
    if (!m_faults.empty())
    {
        out << "\nFaults injected (faults.csv has each with its time):\n";
        for (const std::string& line : m_faults)
        {
            out << "    " << line << '\n';
        }
    }
    return out.str();
}

void
RunReadmeWriter::CloseChecked(std::ofstream& out, const std::string& path)
{
    out.close();
    if (out.fail())
    {
        throw std::runtime_error("cannot write " + path);
    }
}

void
RunReadmeWriter::Write(const std::string& path) const
{
    std::ofstream out(path, std::ios::binary);
    out << GetText();
    CloseChecked(out, path);
}

} // namespace ns3
