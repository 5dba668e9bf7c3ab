/*
 * Maestro reassembler: message completion from chunk completions.
 */
#ifndef MAESTRO_REASSEMBLER_H
#define MAESTRO_REASSEMBLER_H

#include "maestro-wr-descriptor.h"

#include "ns3/rdma-work-request.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup multipath
 * Sender-oriented reassembly (SOSR'21 §4.3): every chunk WRITEs its bytes to their
 * final remote offset, so nothing is buffered; this class only tracks which chunks
 * of each message have completed and says, exactly once per message, when the last
 * one has, whatever the order. A chunk completed twice (it was reposted after a
 * path failure and both copies finished) counts once. Per-message state, touched
 * once per chunk completion, never per packet. No network needed (unit-testable).
 */
class MaestroReassembler
{
  public:
    enum Result : uint8_t
    {
        CHUNK_DONE = 0,  //!< a new chunk completed, the message is not finished
        MESSAGE_DONE,    //!< this chunk was the last: the message is complete
        DUPLICATE,       //!< the chunk had already completed
        UNKNOWN_MESSAGE, //!< no such message (already completed or never added)
    };

    /** Start tracking message \p messageId of \p chunks chunks. */
    void Add(uint64_t messageId, const RdmaWorkRequest& original, uint32_t chunks, Time postTime);
    /** Record chunk \p chunkId of \p messageId as completed. */
    Result Complete(uint64_t messageId, uint32_t chunkId);
    /** \return whether the chunk has completed (false for unknown messages). */
    bool IsChunkDone(uint64_t messageId, uint32_t chunkId) const;
    /** Count a repost of a chunk of \p messageId (reported in the completion). */
    void NoteRepost(uint64_t messageId);
    /**
     * Build the completion of a finished message and forget it.
     * Call once, after Complete() returned MESSAGE_DONE.
     */
    MaestroMessageCompletion Take(uint64_t messageId, Time now);

    std::size_t GetNMessages() const;

  private:
    struct Message
    {
        RdmaWorkRequest original;
        Time postTime;
        std::vector<bool> done;
        uint32_t remaining{0};
        uint32_t reposted{0};
    };

    std::unordered_map<uint64_t, Message> m_messages;
};

} // namespace ns3

#endif /* MAESTRO_REASSEMBLER_H */
