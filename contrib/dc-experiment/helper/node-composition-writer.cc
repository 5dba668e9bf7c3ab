#include "node-composition-writer.h"

#include "ns3/fetch-qp-scheduler.h"
#include "ns3/rdma-rx-pipeline.h"
#include "ns3/rdma-tx-pipeline.h"
#include "ns3/rnic-cache-model.h"

#include <fstream>
#include <stdexcept>

namespace ns3
{

void
NodeCompositionWriter::Write(ExperimentRunContext& context)
{
    const ExperimentConfig& config = context.GetConfig();
    const NodeComposition& nodes = config.GetNodes();
    if (!nodes.nodesSection)
    {
        return;
    }
    const std::string path = context.OutputPath("nodes.csv");
    std::ofstream out(path, std::ios::binary);
    out << COLUMNS << '\n';
    for (uint32_t h = 0; h < nodes.hosts.size(); ++h)
    {
        const NodeSpec& spec = nodes.hosts[h];
        Ptr<RdmaNic> nic = context.GetTopology().GetNic(h);
        out << config.GetTopology().hosts[h] << ','
            << (spec.nicProfile >= 0 ? nodes.nicProfiles[spec.nicProfile].name : "") << ','
            << (spec.hostModel >= 0 ? nodes.hostModels[spec.hostModel].label : "") << ','
            << (spec.nicCache >= 0 ? nodes.nicCaches[spec.nicCache].label : "");
        if (Ptr<RnicCacheModel> cache = nic->GetCacheModel())
        {
            for (auto kind : {RnicCacheModel::QPC, RnicCacheModel::MTT, RnicCacheModel::WQE})
            {
                out << ',' << cache->GetHits(kind) << ',' << cache->GetMisses(kind);
            }
            out << ',' << cache->GetPcieReadBytes();
        }
        else
        {
            out << ",,,,,,,";
        }
        if (spec.hostModel >= 0) // NodeComposer attached it (or refused the run)
        {
            Ptr<FetchQpScheduler> f = DynamicCast<FetchQpScheduler>(nic->GetQpScheduler());
            const RdmaTxCounters& tx = nic->GetTxPipeline()->GetCounters();
            const uint64_t reads =
                tx.dmaReadBytes + tx.wqeReadBytes + (f ? f->GetHostFetchBytes() : 0);
            out << ',' << reads << ',' << nic->GetRxPipeline()->GetCounters().dmaWriteBytes << ','
                << tx.wqeReadBytes + (f ? f->GetHostWqeBytes() : 0);
        }
        else
        {
            out << ",,,";
        }
        out << '\n';
    }
    out.close();
    if (out.fail())
    {
        throw std::runtime_error("cannot write " + path);
    }
    context.GetReadme().AddCsv(
        "nodes.csv",
        "one row per host with what the \"nodes\" section gave it (NIC profile, host "
        "model, NIC cache; empty: the experiment's defaults) and its NIC's on-chip "
        "cache hits and misses (QPC, MTT, WQE) and bytes read to fill the misses "
        "(empty without a cache model); with a host model, the bytes the NIC read "
        "(send payload, WQEs and cache fills) and wrote (received payload) by DMA "
        "through it, and the WQE part of the bytes read",
        COLUMNS);
}

} // namespace ns3
