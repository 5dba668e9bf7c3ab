#include "workload-generator.h"

#include "ns3/uinteger.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(WorkloadGenerator);

TypeId
WorkloadGenerator::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::WorkloadGenerator")
            .SetParent<Object>()
            .SetGroupName("DcExperiment")
            .AddAttribute("Seed",
                          "Seed of the generator's random streams: the experiment's \"seed\" "
                          "(default 1, ns-3's default RngSeed).",
                          UintegerValue(1), MakeUintegerAccessor(&WorkloadGenerator::m_seed),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Run",
                          "Run (substream) of the generator's random streams: ns-3's RngRun "
                          "when the file is loaded (default 1, ns-3's default).",
                          UintegerValue(1), MakeUintegerAccessor(&WorkloadGenerator::m_run),
                          MakeUintegerChecker<uint64_t>());
    return tid;
}

int64_t
WorkloadGenerator::AssignStreams(int64_t stream)
{
    m_firstStream = stream;
    return 0;
}

uint32_t
WorkloadGenerator::GetSeed() const
{
    return m_seed;
}

uint64_t
WorkloadGenerator::GetRun() const
{
    return m_run;
}

int64_t
WorkloadGenerator::GetFirstStream() const
{
    return m_firstStream;
}

} // namespace ns3
