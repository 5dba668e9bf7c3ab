// GoalScheduleReader: the GOAL text format read into per-rank operations and dependency
// rows, and every kind of bad input refused with its file, line, column and what was
// expected (GoalMessageBalance for sends and recvs that cannot be matched).
#include "ns3/experiment-config-error.h"
#include "ns3/goal-schedule-reader.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace ns3
{
namespace
{

/** \return the message of the error reading \p text as "t.goal" ("" if none). */
std::string
ErrorOf(const std::string& text)
{
    try
    {
        GoalScheduleReader::ReadString(text, "t.goal");
    }
    catch (const ExperimentConfigError& e)
    {
        return e.what();
    }
    return "";
}

std::vector<uint32_t>
Successors(GoalSchedule::OpRange range)
{
    return std::vector<uint32_t>(range.begin(), range.end());
}

TEST(GoalScheduleReader, ReadsOperationsOptionsAndDependencies)
{
    const GoalSchedule s = GoalScheduleReader::ReadString(R"(// two ranks
num_ranks 2

rank 1 {
  r: recv 1024b from 0 tag 7 nic 1
  recv 8b from -1 tag -1   /* any source, any tag */
  c: calc 250 cpu 3
  c requires r
}
rank 0
{
  l1: calc 100 cpu 0
  l2: send 1024b to 1 tag 7
  /* a comment
     over lines */
  l3: send 8b to 1
  l2 requires l1
  l3 irequires l2
}
)",
                                                          "t.goal");
    EXPECT_EQ(s.GetName(), "t.goal");
    ASSERT_EQ(s.GetNRanks(), 2u);
    ASSERT_EQ(s.GetNOps(), 6u);
    // Rank 0's operations come first, in file order.
    EXPECT_EQ(s.GetFirstOp(0), 0u);
    EXPECT_EQ(s.GetFirstOp(1), 3u);
    EXPECT_EQ(s.GetFirstOp(2), 6u);
    const GoalOp& l1 = s.GetOp(0);
    EXPECT_EQ(l1.kind, GoalOpKind::Calc);
    EXPECT_EQ(l1.size, 100u);
    EXPECT_EQ(l1.line, 12u);
    EXPECT_EQ(s.GetLabel(0), "l1");
    const GoalOp& l2 = s.GetOp(1);
    EXPECT_EQ(l2.kind, GoalOpKind::Send);
    EXPECT_EQ(l2.size, 1024u);
    EXPECT_EQ(l2.rank, 0u);
    EXPECT_EQ(l2.peer, 1u);
    EXPECT_EQ(l2.tag, 7u);
    EXPECT_EQ(s.GetOp(2).tag, 0u); // no tag: 0
    const GoalOp& r = s.GetOp(3);
    EXPECT_EQ(r.kind, GoalOpKind::Recv);
    EXPECT_EQ(r.peer, 0u);
    EXPECT_EQ(r.nic, 1u);
    EXPECT_EQ(r.line, 5u);
    const GoalOp& any = s.GetOp(4);
    EXPECT_EQ(any.peer, GoalOp::ANY);
    EXPECT_EQ(any.tag, GoalOp::ANY);
    EXPECT_EQ(s.GetLabel(4), "");
    EXPECT_EQ(s.Describe(4), "rank 1 op #1 (line 6)");
    EXPECT_EQ(s.GetOp(5).cpu, 3u);
    // l2 requires l1, l3 irequires l2, c requires r.
    EXPECT_EQ(Successors(s.GetEndSuccessors(0)), std::vector<uint32_t>{1});
    EXPECT_EQ(Successors(s.GetStartSuccessors(1)), std::vector<uint32_t>{2});
    EXPECT_TRUE(Successors(s.GetEndSuccessors(1)).empty());
    EXPECT_EQ(Successors(s.GetEndSuccessors(3)), std::vector<uint32_t>{5});
    EXPECT_EQ(s.GetNEndPredecessors(1), 1u);
    EXPECT_EQ(s.GetNStartPredecessors(2), 1u);
    EXPECT_EQ(s.GetNEndPredecessors(2), 0u);
    EXPECT_EQ(s.GetNSends(), 2u);
    EXPECT_EQ(s.GetSentBytes(), 1032u);
}

TEST(GoalScheduleReader, SizesReachTwoToTheSixtyThree)
{
    const std::string two63 = "9223372036854775808";
    const GoalSchedule s =
        GoalScheduleReader::ReadString("num_ranks 2\nrank 0 {\nsend " + two63 + "b to 1\ncalc " +
                                           two63 + "\n}\nrank 1 {\nrecv " + two63 + "b from 0\n}\n",
                                       "t.goal");
    EXPECT_EQ(s.GetOp(0).size, uint64_t{1} << 63);
    EXPECT_EQ(s.GetOp(1).size, uint64_t{1} << 63);
    EXPECT_NE(ErrorOf("num_ranks 2\nrank 0 {\nsend 9223372036854775809b to 1\n}\n")
                  .find("t.goal:3:6: expected a size in bytes such as 1024b (at most 2^63"),
              std::string::npos);
}

TEST(GoalScheduleReader, RanksWithoutABlockHaveNoOperations)
{
    const GoalSchedule s = GoalScheduleReader::ReadString("num_ranks 3\nrank 1 { }\n", "t.goal");
    EXPECT_EQ(s.GetNRanks(), 3u);
    EXPECT_EQ(s.GetNOps(), 0u);
}

TEST(GoalScheduleReader, RefusesMalformedFilesAtTheirLineAndColumn)
{
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"", "t.goal:1:1: expected 'num_ranks N' first, got end of file"},
        {"rank 0 {\n}\n", "t.goal:1:1: expected 'num_ranks N' first, got 'rank'"},
        {"num_ranks 0\n", "t.goal:1:11: expected the number of ranks (at least 1) (an integer in "
                          "[1, 4294967294]), got '0'"},
        {"num_ranks 2\nrank 2 {\n}\n",
         "t.goal:2:6: expected a rank of the schedule (an integer in [0, 1]), got '2'"},
        {"num_ranks 2\nrank 0 {\n}\nrank 0 {\n}\n",
         "t.goal:4:6: the block of rank 0 is given twice (first at line 2)"},
        {"num_ranks 2\nrank 0 {\ncalc 5\n",
         "t.goal:4:1: expected '}' closing the block of rank 0 opened at line 2, got end of "
         "file"},
        {"num_ranks 1\nrank 0 {\na: calc 5\nb: calc 5\nb requires c\n}\n",
         "t.goal:5:12: unknown label 'c': expected a label defined in the block of rank 0 "
         "(labels are local to their block)"},
        {"num_ranks 1\nrank 0 {\na: calc 5\na: calc 6\n}\n",
         "t.goal:4:1: label 'a' is defined twice in the block of rank 0 (first at line 3)"},
        {"num_ranks 1\nrank 0 {\n1a: calc 5\n}\n",
         "t.goal:3:1: expected a label ([a-zA-Z][a-zA-Z0-9_]*), got '1a'"},
        {"num_ranks 2\nrank 0 {\nsend 5b to 2\n}\n",
         "t.goal:3:12: expected a rank of the schedule (an integer in [0, 1]), got '2'"},
        {"num_ranks 2\nrank 0 {\nsend 5b to -1\n}\n",
         "t.goal:3:12: expected a rank of the schedule (an integer in [0, 1]), got '-1'"},
        {"num_ranks 2\nrank 0 {\nsend 5 to 1\n}\n", "t.goal:3:6: expected a size in bytes"},
        {"num_ranks 2\nrank 0 {\nsend 5b from 1\n}\n", "t.goal:3:9: expected 'to', got 'from'"},
        {"num_ranks 2\nrank 0 {\nsend 5b to 1 tag 1 tag 2\n}\n",
         "t.goal:3:20: 'tag' is given twice"},
        {"num_ranks 2\nrank 0 {\nsend 5b to 1 tag -1\n}\n",
         "t.goal:3:18: expected a tag (an integer in [0, 2147483647]), got '-1'"},
        {"num_ranks 1\nrank 0 {\ncalc 5 tag 1\n}\n",
         "t.goal:3:8: expected 'cpu', or end of line, got 'tag'"},
        {"num_ranks 1\nrank 0 {\nwait 5\n}\n", "t.goal:3:1: expected an operation (LABEL: "
                                               "send|recv|calc ...), a dependency"},
        {"num_ranks 1\nrank 0 {\na calc 5\n}\n",
         "t.goal:3:3: expected ':' after a label, or 'requires' or 'irequires', got 'calc'"},
        {"num_ranks 1\nrank 0 {\n/* open\ncalc 5\n}\n",
         "t.goal:3:1: expected '*/' closing this block comment, got end of file"},
        {"num_ranks 1\nrank 0 { calc 5 } x\n", "t.goal:2:19: expected end of line, got 'x'"},
        {"num_ranks 1\nrank 0 {\na: calc 1\nb: calc 2\nc: calc 3\nb requires a\nc requires "
         "b\nb irequires c\n}\n",
         "t.goal:8:1: dependency cycle in the block of rank 0: b -> c -> b (each waits for the "
         "next to start or to complete)"},
        {"num_ranks 1\nrank 0 {\na: calc 1\na requires a\n}\n",
         "t.goal:4:1: dependency cycle in the block of rank 0: a -> a"},
    };
    for (const auto& [text, expected] : cases)
    {
        const std::string error = ErrorOf(text);
        EXPECT_EQ(error.rfind(expected, 0), 0u)
            << "input:\n"
            << text << "\nerror: " << error << "\nexpected: " << expected;
    }
}

