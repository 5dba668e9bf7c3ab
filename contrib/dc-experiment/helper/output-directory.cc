#include "output-directory.h"

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <vector>

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

/** Remove \p path (a file) unless it is \p keep; count it in \p removed. */
void
RemoveFile(const fs::path& path, const fs::path& keep, uint32_t& removed)
{
    std::error_code ec;
    if (!fs::is_regular_file(path, ec) || (!keep.empty() && SameFile(path, keep)))
    {
        return;
    }
    if (!fs::remove(path, ec) || ec)
    {
        throw std::runtime_error("cannot remove " + path.string() +
                                 " (a previous run's output): " + ec.message());
    }
    ++removed;
}

} // namespace

uint32_t
OutputDirectory::Prepare(const std::string& directory, const std::string& keep, bool clear)
{
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
    std::ifstream readme(dir / "README");
    std::string line;
    if (!readme || !std::getline(readme, line) || line.rfind(README_FIRST_WORDS, 0) != 0)
    {
        return 0;
    }
    const fs::path keepPath = keep.empty() ? fs::path() : fs::path(keep);
    uint32_t removed = 0;
    bool files = false;
    while (std::getline(readme, line))
    {
        if (line == "Files:")
        {
            files = true;
            continue;
        }
        // An entry: "name: what" at the start of a line; its columns are indented.
        const auto colon = line.find(": ");
        if (!files || line.empty() || line[0] == ' ' || colon == std::string::npos)
        {
            continue;
        }
        const fs::path name(line.substr(0, colon));
        bool inside = !name.is_absolute();
        for (const auto& part : name)
        {
            inside = inside && part != "..";
        }
        if (!inside)
        {
            continue;
        }
        const std::string text = name.string();
        if (text.find('<') == std::string::npos)
        {
            RemoveFile(dir / name, keepPath, removed);
            continue;
        }
        // A pattern such as "pcap/<node>-<port>.pcap": its folder's files of that extension.
        const fs::path folder = dir / name.parent_path();
        if (name.parent_path().empty() || !fs::is_directory(folder, ec))
        {
            continue;
        }
        std::vector<fs::path> matches;
        for (const auto& entry : fs::directory_iterator(folder, ec))
        {
            if (entry.path().extension() == name.extension())
            {
                matches.push_back(entry.path());
            }
        }
        for (const fs::path& p : matches)
        {
            RemoveFile(p, keepPath, removed);
        }
        fs::remove(folder, ec); // only if now empty
    }
    readme.close();
    RemoveFile(dir / "README", keepPath, removed);
    return removed;
}

} // namespace ns3
