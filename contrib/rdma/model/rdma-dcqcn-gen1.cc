#include "rdma-dcqcn-gen1.h"

#include "ns3/object-factory.h"

namespace ns3
{

namespace
{
/** Registers the TypeId when the library loads, as NS_OBJECT_ENSURE_REGISTERED does. */
const TypeId g_gen1TypeId = RdmaDcqcnGen1::GetTypeId();
} // namespace

RdmaDcqcnParams
RdmaDcqcnGen1::Defaults()
{
    RdmaDcqcnParams p; // the paper's NP window (50 us) and RP
    p.burstBytes = 16384;
    p.cnp.firmwareTime = MicroSeconds(5);
    p.cnp.firmwareQueue = 16;
    return p;
}

TypeId
RdmaDcqcnGen1::GetTypeId()
{
    static TypeId tid = RdmaDcqcnAttributes::AddNicKnobs(TypeId("ns3::RdmaDcqcnGen1")
                                                             .SetParent<RdmaDcqcn>()
                                                             .SetGroupName("Rdma")
                                                             .AddConstructor<RdmaDcqcn>(),
                                                         Defaults());
    return tid;
}

Ptr<RdmaDcqcn>
RdmaDcqcnGen1::Create()
{
    return ObjectFactory(GetTypeId().GetName()).Create<RdmaDcqcn>();
}

} // namespace ns3
