/*
 * Maestro work-request descriptor (SOSR'21 Table 1) and message completion.
 */
#ifndef MAESTRO_WR_DESCRIPTOR_H
#define MAESTRO_WR_DESCRIPTOR_H

#include "ns3/nstime.h"
#include "ns3/rdma-work-request.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup multipath
 * One chunk of a decomposed message, as posted to one virtual path. The chunk's
 * work request carries the index of its descriptor as wr_id, so a completion finds
 * its descriptor in O(1) (the paper stores the descriptor's address there).
 */
struct MaestroWrDescriptor
{
    uint64_t wrId{0};      //!< wr_id of the original (application) work request
    uint32_t vpId{0};      //!< virtual path the chunk was posted to
    uint64_t messageId{0}; //!< message the chunk belongs to
    uint32_t chunkId{0};   //!< index of the chunk in its message
    uint64_t offset{0};    //!< first byte of the chunk within the message
    uint64_t length{0};    //!< chunk bytes
    Time postTime;         //!< when the chunk was posted to its QP
};

/** \ingroup multipath Completion of a whole message (raised once per message). */
struct MaestroMessageCompletion
{
    uint64_t wrId{0};      //!< the application's wr_id
    uint64_t messageId{0}; //!< Maestro's message number
    RdmaVerb verb{RdmaVerb::Write};
    RdmaWcStatus status{RdmaWcStatus::Success};
    uint64_t bytes{0};
    uint32_t chunks{0};
    uint32_t repostedChunks{0}; //!< chunks posted again after a path failure
    Time postTime;              //!< when the application posted the message
    Time completionTime;        //!< when its last chunk completed
};

} // namespace ns3

#endif /* MAESTRO_WR_DESCRIPTOR_H */
