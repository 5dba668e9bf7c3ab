/*
 * The files a run reads and writes, for the dc-experiment tests: the shipped experiment
 * files, a fresh output directory per test, whole files, their lines, and the
 * comma-separated fields of one line (a trailing comma gives an empty last field).
 */
#ifndef ROCE_LAB_TEST_OUTPUT_FILE_READER_H
#define ROCE_LAB_TEST_OUTPUT_FILE_READER_H

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace ns3
{
namespace test
{

/**
 * \return build/test-output/<current test>/<leaf>, emptied (ROCE_LAB_BINARY_DIR from CMake);
 * a parameterized test's "/" becomes "_".
 */
inline std::string
OutputDir(const std::string& leaf)
{
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = info->name();
    for (char& c : name)
    {
        c = c == '/' ? '_' : c;
    }
    const std::filesystem::path dir =
        std::filesystem::path(ROCE_LAB_BINARY_DIR) / "test-output" / name / leaf;
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

/** The shipped experiment files' directory, configs/ (ROCE_LAB_SOURCE_DIR from CMake). */
inline const std::string CONFIGS = std::string(ROCE_LAB_SOURCE_DIR) + "/configs/";

/** \return the shipped experiment file configs/\p name, parsed. */
inline nlohmann::json
Shipped(const std::string& name)
{
    return nlohmann::json::parse(ReadFile(CONFIGS + name));
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

/** One row per line of a CSV file, each a map column -> value. */
inline std::vector<std::map<std::string, std::string>>
Table(const std::string& path)
{
    const std::vector<std::string> lines = Lines(ReadFile(path));
    const std::vector<std::string> header = Fields(lines.at(0));
    std::vector<std::map<std::string, std::string>> rows;
    for (std::size_t i = 1; i < lines.size(); ++i)
    {
        const std::vector<std::string> f = Fields(lines[i]);
        std::map<std::string, std::string> row;
        for (std::size_t c = 0; c < header.size(); ++c)
        {
            row[header[c]] = c < f.size() ? f[c] : "";
        }
        rows.push_back(row);
    }
    return rows;
}

} // namespace test
} // namespace ns3

#endif
