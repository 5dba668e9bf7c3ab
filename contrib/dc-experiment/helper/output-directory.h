/*
 * A run's output directory: refused when it holds someone else's files, cleared of a
 * previous run's files before the run writes.
 */
#ifndef OUTPUT_DIRECTORY_H
#define OUTPUT_DIRECTORY_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Rerunning into a used output directory clears it: Prepare() removes the files the
 * previous run's README lists (RunReadmeWriter; ./roce-lab run appends its plots and
 * input.json there too) and the README itself, so no file of an earlier configuration
 * (say a queues.csv the new one no longer asks for, or old captures) survives beside the
 * new outputs. Only what the README names is removed: entries naming a pattern
 * ("pcap/<node>-<port>.pcap") remove the files their "files:" line lists, nothing else;
 * files the README does not list (a sweep's log.txt, the user's own notes) and the
 * configuration being run (\p keep, e.g. DIR/input.json) stay. Nothing is removed through
 * a symbolic link: an entry whose folder (or any folder on its way) is a link is skipped,
 * and a listed file that is itself a link loses the link only.
 *
 * A directory that is neither new, nor empty (but for \p keep), nor a previous run's
 * (its README begins with README_FIRST_WORDS) is refused: its files are someone else's
 * and would be overwritten. Prepare() leaves a README saying the run has not finished,
 * which the run's own README replaces, so that a run that fails half-way leaves a
 * directory that the next run may use.
 */
class OutputDirectory
{
  public:
    /** The first words of a run's README (RunReadmeWriter). */
    static constexpr const char* README_FIRST_WORDS = "Output directory of one roce-lab run";

    /** What Prepare() would do with a directory (Inspect()). */
    struct Plan
    {
        bool exists{false};               //!< the directory exists
        bool previousRun{false};          //!< it holds a previous run's README
        std::vector<std::string> remove;  //!< the files Prepare() removes, README last
        std::vector<std::string> folders; //!< pattern folders removed if left empty
    };

    /**
     * What Prepare() would do, changing nothing (roce-run --check).
     * \throw std::runtime_error naming \p directory if it is not a run's to use
     */
    static Plan Inspect(const std::string& directory, const std::string& keep);

    /**
     * Create \p directory if needed and clear a previous run's files from it.
     * \param keep a file not to remove (the configuration being run), may be empty
     * \param clear false: only check and create the directory (the ranks of a distributed
     *        run, which write concurrently)
     * \return the number of files removed
     * \throw std::runtime_error if the directory is not a run's to use (Inspect), cannot
     *        be created or a file not removed
     */
    static uint32_t Prepare(const std::string& directory, const std::string& keep,
                            bool clear = true);
};

} // namespace ns3

#endif /* OUTPUT_DIRECTORY_H */
