/*
 * Maestro middleware endpoint: multi-path messages over one RNIC.
 */
#ifndef MAESTRO_ENDPOINT_H
#define MAESTRO_ENDPOINT_H

#include "maestro-decomposer.h"
#include "maestro-load-balancer.h"
#include "maestro-path-monitor.h"
#include "maestro-qp-manager.h"
#include "maestro-reassembler.h"
#include "maestro-wr-descriptor.h"

#include "ns3/event-id.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup multipath
 * The sender side of Maestro (SOSR'21 §3–§4) between an application and one
 * RNIC: the application posts whole messages with PostSend; the endpoint splits
 * them (MaestroDecomposer), places each chunk on a virtual path chosen by the
 * load balancer, never with more than LiveWrsPerQp live work requests per QP,
 * reads the QPs' completions (one shared completion queue) and counters into the
 * MaestroPathMonitor, and raises MessageCompleted once per message when every
 * chunk has completed (MaestroReassembler). SEND is translated to WRITE chunks
 * plus a last WRITE with immediate (SOSR'21 §4.2); the endpoint also plays the
 * peer's Maestro, which posts receives on its QPs of the virtual paths and raises
 * MessageReceived once per message when the immediate arrives.
 *
 * Failures: a chunk that completes with an error takes its path out of use and is
 * posted again on a surviving path; so is every live chunk of a path whose oldest
 * chunk has waited longer than ChunkTimeout. WRITEs are idempotent (each chunk goes
 * to its final remote offset), so a late completion of an abandoned copy is
 * harmless and counted once. Every ReprobeInterval, each failed path gets a fresh
 * QP over the same links (the old one may still be retrying) and a probe; when the
 * probe completes the path is put back in use, so repaired or newly enabled paths
 * are found and used. When the last usable path fails with chunks waiting, the
 * reprobe runs at once instead (and again each time its probes fail), so that a
 * message is never held for a whole ReprobeInterval with nowhere to go.
 *
 * It only creates QPs, posts work requests and reads completions and counters.
 */
class MaestroEndpoint : public Object
{
  public:
    static TypeId GetTypeId();
    MaestroEndpoint();

    /** Replace the load balancer (else one of LoadBalancerType is created). */
    void SetLoadBalancer(Ptr<MaestroLoadBalancer> balancer);

    /**
     * Open the virtual paths to \p remote (see MaestroQpManager). Messages may be
     * posted at once; with MaestroQpManager::ProbeCandidates they wait until the
     * probes have selected the paths.
     * \return the number of virtual paths (0 while probing)
     */
    uint32_t Connect(Ptr<RdmaNic> local, Ptr<RdmaNic> remote);

    /**
     * Post a message. A WRITE is split into WRITE chunks. A SEND is translated to
     * WRITE chunks to wr.remoteAddr + offset whose last one, posted once every
     * other chunk has completed, carries the message id as immediate data: the
     * peer learns of the whole message from one receive completion
     * (MessageReceived), whatever the order in which the chunks travelled.
     * \return its Maestro message id
     */
    uint64_t PostSend(const RdmaWorkRequest& wr);

    /** Post a probe of ProbeSize bytes on every usable path (latency samples). */
    void Probe();

    Ptr<MaestroDecomposer> GetDecomposer() const;
    Ptr<MaestroPathMonitor> GetPathMonitor() const;
    Ptr<MaestroQpManager> GetQpManager() const;
    Ptr<MaestroLoadBalancer> GetLoadBalancer() const;
    /** Messages posted and not yet completed. */
    std::size_t GetNPendingMessages() const;
    /** Chunks posted again after a path failure. */
    uint64_t GetNReposts() const;
    /** Failed paths found working again by a reprobe and put back in use. */
    uint64_t GetNRestores() const;
    /** Receiver side: SEND messages notified by their immediate (each once). */
    uint64_t GetNReceivedMessages() const;

    /** TracedCallback signature for MessageCompleted. */
    typedef void (*MessageCompletedCallback)(const MaestroMessageCompletion& completion);
    /** TracedCallback signature for MessageReceived (immediate = message id mod 2^32). */
    typedef void (*MessageReceivedCallback)(uint32_t messageId);
    /** TracedCallback signature for ChunkPosted. */
    typedef void (*ChunkPostedCallback)(const MaestroWrDescriptor& chunk);

  protected:
    void DoDispose() override;
    void DoInitialize() override;

  private:
    struct Message
    {
        RdmaWorkRequest wr;
        std::vector<MaestroWrDescriptor> chunks;
        std::vector<uint8_t> copies; //!< live or queued copies per chunk
        bool notify{false};          //!< SEND: immediate on the last chunk
        uint32_t othersLeft{0};      //!< SEND: chunks before the last not yet completed
        bool probe{false};
        int64_t pinnedVp{-1}; //!< probes go to one path
    };

    struct Slot
    {
        MaestroWrDescriptor chunk;
        bool inUse{false};
        bool wasIdle{false};
        bool abandoned{false}; //!< reposted elsewhere after a timeout
        bool reprobe{false};   //!< a probe of a failed path (no message)
    };

    uint64_t Submit(const RdmaWorkRequest& wr, bool probe, int64_t vp);
    void Pump();
    void PostChunk(uint32_t vp, Message& message, uint32_t chunkId);
    void OnCompletion(uint32_t vp, const RdmaCompletion& c);
    void OnReceive(uint32_t vp, const RdmaCompletion& c);
    void PostReceives(uint32_t vp, uint32_t count);
    void OnReconnected(uint32_t vp);
    void OnPathsReady(uint32_t n);
    void Requeue(uint64_t messageId, uint32_t chunkId, bool front);
    void CheckTimeouts();
    void EnsureBalancer();
    void ScheduleReprobe();
    /** Reprobe now if no path is usable and chunks wait for one. */
    void ReprobeIfNoPathLeft();
    void Reprobe();
    uint32_t AllocateSlot();

    Ptr<MaestroDecomposer> m_decomposer;
    Ptr<MaestroPathMonitor> m_monitor;
    Ptr<MaestroQpManager> m_qpManager;
    Ptr<MaestroLoadBalancer> m_balancer;
    MaestroReassembler m_reassembler;

    uint32_t m_liveLimit;
    Time m_chunkTimeout;
    std::string m_balancerType;
    uint64_t m_probeSize;
    Time m_reprobeInterval;

    std::unordered_map<uint64_t, Message> m_messages;
    std::deque<std::pair<uint64_t, uint32_t>> m_pending; //!< (message, chunk) to place
    std::vector<Slot> m_slots;                           //!< index = posted wr_id
    std::vector<uint32_t> m_freeSlots;
    uint32_t m_liveSlots{0};
    uint64_t m_nextMessageId{0};
    uint64_t m_reposts{0};
    EventId m_watchdog;
    EventId m_reprobeEvent;
    std::vector<int64_t> m_probeSlot; //!< per path: slot of its reprobe (-1: none)
    uint64_t m_restores{0};

    TracedCallback<const MaestroMessageCompletion&> m_messageCompletedTrace;
    TracedCallback<const MaestroWrDescriptor&> m_chunkPostedTrace;
    TracedCallback<uint32_t> m_messageReceivedTrace;
    std::vector<bool> m_received; //!< receiver: messages notified (index: immediate)
    uint64_t m_receivedMessages{0};
};

} // namespace ns3

#endif /* MAESTRO_ENDPOINT_H */
