// The switches' inline ECMP hash is ns-3's Murmur3 (same value for every key length), so
// ECMP picks the same paths as when it went through ns3::Hash::Function::Murmur3.
#include "ns3/ecmp-hash.h"
#include "ns3/hash-murmur3.h"

#include <gtest/gtest.h>
#include <random>
#include <vector>

using namespace ns3;

TEST(EcmpHashTest, EqualsNs3Murmur3ForEveryLength)
{
    std::mt19937 rng(5);
    Hash::Function::Murmur3 ns3Hash;
    constexpr uint32_t NS3_MURMUR3_SEED = 0x8BADF00D;
    for (uint32_t len = 0; len <= 40; ++len)
    {
        for (int k = 0; k < 200; ++k)
        {
            std::vector<uint8_t> key(len + 1);
            for (auto& b : key)
            {
                b = static_cast<uint8_t>(rng());
            }
            ns3Hash.clear();
            const uint32_t expected =
                ns3Hash.GetHash32(reinterpret_cast<const char*>(key.data()), len);
            ASSERT_EQ(Murmur3Hash32(key.data(), len, NS3_MURMUR3_SEED), expected)
                << "length " << len;
        }
    }
}
