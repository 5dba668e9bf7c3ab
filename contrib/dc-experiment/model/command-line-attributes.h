/*
 * The attribute defaults a program's command line sets (--ns3::Type::Attribute=value),
 * so that they win over the same attribute in a JSON experiment file.
 */
#ifndef COMMAND_LINE_ATTRIBUTES_H
#define COMMAND_LINE_ATTRIBUTES_H

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * The "--ns3::Type::Attribute=value" arguments of a command line.
 *
 * ns3::CommandLine applies such an argument with Config::SetDefault, which changes the
 * initial value of the attribute declared by exactly that TypeId (not one inherited from
 * a parent). A JSON experiment that sets the same attribute would otherwise overwrite it
 * on each object; ExperimentConfig leaves such attributes at their (command-line)
 * default instead, so the command line wins, as ns-3 users expect, and the effective
 * config.json records the command line's value.
 */
class CommandLineAttributes
{
  public:
    CommandLineAttributes() = default;

    /**
     * Collect from \p args (argv[0] included or not) the arguments whose name is a
     * registered TypeId and one of the attributes it declares. Other arguments are
     * ignored (ns3::CommandLine reports what it does not know).
     */
    static CommandLineAttributes FromArguments(const std::vector<std::string>& args);

    /**
     * \return the argument (e.g. "--ns3::RdmaDcqcn::G=0.01") that sets the attribute \p
     * attribute declared by \p typeName, or "" if the command line does not set it
     * (the last one when given twice, as ns3::CommandLine applies them in order).
     */
    std::string Find(const std::string& typeName, const std::string& attribute) const;

    /** \return true if no attribute is set. */
    bool IsEmpty() const;

  private:
    /** One attribute default from the command line. */
    struct Entry
    {
        std::string typeName;  //!< the TypeId declaring the attribute, e.g. "ns3::RdmaDcqcn"
        std::string attribute; //!< e.g. "G"
        std::string argument;  //!< the argument as given
    };

    std::vector<Entry> m_entries;
};

} // namespace ns3

#endif /* COMMAND_LINE_ATTRIBUTES_H */
