#include "non-default-attributes.h"

#include "ns3/object-ptr-container.h"
#include "ns3/pointer.h"
#include "ns3/type-id-chain.h"
#include "ns3/type-id.h"

namespace ns3
{

void
NonDefaultAttributes::Add(Ptr<Object> object)
{
    Enqueue(object);
    while (!m_pending.empty())
    {
        Ptr<Object> next = m_pending.back();
        m_pending.pop_back();
        Visit(next);
    }
}

void
NonDefaultAttributes::AddTransient(Ptr<Object> object)
{
    Add(object);
    m_visited.erase(PeekPointer(object));
}

void
NonDefaultAttributes::Merge(const NonDefaultAttributes& other)
{
    for (const auto& [type, byAttribute] : other.m_tally)
    {
        auto& mine = m_tally[type];
        for (const auto& [name, tally] : byAttribute)
        {
            AttributeTally& t = mine[name];
            t.defaultValue = tally.defaultValue;
            t.anyChanged = t.anyChanged || tally.anyChanged;
            for (const auto& [value, count] : tally.values)
            {
                t.values[value] += count;
            }
        }
    }
}

void
NonDefaultAttributes::Enqueue(Ptr<Object> object)
{
    if (object && m_visited.insert(PeekPointer(object)).second)
    {
        m_pending.push_back(object);
    }
}

void
NonDefaultAttributes::Visit(Ptr<Object> object)
{
    Object::AggregateIterator aggregates = object->GetAggregateIterator();
    while (aggregates.HasNext())
    {
        Enqueue(ConstCast<Object>(aggregates.Next()));
    }

    const TypeId type = object->GetInstanceTypeId();
    auto& byAttribute = m_tally[type.GetName()];
    // The type and its parents, the type's attributes first.
    for (const DeclaredAttribute& a : ChainAttributes(TypeIdChain(type)))
    {
        const TypeId::AttributeInformation& info = a.info;
        if (!(info.flags & TypeId::ATTR_GET) || !info.checker)
        {
            continue;
        }
        if (dynamic_cast<const PointerChecker*>(PeekPointer(info.checker)))
        {
            PointerValue held;
            if (object->GetAttributeFailSafe(info.name, held))
            {
                Enqueue(held.Get<Object>());
            }
            continue;
        }
        if (dynamic_cast<const ObjectPtrContainerChecker*>(PeekPointer(info.checker)))
        {
            ObjectPtrContainerValue held;
            if (object->GetAttributeFailSafe(info.name, held))
            {
                for (auto it = held.Begin(); it != held.End(); ++it)
                {
                    Enqueue(it->second);
                }
            }
            continue;
        }
        if (!(info.flags & TypeId::ATTR_SET) || !info.originalInitialValue)
        {
            continue;
        }
        Ptr<AttributeValue> value = info.checker->Create();
        if (!object->GetAttributeFailSafe(info.name, *value))
        {
            continue;
        }
        AttributeTally& tally = byAttribute[info.name];
        tally.defaultValue = info.originalInitialValue->SerializeToString(info.checker);
        const std::string held = value->SerializeToString(info.checker);
        ++tally.values[held];
        tally.anyChanged = tally.anyChanged || held != tally.defaultValue;
    }
}

nlohmann::ordered_json
NonDefaultAttributes::ToJson() const
{
    nlohmann::ordered_json result = nlohmann::ordered_json::object();
    for (const auto& [type, byAttribute] : m_tally)
    {
        nlohmann::ordered_json changed = nlohmann::ordered_json::object();
        for (const auto& [name, tally] : byAttribute)
        {
            if (!tally.anyChanged)
            {
                continue;
            }
            if (tally.values.size() == 1)
            {
                changed[name] = tally.values.begin()->first;
                continue;
            }
            nlohmann::ordered_json values = nlohmann::ordered_json::object();
            uint64_t others = 0;
            for (const auto& [value, count] : tally.values)
            {
                if (values.size() < MAX_LISTED_VALUES)
                {
                    values[value] = count;
                }
                else
                {
                    others += count;
                }
            }
            nlohmann::ordered_json entry = {{"default", tally.defaultValue}, {"values", values}};
            if (others > 0)
            {
                entry["other_values"] = others;
            }
            changed[name] = entry;
        }
        if (!changed.empty())
        {
            result[type] = changed;
        }
    }
    return result;
}

} // namespace ns3
