#include "mpi-experiment-partition.h"

#include "ns3/global-value.h"
#include "ns3/mpi-interface.h"
#include "ns3/string.h"

#include <mpi.h>
#include <stdexcept>

namespace ns3
{

MpiExperimentPartition::MpiExperimentPartition(int* argc, char*** argv,
                                               FabricPartitioner::Mode mode,
                                               const std::string& sync)
    : m_mode(mode)
{
    if (sync != "window" && sync != "null-message")
    {
        throw std::invalid_argument("--mpi-sync: expected window or null-message, got '" + sync +
                                    "'");
    }
    m_window = sync == "window";
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (!initialized)
    {
        MPI_Init(argc, argv);
    }
    int rank = 0;
    int size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    m_rank = static_cast<uint32_t>(rank);
    m_nRanks = static_cast<uint32_t>(size);
    if (m_nRanks > 1)
    {
        GlobalValue::Bind("SimulatorImplementationType",
                          StringValue(m_window ? "ns3::DistributedSimulatorImpl"
                                               : "ns3::NullMessageSimulatorImpl"));
        // This form leaves MPI_Init/MPI_Finalize to us.
        MpiInterface::Enable(MPI_COMM_WORLD);
        m_interfaceEnabled = true;
    }
}

MpiExperimentPartition::~MpiExperimentPartition()
{
    if (m_interfaceEnabled)
    {
        MpiInterface::Disable();
    }
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized)
    {
        MPI_Finalize();
    }
}

uint32_t
MpiExperimentPartition::GetRank() const
{
    return m_rank;
}

uint32_t
MpiExperimentPartition::GetNRanks() const
{
    return m_nRanks;
}

FabricPartitioner::Mode
MpiExperimentPartition::GetMode() const
{
    return m_mode;
}

bool
MpiExperimentPartition::CanReduceDuringRun() const
{
    return m_window;
}

void
MpiExperimentPartition::Sum(std::vector<int64_t>& values) const
{
    if (m_nRanks > 1 && !values.empty())
    {
        MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_INT64_T,
                      MPI_SUM, MPI_COMM_WORLD);
    }
}

void
MpiExperimentPartition::Max(std::vector<int64_t>& values) const
{
    if (m_nRanks > 1 && !values.empty())
    {
        MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_INT64_T,
                      MPI_MAX, MPI_COMM_WORLD);
    }
}

} // namespace ns3
