#include "rdma-responder.h"

#include "roce-imm-dt-header.h"

#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

namespace
{
RoceOpcode
ResponseOpcode(uint32_t index, uint32_t count)
{
    const bool first = index == 0;
    const bool last = index + 1 == count;
    return first ? (last ? RoceOpcode::ReadResponseOnly : RoceOpcode::ReadResponseFirst)
                 : (last ? RoceOpcode::ReadResponseLast : RoceOpcode::ReadResponseMiddle);
}
} // namespace

void
RdmaResponder::Setup(const Config& config)
{
    m_owner = config.owner;
    m_qp = config.qp;
    m_qpn = config.qpn;
    m_mtu = config.mtu;
    m_ackInterval = config.ackInterval;
    m_ext.SetEnabled(config.srnicExtensions);
    m_cc = config.cc;
    m_loss = config.loss;
    m_counters = config.counters;
}

void
RdmaResponder::SetRemoteQpn(uint32_t remoteQpn)
{
    m_remoteQpn = remoteQpn;
}

void
RdmaResponder::Dispose()
{
    m_oooRing.clear();
    m_cc = nullptr;
    m_loss = nullptr;
    m_owner = nullptr;
    m_qp = nullptr;
}

uint64_t
RdmaResponder::GetExpectedPsn() const
{
    return m_epsn;
}

void
RdmaResponder::PostRecv(const RdmaRecvRequest& rr, bool qpInError)
{
    if (qpInError)
    {
        m_owner->NotifyCompletion(
            RdmaCompletion::Flushed(m_qpn, rr.wrId, RdmaVerb::Send, true, Simulator::Now()));
        return;
    }
    m_rq.push_back(RecvWqe{rr, Simulator::Now()});
}

void
RdmaResponder::Flush()
{
    m_readJobs.clear();
    m_cnpInNextAck = false;
    m_rxRecvActive = false;
    while (!m_rq.empty())
    {
        const RecvWqe r = m_rq.front();
        m_rq.pop_front();
        m_owner->NotifyCompletion(
            RdmaCompletion::Flushed(m_qpn, r.rr.wrId, RdmaVerb::Send, true, r.postTime));
    }
}

// ------------------------------------------------------------------ READ responses

bool
RdmaResponder::HasReadResponse() const
{
    return !m_readJobs.empty();
}

Ptr<Packet>
RdmaResponder::BuildReadResponse()
{
    ReadResponseJob& job = m_readJobs.front();
    const uint64_t offset = static_cast<uint64_t>(job.next) * m_mtu;
    const uint32_t payload = static_cast<uint32_t>(std::min<uint64_t>(m_mtu, job.length - offset));
    Ptr<Packet> p = Create<Packet>(payload);
    const RoceOpcode op = ResponseOpcode(job.next, job.nPackets);
    if (RoceBthHeader::HasAeth(op))
    {
        RoceAethHeader aeth;
        aeth.SetAck();
        aeth.SetMsn(m_msn);
        p->AddHeader(aeth);
    }
    m_ext.AddToReadResponse(p, job.echo, offset, job.next);
    const uint64_t psn = job.firstPsn + job.next;
    RoceBthHeader bth;
    bth.SetOpcode(op);
    bth.SetDestQp(m_remoteQpn);
    bth.SetPsn(RoceBthHeader::WirePsn(psn));
    p->AddHeader(bth);
    m_counters->dataPacketsSent++;
    m_counters->payloadBytesSent += payload;
    if (psn < m_responseHigh)
    {
        m_counters->retransmittedPackets++; // a re-executed READ resends responses
    }
    m_responseHigh = std::max(m_responseHigh, psn + 1);
    m_cc->OnDataSent(payload);
    if (++job.next == job.nPackets)
    {
        m_readJobs.pop_front();
    }
    return p;
}

RdmaResponder::ReadResponseJob
RdmaResponder::MakeReadJob(uint64_t psn, const RoceRethHeader& reth,
                           const RoceSrnicExtHeader& ext) const
{
    const uint64_t length = reth.GetDmaLength();
    const uint32_t n = static_cast<uint32_t>(std::max<uint64_t>(1, (length + m_mtu - 1) / m_mtu));
    return ReadResponseJob{psn, n, 0, length, m_ext.MakeReadEcho(ext)};
}

// ------------------------------------------------------------------ requests

