/*
 * Maestro QP manager: N queue pairs per peer over disjoint core paths.
 */
#ifndef MAESTRO_QP_MANAGER_H
#define MAESTRO_QP_MANAGER_H

#include "ns3/callback.h"
#include "ns3/dcb-net-device.h"
#include "ns3/object.h"
#include "ns3/rdma-nic.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup multipath One virtual path: a connected QP pair between a pair of
 * virtual NIC addresses (qp->GetLocalAddress(), qp->GetRemoteAddress()) and the
 * links it crosses.
 */
struct MaestroVirtualPath
{
    Ptr<RdmaQueuePair> qp;         //!< local (requester) QP
    Ptr<RdmaQueuePair> peer;       //!< remote QP
    std::vector<uint64_t> links;   //!< (switch node id << 32 | egress port) along the path
    std::vector<uint64_t> reverse; //!< core links of its ACKs (responder to requester)
};

/**
 * \ingroup multipath
 * Connects NumPaths QPs to a peer over core paths that are as disjoint as possible
 * (SOSR'21 §4.1, "disjoint path selection"). Each QP joins a pair of virtual NIC
 * addresses (RdmaNic::AddAddress, the paper's IP aliases), so the switches see a
 * different 5-tuple per pair, and a pinned route (DcbSwitch::SetPinnedRoute, the
 * paper's SDN rule keyed on the address pair) steers a pair onto a chosen path.
 * If the first-hop switch's ECMP hash ignores the UDP source port, the path of
 * every address pair is computed a priori from the known hash and QPs are opened
 * only on the pairs kept. Otherwise candidate QPs are opened over the address
 * pairs in turn (first CandidateFactor × NumPaths, then more, up to
 * MaxCandidates), the path of each one's 5-tuple is computed, and one QP per
 * distinct core path is kept. Either way paths that share no switch-to-switch link
 * with a kept one, in either direction (the responder's ACKs and CNPs follow its
 * own 5-tuple), come first. Unkept candidates stay idle. Completions of the kept
 * QPs arrive through the NIC's Completion trace (one shared completion queue).
 */
class MaestroQpManager : public Object
{
  public:
    /** Links a QP's 5-tuple crosses, from the sender's port to the receiver. */
    using PathOracle =
        Callback<std::vector<uint64_t>, Ptr<DcbNetDevice>, Ipv4Address, Ipv4Address, uint16_t>;
    /** Shared completion queue: (virtual path id, completion). */
    using CompletionSink = Callback<void, uint32_t, const RdmaCompletion&>;

    static TypeId GetTypeId();
    MaestroQpManager();

    void SetPathOracle(PathOracle oracle);
    void SetCompletionSink(CompletionSink sink);
    /**
     * Receive completions (WRITE with immediate) of the remote QPs of the virtual
     * paths: the peer's Maestro reading its own completion queue.
     */
    void SetReceiveSink(CompletionSink sink);
    /**
     * Called with the number of virtual paths once they are selected: within
     * Connect, or later when ProbeCandidates waits for its probes.
     */
    void SetReadyCallback(Callback<void, uint32_t> callback);
    /** \return true once the virtual paths are selected. */
    bool IsReady() const;
    /** Called with the virtual path id after Reconnect gave it a new QP pair. */
    void SetReconnectCallback(Callback<void, uint32_t> callback);

    /**
     * Open the virtual paths from \p local to \p remote.
     * \return the number of virtual paths (fewer than NumPaths when the fabric has
     *         fewer distinct paths or MaxCandidates ran out), 0 while probing
     *         (ProbeCandidates: see SetReadyCallback)
     */
    uint32_t Connect(Ptr<RdmaNic> local, Ptr<RdmaNic> remote);
    /**
     * Replace virtual path \p vp by a fresh QP pair over the same links (after its
     * QP failed or its path came back). \return false if none was found.
     */
    bool Reconnect(uint32_t vp);

    uint32_t GetNPaths() const;
    const MaestroVirtualPath& GetPath(uint32_t vp) const;
    Ptr<RdmaNic> GetLocalNic() const;
    /** QP pairs opened while searching for paths (kept or not). */
    uint32_t GetNCandidates() const;
    /** (local, remote) virtual NIC address pairs considered. */
    uint32_t GetNAddressPairs() const;
    /**
     * \return true if the paths were computed a priori from the address pairs (the
     * switches' ECMP hash ignores the UDP source port), false if candidate QPs were
     * opened and their 5-tuples hashed.
     */
    bool IsAPriori() const;

    /**
     * The default oracle: walk the topology from \p port, asking each DcbSwitch
     * which egress port its ECMP hash picks (DcbSwitch::SelectPort).
     */
    static std::vector<uint64_t> EcmpPath(Ptr<DcbNetDevice> port, Ipv4Address src, Ipv4Address dst,
                                          uint16_t sport);

  protected:
    void DoDispose() override;

  private:
    void OnCompletion(const RdmaCompletion& c);
    void OnRemoteCompletion(const RdmaCompletion& c);
    void MapQp(const MaestroVirtualPath& path, uint32_t vp);
    bool SourcePortHashed() const;
    void OpenCandidates();
    bool EnoughCandidates() const;
    uint32_t Select();
    void OnSniff(bool atLocal, Ptr<const Packet> frame);
    void OnSniffLocal(Ptr<const Packet> frame);
    void OnSniffRemote(Ptr<const Packet> frame);
    void StopSniffing();
    void FinishProbing();
    static std::vector<uint64_t> CoreOf(std::vector<uint64_t> links);

    /** A candidate virtual path: an address pair, its QPs once opened, its links. */
    struct Candidate
    {
        std::pair<Ipv4Address, Ipv4Address> addresses;
        std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>> qps; //!< null until opened
        std::vector<uint64_t> links;
        std::vector<uint64_t> reverse;
        bool forwardSeen{false}; //!< probing: the probe's headers were captured
        bool reverseSeen{false}; //!< probing: its ACK's headers were captured
        bool known{false};       //!< links and reverse are computed
    };
    std::vector<uint64_t> CorePath(const Ptr<RdmaQueuePair>& qp) const;
    std::vector<uint64_t> ReversePath(const Ptr<RdmaQueuePair>& peer) const;
    static bool IsSymmetric(const std::vector<uint64_t>& forward,
                            const std::vector<uint64_t>& reverse);

    uint32_t m_numPaths;
    uint32_t m_candidateFactor;
    uint32_t m_maxCandidates;
    PathOracle m_oracle;
    CompletionSink m_sink;
    Ptr<RdmaNic> m_local;
    Ptr<RdmaNic> m_remote;
    std::vector<MaestroVirtualPath> m_paths;
    std::vector<int32_t> m_vpOfQpn;     //!< index qpn - FIRST_QPN -> vp (-1: not ours)
    std::vector<int32_t> m_vpOfPeerQpn; //!< same for the remote QPs
    uint32_t m_candidates{0};
    bool m_aPriori{false};
    bool m_probe{false};
    bool m_sniffing{false};        //!< probes are being captured
    bool m_tracesConnected{false}; //!< the capture traces are connected
    bool m_ready{false};
    uint32_t m_target{0};
    std::vector<std::pair<Ipv4Address, Ipv4Address>> m_pairs;
    std::vector<Candidate> m_cands; //!< only while selecting
    Callback<void, uint32_t> m_readyCallback;
    CompletionSink m_receiveSink;
    Callback<void, uint32_t> m_reconnected;
};

} // namespace ns3

#endif /* MAESTRO_QP_MANAGER_H */
