// The malformed-input corpus: every case must be rejected with an
// ExperimentConfigError (never a crash, an abort or a silent load) whose JSON
// pointer and message are the expected ones. Two sources, run in-process:
//  - test/dc-experiment/malformed/cases.json: hand-written cases over every reader
//    (experiment JSON, topology files, traces, CDFs, config_db, NIC profiles) and
//    command-line attribute defaults;
//  - cases generated from shipped experiment files: each settable attribute of each
//    component section given a value of no attribute type, and an unknown key added
//    to each object the schema owns.
#include "ns3/experiment-config-error.h"
#include "ns3/experiment-config.h"
#include "ns3/json-attribute-converter.h"
#include "ns3/nic-profile.h"
#include "ns3/simulator.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace ns3
{
namespace
{

using Json = nlohmann::json;

const std::string SRC = std::string(ROCE_LAB_SOURCE_DIR) + "/";
const std::string OUT = std::string(ROCE_LAB_BINARY_DIR) + "/test-output/malformed/";

std::string
Slurp(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

/** "@OUT@" -> the scratch directory, "@SRC@" -> the source tree, in every string. */
void
Substitute(Json& value)
{
    if (value.is_string())
    {
        std::string s = value.get<std::string>();
        for (const auto& [from, to] :
             {std::pair<std::string, std::string>{"@OUT@", OUT}, {"@SRC@", SRC}})
        {
            for (auto at = s.find(from); at != std::string::npos; at = s.find(from))
            {
                s.replace(at, from.size(), to.substr(0, to.size() - 1));
            }
        }
        value = s;
    }
    else if (value.is_structured())
    {
        for (auto& child : value)
        {
            Substitute(child);
        }
    }
}

/** One case: what to load, and the error expected. */
struct Case
{
    std::string name;
    std::string configName;   //!< file name the text is loaded under ("" for cli/profile)
    std::string text;         //!< experiment JSON text
    std::string cli;          //!< or: a command-line argument
    std::string profile;      //!< or: a NIC profile merged into fat-tree-fct.json
    std::string pointer;      //!< expected pointer; "-" when not checked
    std::string error;        //!< expected substring of the message
    bool expectPointer{true}; //!< compare GetPointer() with pointer
};

/** \return "" if \p c fails as expected, else what went wrong. */
std::string
RunCase(const Case& c)
{
    if (!c.cli.empty())
    {
        std::string error;
        if (JsonAttributeConverter::CheckCommandLineDefault(c.cli, error))
        {
            return "accepted";
        }
        return error.find(c.error) == std::string::npos ? "message: " + error : "";
    }
    try
    {
        if (!c.profile.empty())
        {
            NicProfile::Load(SRC + "configs/fat-tree-fct.json", c.profile, {});
        }
        else
        {
            ExperimentConfig::LoadString(c.text, c.configName);
        }
    }
    catch (const ExperimentConfigError& e)
    {
        const std::string what = e.what();
        if (c.expectPointer && e.GetPointer() != c.pointer)
        {
            return "pointer " + e.GetPointer() + " (expected " + c.pointer + "): " + what;
        }
        if (what.find(c.error) == std::string::npos)
        {
            return "message lacks \"" + c.error + "\": " + what;
        }
        return "";
    }
    return "accepted";
}

/** Apply "set" (JSON pointer -> value) and "remove" to \p doc. */
void
Edit(Json& doc, const Json& spec)
{
    if (spec.contains("set"))
    {
        for (const auto& [pointer, value] : spec["set"].items())
        {
            doc[Json::json_pointer(pointer)] = value;
        }
    }
    if (spec.contains("remove"))
    {
        for (const auto& pointer : spec["remove"])
        {
            const Json::json_pointer p(pointer.get<std::string>());
            doc[p.parent_pointer()].erase(p.back());
        }
    }
}

/** The hand-written corpus. */
std::vector<Case>
HandCases()
{
    std::filesystem::create_directories(OUT);
    Json corpus = Json::parse(Slurp(SRC + "test/dc-experiment/malformed/cases.json"));
    Substitute(corpus);
    std::vector<Case> cases;
    for (const Json& spec : corpus["cases"])
    {
        Case c;
        c.name = spec.at("name").get<std::string>();
        if (spec.contains("files"))
        {
            // A file is its text, or {"from": a JSON file, "set"/"remove": edits}.
            for (const auto& [file, content] : spec["files"].items())
            {
                std::string text;
                if (content.is_object())
                {
                    Json derived = Json::parse(Slurp(content.at("from").get<std::string>()));
                    Edit(derived, content);
                    text = derived.dump(2);
                }
                else
                {
                    text = content.get<std::string>();
                }
                std::ofstream(OUT + file, std::ios::binary) << text;
            }
        }
        c.error = spec.value("error", "");
        c.expectPointer = spec.contains("pointer");
        c.pointer = spec.value("pointer", "");
        if (spec.contains("cli"))
        {
            c.cli = spec["cli"].get<std::string>();
        }
        else if (spec.contains("profile"))
        {
            c.profile = OUT + spec["profile"].get<std::string>();
        }
        else if (spec.contains("raw"))
        {
            c.configName = OUT + c.name + ".json";
            c.text = spec["raw"].get<std::string>();
        }
        else
        {
            Json doc;
            if (spec.contains("base"))
            {
                c.configName = SRC + spec["base"].get<std::string>();
                doc = Json::parse(Slurp(c.configName));
            }
            else
            {
                c.configName = OUT + c.name + ".json";
                doc = corpus["minimal"];
            }
            Edit(doc, spec);
            c.text = doc.dump(2);
        }
        cases.push_back(c);
    }
    return cases;
}

/** Objects whose keys are free-form (not checked against a schema). */
bool
FreeForm(const std::string& pointer)
{
    return pointer == "/non_default_attributes";
}

/** Cases generated from the shipped experiment \p base (relative to the source tree). */
std::vector<Case>
GeneratedCases(const std::string& base)
{
    const std::string path = SRC + base;
    const Json doc = Json::parse(Slurp(path));
    const ExperimentConfig config = ExperimentConfig::LoadFile(path);
    const nlohmann::ordered_json& eff = config.EffectiveJson();
    std::vector<Case> cases;
    auto add = [&](const std::string& what, const Json& edited, const std::string& pointer,
                   const std::string& error)
    {
        Case c;
        c.name = base + " " + what;
        c.configName = path;
        c.text = edited.dump();
        c.pointer = pointer;
        c.error = error;
        cases.push_back(c);
    };
    // Every settable attribute of every component: an array is no attribute's type.
    for (const char* section :
         {"nic", "switch", "link", "buffer", "ecn", "cc", "loss_recovery", "qp"})
    {
        if (!eff.contains(section) || !eff[section].is_object())
        {
            continue;
        }
        for (const auto& [key, value] : eff[section].items())
        {
            // ConfigFile and PortNames are what "config_db" and "config_db_ports" set
            // (giving both is its own error).
            if (key == "type" || ((key == "ConfigFile" || key == "PortNames") &&
                                  doc.contains(section) && doc[section].contains("config_db")))
            {
                continue;
            }
            Json edited = doc;
            if (!edited.contains(section) || !edited[section].is_object())
            {
                edited[section] = Json::object();
            }
            edited[section][key] = Json::array({1});
            add(std::string("/") + section + "/" + key + " = [1]", edited,
                std::string("/") + section + "/" + key, "bad value [1]");
        }
        Json edited = doc;
        if (!edited.contains(section) || !edited[section].is_object())
        {
            edited[section] = Json::object();
        }
        edited[section]["NoSuchAttribute"] = 1;
        add(std::string("/") + section + " unknown attribute", edited,
            std::string("/") + section + "/NoSuchAttribute", "unknown attribute");
    }
    // An unknown key in each object of the file the schema owns.
    std::vector<std::pair<std::string, const Json*>> stack{{"", &doc}};
    while (!stack.empty())
    {
        const auto [pointer, node] = stack.back();
        stack.pop_back();
        if (node->is_object() && !FreeForm(pointer))
        {
            // Component sections take attributes: there the key is an unknown attribute.
            const std::string last = pointer.substr(pointer.rfind('/') + 1);
            const bool component = !pointer.empty() &&
                                   std::set<std::string>{"nic", "switch", "link",          "buffer",
                                                         "ecn", "cc",     "loss_recovery", "qp"}
                                       .count(last);
            Json edited = doc;
            edited[Json::json_pointer(pointer + "/zz_unknown")] = 1;
            add(pointer + " unknown key", edited, pointer + "/zz_unknown",
                component ? "unknown attribute \"zz_unknown\"" : "unknown key \"zz_unknown\"");
        }
        if (node->is_structured())
        {
            std::size_t i = 0;
            for (auto it = node->begin(); it != node->end(); ++it, ++i)
            {
                const std::string child = node->is_object() ? pointer + "/" + it.key()
                                                            : pointer + "/" + std::to_string(i);
                stack.emplace_back(child, &*it);
            }
        }
    }
    return cases;
}

class MalformedInputTest : public ::testing::Test
{
  protected:
    void TearDown() override { Simulator::Destroy(); }
};

TEST_F(MalformedInputTest, HandWrittenCorpusIsRejectedWhereExpected)
{
    const std::vector<Case> cases = HandCases();
    EXPECT_GE(cases.size(), 100u);
    std::cout << "hand-written malformed cases: " << cases.size() << std::endl;
    for (const Case& c : cases)
    {
        EXPECT_EQ(RunCase(c), "") << c.name;
        Simulator::Destroy();
    }
}

TEST_F(MalformedInputTest, GeneratedFromShippedConfigsAreRejectedWhereExpected)
{
    std::size_t n = 0;
    for (const char* base : {"configs/dumbbell-small.json", "configs/leaf-spine-incast.json",
                             "configs/poisson-small.json", "configs/leaf-spine-buffer-roles.json",
                             "configs/regional-small.json", "configs/job-steps-small.json"})
    {
        for (const Case& c : GeneratedCases(base))
        {
            EXPECT_EQ(RunCase(c), "") << c.name;
            Simulator::Destroy();
            ++n;
        }
    }
    EXPECT_GE(n, 200u);
    std::cout << "generated malformed cases: " << n << std::endl;
}

} // namespace
} // namespace ns3