void
RdmaResponder::NoteCongestionExperienced(bool ceMarked)
{
    m_ceSinceAck = m_ceSinceAck || ceMarked;
}

void
RdmaResponder::RequestCnpInAck()
{
    m_cnpInNextAck = true;
}

void
RdmaResponder::ReceiveRequest(const RoceBthHeader& bth, Ptr<Packet> packet, bool ceMarked)
{
    if (m_unackedPackets > 0 && ceMarked != m_ceSinceAck && m_cc->WantsEcnEcho())
    {
        // DCTCP receiver state machine (RFC 8257 section 3.2): the CE state changed, so
        // acknowledge the packets so far with their own echo before counting this one;
        // with AckInterval > 1 every ACK's BECN then describes all the packets it covers.
        SendAck(m_epsn - 1);
    }
    m_ceSinceAck = m_ceSinceAck || ceMarked;
    if (bth.GetIntHops() != 0 && !bth.GetIntEcho())
    {
        packet->RemoveTrailer(m_intEcho); // HPCC: the next ACK/NAK echoes it
    }
    const uint64_t psn = RoceBthHeader::UnwrapPsn(bth.GetPsn(), m_epsn);
    NoteArrivalOrder(psn);
    HandleRequest(psn, bth, packet);
}

void
RdmaResponder::NoteArrivalOrder(uint64_t psn)
{
    if (psn >= m_highestPsnPlusOne)
    {
        m_highestPsnPlusOne = psn + 1;
    }
    else if (psn + 1 < m_highestPsnPlusOne)
    {
        m_counters->reorderedPackets++;
        m_counters->maxReorderDistance =
            std::max(m_counters->maxReorderDistance, m_highestPsnPlusOne - 1 - psn);
    }
}

void
RdmaResponder::HandleRequest(uint64_t psn, const RoceBthHeader& bth, Ptr<Packet> packet)
{
    switch (m_loss->OnRequestArrival(psn, m_epsn))
    {
        case RdmaLossRecovery::RxVerdict::Accept:
            m_nakSent = false;
            ExecuteRequest(psn, bth, packet);
            if (!m_oooRing.empty())
            {
                DrainInOrder();
            }
            return;
        case RdmaLossRecovery::RxVerdict::Buffer:
            BufferOutOfOrder(psn, bth, packet);
            return;
        case RdmaLossRecovery::RxVerdict::Duplicate:
            m_counters->duplicatesReceived++;
            if (bth.GetOpcode() == RoceOpcode::ReadRequest)
            {
                ReexecuteRead(psn, packet);
                return;
            }
            SendAck(m_epsn - 1);
            return;
        case RdmaLossRecovery::RxVerdict::OutOfOrder:
            m_counters->outOfOrderDropped++;
            if (!m_nakSent)
            {
                RoceSrnicExtHeader ext;
                m_ext.ReadRequest(psn, bth.GetOpcode(), packet, false, ext, m_answerEcho);
                m_nakSent = true;
                SendNak(m_epsn, static_cast<uint8_t>(RoceNakCode::PsnSequenceError), false);
            }
            return;
    }
}

void
RdmaResponder::ReexecuteRead(uint64_t psn, Ptr<Packet> packet)
{
    // Re-execute the READ from the requested PSN (IBTA 9.7.5.1.3). A go-back requester
    // has gone back and resends every request from there in order, so the responses
    // queued at or after this PSN are void; those before it are not: they may be the
    // re-executed rest of an earlier READ of the same go-back, which the requester is
    // waiting for (voiding them too let two outstanding READs starve each other). A
    // selective-repeat requester asks for lost responses alone, sent ahead of the
    // queued ones.
    RoceSrnicExtHeader ext;
    m_ext.ReadRequest(psn, RoceOpcode::ReadRequest, packet, true, ext, m_answerEcho);
    RoceRethHeader reth;
    packet->RemoveHeader(reth);
    if (m_loss->IsSelective())
    {
        m_readJobs.push_front(MakeReadJob(psn, reth, ext));
    }
    else
    {
        m_readJobs.erase(std::remove_if(m_readJobs.begin(), m_readJobs.end(),
                                        [psn](const ReadResponseJob& job)
                                        { return job.firstPsn + job.nPackets > psn; }),
                         m_readJobs.end());
        m_readJobs.push_back(MakeReadJob(psn, reth, ext));
    }
    m_owner->NotifyTxWork(m_qp);
}

