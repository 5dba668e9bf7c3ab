#include "rdma-srnic-selective-repeat.h"

#include "ns3/host-model.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaSrnicSelectiveRepeat);

TypeId
RdmaSrnicSelectiveRepeat::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaSrnicSelectiveRepeat")
            .SetParent<RdmaSelectiveRepeat>()
            .SetGroupName("Rdma")
            .AddConstructor<RdmaSrnicSelectiveRepeat>()
            .AddAttribute("PcieLatency",
                          "One-way NIC-host PCIe latency of a posted write (a metadata record "
                          "to host memory, an ePSN write or a doorbell to the NIC). Default "
                          "550 ns: half the 1.1 us PCIe round trip SRNIC measures (NSDI'23 "
                          "6.2); labelled a model assumption.",
                          TimeValue(NanoSeconds(550)),
                          MakeTimeAccessor(&RdmaSrnicSelectiveRepeat::m_pcieLatency),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("PcieRoundTrip",
                          "PCIe read round trip for the NIC to fetch retry-queue entries "
                          "after a doorbell. Default 1.1 us, SRNIC's measured PCIe RTT "
                          "(NSDI'23 6.2).",
                          TimeValue(NanoSeconds(1100)),
                          MakeTimeAccessor(&RdmaSrnicSelectiveRepeat::m_pcieRoundTrip),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("SoftwareEventTime",
                          "CPU time of the software retransmission module per metadata "
                          "record (bitmap update and decision), served first come first "
                          "served. Default 50 ns: model assumption (about 150 cycles of a "
                          "poll-mode core; the paper gives only < 5 % CPU overall).",
                          TimeValue(NanoSeconds(50)),
                          MakeTimeAccessor(&RdmaSrnicSelectiveRepeat::m_softwareEventTime),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("RecordBytes",
                          "Payload of one loss-event metadata record over PCIe (QPN, PSN, "
                          "ePSN or lACK, SACK PSN: four 4-byte words). Default 16 B: model "
                          "assumption.",
                          UintegerValue(16),
                          MakeUintegerAccessor(&RdmaSrnicSelectiveRepeat::m_recordBytes),
                          MakeUintegerChecker<uint32_t>(1, 4096))
            .AddAttribute("RetryEntryBytes",
                          "One retry-queue entry fetched by the NIC (PSN, MSN, PSN offset: "
                          "the header-extension metadata). Default 16 B: model assumption.",
                          UintegerValue(16),
                          MakeUintegerAccessor(&RdmaSrnicSelectiveRepeat::m_retryEntryBytes),
                          MakeUintegerChecker<uint32_t>(1, 4096))
            .AddAttribute("TlpOverheadBytes",
                          "PCIe bytes around each transaction-layer packet: 4-DW header "
                          "16 B, sequence number 2 B, LCRC 4 B, framing 2 B (PCIe 3.0; "
                          "Neugebauer et al., SIGCOMM'18). Default 24 B.",
                          UintegerValue(24),
                          MakeUintegerAccessor(&RdmaSrnicSelectiveRepeat::m_tlpOverheadBytes),
                          MakeUintegerChecker<uint32_t>(0, 256))
            .AddTraceSource("PcieLossBytes",
                            "PCIe bytes spent on the slow path (records, ePSN writes, "
                            "doorbells, retry-queue reads), cumulative.",
                            MakeTraceSourceAccessor(&RdmaSrnicSelectiveRepeat::m_pcieLossBytes),
                            "ns3::TracedValueCallback::Uint64");
    return tid;
}

RdmaSrnicSelectiveRepeat::RdmaSrnicSelectiveRepeat() = default;

Ptr<RdmaLossRecovery>
RdmaSrnicSelectiveRepeat::Fork() const
{
    Ptr<RdmaSrnicSelectiveRepeat> copy = CopyObject<RdmaSrnicSelectiveRepeat>(this);
    copy->ResetState();
    copy->ResetSrnicState();
    return copy;
}

void
RdmaSrnicSelectiveRepeat::ResetSrnicState()
{
    m_rxRecovery = false;
    m_hwEpsn = 0;
    m_psnLeft = m_psnRight = 0;
    m_txRecovery = false;
    m_txRecoveryEnd = 0;
    m_retryQueue.clear();
    m_retryWake = EventId();
    m_records.clear();
    m_recordsInFlight = 0;
    m_retryBatch = 0;
    m_serveEvent = EventId();
    m_cpuFreeAt = Time(0);
    m_swActive = false;
    m_swEpsn = 0;
    // The slow path's bitmap is allocated when a QP first needs it (most QPs of a
    // large run never lose a packet): 8 B x BdpCap per QP otherwise.
    m_rxBitmap.clear();
    m_rxBitmap.shrink_to_fit();
    m_decided.clear();
    m_counters = RdmaSrnicCounters();
    m_pcieLossBytes = 0;
}

void
RdmaSrnicSelectiveRepeat::DoDispose()
{
    m_serveEvent.Cancel();
    m_retryWake.Cancel();
    m_records.clear();
    m_host = nullptr;
    m_retryQueue.clear();
    RdmaSelectiveRepeat::DoDispose();
}

bool
RdmaSrnicSelectiveRepeat::IsResponderInRecovery() const
{
    return m_rxRecovery;
}

bool
RdmaSrnicSelectiveRepeat::IsRequesterInRecovery() const
{
    return m_txRecovery;
}

uint64_t
RdmaSrnicSelectiveRepeat::GetPsnLeft() const
{
    return m_psnLeft;
}

uint64_t
RdmaSrnicSelectiveRepeat::GetPsnRight() const
{
    return m_psnRight;
}

uint64_t
RdmaSrnicSelectiveRepeat::GetHardwareEpsn() const
{
    return m_hwEpsn;
}

uint64_t
RdmaSrnicSelectiveRepeat::GetPcieLossBytes() const
{
    return m_pcieLossBytes;
}

const RdmaSrnicCounters&
RdmaSrnicSelectiveRepeat::GetSrnicCounters() const
{
    return m_counters;
}

void
RdmaSrnicSelectiveRepeat::CountPcie(uint32_t payloadBytes, uint32_t tlps)
{
    m_pcieLossBytes = m_pcieLossBytes + payloadBytes + tlps * m_tlpOverheadBytes;
}

// ------------------------------------------------------------------ responder (NIC)

RdmaLossRecovery::RxVerdict
RdmaSrnicSelectiveRepeat::DoRequestArrival(uint64_t psn, uint64_t expected)
{
    m_hwEpsn = expected;
    const RxVerdict verdict = Classify(psn, expected);
    if (!m_rxRecovery)
    {
        if (verdict != RxVerdict::Buffer)
        {
            return verdict; // fast path: in order, duplicate, or beyond the window
        }
        m_rxRecovery = true;
        m_counters.responderRecoveries++;
        m_psnLeft = m_psnRight = psn;
        Post(Record{Record::Kind::RxPacket, psn, expected, RdmaTxSequence(), Time(0)});
        return RxVerdict::Buffer;
    }
    if (verdict != RxVerdict::Accept && verdict != RxVerdict::Buffer)
    {
        return verdict;
    }
    // The most advanced run of consecutive PSNs since recovery began.
    if (psn == m_psnRight + 1)
    {
        m_psnRight = psn;
    }
    else if (psn > m_psnRight + 1)
    {
        m_psnLeft = m_psnRight = psn;
    }
    Post(Record{Record::Kind::RxPacket, psn, expected, RdmaTxSequence(), Time(0)});
    // Even the packet at ePSN is kept and SACKed: ePSN moves only when software says so.
    return RxVerdict::Buffer;
}

void
RdmaSrnicSelectiveRepeat::ApplyEpsn(uint64_t epsn)
{
    if (!m_rxRecovery || epsn <= m_hwEpsn)
    {
        return; // stale: the NIC is past it already
    }
    if (epsn >= m_psnLeft)
    {
        // Everything below epsn and the run [psn_left, psn_right] arrived.
        m_hwEpsn = m_psnRight + 1;
        m_rxRecovery = false;
        m_swActive = false;
        m_counters.exitsInRange++;
    }
    else
    {
        m_hwEpsn = epsn;
        m_counters.exitsBelow++;
    }
    NotifyDeliver(m_hwEpsn);
}

// ------------------------------------------------------------------ requester (NIC)

void
RdmaSrnicSelectiveRepeat::DoSequenceNak(RdmaTxSequence& seq, uint64_t psn, uint64_t sackPsn)
{
    if (!m_txRecovery)
    {
        m_txRecovery = true;
        m_counters.requesterRecoveries++;
        m_txRecoveryEnd = seq.high;
    }
    Post(Record{Record::Kind::TxNak, psn, sackPsn, seq, Time(0)});
}

void
RdmaSrnicSelectiveRepeat::DoTimeout(RdmaTxSequence& seq)
{
    if (!m_txRecovery)
    {
        m_txRecovery = true;
        m_counters.requesterRecoveries++;
    }
    m_txRecoveryEnd = std::max(m_txRecoveryEnd, seq.high);
    Post(Record{Record::Kind::TxTimeout, 0, 0, seq, Time(0)});
}

void
RdmaSrnicSelectiveRepeat::DropStaleRetries(const RdmaTxSequence& seq) const
{
    while (!m_retryQueue.empty() &&
           (m_retryQueue.front().psn < seq.una || IsSacked(m_retryQueue.front().psn)))
    {
        m_retryQueue.pop_front();
    }
}

bool
RdmaSrnicSelectiveRepeat::DoHasRetransmission(const RdmaTxSequence& seq) const
{
    DropStaleRetries(seq);
    return !m_retryQueue.empty() && m_retryQueue.front().visible <= Simulator::Now();
}

uint64_t
RdmaSrnicSelectiveRepeat::DoNextTransmitPsn(const RdmaTxSequence& seq)
{
    if (DoHasRetransmission(seq))
    {
        const uint64_t psn = m_retryQueue.front().psn;
        m_retryQueue.pop_front();
        RecordResend(psn, seq);
        return psn;
    }
    if (m_txRecovery && seq.una >= m_txRecoveryEnd && m_retryQueue.empty() && m_records.empty())
    {
        m_txRecovery = false;
    }
    return seq.nxt;
}

// ------------------------------------------------------------------ software module

void
RdmaSrnicSelectiveRepeat::Post(const Record& record)
{
    Record r = record;
    r.arrival = m_host ? Time::Max() : Simulator::Now() + m_pcieLatency;
    m_records.push_back(r);
    if (m_host)
    {
        // A posted DMA write into host memory; equal-sized writes on one path land in order.
        m_recordsInFlight++;
        m_host->RequestDma(m_hostRnic, m_hostMemory, HostModel::DMA_WRITE, m_recordBytes,
                           MakeCallback(&RdmaSrnicSelectiveRepeat::RecordLanded,
                                        Ptr<RdmaSrnicSelectiveRepeat>(this)));
    }
    CountPcie(m_recordBytes, 1);
    if (r.kind == Record::Kind::RxPacket)
    {
        m_counters.responderEvents++;
    }
    else
    {
        m_counters.requesterEvents++;
    }
    ScheduleService();
}

void
RdmaSrnicSelectiveRepeat::ScheduleService()
{
    if (m_records.empty() || m_serveEvent.IsRunning() || m_records.front().arrival == Time::Max())
    {
        return;
    }
    const Time start = std::max(m_records.front().arrival, m_cpuFreeAt);
    m_serveEvent = Simulator::Schedule(start + m_softwareEventTime - Simulator::Now(),
                                       &RdmaSrnicSelectiveRepeat::Serve, this);
}

void
RdmaSrnicSelectiveRepeat::Serve()
{
    const Record r = m_records.front();
    m_records.pop_front();
    m_cpuFreeAt = Simulator::Now();
    if (r.kind == Record::Kind::RxPacket)
    {
        SoftwareRxPacket(r.a, r.b);
    }
    else
    {
        SoftwareTx(r);
    }
    ScheduleService();
}

bool
RdmaSrnicSelectiveRepeat::SwReceived(uint64_t psn) const
{
    return !m_rxBitmap.empty() && m_rxBitmap[psn % m_rxBitmap.size()] == psn + 1;
}

void
RdmaSrnicSelectiveRepeat::SoftwareRxPacket(uint64_t psn, uint64_t epsn)
{
    if (!m_swActive)
    {
        m_swActive = true;
        m_swEpsn = epsn;
    }
    m_swEpsn = std::max(m_swEpsn, epsn);
    if (psn < m_swEpsn)
    {
        return; // a duplicate of something already below ePSN
    }
    if (m_rxBitmap.empty())
    {
        m_rxBitmap.assign(GetBdpCap(), 0);
    }
    m_rxBitmap[psn % m_rxBitmap.size()] = psn + 1;
    const uint64_t before = m_swEpsn;
    while (SwReceived(m_swEpsn))
    {
        m_swEpsn++;
    }
    if (m_swEpsn > before)
    {
        // Write the new ePSN into the QPC (a posted PCIe write to the NIC).
        m_counters.epsnUpdates++;
        CountPcie(8, 1);
        Simulator::Schedule(m_pcieLatency, &RdmaSrnicSelectiveRepeat::ApplyEpsn,
                            Ptr<RdmaSrnicSelectiveRepeat>(this), m_swEpsn);
    }
}

void
RdmaSrnicSelectiveRepeat::SoftwareTx(const Record& record)
{
    if (record.kind == Record::Kind::TxTimeout)
    {
        m_retryQueue.clear();
        DecideOnTimeout(record.seq);
    }
    else
    {
        DecideOnNak(record.seq, record.a, record.b);
    }
    m_decided.clear();
    TakeRetransmissions(m_decided);
    if (m_decided.empty())
    {
        return;
    }
    // Post the retransmissions on the QP's retry queue and ring its doorbell; the NIC
    // reads the entries back over PCIe before it can send them.
    const uint32_t batch = ++m_retryBatch;
    const Time visible = m_host ? Time::Max() : Simulator::Now() + m_pcieLatency + m_pcieRoundTrip;
    for (uint64_t psn : m_decided)
    {
        m_retryQueue.push_back(RetryEntry{psn, visible, batch});
    }
    m_counters.retryQueueBatches++;
    m_counters.retryQueueEntries += m_decided.size();
    CountPcie(8, 1);                                                           // doorbell
    CountPcie(static_cast<uint32_t>(m_decided.size()) * m_retryEntryBytes, 2); // read + completion
    if (m_host)
    {
        // The doorbell is an MMIO write; on it the NIC reads the entries by DMA.
        m_retryWake = Simulator::Schedule(m_pcieLatency, &RdmaSrnicSelectiveRepeat::IssueRetryRead,
                                          Ptr<RdmaSrnicSelectiveRepeat>(this), batch,
                                          static_cast<uint32_t>(m_decided.size()));
        return;
    }
    m_retryWake =
        Simulator::Schedule(visible - Simulator::Now(), &RdmaSrnicSelectiveRepeat::RetryVisible,
                            Ptr<RdmaSrnicSelectiveRepeat>(this));
}

void
RdmaSrnicSelectiveRepeat::DoSetHostDma(Ptr<HostModel> host, uint32_t rnic, uint32_t memory)
{
    m_host = host;
    m_hostRnic = rnic;
    m_hostMemory = memory;
}

void
RdmaSrnicSelectiveRepeat::RecordLanded(Time /* landed */)
{
    if (!m_host || m_recordsInFlight == 0)
    {
        return; // disposed, or the state was reset meanwhile
    }
    m_records[m_records.size() - m_recordsInFlight].arrival = Simulator::Now();
    m_recordsInFlight--;
    ScheduleService();
}

void
RdmaSrnicSelectiveRepeat::IssueRetryRead(uint32_t batch, uint32_t entries)
{
    if (!m_host)
    {
        return;
    }
    m_host->RequestDma(m_hostRnic, m_hostMemory, HostModel::DMA_READ,
                       uint64_t(entries) * m_retryEntryBytes,
                       MakeBoundCallback(&RdmaSrnicSelectiveRepeat::RetryReadLanded,
                                         Ptr<RdmaSrnicSelectiveRepeat>(this), batch));
}

void
RdmaSrnicSelectiveRepeat::RetryReadLanded(Ptr<RdmaSrnicSelectiveRepeat> self, uint32_t batch,
                                          Time /* landed */)
{
    if (!self->m_host)
    {
        return;
    }
    for (RetryEntry& e : self->m_retryQueue)
    {
        e.visible = e.batch == batch ? Simulator::Now() : e.visible;
    }
    self->NotifyTxReady();
}

void
RdmaSrnicSelectiveRepeat::RetryVisible()
{
    NotifyTxReady();
}

} // namespace ns3
