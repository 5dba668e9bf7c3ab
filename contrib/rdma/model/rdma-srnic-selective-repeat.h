/*
 * SRNIC's memory-free selective repeat (Wang et al., "SRNIC: A Scalable Architecture
 * for RDMA NICs", NSDI 2023, section 4.4.2): a hardware fast path for in-order packets
 * and a software slow path, over PCIe, that keeps the bitmaps in host memory.
 */
#ifndef RDMA_SRNIC_SELECTIVE_REPEAT_H
#define RDMA_SRNIC_SELECTIVE_REPEAT_H

#include "rdma-selective-repeat.h"

#include "ns3/event-id.h"
#include "ns3/host-model.h"
#include "ns3/traced-value.h"

#include <deque>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * Counters of SRNIC's slow path for one QP.
 */
struct RdmaSrnicCounters
{
    uint64_t responderRecoveries{0}; //!< times the responder entered loss recovery
    uint64_t responderEvents{0};     //!< out-of-order metadata records sent to software
    uint64_t epsnUpdates{0};         //!< ePSN writes from software to the NIC
    uint64_t exitsInRange{0};        //!< updates inside [psn_left, psn_right + 1]: recovery ends
    uint64_t exitsBelow{0};          //!< updates below psn_left: ePSN moves, recovery goes on
    uint64_t requesterRecoveries{0}; //!< times the requester entered loss recovery
    uint64_t requesterEvents{0};     //!< NAK/SACK and timeout records sent to software
    uint64_t retryQueueBatches{0};   //!< doorbells ringing the retry queue
    uint64_t retryQueueEntries{0};   //!< retransmissions posted on the retry queue
};

/**
 * \ingroup rdma
 * SRNIC selective repeat: the wire behaviour of RdmaSelectiveRepeat (SACK NAKs,
 * BDP-sized window, two-level RTO), with the NIC/host split of SRNIC section 4.4.2.
 *
 * Responder. While not in loss recovery, a packet whose PSN equals ePSN is handled by
 * the hardware alone (fast path). The first out-of-order packet puts the QP in loss
 * recovery; from then on the metadata (PSN, ePSN) of every arriving request packet is
 * written over PCIe to a software module, which marks it in the QP's bitmap in host
 * memory, while the NIC still places the data (header extensions) and answers with
 * a SACK NAK. The NIC tracks [psn_left, psn_right], the most advanced run of
 * consecutive PSNs seen since recovery began. The packet that fills ePSN is kept and
 * SACKed like the others (the cumulative ACK cannot move before software does); once
 * the bitmap shows it, software computes the new ePSN and writes it to the NIC. If it falls in
 * [psn_left, psn_right + 1] the NIC sets ePSN = psn_right + 1 and leaves recovery (this resolves
 * the race with metadata still in flight, paper Fig. 8); below psn_left, ePSN moves there and
 * recovery goes on. The queue pair then executes the kept packets in PSN order.
 *
 * Requester. ACKs advance lACK in hardware. A NAK/SACK, or a timeout, puts the QP in
 * loss recovery and its metadata (PSN, lACK, SACK PSN) goes to the software
 * retransmission module, which keeps the SACK bitmap in host memory, decides which
 * packets to resend (RdmaSelectiveRepeat's rules, lost retransmissions included),
 * and posts them on the QP's retry queue with a doorbell; the NIC fetches the retry
 * queue entries over PCIe and sends them ahead of new data. Recovery ends when lACK
 * passes the highest PSN sent when it began and the retry queue is empty.
 *
 * Software is a FIFO server per QP: each record waits PcieLatency to reach host
 * memory, then takes SoftwareEventTime of CPU. PCIe bytes of the slow path (records,
 * ePSN writes, doorbells, retry-queue reads, each with TlpOverheadBytes) are counted
 * in the PcieLossBytes trace; the bitmaps are host memory and cost no on-chip SRAM.
 * With a host model on the NIC (SetHostDma) records and retry-queue reads are DMAs on
 * it instead of fixed latencies, so they share the host's PCIe with data DMA; the
 * doorbell and ePSN writes (CPU MMIO writes) keep PcieLatency.
 */
class RdmaSrnicSelectiveRepeat : public RdmaSelectiveRepeat
{
  public:
    static TypeId GetTypeId();
    RdmaSrnicSelectiveRepeat();
    Ptr<RdmaLossRecovery> Fork() const override;

