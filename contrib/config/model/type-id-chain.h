/*
 * A TypeId and its parents, for code that walks their attributes or trace sources: the one
 * walk over a TypeId's chain of parents.
 */
#ifndef TYPE_ID_CHAIN_H
#define TYPE_ID_CHAIN_H

#include "ns3/type-id.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup config
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

/** An attribute and the TypeId that declares it. */
struct DeclaredAttribute
{
    TypeId owner;                      //!< the TypeId that declares the attribute
    TypeId::AttributeInformation info; //!< the attribute
};

/**
 * \return the attributes of each TypeId of \p chain (TypeIdChain's order, or the reverse
 * for parents first), in the order each TypeId declares them
 */
inline std::vector<DeclaredAttribute>
ChainAttributes(const std::vector<TypeId>& chain)
{
    std::vector<DeclaredAttribute> attributes;
    for (const TypeId& t : chain)
    {
        for (std::size_t i = 0; i < t.GetAttributeN(); ++i)
        {
            attributes.push_back(DeclaredAttribute{t, t.GetAttribute(i)});
        }
    }
    return attributes;
}

/** \return the names of the attributes of \p tid and of its parents, \p tid's first. */
inline std::vector<std::string>
AttributeNames(TypeId tid)
{
    std::vector<std::string> names;
    for (const DeclaredAttribute& a : ChainAttributes(TypeIdChain(tid)))
    {
        names.push_back(a.info.name);
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
    for (const DeclaredAttribute& a : ChainAttributes(TypeIdChain(tid)))
    {
        if (a.info.name == attribute)
        {
            return a.owner;
        }
    }
    return tid;
}

} // namespace ns3

#endif /* TYPE_ID_CHAIN_H */
