// Unit tests of LruIndexCache, the replacement policy shared by the host module's NicCache
// and the rdma module's RnicCacheModel: no network, no simulator.
#include "ns3/lru-index-cache.h"

#include <gtest/gtest.h>

namespace ns3
{
namespace
{

TEST(LruIndexCache, HitMovesToFrontAndMissEvictsTheLeastRecent)
{
    LruIndexCache lru;
    EXPECT_FALSE(lru.Touch(0, 2));
    EXPECT_FALSE(lru.Touch(1, 2));
    EXPECT_TRUE(lru.Touch(0, 2));  // 1 is now the least recent
    EXPECT_FALSE(lru.Touch(2, 2)); // evicts 1
    EXPECT_TRUE(lru.Touch(0, 2));
    EXPECT_TRUE(lru.Touch(2, 2));
    EXPECT_FALSE(lru.Touch(1, 2)); // evicts 0
    EXPECT_FALSE(lru.Touch(0, 2));
    EXPECT_EQ(lru.GetSize(), 2u);
    EXPECT_EQ(lru.GetHits(), 3u);
    EXPECT_EQ(lru.GetMisses(), 5u);
}

TEST(LruIndexCache, ZeroCapacityHoldsNothingAndClearKeepsTheCounts)
{
    LruIndexCache none;
    EXPECT_FALSE(none.Touch(3, 0));
    EXPECT_FALSE(none.Touch(3, 0));
    EXPECT_EQ(none.GetSize(), 0u);
    EXPECT_EQ(none.GetMisses(), 2u);

    LruIndexCache lru;
    for (uint32_t k = 0; k < 4; ++k)
    {
        lru.Touch(k, 4);
    }
    EXPECT_TRUE(lru.Touch(3, 4));
    lru.Clear();
    EXPECT_EQ(lru.GetSize(), 0u);
    EXPECT_FALSE(lru.Touch(3, 4)); // gone
    EXPECT_EQ(lru.GetHits(), 1u);
    EXPECT_EQ(lru.GetMisses(), 5u);
}

TEST(LruIndexCache, KeysGrowTheTablesAndAShrunkCapacityEvictsOnePerMiss)
{
    LruIndexCache lru;
    EXPECT_FALSE(lru.Touch(100000, 3)); // a large key first: the tables grow to hold it
    EXPECT_FALSE(lru.Touch(7, 3));
    EXPECT_FALSE(lru.Touch(8, 3));
    EXPECT_TRUE(lru.Touch(100000, 3));
    // A capacity lowered between accesses (an attribute set later): each miss evicts one.
    EXPECT_FALSE(lru.Touch(9, 2)); // evicts 7
    EXPECT_EQ(lru.GetSize(), 3u);
    EXPECT_FALSE(lru.Touch(7, 2)); // evicts 8
    EXPECT_TRUE(lru.Touch(100000, 2));
    EXPECT_TRUE(lru.Touch(9, 2));
}

} // namespace
} // namespace ns3