    /** \return true while the responder is in loss recovery. */
    bool IsResponderInRecovery() const;
    /** \return true while the requester is in loss recovery. */
    bool IsRequesterInRecovery() const;
    /** \return psn_left of the responder's current recovery. */
    uint64_t GetPsnLeft() const;
    /** \return psn_right of the responder's current recovery. */
    uint64_t GetPsnRight() const;
    /** \return the ePSN the NIC holds (the responder's fast-path state). */
    uint64_t GetHardwareEpsn() const;
    /** \return PCIe bytes spent on loss events so far (both directions). */
    uint64_t GetPcieLossBytes() const;
    const RdmaSrnicCounters& GetSrnicCounters() const;

  protected:
    void DoDispose() override;

  private:
    RxVerdict DoRequestArrival(uint64_t psn, uint64_t expected) override;
    void DoSequenceNak(RdmaTxSequence& seq, uint64_t psn, uint64_t sackPsn) override;
    void DoTimeout(RdmaTxSequence& seq) override;
    bool DoHasRetransmission(const RdmaTxSequence& seq) const override;
    void DoSetHostDma(Ptr<HostModel> host, uint32_t rnic, uint32_t memory) override;
    uint64_t DoNextTransmitPsn(const RdmaTxSequence& seq) override;

    /** A metadata record from the NIC to the software module. */
    struct Record
    {
        enum class Kind : uint8_t
        {
            RxPacket, //!< responder: a = PSN, b = ePSN
            TxNak,    //!< requester: a = NAK PSN (lACK + 1), b = SACK PSN, seq
            TxTimeout //!< requester: seq
        };

        Kind kind;
        uint64_t a;
        uint64_t b;
        RdmaTxSequence seq; //!< the requester's sequence when the NIC wrote the record
        Time arrival;       //!< when it reaches host memory (Time::Max(): DMA in flight)
    };

    /** A retry queue entry as the NIC sees it. */
    struct RetryEntry
    {
        uint64_t psn;
        Time visible;   //!< once the NIC has fetched it (Time::Max(): read in flight)
        uint32_t batch; //!< the doorbell it came with
    };

    void ResetSrnicState();
    void Post(const Record& record);
    void ScheduleService();
    void Serve();
    void SoftwareRxPacket(uint64_t psn, uint64_t epsn);
    void SoftwareTx(const Record& record);
    void ApplyEpsn(uint64_t epsn);
    void RetryVisible();
    /** HostModel::DmaCallback of a record's DMA write (the landing time is Now()). */
    void RecordLanded(Time landed);
    void IssueRetryRead(uint32_t batch, uint32_t entries);
    /**
     * HostModel::DmaCallback of a retry read, bound to the module and the doorbell batch
     * (MakeBoundCallback: a Callback built from a lambda needs ns-3 >= 3.37).
     */
    static void RetryReadLanded(Ptr<RdmaSrnicSelectiveRepeat> self, uint32_t batch, Time landed);
    void CountPcie(uint32_t payloadBytes, uint32_t tlps);
    bool SwReceived(uint64_t psn) const;
    void DropStaleRetries(const RdmaTxSequence& seq) const;

    Time m_pcieLatency;
    Time m_pcieRoundTrip;
    Time m_softwareEventTime;
    uint32_t m_recordBytes;
    uint32_t m_retryEntryBytes;
    uint32_t m_tlpOverheadBytes;

    // host model (null: fixed PCIe latencies)
    Ptr<HostModel> m_host;
    uint32_t m_hostRnic{0};
    uint32_t m_hostMemory{0};
    uint32_t m_recordsInFlight{0}; //!< records whose DMA write has not landed (the tail)
    uint32_t m_retryBatch{0};

    // NIC (fast-path) state
    bool m_rxRecovery{false};
    uint64_t m_hwEpsn{0};
    uint64_t m_psnLeft{0};
    uint64_t m_psnRight{0};
    bool m_txRecovery{false};
    uint64_t m_txRecoveryEnd{0};
    mutable std::deque<RetryEntry> m_retryQueue;
    EventId m_retryWake;

    // software module state (host memory)
    std::deque<Record> m_records; //!< written by the NIC, not yet processed
    EventId m_serveEvent;
    Time m_cpuFreeAt{0};
    bool m_swActive{false};
    uint64_t m_swEpsn{0};
    std::vector<uint64_t> m_rxBitmap; //!< ring: slot psn % cap holds psn + 1 if received
    std::deque<uint64_t> m_decided;   //!< scratch for retransmission decisions

    RdmaSrnicCounters m_counters;
    TracedValue<uint64_t> m_pcieLossBytes;
};

} // namespace ns3

#endif /* RDMA_SRNIC_SELECTIVE_REPEAT_H */
