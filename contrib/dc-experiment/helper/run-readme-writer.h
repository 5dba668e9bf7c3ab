/*
 * The README of a run's output directory: what produced it, and one entry per
 * file the run wrote, registered by the code that wrote the file.
 */
#ifndef RUN_README_WRITER_H
#define RUN_README_WRITER_H

#include <cstdint>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Each writer of an output file calls AddCsv() or AddJson() once it has written it, with the
 * file's name, one line on what it is and its columns (a CSV's header row as
 * written, or a JSON file's top-level keys), so the README lists exactly the
 * files of this run and cannot drift from them. Write() then writes README:
 *
 *     Output directory of one roce-lab run.
 *     configuration: <config source as given>
 *     seed: <seed>
 *     command: <command line, when the caller set one>
 *     <label>: <value>                  (each SetDetail, e.g. "nic profile: srnic ...")
 *
 *     Files:
 *     <name>: <what it is>
 *         columns: <CSV header row>      (or keys: <JSON top-level keys>,
 *                                         or columns (no header row): <columns>)
 *
 * Files are listed in the order they were added. The README holds no wall-clock
 * time and no path other than what the caller gave (configuration source and
 * command line as typed), so the same command gives a byte-identical README.
 * Other tools (./roce-lab run's plots) append their own entries in the same
 * "name: what" form after the run.
 */
class RunReadmeWriter
{
  public:
    /** Describe the run: configuration source (as given) and seed. */
    void SetRun(const std::string& configSource, uint32_t seed);
    /** The command line that produced the run (as typed); omitted when empty. */
    void SetCommandLine(const std::string& commandLine);
    /**
     * Add a line "<label>: <value>" after the command (e.g. "nic profile"), in the order
     * added; a second call with the same label replaces the value.
     */
    void SetDetail(const std::string& label, const std::string& value);
    /**
     * Record a written file that has no columns (e.g. a packet capture).
     * \param name file name (or pattern, e.g. "pcap/<node>-<port>.pcap") in the directory
     */
    void AddFile(const std::string& name, const std::string& what);
    /**
     * Record files written in one folder under a pattern (e.g. "pcap/<node>-<port>.pcap"),
     * listed by name on a "files:" line below it: a later run into the directory removes
     * exactly these (OutputDirectory).
     * \param names the files' names in the pattern's folder, blank-free
     */
    void AddFiles(const std::string& pattern, const std::string& what,
                  const std::vector<std::string>& names);
    /**
     * Record a written CSV file.
     * \param name file name in the output directory
     * \param what one line on what the file holds
     * \param header its header row, as written
     */
    void AddCsv(const std::string& name, const std::string& what, const std::string& header);
    /**
     * Record a written text file without a header row (another tool's format).
     * \param columns its columns, blank-separated, in order
     */
    void AddText(const std::string& name, const std::string& what, const std::string& columns);
    /**
     * Record a written JSON file.
     * \param keys its top-level keys, as written ("a, b, c")
     */
    void AddJson(const std::string& name, const std::string& what, const std::string& keys);

    /**
     * Record the faults the run injected (FaultInjector), one line each, listed after
     * the files under "Faults injected:"; nothing is written when none were given.
     */
    void AddFaults(const std::vector<std::string>& lines);

    /**
     * Close \p out, an output file of the run at \p path (every writer ends with this).
     * \throw std::runtime_error naming \p path if any write to it failed
     */
    static void CloseChecked(std::ofstream& out, const std::string& path);

    /** \return the README text. */
    std::string GetText() const;
    /**
     * Write \p path (the README).
     * \throw std::runtime_error if it cannot be written
     */
    void Write(const std::string& path) const;

  private:
    struct Entry
    {
        std::string name;
        std::string what;
        std::string label; //!< "columns", "columns (no header row)" or "keys"
        std::string fields;
    };

    std::string m_configSource;
    uint32_t m_seed{0};
    std::string m_commandLine;
    std::vector<std::pair<std::string, std::string>> m_details; //!< SetDetail, in order
    std::vector<Entry> m_entries;
    std::vector<std::string> m_faults;
};

} // namespace ns3

#endif /* RUN_README_WRITER_H */