TEST(GoalScheduleReader, RefusesSendsAndRecvsThatCannotBeMatched)
{
    // A send with no recv, and a recv with no send.
    EXPECT_EQ(ErrorOf("num_ranks 2\nrank 0 {\nsend 5b to 1 tag 3\n}\n"),
              "t.goal:3:1: send from rank 0 to rank 1 tag 3 has no matching recv: rank 0 sends 1 "
              "message with tag 3 to rank 1, 1 is left without a recv at rank 1");
    const std::string recv = ErrorOf("num_ranks 2\nrank 0 {\nsend 5b to 1 tag 3\n}\nrank 1 "
                                     "{\nrecv 5b from 0 tag 3\nrecv 5b from 0 tag 3\n}\n");
    EXPECT_EQ(recv.rfind("t.goal:6:1: recv from rank 0 tag 3 at rank 1 has no matching send: rank "
                         "0 sends 1 message with tag 3 to rank 1, rank 1 posts 2 recvs for them",
                         0),
              0u)
        << recv;
    // A tag mismatch is both: the send is left, and the recv has none.
    const std::string both = ErrorOf(
        "num_ranks 2\nrank 0 {\nsend 5b to 1 tag 3\n}\nrank 1 {\nrecv 5b from 0 tag 4\n}\n");
    EXPECT_NE(both.find("t.goal:6:1: recv from rank 0 tag 4"), std::string::npos) << both;
    EXPECT_NE(both.find("t.goal:3:1: send from rank 0 to rank 1 tag 3"), std::string::npos) << both;
    // Any-source recvs want a send with their tag.
    EXPECT_EQ(ErrorOf("num_ranks 3\nrank 0 {\nsend 5b to 2 tag 1\n}\nrank 1 {\nsend 5b to 2 tag "
                      "2\n}\nrank 2 {\nrecv 5b from -1 tag 1\nrecv 5b from -1 tag 1\nrecv 5b from "
                      "-1 tag -1\n}\n")
                  .rfind("t.goal:9:1: recv from any source with tag 1 at rank 2 has no matching "
                         "send: 1 recv of the 2 such are left without a send to take",
                         0),
              0u);
    // Any-any recvs take what is left, and no more.
    EXPECT_EQ(ErrorOf("num_ranks 2\nrank 0 {\nsend 5b to 1 tag 1\n}\nrank 1 {\nrecv 5b from -1 "
                      "tag -1\nrecv 5b from -1 tag -1\n}\n")
                  .rfind("t.goal:6:1: recv from any source with any tag at rank 1 has no "
                         "matching send: 1 recv of the 2 such",
                         0),
              0u);
}

