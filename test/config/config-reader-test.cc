// The config module on its own (no network): the located error's three forms, the JSON
// reader's field checks, the TypeId walk and the protocol numbers.
#include "ns3/config-error.h"
#include "ns3/json-schema-reader.h"
#include "ns3/object.h"
#include "ns3/protocol-numbers.h"
#include "ns3/text-field.h"
#include "ns3/type-id-chain.h"

#include <gtest/gtest.h>

using namespace ns3;

TEST(ConfigError, NamesFilePointerOrPosition)
{
    EXPECT_STREQ(ConfigError("a.json", "/x/0", "too big").what(), "a.json: /x/0: too big");
    EXPECT_STREQ(ConfigError("a.json", "", "not an object").what(),
                 "a.json: (root): not an object");
    EXPECT_STREQ(ConfigError("a.json", 3, 7, "invalid JSON").what(), "a.json:3:7: invalid JSON");
    const ConfigError whole("a.json", "cannot open the file");
    EXPECT_STREQ(whole.what(), "a.json: cannot open the file");
    EXPECT_EQ(whole.GetFile(), "a.json");
    EXPECT_EQ(whole.GetPointer(), "");
    EXPECT_EQ(whole.GetReason(), "cannot open the file");
}

TEST(JsonSchemaReader, FieldChecksNameThePointer)
{
    const JsonSchemaReader r("f.json");
    const nlohmann::json doc = r.ParseText(R"({"n": 70, "s": "up", "a/b": {"k": 1}})");
    EXPECT_EQ(r.GetUint(doc, "", "n", std::nullopt, 0, 100), 70u);
    try
    {
        r.GetUint(doc, "", "n", std::nullopt, 0, 64);
        FAIL() << "70 is outside [0, 64]";
    }
    catch (const ConfigError& e)
    {
        EXPECT_EQ(e.GetFile(), "f.json");
        EXPECT_EQ(e.GetPointer(), "/n");
    }
    EXPECT_THROW(r.GetString(doc, "", "s", std::nullopt, {"down"}), ConfigError);
    EXPECT_THROW(r.CheckKeys(doc, "", {"n", "s"}), ConfigError);
    EXPECT_EQ(JsonSchemaReader::Child("", "a/b"), "/a~1b");
    try
    {
        r.ParseText("{\"n\": 1,\n \"n\": 2}");
        FAIL() << "duplicate key";
    }
    catch (const ConfigError& e)
    {
        EXPECT_EQ(e.GetPointer(), "/n");
    }
    try
    {
        r.ParseText("{\n  \"n\": }");
        FAIL() << "syntax error";
    }
    catch (const ConfigError& e)
    {
        EXPECT_EQ(std::string(e.what()).rfind("f.json:2:", 0), 0u) << e.what();
    }
}

TEST(TextField, WordsWithColumns)
{
    const std::vector<TextField> words = SplitBlankFields("  ab\tc  d\r");
    ASSERT_EQ(words.size(), 3u);
    EXPECT_EQ(words[0].text, "ab");
    EXPECT_EQ(words[0].column, 3u);
    EXPECT_EQ(words[1].text, "c");
    EXPECT_EQ(words[1].column, 6u);
    EXPECT_EQ(words[2].text, "d");
}

TEST(TypeIdChain, EndsAtTheRoot)
{
    const std::vector<TypeId> chain = TypeIdChain(Object::GetTypeId());
    ASSERT_EQ(chain.size(), 2u); // ns3::Object, ns3::ObjectBase
    EXPECT_EQ(chain.front(), Object::GetTypeId());
    EXPECT_EQ(chain.back(), chain.back().GetParent());
    EXPECT_EQ(DeclaringTypeId(Object::GetTypeId(), "NoSuchAttribute"), Object::GetTypeId());
}

TEST(ProtocolNumbers, AsAssigned)
{
    EXPECT_EQ(IP_PROTOCOL_UDP, 17);
    EXPECT_EQ(ROCE_V2_UDP_PORT, 4791);
    EXPECT_EQ(ETHERTYPE_IPV4, 0x0800);
    EXPECT_EQ(ETHERTYPE_VLAN, 0x8100);
    EXPECT_EQ(ETHERTYPE_MAC_CONTROL, 0x8808);
}
