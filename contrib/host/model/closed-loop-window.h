/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CLOSED_LOOP_WINDOW_H
#define CLOSED_LOOP_WINDOW_H

#include "ns3/callback.h"

#include <cstdint>
#include <limits>

namespace ns3
{

/**
 * \ingroup host
 * Closed-loop traffic: a sender that keeps a bound of messages outstanding and replaces
 * each completed message at once, until it has posted its messages or is told to stop
 * posting. It counts; what a message is (a WRITE on a queue pair, a Maestro message, a
 * DMA) is the post callback's: Start posts messages 0, 1, ... up to the bound, and each
 * Complete posts the next index while any is left. Senders that start together in rounds
 * (one first message of each in turn, as a benchmark posting round robin over its queue
 * pairs) call StartOne per round instead of Start. The users: the flows' message streams
 * and their receives (FlowWorkload), MaestroMessageStream, srnic-scalability's queue pairs.
 * Here, in the host module, so that every module that makes traffic above it can use it; no
 * allocation after construction.
 */
class ClosedLoopWindow
{
  public:
    /** Messages without limit (a sender that only stops when told). */
    static constexpr uint64_t UNLIMITED = std::numeric_limits<uint64_t>::max();

    ClosedLoopWindow() = default;
    /**
     * \param outstanding the most messages in flight at once
     * \param messages the messages to post in all (UNLIMITED: until StopPosting)
     * \param post posts message k (k = 0, 1, ...)
     */
    ClosedLoopWindow(uint64_t outstanding, uint64_t messages, Callback<void, uint64_t> post);

    /** Post the first min(outstanding, messages) messages. */
    void Start();
    /**
     * Post the next of the first min(outstanding, messages) messages: Start, one message
     * at a time, for senders started in rounds.
     * \return true if it posted one (false once the first messages are all posted)
     */
    bool StartOne();
    /**
     * One message completed: post the next one, if any is left and posting is not stopped.
     * \return true while messages remain to complete (fewer completed than to post in all)
     */
    bool Complete();
    /** Post no more messages; those in flight still complete. */
    void StopPosting();

    /** \return the messages posted so far (the index of the next one) */
    uint64_t GetPosted() const;
    /** \return the messages completed so far */
    uint64_t GetCompleted() const;
    /** \return true once no more will be posted and every posted message completed */
    bool IsDone() const;

  private:
    /** Post message m_posted. */
    void PostNext();

    uint64_t m_outstanding{0};
    uint64_t m_messages{0};
    Callback<void, uint64_t> m_post;
    uint64_t m_posted{0};
    uint64_t m_completed{0};
    bool m_stopped{false};
};

} // namespace ns3

#endif /* CLOSED_LOOP_WINDOW_H */