void
RdmaResponder::BufferOutOfOrder(uint64_t psn, const RoceBthHeader& bth, Ptr<Packet> packet)
{
    if (m_oooRing.empty())
    {
        m_oooRing.resize(m_loss->GetInFlightCap());
    }
    OutOfOrderSlot& slot = m_oooRing[psn % m_oooRing.size()];
    if (slot.psnPlusOne == psn + 1)
    {
        m_counters->duplicatesReceived++;
    }
    else
    {
        // The loss recovery's window keeps psn within one ring of m_epsn, so a slot
        // never holds a packet still waiting.
        slot.psnPlusOne = psn + 1;
        slot.bth = bth;
        slot.packet = packet;
        m_counters->outOfOrderBuffered++;
    }
    RoceSrnicExtHeader ext;
    m_ext.ReadRequest(psn, bth.GetOpcode(), packet, false, ext, m_answerEcho); // SACK echoes it
    SendNak(m_epsn, static_cast<uint8_t>(RoceNakCode::PsnSequenceError), false, psn);
}

void
RdmaResponder::DeliverKept(uint64_t limit)
{
    if (!m_oooRing.empty())
    {
        DrainInOrder(limit);
    }
}

void
RdmaResponder::DrainInOrder(uint64_t limit)
{
    // Kept packets are executed as the expected PSN reaches them: every message
    // completes, and its data is reported placed, only once all its packets arrived.
    // (SRNIC places them in the user buffer on arrival, located by the header
    // extensions; completions, which this model reports, happen at the same time.)
    while (m_epsn < limit)
    {
        OutOfOrderSlot& slot = m_oooRing[m_epsn % m_oooRing.size()];
        if (slot.psnPlusOne != m_epsn + 1)
        {
            return;
        }
        const uint64_t psn = m_epsn;
        const RoceBthHeader bth = slot.bth;
        Ptr<Packet> packet = slot.packet;
        slot.psnPlusOne = 0;
        slot.packet = nullptr;
        ExecuteRequest(psn, bth, packet);
        if (m_epsn == psn)
        {
            return; // not executed (RNR): the requester resends it
        }
    }
}

void
RdmaResponder::ExecuteRequest(uint64_t psn, const RoceBthHeader& bth, Ptr<Packet> packet)
{
    const RoceOpcode op = bth.GetOpcode();
    RoceSrnicExtHeader ext;
    m_ext.ReadRequest(psn, op, packet, true, ext, m_answerEcho);
    if (op == RoceOpcode::ReadRequest)
    {
        RoceRethHeader reth;
        packet->RemoveHeader(reth);
        const ReadResponseJob job = MakeReadJob(psn, reth, ext);
        m_readJobs.push_back(job);
        m_epsn = psn + job.nPackets;
        m_msn = (m_msn + 1) & RoceAethHeader::MSN_MASK;
        m_owner->NotifyTxWork(m_qp);
        return;
    }
    const bool writeImm = RoceBthHeader::IsWrite(op) && RoceBthHeader::HasImmDt(op);
    if (writeImm && m_rq.empty())
    {
        // A WRITE with immediate consumes a receive WQE (IBTA 9.7.4.1.4): without one
        // nothing of this packet is executed and the requester retries it.
        SendNak(psn, 0, true);
        return;
    }
    if (RoceBthHeader::HasReth(op))
    {
        RoceRethHeader reth;
        packet->RemoveHeader(reth);
        m_rxRemoteBase = reth.GetVirtualAddress();
    }
    uint32_t imm = 0;
    if (RoceBthHeader::HasImmDt(op))
    {
        RoceImmDtHeader immDt;
        packet->RemoveHeader(immDt);
        imm = immDt.GetImmediate();
    }
    if (RoceBthHeader::IsFirstOrOnly(op))
    {
        m_rxMessageOffset = 0;
        if (RoceBthHeader::IsSend(op))
        {
            if (m_rq.empty())
            {
                // Receiver not ready: nothing is executed, the requester retries.
                SendNak(psn, 0, true);
                return;
            }
            m_rxRecvActive = true;
        }
    }
    const uint32_t bytes = packet->GetSize();
    if (RoceBthHeader::IsWrite(op))
    {
        m_owner->NotifyDataPlaced(m_qpn, m_rxRemoteBase + m_rxMessageOffset, bytes);
    }
    else if (m_rxRecvActive)
    {
        m_owner->NotifyDataPlaced(m_qpn, m_rxMessageOffset, bytes);
    }
    m_rxMessageOffset += bytes;
    m_epsn = psn + 1;
    if (RoceBthHeader::IsLastOrOnly(op))
    {
        m_msn = (m_msn + 1) & RoceAethHeader::MSN_MASK;
        if (RoceBthHeader::IsSend(op) && m_rxRecvActive)
        {
            m_rxRecvActive = false;
            CompleteReceive(RdmaVerb::Send, false, 0);
        }
        else if (writeImm)
        {
            CompleteReceive(RdmaVerb::Write, true, imm);
        }
        m_owner->NotifyMessageReceived(m_qpn, m_rxMessageOffset);
    }
    if (++m_unackedPackets >= m_ackInterval || bth.GetAckRequest() || m_cnpInNextAck)
    {
        SendAck(psn);
    }
}

