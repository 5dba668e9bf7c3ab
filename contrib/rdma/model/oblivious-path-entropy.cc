#include "oblivious-path-entropy.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(ObliviousPathEntropy);

TypeId
ObliviousPathEntropy::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ObliviousPathEntropy")
                            .SetParent<RdmaPathEntropy>()
                            .SetGroupName("Rdma")
                            .AddConstructor<ObliviousPathEntropy>();
    return tid;
}

ObliviousPathEntropy::ObliviousPathEntropy() = default;
ObliviousPathEntropy::~ObliviousPathEntropy() = default;

uint16_t
ObliviousPathEntropy::DoSelect(uint32_t /* connection */)
{
    return Explore();
}

} // namespace ns3
