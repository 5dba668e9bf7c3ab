#include "node-composer.h"

#include "ns3/experiment-config-error.h"
#include "ns3/fetch-qp-scheduler.h"
#include "ns3/nic-processing-units.h"
#include "ns3/node-composition-reader.h"
#include "ns3/object-factory.h"
#include "ns3/rdma-processing-units.h"
#include "ns3/rdma-rx-pipeline.h"
#include "ns3/rdma-tx-pipeline.h"
#include "ns3/rnic-cache-model.h"

namespace ns3
{

namespace
{

/** \return an object of \p c's type with its attributes. */
template <typename T>
Ptr<T>
Create(const ExperimentComponent& c)
{
    ObjectFactory f;
    f.SetTypeId(c.typeName);
    for (const ExperimentAttribute& a : c.attributes)
    {
        f.Set(a.name, *a.value);
    }
    return f.Create<T>();
}

} // namespace

NodeComposer::NodeComposer(const ExperimentConfig& config, const TopologyBuilder& topology)
    : m_config(config)
    , m_topology(topology)
{
}

bool
NodeComposer::IsActive() const
{
    return m_config.GetNodes().nodesSection;
}

void
NodeComposer::CheckConfig(const ExperimentRunContext& context)
{
    if (IsActive() && context.IsDistributed())
    {
        throw ExperimentConfigError(m_config.GetSource(), "/nodes",
                                    "not available in distributed runs (nodes.csv needs every "
                                    "NIC's counters on one rank)");
    }
}

void
NodeComposer::Compose(ExperimentRunContext& /* context */)
{
    const NodeComposition& nodes = m_config.GetNodes();
    if (!IsActive())
    {
        return;
    }
    for (uint32_t h = 0; h < nodes.hosts.size(); ++h)
    {
        const NodeSpec& spec = nodes.hosts[h];
        Ptr<RdmaNic> nic = m_topology.GetNic(h);
        if (spec.nicProfile >= 0)
        {
            // Its "cc" is the host's congestion control, which the NIC was built with
            // (NodeSpec::cc, TopologyBuilder).
            const NodeNicProfile& p = nodes.nicProfiles[spec.nicProfile];
            if (p.hasLossRecovery)
            {
                nic->SetLossRecovery(Create<RdmaLossRecovery>(p.lossRecovery));
            }
            for (const ExperimentAttribute& a : p.qp.attributes)
            {
                nic->SetQueuePairAttribute(a.name, *a.value);
            }
        }
        if (spec.nicCache >= 0)
        {
            const NodeNicCache& c = nodes.nicCaches[spec.nicCache];
            if (!c.scheduler.typeName.empty())
            {
                nic->SetQpScheduler(Create<QpScheduler>(c.scheduler));
                nic->SetCacheModel(Create<RnicCacheModel>(c.cache));
            }
        }
        if (spec.nicPus >= 0)
        {
            const ExperimentComponent& pus = nodes.nicPus[spec.nicPus];
            const std::string error =
                CreateObject<RdmaProcessingUnits>()->Install(nic, Create<NicProcessingUnits>(pus));
            if (!error.empty())
            {
                throw ExperimentConfigError(m_config.GetSource(), pus.pointer, error);
            }
        }
        if (spec.hostModel >= 0)
        {
            const NodeHostModel& m = nodes.hostModels[spec.hostModel];
            Ptr<HostModel> host =
                NodeCompositionReader::BuildHostModel(m, JsonSchemaReader(m_config.GetSource()));
            m_topology.GetHost(h)->AggregateObject(host);
            const std::string error = nic->SetHostModel(host, m.rnic, m.memory);
            if (!error.empty())
            {
                throw ExperimentConfigError(m_config.GetSource(), m.pointer,
                                            "host " + m_config.GetTopology().hosts[h] + ": " +
                                                error);
            }
            if (Ptr<FetchQpScheduler> f = DynamicCast<FetchQpScheduler>(nic->GetQpScheduler()))
            {
                f->SetHostModel(host, host->GetResourceId(m.rnic), host->GetResourceId(m.memory));
            }
        }
    }
}

} // namespace ns3
