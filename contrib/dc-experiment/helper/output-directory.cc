#include "output-directory.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace fs = std::filesystem;

namespace
{

/** \return true if \p a and \p b name the same existing file. */
bool
SameFile(const fs::path& a, const fs::path& b)
{
    std::error_code ec;
    return fs::equivalent(a, b, ec) && !ec;
}

/** \return true if \p name is a relative path that stays inside its directory (no ".."). */
bool
Inside(const fs::path& name)
{
    if (name.empty() || !name.is_relative())
    {
        return false;
    }
    return std::none_of(name.begin(), name.end(), [](const fs::path& p) { return p == ".."; });
}

/**
 * \return true if every folder on the way from \p dir to the file \p name (relative) is a
 * directory and none is a symbolic link: nothing is removed through a link.
 */
bool
NoLinkOnTheWay(const fs::path& dir, const fs::path& name)
{
    fs::path p = dir;
    const fs::path folder = name.parent_path();
    for (const fs::path& part : folder)
    {
        p /= part;
        std::error_code ec;
        const fs::file_status s = fs::symlink_status(p, ec);
        if (ec || fs::is_symlink(s) || !fs::is_directory(s))
        {
            return false;
        }
    }
    return true;
}

/**
 * Add \p path to \p remove if it is a file or a symbolic link (the link is removed, never
 * what it points to) and not \p keep.
 */
void
AddFile(const fs::path& path, const fs::path& keep, std::vector<std::string>& remove)
{
    std::error_code ec;
    const fs::file_status s = fs::symlink_status(path, ec);
    if (ec || !(fs::is_regular_file(s) || fs::is_symlink(s)))
    {
        return;
    }
    if (!keep.empty() && (fs::is_symlink(s) ? fs::absolute(path, ec).lexically_normal() ==
                                                  fs::absolute(keep, ec).lexically_normal()
                                            : SameFile(path, keep)))
    {
        return;
    }
    remove.push_back(path.string());
}

/** The README a run leaves until its own replaces it. */
const char* UNFINISHED = " (not finished: the run is in progress or failed).\n";

} // namespace

OutputDirectory::Plan
OutputDirectory::Inspect(const std::string& directory, const std::string& keep)
{
    Plan plan;
    const fs::path dir(directory);
    std::error_code ec;
    const fs::file_status status = fs::status(dir, ec); // --out itself may be a link
    if (!fs::exists(status))
    {
        return plan;
    }
    if (!fs::is_directory(status))
    {
        throw std::runtime_error(directory + ": output directory: not a directory");
    }
    plan.exists = true;
    const fs::path keepPath = keep.empty() ? fs::path() : fs::path(keep);
    std::ifstream readme(dir / "README");
    std::string line;
    plan.previousRun =
        readme && std::getline(readme, line) && line.rfind(README_FIRST_WORDS, 0) == 0;
    if (!plan.previousRun)
    {
        std::vector<std::string> others;
        for (const auto& entry : fs::directory_iterator(dir, ec))
        {
            if (keepPath.empty() || !SameFile(entry.path(), keepPath))
            {
                others.push_back(entry.path().filename().string());
            }
        }
        if (ec)
        {
            throw std::runtime_error(directory +
                                     ": output directory: cannot read: " + ec.message());
        }
        if (others.empty())
        {
            return plan;
        }
        std::sort(others.begin(), others.end());
        std::string shown;
        for (std::size_t i = 0; i < others.size() && i < 5; ++i)
        {
            shown += (i ? ", " : "") + others[i];
        }
        throw std::runtime_error(directory +
                                 ": output directory: not a previous run's (no roce-lab "
                                 "README) and not empty (" +
                                 shown + (others.size() > 5 ? ", ..." : "") +
                                 "): its files are not replaced; give another --out, or "
                                 "empty it");
    }
    bool files = false;
    bool pattern = false; // the last entry was a pattern: its "files:" line may follow
    fs::path patternFolder;
    while (std::getline(readme, line))
    {
        if (line == "Files:")
        {
            files = true;
            continue;
        }
        if (!files)
        {
            continue;
        }
        const std::string filesLabel = "    files: ";
        if (pattern && line.rfind(filesLabel, 0) == 0)
        {
            std::istringstream names(line.substr(filesLabel.size()));
            std::string name;
            while (names >> name)
            {
                const fs::path n(name);
                if (Inside(n) && !n.has_parent_path() && name != ".")
                {
                    AddFile(dir / patternFolder / n, keepPath, plan.remove);
                }
            }
            pattern = false;
            continue;
        }
        // An entry: "name: what" at the start of a line; its details are indented.
        const auto colon = line.find(": ");
        if (line.empty() || line[0] == ' ' || colon == std::string::npos)
        {
            continue;
        }
        pattern = false;
        const fs::path name(line.substr(0, colon));
        if (!Inside(name) || !NoLinkOnTheWay(dir, name))
        {
            continue;
        }
        if (name.string().find('<') != std::string::npos)
        {
            // "pcap/<node>-<port>.pcap": the files its "files:" line names, none else.
            pattern = true;
            patternFolder = name.parent_path();
            if (!patternFolder.empty() &&
                std::find(plan.folders.begin(), plan.folders.end(),
                          (dir / patternFolder).string()) == plan.folders.end())
            {
                plan.folders.push_back((dir / patternFolder).string());
            }
            continue;
        }
        AddFile(dir / name, keepPath, plan.remove);
    }
    AddFile(dir / "README", keepPath, plan.remove);
    return plan;
}

uint32_t
OutputDirectory::Prepare(const std::string& directory, const std::string& keep, bool clear)
{
    const Plan plan = Inspect(directory, keep);
    const fs::path dir(directory);
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec)
    {
        throw std::runtime_error("cannot create output directory " + directory + ": " +
                                 ec.message());
    }
    if (!clear)
    {
        return 0;
    }
    uint32_t removed = 0;
    for (const std::string& path : plan.remove)
    {
        if (!fs::remove(path, ec) || ec)
        {
            throw std::runtime_error("cannot remove " + path +
                                     " (a previous run's output): " + ec.message());
        }
        ++removed;
    }
    for (const std::string& folder : plan.folders)
    {
        fs::remove(folder, ec); // only if now empty
    }
    std::ofstream readme(dir / "README", std::ios::binary);
    readme << README_FIRST_WORDS << UNFINISHED;
    if (!readme)
    {
        throw std::runtime_error("cannot write " + (dir / "README").string());
    }
    return removed;
}

} // namespace ns3
