#include "rdma-recovery-timers.h"

#include "ns3/simulator.h"

namespace ns3
{

void
RdmaRecoveryTimers::Setup(const RdmaTxSequence* seq, Ptr<const RdmaLossRecovery> loss,
                          Time rnrTimer, const Hooks& hooks)
{
    m_seq = seq;
    m_loss = loss;
    m_rnrTimer = rnrTimer;
    m_hooks = hooks;
    m_rto.SetFunction(MakeCallback(&RdmaRecoveryTimers::RetransmitTimeout, this));
}

void
RdmaRecoveryTimers::Dispose()
{
    Cancel();
    m_rto.Stop(); // its pending event too
    m_loss = nullptr;
    m_hooks = Hooks{};
}

void
RdmaRecoveryTimers::Cancel()
{
    m_rto.Cancel();
    m_restartOnSend = false;
    m_rnrEvent.Cancel();
    m_nakEvent.Cancel();
}

void
RdmaRecoveryTimers::Arm()
{
    if (m_seq->una < m_seq->high && (!m_rto.IsRunning() || m_restartOnSend))
    {
        m_rto.Schedule(m_loss->GetRetransmitTimeout(*m_seq));
    }
    m_restartOnSend = false;
}

bool
RdmaRecoveryTimers::IsRetransmitPending() const
{
    return m_rto.IsRunning();
}

bool
RdmaRecoveryTimers::IsNakPending() const
{
    return m_nakEvent.IsRunning();
}

void
RdmaRecoveryTimers::OnProgress()
{
    m_retries = 0;
    m_rto.Cancel();
    Arm();
}

void
RdmaRecoveryTimers::RetransmitTimeout()
{
    if (m_seq->una >= m_seq->high)
    {
        return;
    }
    if (m_nakEvent.IsRunning())
    {
        // A NAK's rewind is already under way: no second go-back.
        Arm();
        return;
    }
    if (m_restartOnSend && !m_hooks.heldUntil.IsNull())
    {
        // The previous timeout's resend has not left: the QP's rate limiter holds it (a
        // congestion control pacing below one packet per RTT, as Swift does, spaces packets
        // by more than a timeout). A NIC's transport timer runs from the send of a request
        // packet (IBTA Vol. 1 9.7.6.1, its period in C9-141) and each expiry resends, so no
        // retry is spent before that resend goes: wait one timeout past its release.
        const Time release = m_hooks.heldUntil();
        const Time now = Simulator::Now();
        if (release > now)
        {
            m_rto.Schedule(release - now + m_loss->GetRetransmitTimeout(*m_seq));
            return;
        }
    }
    const bool exhausted = ++m_retries > m_loss->GetRetryLimit();
    m_hooks.timeout(exhausted);
    if (!exhausted && m_seq->una < m_seq->high && !m_rto.IsRunning())
    {
        // Nothing was sent at once (the resend waits for the port, the loss recovery's
        // slow path, or found nothing to resend): packets are outstanding, so a timer must
        // stay pending. The first packet sent restarts it from its send time (Arm).
        m_rto.Schedule(m_loss->GetRetransmitTimeout(*m_seq));
        m_restartOnSend = true;
    }
}

void
RdmaRecoveryTimers::StartRnrWait()
{
    m_rnrWait = true;
    m_rnrEvent.Cancel();
    m_rnrEvent = Simulator::Schedule(m_rnrTimer, &RdmaRecoveryTimers::RnrWaitOver, this);
}

bool
RdmaRecoveryTimers::IsRnrWait() const
{
    return m_rnrWait;
}

void
RdmaRecoveryTimers::RnrWaitOver()
{
    m_rnrWait = false;
    m_hooks.rnrWaitOver();
}

void
RdmaRecoveryTimers::OnSequenceNak(uint64_t psn, uint64_t sack)
{
    const Time reaction = m_loss->GetNakReactionTime();
    if (reaction.IsZero())
    {
        m_hooks.sequenceNak(psn, sack);
    }
    else if (!m_nakEvent.IsRunning())
    {
        // The responder NAKs a gap once; the transmit engine keeps sending meanwhile.
        m_nakEvent =
            Simulator::Schedule(reaction, &RdmaRecoveryTimers::ApplyDelayedNak, this, psn, sack);
    }
}

void
RdmaRecoveryTimers::ApplyDelayedNak(uint64_t psn, uint64_t sack)
{
    // The resend starts now: its timer runs from here, not from a deferral during the wait.
    m_rto.Cancel();
    m_hooks.sequenceNak(psn, sack);
    Arm();
}

} // namespace ns3
