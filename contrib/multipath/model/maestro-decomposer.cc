#include "maestro-decomposer.h"

#include "ns3/abort.h"
#include "ns3/queue-size.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MaestroDecomposer);

TypeId
MaestroDecomposer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MaestroDecomposer")
            .SetParent<Object>()
            .SetGroupName("Multipath")
            .AddConstructor<MaestroDecomposer>()
            .AddAttribute("ChunkSize",
                          "Bytes per chunk. Default 50 KB: the optimum measured in Maestro "
                          "(SOSR'21 §6.1, Fig. 9) and its default thereafter.",
                          QueueSizeValue(QueueSize("50KB")),
                          MakeQueueSizeAccessor(&MaestroDecomposer::SetChunkSizeValue,
                                                &MaestroDecomposer::GetChunkSizeValue),
                          MakeQueueSizeChecker());
    return tid;
}

MaestroDecomposer::MaestroDecomposer()
    : m_chunkSize(50000)
{
}

uint64_t
MaestroDecomposer::GetChunkSize() const
{
    return m_chunkSize;
}

void
MaestroDecomposer::SetChunkSize(uint64_t bytes)
{
    NS_ABORT_MSG_IF(bytes == 0, "MaestroDecomposer::ChunkSize must be at least 1 byte");
    m_chunkSize = bytes;
}

void
MaestroDecomposer::SetChunkSizeValue(QueueSize size)
{
    NS_ABORT_MSG_IF(size.GetUnit() != QueueSizeUnit::BYTES,
                    "MaestroDecomposer::ChunkSize must be given in bytes (e.g. \"50KB\"), not "
                        << size);
    SetChunkSize(size.GetValue());
}

QueueSize
MaestroDecomposer::GetChunkSizeValue() const
{
    return QueueSize(QueueSizeUnit::BYTES, static_cast<uint32_t>(m_chunkSize));
}

std::vector<MaestroWrDescriptor>
MaestroDecomposer::Decompose(const RdmaWorkRequest& wr, uint64_t messageId) const
{
    std::vector<MaestroWrDescriptor> chunks;
    uint64_t per = m_chunkSize;
    if (wr.verb == RdmaVerb::Read)
    {
        per = wr.length; // READ is kept whole
    }
    if (wr.length == 0)
    {
        return chunks;
    }
    chunks.reserve((wr.length + per - 1) / per);
    for (uint64_t offset = 0; offset < wr.length; offset += per)
    {
        MaestroWrDescriptor d;
        d.wrId = wr.wrId;
        d.messageId = messageId;
        d.chunkId = static_cast<uint32_t>(chunks.size());
        d.offset = offset;
        d.length = std::min(per, wr.length - offset);
        chunks.push_back(d);
    }
    return chunks;
}

RdmaWorkRequest
MaestroDecomposer::ChunkRequest(const RdmaWorkRequest& original, const MaestroWrDescriptor& chunk,
                                uint64_t wrId, bool whole)
{
    RdmaWorkRequest wr;
    wr.wrId = wrId;
    wr.verb = whole ? original.verb : RdmaVerb::Write;
    wr.length = chunk.length;
    wr.localAddr = original.localAddr + chunk.offset;
    wr.remoteAddr = original.remoteAddr + chunk.offset;
    wr.rkey = original.rkey;
    return wr;
}

} // namespace ns3
