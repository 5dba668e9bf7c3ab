/*
 * A TypeId and its parents, for code that walks their attributes or trace sources.
 */
#ifndef TYPE_ID_CHAIN_H
#define TYPE_ID_CHAIN_H

#include "ns3/type-id.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * \return \p tid, then its parent, and so on to the root (ns-3's root is its own parent)
 */
inline std::vector<TypeId>
TypeIdChain(TypeId tid)
{
    std::vector<TypeId> chain;
    for (TypeId t = tid;; t = t.GetParent())
    {
        chain.push_back(t);
        if (t == t.GetParent())
        {
            break;
        }
    }
    return chain;
}

/** \return the names of the attributes of \p tid and of its parents, \p tid's first. */
inline std::vector<std::string>
AttributeNames(TypeId tid)
{
    std::vector<std::string> names;
    for (const TypeId& t : TypeIdChain(tid))
    {
        for (std::size_t i = 0; i < t.GetAttributeN(); ++i)
        {
            names.push_back(t.GetAttribute(i).name);
        }
    }
    return names;
}

/**
 * \return the TypeId, \p tid or the nearest of its parents, that declares \p attribute (the
 * one TypeId::LookupAttributeByName finds); \p tid itself if none does.
 */
inline TypeId
DeclaringTypeId(TypeId tid, const std::string& attribute)
{
    for (const TypeId& t : TypeIdChain(tid))
    {
        for (std::size_t i = 0; i < t.GetAttributeN(); ++i)
        {
            if (t.GetAttribute(i).name == attribute)
            {
                return t;
            }
        }
    }
    return tid;
}

} // namespace ns3

#endif /* TYPE_ID_CHAIN_H */
