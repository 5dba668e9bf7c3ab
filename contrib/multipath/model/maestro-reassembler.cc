#include "maestro-reassembler.h"

#include "ns3/abort.h"

namespace ns3
{

void
MaestroReassembler::Add(uint64_t messageId, const RdmaWorkRequest& original, uint32_t chunks,
                        Time postTime)
{
    NS_ABORT_MSG_IF(m_messages.count(messageId),
                    "MaestroReassembler: message " << messageId << " added twice");
    Message& m = m_messages[messageId];
    m.original = original;
    m.postTime = postTime;
    m.done.assign(chunks, false);
    m.remaining = chunks;
}

MaestroReassembler::Result
MaestroReassembler::Complete(uint64_t messageId, uint32_t chunkId)
{
    auto it = m_messages.find(messageId);
    if (it == m_messages.end())
    {
        return UNKNOWN_MESSAGE;
    }
    Message& m = it->second;
    if (chunkId >= m.done.size() || m.done[chunkId] || m.remaining == 0)
    {
        return DUPLICATE;
    }
    m.done[chunkId] = true;
    return --m.remaining == 0 ? MESSAGE_DONE : CHUNK_DONE;
}

bool
MaestroReassembler::IsChunkDone(uint64_t messageId, uint32_t chunkId) const
{
    auto it = m_messages.find(messageId);
    return it != m_messages.end() && chunkId < it->second.done.size() && it->second.done[chunkId];
}

void
MaestroReassembler::NoteRepost(uint64_t messageId)
{
    auto it = m_messages.find(messageId);
    if (it != m_messages.end())
    {
        ++it->second.reposted;
    }
}

MaestroMessageCompletion
MaestroReassembler::Take(uint64_t messageId, Time now)
{
    auto it = m_messages.find(messageId);
    NS_ABORT_MSG_IF(it == m_messages.end() || it->second.remaining != 0,
                    "MaestroReassembler::Take on an unfinished message " << messageId);
    const Message& m = it->second;
    MaestroMessageCompletion c;
    c.wrId = m.original.wrId;
    c.messageId = messageId;
    c.verb = m.original.verb;
    c.bytes = m.original.length;
    c.chunks = static_cast<uint32_t>(m.done.size());
    c.repostedChunks = m.reposted;
    c.postTime = m.postTime;
    c.completionTime = now;
    m_messages.erase(it);
    return c;
}

std::size_t
MaestroReassembler::GetNMessages() const
{
    return m_messages.size();
}

} // namespace ns3
