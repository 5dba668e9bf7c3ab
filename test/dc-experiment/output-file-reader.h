/*
 * The files a run writes, for the dc-experiment tests: a fresh output directory per test,
 * whole files, their lines, and the comma-separated fields of one line (a trailing comma
 * gives an empty last field).
 */
#ifndef ROCE_LAB_TEST_OUTPUT_FILE_READER_H
#define ROCE_LAB_TEST_OUTPUT_FILE_READER_H

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <vector>

namespace ns3
{
namespace test
{

/** \return build/test-output/<current test>/<leaf>, emptied (ROCE_LAB_BINARY_DIR from CMake) */
inline std::string
OutputDir(const std::string& leaf)
{
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    const std::filesystem::path dir =
        std::filesystem::path(ROCE_LAB_BINARY_DIR) / "test-output" / info->name() / leaf;
    std::filesystem::remove_all(dir);
    return dir.string();
}

inline std::string
ReadFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

inline std::vector<std::string>
Lines(const std::string& text)
{
    std::vector<std::string> lines;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line))
    {
        lines.push_back(line);
    }
    return lines;
}

inline std::vector<std::string>
Fields(const std::string& line)
{
    std::vector<std::string> fields;
    std::stringstream in(line);
    std::string f;
    while (std::getline(in, f, ','))
    {
        fields.push_back(f);
    }
    if (!line.empty() && line.back() == ',')
    {
        fields.emplace_back();
    }
    return fields;
}

} // namespace test
} // namespace ns3

#endif
