/*
 * A closed loop of messages over one Maestro endpoint: the bulk sender of the
 * path-dynamics experiments.
 */
#ifndef MAESTRO_MESSAGE_STREAM_H
#define MAESTRO_MESSAGE_STREAM_H

#include "maestro-endpoint.h"

#include "ns3/callback.h"
#include "ns3/closed-loop-window.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

namespace ns3
{

/**
 * \ingroup multipath
 * Keeps Outstanding WRITE messages of MessageSize bytes in flight on one
 * MaestroEndpoint: Start posts Outstanding messages, and each completion posts the
 * next one while less than Duration has passed since Start (SOSR'21 Fig. 12d/e: one
 * sender saturating the paths while they are enabled or failed one by one). Message
 * k goes to remote address (k mod 64) · MessageSize (a ring of 64 buffers). When
 * Duration is over, the messages in flight still complete; the done callback fires
 * once the last of them has. The loop is a ClosedLoopWindow (unlimited, stopped at Duration).
 */
class MaestroMessageStream : public Object
{
  public:
    static TypeId GetTypeId();
    MaestroMessageStream();

    /** The endpoint the messages are posted on (before Start). */
    void SetEndpoint(Ptr<MaestroEndpoint> endpoint);
    /** Post the first Outstanding messages. */
    void Start();
    /** \p done is called once, when the stream has stopped posting and every message completed. */
    void SetDoneCallback(Callback<void> done);

    uint64_t GetNPosted() const;
    uint64_t GetNCompleted() const;
    /** Messages that completed with an error status (counted as completed too). */
    uint64_t GetNFailed() const;
    bool IsDone() const;

    /** TracedCallback signature for MessageDone. */
    typedef void (*MessageDoneCallback)(const MaestroMessageCompletion& completion);

  protected:
    void DoDispose() override;

  private:
    /** Post message \p k. */
    void Post(uint64_t k);
    void OnCompleted(const MaestroMessageCompletion& c);

    uint64_t m_size;
    uint32_t m_outstanding;
    Time m_duration;
    Ptr<MaestroEndpoint> m_endpoint;
    Time m_end; //!< no message is posted from here on
    ClosedLoopWindow m_loop;
    uint64_t m_failed{0};
    bool m_started{false};
    Callback<void> m_done;
    TracedCallback<const MaestroMessageCompletion&> m_messageDoneTrace;
};

} // namespace ns3

#endif /* MAESTRO_MESSAGE_STREAM_H */
