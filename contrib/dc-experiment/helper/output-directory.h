/*
 * A run's output directory, cleared of a previous run's files before the run writes.
 */
#ifndef OUTPUT_DIRECTORY_H
#define OUTPUT_DIRECTORY_H

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Rerunning into a used output directory clears it: Prepare() removes the files the
 * previous run's README lists (RunReadmeWriter; ./roce-lab run appends its plots and
 * input.json there too) and the README itself, so no file of an earlier configuration
 * (say a queues.csv the new one no longer asks for, or old captures) survives beside the new
 * outputs. Files the README does not list (a sweep's log.txt, the user's own notes) and the
 * configuration being run (\p keep, e.g. DIR/input.json) are left alone; a directory
 * without a run's README is not touched. Entries naming a pattern
 * ("pcap/<node>-<port>.pcap") remove their folder's files of that extension.
 */
class OutputDirectory
{
  public:
    /** The first words of a run's README (RunReadmeWriter). */
    static constexpr const char* README_FIRST_WORDS = "Output directory of one roce-lab run";

    /**
     * Create \p directory if needed and clear a previous run's files from it.
     * \param keep a file not to remove (the configuration being run), may be empty
     * \param clear false: only create the directory (the ranks of a distributed run)
     * \return the number of files removed
     * \throw std::runtime_error if the directory cannot be created or a file removed
     */
    static uint32_t Prepare(const std::string& directory, const std::string& keep,
                            bool clear = true);
};

} // namespace ns3

#endif /* OUTPUT_DIRECTORY_H */
