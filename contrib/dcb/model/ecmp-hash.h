/*
 * The ECMP hash of DcbSwitch, inline: MurmurHash3 x86_32.
 */
#ifndef ECMP_HASH_H
#define ECMP_HASH_H

#include <cstdint>
#include <cstring>

namespace ns3
{

/**
 * \ingroup dcb
 * MurmurHash3 x86_32 of \p len bytes with \p seed (Austin Appleby's public-domain algorithm,
 * SMHasher): the value ns-3's Hash::Function::Murmur3::GetHash32 returns after clear() when
 * given the seed that class starts from (EcmpHashTest checks both agree), computed inline
 * for the per-frame ECMP hash instead of through ns-3's incremental hasher.
 * \param data the key
 * \param len its length in bytes
 * \param seed the initial hash value
 * \return the 32-bit hash
 */
inline uint32_t
Murmur3Hash32(const uint8_t* data, uint32_t len, uint32_t seed)
{
    constexpr uint32_t C1 = 0xcc9e2d51;
    constexpr uint32_t C2 = 0x1b873593;
    auto rotl = [](uint32_t x, int r) { return (x << r) | (x >> (32 - r)); };
    auto mixK = [&](uint32_t k)
    {
        k *= C1;
        k = rotl(k, 15);
        return k * C2;
    };
    uint32_t h = seed;
    const uint32_t blocks = len / 4;
    for (uint32_t i = 0; i < blocks; ++i)
    {
        uint32_t k;
        std::memcpy(&k, data + 4 * i, 4); // little-endian blocks, as on the x86 reference
        h ^= mixK(k);
        h = rotl(h, 13);
        h = h * 5 + 0xe6546b64;
    }
    const uint8_t* tail = data + 4 * blocks;
    uint32_t k = 0;
    switch (len & 3)
    {
        case 3:
            k ^= uint32_t(tail[2]) << 16;
            [[fallthrough]];
        case 2:
            k ^= uint32_t(tail[1]) << 8;
            [[fallthrough]];
        case 1:
            k ^= tail[0];
            h ^= mixK(k);
            break;
        default:
            break;
    }
    h ^= len;
    h ^= h >> 16;
    h *= 0x85ebca6b;
    h ^= h >> 13;
    h *= 0xc2b2ae35;
    h ^= h >> 16;
    return h;
}

} // namespace ns3

#endif /* ECMP_HASH_H */