TEST(GoalScheduleReader, MatchesWildcardRecvsByTheirBestAssignment)
{
    // Rank 2 gets (0, tag 1), (0, tag 2) and (1, tag 2). "from -1 tag 1" can take only
    // (0, tag 1), so "from 0 tag -1" must take (0, tag 2) (a greedy pass that gave it
    // (0, tag 1) would fail), and the recv from any source with any tag takes (1, tag 2).
    EXPECT_EQ(ErrorOf("num_ranks 3\nrank 0 {\nsend 5b to 2 tag 1\nsend 5b to 2 tag 2\n}\nrank 1 "
                      "{\nsend 5b to 2 tag 2\n}\nrank 2 {\nrecv 5b from 0 tag -1\nrecv 5b from -1 "
                      "tag 1\nrecv 5b from -1 tag -1\n}\n"),
              "");
    // Three sends from rank 0 with tags 1, 1, 2; recvs: any source tag 1 (twice) and rank 0
    // any tag (twice): one too many for rank 0's three sends.
    const std::string e = ErrorOf("num_ranks 2\nrank 0 {\nsend 5b to 1 tag 1\nsend 5b to 1 tag "
                                  "1\nsend 5b to 1 tag 2\n}\nrank 1 {\nrecv 5b from -1 tag "
                                  "1\nrecv 5b from -1 tag 1\nrecv 5b from 0 tag -1\nrecv 5b "
                                  "from 0 tag -1\n}\n");
    EXPECT_NE(e.find("has no matching send: 1 recv of the"), std::string::npos) << e;
}

TEST(GoalScheduleReader, ReadsFilesAndNamesTheMissingOne)
{
    const std::string missing = std::string(ROCE_LAB_SOURCE_DIR) + "/no-such.goal";
    try
    {
        GoalScheduleReader::ReadFile(missing);
        FAIL() << "read a missing file";
    }
    catch (const ExperimentConfigError& e)
    {
        EXPECT_EQ(std::string(e.what()), missing + ": cannot open the GOAL schedule file");
    }
    const GoalSchedule s =
        GoalScheduleReader::ReadFile(std::string(ROCE_LAB_SOURCE_DIR) +
                                     "/test/dc-experiment/data/goal/ring-allreduce-8r-4it.goal");
    EXPECT_EQ(s.GetNRanks(), 8u);
    // Per rank and iteration: a compute calc, 2 x 7 sends, 2 x 7 recvs, 7 reduction calcs.
    EXPECT_EQ(s.GetNOps(), 8u * 4u * (1u + 14u + 14u + 7u));
}

} // namespace
} // namespace ns3
