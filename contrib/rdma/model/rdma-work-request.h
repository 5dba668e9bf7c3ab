/*
 * Verbs work requests and completions.
 */
#ifndef RDMA_WORK_REQUEST_H
#define RDMA_WORK_REQUEST_H

#include "ns3/nstime.h"

#include <cstdint>
#include <string>

namespace ns3
{

/** \ingroup rdma Verbs of a reliable-connected queue pair. */
enum class RdmaVerb : uint8_t
{
    Write = 0,
    Send,
    Read,
};

/** \return "WRITE", "SEND" or "READ". */
std::string RdmaVerbName(RdmaVerb verb);
/**
 * Parse a verb name (case-insensitive "write", "send", "read").
 * \return false if \p name is none of them
 */
bool ParseRdmaVerb(const std::string& name, RdmaVerb& verb);

/** \ingroup rdma A work request posted to a send queue (ibv_post_send). */
struct RdmaWorkRequest
{
    uint64_t wrId{0}; //!< user identifier, returned in the completion
    RdmaVerb verb{RdmaVerb::Write};
    uint64_t length{0};     //!< message bytes
    uint64_t localAddr{0};  //!< local buffer (READ destination)
    uint64_t remoteAddr{0}; //!< remote buffer (WRITE/READ)
    uint32_t rkey{0};       //!< remote key
    bool hasImm{false};     //!< WRITE with immediate (IBV_WR_RDMA_WRITE_WITH_IMM)
    uint32_t imm{0};        //!< immediate data, delivered in the responder's receive completion
};

/** \ingroup rdma A receive posted to a receive queue (ibv_post_recv). */
struct RdmaRecvRequest
{
    uint64_t wrId{0};
    uint64_t length{0}; //!< buffer size; a longer SEND completes with an error
};

/** \ingroup rdma Status of a completion. */
enum class RdmaWcStatus : uint8_t
{
    Success = 0,
    RetryExceeded, //!< transport retry counter exceeded (IBV_WC_RETRY_EXC_ERR)
    LengthError,   //!< receive buffer too small (IBV_WC_LOC_LEN_ERR)
    Flushed,       //!< QP entered the error state (IBV_WC_WR_FLUSH_ERR)
};

/** \ingroup rdma A work completion (ibv_wc), with the times the model knows. */
struct RdmaCompletion
{
    uint32_t qpn{0};
    uint64_t wrId{0};
    RdmaVerb verb{RdmaVerb::Write};
    bool receive{false}; //!< true for a receive completion (SEND or WRITE with immediate)
    bool hasImm{false};  //!< the receive completion carries immediate data (IBV_WC_WITH_IMM)
    uint32_t imm{0};     //!< the immediate data
    RdmaWcStatus status{RdmaWcStatus::Success};
    uint64_t bytes{0};
    Time postTime;       //!< when the work request was posted
    Time completionTime; //!< when the completion was generated

    /**
     * \return the Flushed completion, generated now, of work request \p wrId (\p verb; a
     * receive when \p receive) of queue pair \p qpn, posted at \p postTime
     */
    static RdmaCompletion Flushed(uint32_t qpn, uint64_t wrId, RdmaVerb verb, bool receive,
                                  Time postTime);
};

} // namespace ns3

#endif /* RDMA_WORK_REQUEST_H */
