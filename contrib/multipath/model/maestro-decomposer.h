/*
 * Maestro decomposer: message -> chunks.
 */
#ifndef MAESTRO_DECOMPOSER_H
#define MAESTRO_DECOMPOSER_H

#include "maestro-wr-descriptor.h"

#include "ns3/object.h"
#include "ns3/queue-size.h"
#include "ns3/rdma-work-request.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup multipath
 * Splits a message into chunks of ChunkSize bytes (the last one shorter), each a
 * WRITE to its final remote offset (sender-oriented placement, SOSR'21 §4.2).
 * A SEND is translated into WRITE chunks to the receive buffer given as
 * remoteAddr (the paper's SEND -> WRITE translation; MaestroEndpoint puts the
 * immediate-data notification on the last chunk). READ is not decomposed.
 */
class MaestroDecomposer : public Object
{
  public:
    static TypeId GetTypeId();
    MaestroDecomposer();

    uint64_t GetChunkSize() const;
    void SetChunkSize(uint64_t bytes);

    /**
     * \return the chunks of \p wr (message \p messageId), in offset order; they
     * cover [0, wr.length) exactly once. A zero-length message gives no chunks.
     */
    std::vector<MaestroWrDescriptor> Decompose(const RdmaWorkRequest& wr, uint64_t messageId) const;

    /** \return the verbs work request that carries \p chunk of \p original. */
    static RdmaWorkRequest ChunkRequest(const RdmaWorkRequest& original,
                                        const MaestroWrDescriptor& chunk, uint64_t wrId,
                                        bool whole);

  private:
    void SetChunkSizeValue(QueueSize size);
    QueueSize GetChunkSizeValue() const;

    uint64_t m_chunkSize;
};

} // namespace ns3

#endif /* MAESTRO_DECOMPOSER_H */