void
RdmaResponder::CompleteReceive(RdmaVerb verb, bool hasImm, uint32_t imm)
{
    const RecvWqe r = m_rq.front();
    m_rq.pop_front();
    RdmaCompletion c;
    c.qpn = m_qpn;
    c.wrId = r.rr.wrId;
    c.verb = verb;
    c.receive = true;
    c.hasImm = hasImm;
    c.imm = imm;
    // A SEND longer than its receive buffer (a WRITE with immediate places no data in it).
    if (verb == RdmaVerb::Send && m_rxMessageOffset > r.rr.length)
    {
        c.status = RdmaWcStatus::LengthError;
    }
    c.bytes = m_rxMessageOffset;
    c.postTime = r.postTime;
    c.completionTime = Simulator::Now();
    m_owner->NotifyCompletion(c);
}

// ------------------------------------------------------------------ acknowledgements

void
RdmaResponder::SendAck(uint64_t psn)
{
    RoceAethHeader aeth;
    aeth.SetAck();
    // Window algorithms (DCTCP) read congestion from ACKs: echo CE in BECN.
    SendAcknowledge(psn, aeth, m_ceSinceAck && m_cc->WantsEcnEcho());
    m_unackedPackets = 0;
    m_ceSinceAck = false;
    m_counters->acksSent++;
}

void
RdmaResponder::SendNak(uint64_t psn, uint8_t code, bool rnr, uint64_t sackPsn)
{
    RoceAethHeader aeth;
    if (rnr)
    {
        aeth.SetRnrNak(1);
    }
    else
    {
        aeth.SetNak(static_cast<RoceNakCode>(code));
    }
    if (sackPsn != RdmaLossRecovery::NO_SACK)
    {
        RoceSackHeader sack;
        sack.SetSackPsn(RoceBthHeader::WirePsn(sackPsn));
        SendAcknowledge(psn, aeth, false, &sack);
    }
    else
    {
        SendAcknowledge(psn, aeth, false);
    }
    m_counters->naksSent++;
}

void
RdmaResponder::SendAcknowledge(uint64_t psn, RoceAethHeader& aeth, bool becn,
                               const RoceSackHeader* sack)
{
    aeth.SetMsn(m_msn);
    Ptr<Packet> p = Create<Packet>();
    if (sack)
    {
        p->AddHeader(*sack);
    }
    p->AddHeader(aeth);
    m_ext.AddToAcknowledge(p, m_answerEcho);
    RoceBthHeader bth;
    bth.SetOpcode(RoceOpcode::Acknowledge);
    bth.SetDestQp(m_remoteQpn);
    bth.SetPsn(RoceBthHeader::WirePsn(psn));
    if (m_cnpInNextAck)
    {
        // DCQCN notification point with CnpDelivery AckBecn: this ACK/NAK is the CNP.
        becn = true;
        m_cnpInNextAck = false;
        m_counters->cnpsSent++;
        m_counters->cnpsSentInAck++;
    }
    bth.SetBecn(becn);
    if (m_intEcho.GetCapacity() != 0)
    {
        p->AddTrailer(m_intEcho);
        bth.SetIntHops(m_intEcho.GetCapacity());
        bth.SetIntEcho(true);
    }
    p->AddHeader(bth);
    m_owner->SendControl(m_qp, p, false);
}

} // namespace ns3
