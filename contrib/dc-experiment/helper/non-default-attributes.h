/*
 * The ns-3 attribute values of a run's objects that differ from their TypeId
 * defaults: what config.json records beside the experiment's sections.
 */
#ifndef NON_DEFAULT_ATTRIBUTES_H
#define NON_DEFAULT_ATTRIBUTES_H

#include "ns3/object.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Collects, over a set of objects, every attribute value that differs from the
 * attribute's original TypeId default (TypeId::AttributeInformation::
 * originalInitialValue: the value before any Config::SetDefault, so defaults
 * changed with --ns3::Type::Attr=value or by the experiment file count as
 * changed).
 *
 * Add() walks from each object to its aggregated objects and to the objects its
 * Pointer and ObjectVector/ObjectMap attributes hold; each object is visited
 * once. Only attributes that are both settable and gettable are compared
 * (identity and state such as a node's Id are not configuration); Pointer and
 * container attributes are walked, not compared (they print as addresses).
 *
 * ToJson() gives {"ns3::Type": {"Attr": ...}}, types and attributes sorted by
 * name. An attribute is listed under the most derived type of the objects
 * holding it. Where every instance holds the same non-default value it is that
 * value's string; where instances differ, {"default": d, "values": {value:
 * count, ...}} over all instances (at most MAX_LISTED_VALUES values, the rest
 * counted in "other_values"). The result depends only on the objects'
 * attribute values, never on addresses or visit order.
 */
class NonDefaultAttributes
{
  public:
    /** Distinct values listed per attribute before the rest are only counted. */
    static constexpr std::size_t MAX_LISTED_VALUES = 16;

    /** Visit \p object and everything reachable from it (see class doc). */
    void Add(Ptr<Object> object);

    /**
     * Tally \p object (which must not reach other objects through attributes or
     * aggregation) and forget its address: for an object about to be destroyed, whose
     * address a later object may get.
     */
    void AddTransient(Ptr<Object> object);
    /** Add the tallies of \p other (objects both have visited are counted twice). */
    void Merge(const NonDefaultAttributes& other);

    /** \return the non-default attributes found so far (see class doc). */
    nlohmann::ordered_json ToJson() const;

  private:
    struct AttributeTally
    {
        std::string defaultValue;
        std::map<std::string, uint64_t> values; //!< value -> instances holding it
        bool anyChanged{false};
    };

    void Visit(Ptr<Object> object);
    void Enqueue(Ptr<Object> object);

    std::set<const Object*> m_visited;
    std::vector<Ptr<Object>> m_pending;
    /** type name -> attribute name -> tally */
    std::map<std::string, std::map<std::string, AttributeTally>> m_tally;
};

} // namespace ns3

#endif /* NON_DEFAULT_ATTRIBUTES_H */
