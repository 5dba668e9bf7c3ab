/*
 * The values a "topology" object's "type" may take.
 */
#ifndef TOPOLOGY_TYPES_H
#define TOPOLOGY_TYPES_H

#include <set>
#include <string>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * The one list of topology types: the built-in shapes ("dumbbell", "incast", "leaf_spine",
 * "fat_tree", "regional"), "custom" and "file". ExperimentTopology::Parse reads "type" from
 * it (a roce-lab topology file too, where "file" is refused), and error messages that name
 * the types print it.
 */
class TopologyTypes
{
  public:
    /** \return every topology type. */
    static const std::set<std::string>& GetAll();
    /** \return the types as a message lists them: "custom", "dumbbell", ... or "regional". */
    static std::string Describe();
    /** The type that reads another file (which may not name a file again). */
    static constexpr const char* FILE_TYPE = "file";
};

} // namespace ns3

#endif /* TOPOLOGY_TYPES_H */
