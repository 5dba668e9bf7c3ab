/*
 * Switch buffer management (MMU) interface, in the shape of ns-3's QueueDisc:
 * public non-virtual entry points, private Do... hooks, uniform drop reasons.
 */
#ifndef BUFFER_MANAGER_H
#define BUFFER_MANAGER_H

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <array>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dcb
 * What a buffer manager knows of each switch port when it is set up.
 */
struct BufferPortInfo
{
    DataRate rate;   //!< line rate of the port
    Time cableDelay; //!< one-way propagation delay of the attached link
    uint32_t mtu;    //!< largest frame the peer may send, bytes
};

/**
 * \ingroup dcb
 * One figure of a buffer manager's occupancy report (BufferManager::ReportOccupancy): the
 * bytes an accounting object holds now and its watermark (peak since Setup or the last
 * ClearWatermarks; 0 where the manager keeps none).
 */
struct BufferOccupancy
{
    const char* object; //!< what is counted: "buffer", "pool_shared", "pg_headroom", ...
    std::string name;   //!< the object's name (a pool's), or empty
    int32_t port{-1};   //!< switch port, or -1 when the object is not per port
    int32_t index{-1};  //!< PG or queue index, or -1 when not indexed
    uint64_t bytes{0};  //!< held now
    uint64_t watermark{0};
};

/**
 * \ingroup dcb
 * Admission control and accounting for a switch's shared packet buffer.
 *
 * Every packet routed from ingress port s to egress port d in traffic class c
 * is offered to Admit(s, d, c, bytes) before it is queued and handed to
 * Release(s, d, c, bytes) when it leaves the egress queue. The manager decides
 * drops and, for lossless classes, asks for PFC XOFF/XON on ingress ports
 * through the PFC callback.
 */
class BufferManager : public Object
{
  public:
    enum DropReason : uint8_t
    {
        DROP_INGRESS_LIMIT = 0, //!< lossy packet over the ingress threshold
        DROP_EGRESS_LIMIT,      //!< lossy packet over the egress threshold
        DROP_HEADROOM_OVERFLOW, //!< lossless packet with no headroom left (mis-sized headroom)
        DROP_BUFFER_FULL,       //!< physical buffer exhausted
        DROP_DRAM_BANDWIDTH,    //!< deep-buffer chassis: off-chip memory write bandwidth exceeded
        DROP_VOQ_LIMIT,         //!< deep-buffer chassis: lossy VoQ over its maximum depth
        N_DROP_REASONS
    };

    /** (ingress port, priority group, true = XOFF / false = XON). */
    using PfcCallback = Callback<void, uint32_t, uint8_t, bool>;

    static TypeId GetTypeId();
    BufferManager();
    ~BufferManager() override;

    /**
     * Size the per-port state; called once by the switch when ports are known.
     * \return "" on success, else why the configuration cannot work (naming the
     *         attribute), leaving the manager unusable
     */
    std::string Setup(const std::vector<BufferPortInfo>& ports);
    uint32_t GetNPorts() const;

    /** \return true if the packet is admitted (and accounted), false if dropped. */
    bool Admit(uint32_t inPort, uint32_t outPort, uint8_t tc, uint32_t bytes);
    /** The packet left the egress queue. */
    void Release(uint32_t inPort, uint32_t outPort, uint8_t tc, uint32_t bytes);

    /** \return true if traffic class \p tc is lossless (PFC-protected). */
    bool IsLossless(uint8_t tc) const;
    uint8_t GetLosslessMask() const;
    void SetPfcCallback(PfcCallback cb);

    uint64_t GetDrops(DropReason reason) const;
    /** \return bytes currently held in the buffer (all accounting included). */
    virtual uint64_t GetOccupancy() const = 0;

    static const char* DropReasonName(DropReason reason);

    /**
     * Append this manager's occupancy figures to \p report (the buffer monitor's rows),
     * in a fixed order. The default is one "buffer" figure: GetOccupancy(), no
     * watermark; managers with pools, PGs or queues report those instead (DoReportOccupancy).
     */
    void ReportOccupancy(std::vector<BufferOccupancy>& report) const;
    /**
     * Reset every watermark to the current occupancy (SONiC's `sonic-clear watermark`);
     * a manager that keeps no watermark ignores it.
     */
    virtual void ClearWatermarks();

  protected:
    void DoDispose() override;
    /** Emit XOFF (\p xoff true) or XON for (port, pg). */
    void NotifyPfc(uint32_t port, uint8_t pg, bool xoff);
    const std::vector<BufferPortInfo>& GetPorts() const;

  private:
    /** \return "" or the reason the configuration is impossible. */
    virtual std::string DoSetup() = 0;
    virtual bool DoAdmit(uint32_t inPort, uint32_t outPort, uint8_t tc, uint32_t bytes,
                         DropReason& reason) = 0;
    virtual void DoRelease(uint32_t inPort, uint32_t outPort, uint8_t tc, uint32_t bytes) = 0;
    /** ReportOccupancy's figures (default: one "buffer" figure of GetOccupancy()). */
    virtual void DoReportOccupancy(std::vector<BufferOccupancy>& report) const;

    std::vector<BufferPortInfo> m_ports;
    uint8_t m_losslessMask;
    PfcCallback m_pfcCallback;
    std::array<uint64_t, N_DROP_REASONS> m_drops{};
    TracedCallback<uint32_t, uint32_t, uint8_t, uint32_t, uint8_t> m_dropTrace;
};

} // namespace ns3

#endif /* BUFFER_MANAGER_H */
