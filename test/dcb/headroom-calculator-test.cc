// SONiC headroom formula against spec §8 checks 7 and 17 (no network).
#include "ns3/boolean.h"
#include "ns3/headroom-calculator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

using namespace ns3;

TEST(HeadroomCalculator, Spectrum2At100GAnd5m)
{
    Ptr<HeadroomCalculator> c = CreateObject<HeadroomCalculator>();
    const HeadroomCalculator::Result r = c->Calculate(DataRate("100Gbps"), 5);
    EXPECT_EQ(r.xon, 19456u);
    EXPECT_EQ(r.xoff, 48128u);
    EXPECT_EQ(r.size, 67584u);
}

TEST(HeadroomCalculator, CableLengthsAndSpeeds)
{
    Ptr<HeadroomCalculator> c = CreateObject<HeadroomCalculator>();
    EXPECT_EQ(c->Calculate(DataRate("100Gbps"), 40).xoff, 53248u);
    EXPECT_EQ(c->Calculate(DataRate("100Gbps"), 300).xoff, 94208u);
    EXPECT_EQ(c->Calculate(DataRate("25Gbps"), 5).xoff, 22528u);
}

TEST(HeadroomCalculator, Spectrum1AndSharedHeadroomPool)
{
    Ptr<HeadroomCalculator> c = CreateObject<HeadroomCalculator>();
    c->SetAttribute("CellSize", UintegerValue(96));
    EXPECT_EQ(c->Calculate(DataRate("100Gbps"), 5).xoff, 44032u);
    Ptr<HeadroomCalculator> shp = CreateObject<HeadroomCalculator>();
    shp->SetAttribute("SharedHeadroomPool", BooleanValue(true));
    EXPECT_EQ(shp->Calculate(DataRate("100Gbps"), 5).size, 19456u);
}

TEST(HeadroomCalculator, LongHaul80kmAt400G)
{
    // Spec §8.17: the round-trip cable term alone is 40.40 MB.
    EXPECT_NEAR(HeadroomCalculator::CableBytes(DataRate("400Gbps"), 80000), 40.40e6, 0.01e6);
    Ptr<HeadroomCalculator> c = CreateObject<HeadroomCalculator>();
    const uint64_t xoff = c->Calculate(DataRate("400Gbps"), 80000).xoff;
    // xoff = ceil_1024(1024 + (9100 + 40,404,040 + 819.2 + 905 x 64) x 1.2353) (+ 2 KB)
    EXPECT_GT(xoff, 49900000u);
    EXPECT_LT(xoff, 50000000u);
    // The delay form equals the length form at 1.98e8 m/s (80 km = 404.04 us).
    const double viaDelay = c->CalculateForDelay(DataRate("400Gbps"), NanoSeconds(404040)).xoff;
    EXPECT_NEAR(viaDelay, double(xoff), 1024.0);
}
