/*
 * SONiC PFC watchdog: storm detection, mitigation and restoration per switch
 * egress queue (spec-buffers-pfc-dcqcn.md §1.11, §8 check 10).
 */
#ifndef PFC_WATCHDOG_H
#define PFC_WATCHDOG_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

class DcbSwitch;
struct SonicBufferConfig;

/**
 * \ingroup dcb
 * Polls every lossless egress queue (port, class) of a DcbSwitch every
 * PollInterval, as orchagent's pfc_detect/pfc_restore Lua scripts do.
 *
 * Detection: the storm condition holds at a poll when the port's transmitter
 * was paused in that class at this poll and at the previous one, its PFC-RX
 * (XOFF received) counter rose in between and its ON2OFF counter (pause
 * onsets) did not. A countdown starts at DetectionTime; at a poll where the
 * condition holds the storm is declared if the countdown is ≤ PollInterval,
 * else it is decremented by PollInterval; any other poll resets it. The storm
 * is thus declared between DetectionTime and DetectionTime + PollInterval after
 * the pause began (for detection = poll: 1 to 2 polls).
 *
 * Mitigation (Action): DROP (SONiC default) — the port ignores PFC in that
 * class, its queued packets are dropped and new ones for the queue or arriving
 * on that ingress priority are dropped (DcbSwitch drop reason
 * DROP_PFC_WATCHDOG); FORWARD — PFC ignored, packets forwarded (lossy);
 * ALERT — only counted.
 *
 * Restoration: while stormed, each poll whose preceding interval saw no PFC
 * frame (XOFF or XON) decrements a RestorationTime countdown (restore when it
 * is ≤ PollInterval), any PFC frame resets it.
 */
class PfcWatchdog : public Object
{
  public:
    enum Action : uint8_t
    {
        DROP = 0,
        FORWARD,
        ALERT
    };

    static TypeId GetTypeId();
    PfcWatchdog();
    ~PfcWatchdog() override;

    /**
     * Watch \p sw (after its Setup); polling starts at \p start + PollInterval.
     * Per-port settings are the attributes unless ConfigureFromSonic set them.
     */
    void Install(Ptr<DcbSwitch> sw, Time start = Seconds(0));
    /**
     * Take PFC_WD settings from a loaded config_db: per port action,
     * detection_time, restoration_time, and the GLOBAL POLL_INTERVAL; ports
     * without a PFC_WD entry are not watched. Call before Install.
     */
    void ConfigureFromSonic(const SonicBufferConfig& config);

    bool IsStormed(uint32_t port, uint8_t cls) const;
    uint64_t GetStormsDetected() const;
    uint64_t GetStormsRestored() const;
    uint64_t GetStormsDetected(uint32_t port, uint8_t cls) const;

    /** (port, class). */
    using StormCallback = void (*)(uint32_t, uint8_t);

  protected:
    void DoDispose() override;

  private:
    /** Per (port, class) watchdog state. */
    struct QueueWatch
    {
        bool watched{false};
        Action action{DROP};
        Time detection;
        Time restoration;
        bool stormed{false};
        bool prevPaused{false};
        uint64_t prevXoffRx{0};
        uint64_t prevPfcRx{0};
        uint64_t prevOnsets{0};
        Time timeLeft;
        uint64_t storms{0};
    };

    void Poll();
    void Storm(uint32_t port, uint8_t cls, QueueWatch& q);
    void Restore(uint32_t port, uint8_t cls, QueueWatch& q);

    // Attributes
    Time m_poll;
    Time m_detection;
    Time m_restoration;
    Action m_action;
    uint8_t m_classes;

    bool m_fromSonic{false};
    std::vector<QueueWatch> m_sonicTemplate; //!< per port * 8 + class, from PFC_WD
    Ptr<DcbSwitch> m_switch;
    std::vector<QueueWatch> m_queues; //!< port * 8 + class
    EventId m_pollEvent;
    uint64_t m_detected{0};
    uint64_t m_restored{0};
    TracedCallback<uint32_t, uint8_t> m_stormDetectedTrace;
    TracedCallback<uint32_t, uint8_t> m_stormRestoredTrace;
};

} // namespace ns3

#endif /* PFC_WATCHDOG_H */
