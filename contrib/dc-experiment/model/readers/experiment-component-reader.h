/*
 * Reads a component section (TypeId and attributes) of an experiment file.
 */
#ifndef EXPERIMENT_COMPONENT_READER_H
#define EXPERIMENT_COMPONENT_READER_H

#include "ns3/command-line-attributes.h"
#include "ns3/experiment-component.h"
#include "ns3/json-schema-reader.h"

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * A component section: {"type": TypeId name, attribute: value, ...} ("nic", "switch",
 * "link", "buffer", "ecn", "cc", "loss_recovery", "qp", the PFC safety parts, the
 * per-host entries of "cc_hosts", "buffer_switches" and "nodes"). The type must be a
 * constructible subclass of the section's base type; each attribute must be settable
 * at construction and its value is checked by the TypeId's own checker
 * (JsonAttributeConverter). An attribute the command line sets (--ns3::Type::Attr)
 * keeps that value, with a warning.
 */
class ExperimentComponentReader
{
  public:
    /**
     * \param warnings receives a line for each attribute the command line overrides
     */
    ExperimentComponentReader(const JsonSchemaReader& reader,
                              const CommandLineAttributes& commandLine,
                              std::vector<std::string>& warnings);

    /**
     * Read \p section (null when absent: every attribute at its default).
     * \param typeName the type when the section gives none (or the only type, when
     *        \p baseType is empty: the section has no "type")
     * \param baseType what "type" must derive from; "" when the type is fixed
     * \param reserved attributes that cannot be set here, with the reason
     * \param out receives the type and the attributes the file sets
     * \return the effective section: the type and every settable attribute's value
     * \throw ExperimentConfigError
     */
    nlohmann::ordered_json Read(const nlohmann::json* section, const std::string& pointer,
                                const std::string& typeName, const std::string& baseType,
                                const std::map<std::string, std::string>& reserved,
                                ExperimentComponent& out) const;

    /**
     * \return the names of the registered TypeIds that derive from \p baseType and can be
     * constructed, sorted: what a "type" field may name (listed when it names another).
     */
    static std::vector<std::string> ConstructibleSubclasses(const std::string& baseType);

    /**
     * \return why \p type is not one of \p baseType's: "did you mean X? " when a name is
     * close (JsonSchemaReader::ClosestNames; none for an empty \p type), then "the
     * ns3::Base types are: A, B, ...".
     */
    static std::string ChoicesText(const std::string& type, const std::string& baseType);

  private:
    const JsonSchemaReader& m_reader;
    const CommandLineAttributes& m_commandLine; //!< --ns3::Type::Attribute=value: they win
    std::vector<std::string>& m_warnings;
};

} // namespace ns3

#endif /* EXPERIMENT_COMPONENT_READER_H */
