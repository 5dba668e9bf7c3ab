// PlacementDigest: the per-flow interval set that checks exactly-once placement.
// The negative controls (a duplicate placement, a hole, bytes outside the flow) must
// each be reported.
#include "ns3/placement-digest.h"

#include <gtest/gtest.h>

namespace ns3
{
namespace
{

TEST(PlacementDigestTest, InOrderPlacementIsExactlyOnceInOneRange)
{
    PlacementDigest d;
    d.Reset(10000);
    for (uint64_t at = 0; at < 10000; at += 1000)
    {
        d.Place(at, 1000);
    }
    EXPECT_TRUE(d.IsExactlyOnce());
    EXPECT_EQ(d.GetCoveredBytes(), 10000u);
    EXPECT_EQ(d.GetRangeCount(), 1u);
    EXPECT_EQ(d.Describe(), "");
}

TEST(PlacementDigestTest, OutOfOrderPlacementMergesIntoOneRange)
{
    // Selective repeat: later packets first, the lost ones last.
    PlacementDigest d;
    d.Reset(8000);
    for (uint64_t at : {0, 2000, 5000, 7000, 1000, 3000, 6000, 4000})
    {
        d.Place(at, 1000);
    }
    EXPECT_TRUE(d.IsExactlyOnce());
    EXPECT_EQ(d.GetRangeCount(), 1u);
}

TEST(PlacementDigestTest, ADuplicatePlacementIsAViolation)
{
    PlacementDigest d;
    d.Reset(4000);
    d.Place(0, 1000);
    d.Place(1000, 1000);
    d.Place(500, 1000); // overlaps both: 1000 bytes placed twice from 500
    d.Place(2000, 2000);
    EXPECT_EQ(d.GetCoveredBytes(), 4000u); // a count of bytes would not notice
    EXPECT_FALSE(d.IsExactlyOnce());
    EXPECT_FALSE(d.IsAtMostOnce());
    EXPECT_EQ(d.GetDuplicateBytes(), 1000u);
    EXPECT_EQ(d.GetFirstDuplicateOffset(), 500u);
    EXPECT_NE(d.Describe().find("1000 bytes placed more than once, first at offset 500"),
              std::string::npos)
        << d.Describe();
}

TEST(PlacementDigestTest, APlacementRepeatedInFullIsAViolation)
{
    PlacementDigest d;
    d.Reset(3000);
    d.Place(0, 1000);
    d.Place(1000, 1000);
    d.Place(1000, 1000); // the same packet placed twice, at the in-order end
    d.Place(2000, 1000);
    EXPECT_FALSE(d.IsExactlyOnce());
    EXPECT_EQ(d.GetDuplicateBytes(), 1000u);
}

TEST(PlacementDigestTest, AHoleIsAViolationEvenWhenTheByteCountMatches)
{
    // 3000 bytes placed in a 3000-byte flow, but [1000, 2000) twice and [2000, 3000)
    // never: a counter of placed bytes would call this complete.
    PlacementDigest d;
    d.Reset(3000);
    d.Place(0, 1000);
    d.Place(1000, 1000);
    d.Place(1000, 1000);
    EXPECT_FALSE(d.IsExactlyOnce());
    EXPECT_EQ(d.GetCoveredBytes(), 2000u);
    const auto holes = d.GetHoles();
    ASSERT_EQ(holes.size(), 1u);
    EXPECT_EQ(holes[0], std::make_pair(uint64_t{2000}, uint64_t{3000}));
    EXPECT_NE(d.Describe().find("1000 bytes never placed, holes [2000, 3000)"), std::string::npos)
        << d.Describe();
}

TEST(PlacementDigestTest, AHoleInTheMiddleIsNamed)
{
    PlacementDigest d;
    d.Reset(5000);
    d.Place(0, 1000);
    d.Place(3000, 2000);
    EXPECT_FALSE(d.IsExactlyOnce());
    EXPECT_TRUE(d.IsAtMostOnce()); // a flow still in progress may have holes
    EXPECT_EQ(d.GetHoles()[0], std::make_pair(uint64_t{1000}, uint64_t{3000}));
    EXPECT_EQ(d.GetRangeCount(), 2u);
}

TEST(PlacementDigestTest, BytesOutsideTheFlowAreAViolation)
{
    PlacementDigest d;
    d.Reset(2000);
    d.Place(0, 2000);
    d.Place(1500, 1000); // 500 duplicate, 500 beyond the end
    EXPECT_FALSE(d.IsExactlyOnce());
    EXPECT_EQ(d.GetDuplicateBytes(), 500u);
    EXPECT_EQ(d.GetOutsideBytes(), 500u);
    EXPECT_NE(d.Describe().find("500 bytes placed outside [0, 2000)"), std::string::npos);
}

TEST(PlacementDigestTest, ResetForgetsEverything)
{
    PlacementDigest d;
    d.Reset(1000);
    d.Place(0, 600);
    d.Place(0, 600);
    d.Reset(1000);
    d.Place(0, 1000);
    EXPECT_TRUE(d.IsExactlyOnce());
}

} // namespace
} // namespace ns3
