/*
 * Blank-separated words of a line of a text input file, with their columns.
 */
#ifndef TEXT_FIELD_H
#define TEXT_FIELD_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup config
 * A word of a line of a text file (topology, flow and CDF files, HPCC-simulator
 * configuration files) and its column, from 1, for errors that name file:line:column.
 */
struct TextField
{
    std::string text;
    uint64_t column;
};

/** \return the words of \p line separated by blanks (space, tab, CR), with their columns. */
std::vector<TextField> SplitBlankFields(const std::string& line);

} // namespace ns3

#endif /* TEXT_FIELD_H */
