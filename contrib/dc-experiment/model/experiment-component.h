/*
 * A pluggable component of an experiment file: a TypeId and checked attributes.
 */
#ifndef EXPERIMENT_COMPONENT_H
#define EXPERIMENT_COMPONENT_H

#include "ns3/attribute.h"

#include <string>
#include <vector>

namespace ns3
{

/** \ingroup dc-experiment One attribute value, checked against its TypeId. */
struct ExperimentAttribute
{
    std::string name;
    Ptr<AttributeValue> value;
};

/** \ingroup dc-experiment A pluggable component: its TypeId name and attributes. */
struct ExperimentComponent
{
    std::string typeName;                        //!< "" when the section has no "type"
    std::vector<ExperimentAttribute> attributes; //!< in file order (sorted by name)
    std::string pointer;                         //!< JSON pointer of the section
};

} // namespace ns3

#endif /* EXPERIMENT_COMPONENT_H */
