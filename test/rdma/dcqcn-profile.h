// The DCQCN of a shipped NIC profile (configs/nic-profiles/<name>.json): an RdmaDcqcn with
// the attributes the profile's "cc" section sets, read by NicProfile::Read (which maps the
// ConnectX firmware's knob names). The NIC generations are these profiles, so tests of a
// generation build it from its file.
#ifndef TEST_RDMA_DCQCN_PROFILE_H
#define TEST_RDMA_DCQCN_PROFILE_H

#include "ns3/json-attribute-converter.h"
#include "ns3/nic-profile.h"
#include "ns3/rdma-dcqcn.h"
#include "ns3/rdma-helper.h"

#include <gtest/gtest.h>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{
namespace test
{

/** \return the path of the shipped NIC profile \p name */
inline std::string
NicProfilePath(const std::string& name)
{
    return std::string(ROCE_LAB_SOURCE_DIR) + "/configs/nic-profiles/" + name + ".json";
}

/** \return the attributes NIC profile \p name's "cc" section sets, checked, in file order */
inline std::vector<std::pair<std::string, Ptr<AttributeValue>>>
DcqcnProfileAttributes(const std::string& name)
{
    const nlohmann::json cc = NicProfile::Read(NicProfilePath(name)).at("cc");
    EXPECT_EQ(cc.at("type"), RdmaDcqcn::GetTypeId().GetName()) << name;
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> attributes;
    for (const auto& [attribute, value] : cc.items())
    {
        TypeId::AttributeInformation info;
        if (attribute == "type" || !RdmaDcqcn::GetTypeId().LookupAttributeByName(attribute, &info))
        {
            EXPECT_EQ(attribute, "type") << name << ": no attribute " << attribute;
            continue;
        }
        std::string error;
        const Ptr<AttributeValue> checked = JsonAttributeConverter::FromJson(info, value, error);
        EXPECT_TRUE(checked) << name << ": " << attribute << ": " << error;
        if (checked)
        {
            attributes.emplace_back(attribute, checked);
        }
    }
    return attributes;
}

/** \return a new RdmaDcqcn configured as the "cc" section of NIC profile \p name */
inline Ptr<RdmaDcqcn>
DcqcnOfProfile(const std::string& name)
{
    Ptr<RdmaDcqcn> dcqcn = CreateObject<RdmaDcqcn>();
    for (const auto& [attribute, value] : DcqcnProfileAttributes(name))
    {
        dcqcn->SetAttribute(attribute, *value);
    }
    return dcqcn;
}

/** Give the NICs \p helper installs the DCQCN of NIC profile \p name. */
inline void
SetDcqcnProfile(RdmaHelper& helper, const std::string& name)
{
    helper.SetCongestionControl(RdmaDcqcn::GetTypeId().GetName());
    for (const auto& [attribute, value] : DcqcnProfileAttributes(name))
    {
        helper.SetCongestionControlAttribute(attribute, *value);
    }
}

} // namespace test
} // namespace ns3

#endif /* TEST_RDMA_DCQCN_PROFILE_H */
