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

/** \ingroup multipath One virtual path: a connected QP pair and the links it crosses. */
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
 * (SOSR'21 §4.1, "disjoint path selection", for ECMP fabrics whose hash includes
 * the UDP source port): it opens candidate QP pairs (first CandidateFactor ×
 * NumPaths, then more, up to MaxCandidates), computes with the switches' known
 * ECMP hash which links each one's 5-tuple crosses, and keeps one QP per distinct
 * core path, preferring paths that share no switch-to-switch link with a kept one,
 * in either direction (the responder's ACKs and CNPs follow its own 5-tuple).
 * The remaining candidates stay idle. Completions of the kept QPs arrive through
 * the NIC's Completion trace (one shared completion queue).
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
     * Open the virtual paths from \p local to \p remote.
     * \return the number of virtual paths (fewer than NumPaths when the fabric has
     *         fewer distinct paths or MaxCandidates ran out)
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
    std::vector<int32_t> m_vpOfQpn; //!< index qpn - FIRST_QPN -> vp (-1: not ours)
    uint32_t m_candidates{0};
};

} // namespace ns3

#endif /* MAESTRO_QP_MANAGER_H */
