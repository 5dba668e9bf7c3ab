/*
 * ECN marking decision at a switch egress queue.
 */
#ifndef ECN_MARKER_H
#define ECN_MARKER_H

#include "ns3/object.h"

#include <array>
#include <string>

namespace ns3
{

/**
 * \ingroup dcb
 * Decides whether an ECN-capable packet entering (or, with MarkingPoint
 * Dequeue, leaving) an egress queue gets CE.
 * Public non-virtual entry point, private hook, per-class counters.
 */
class EcnMarker : public Object
{
  public:
    /** Where the queue length is sampled and the mark applied. */
    enum MarkingPoint : uint8_t
    {
        ENQUEUE = 0, //!< on arrival, on the queue ahead of the packet
        DEQUEUE      //!< when the packet leaves, on the queue behind it
    };

    static TypeId GetTypeId();
    EcnMarker();
    ~EcnMarker() override;

    /**
     * \param tc traffic class of the egress queue
     * \param queueBytes bytes in that queue ahead of this packet (enqueue) or
     *        left behind it (dequeue)
     * \return true if the packet is to be marked CE
     */
    bool ShouldMark(uint8_t tc, uint64_t queueBytes);

    /** \return true if the marker decides at dequeue (MarkingPoint attribute). */
    bool MarksAtDequeue() const { return m_point == DEQUEUE; }

    /** \return "" if the configuration is usable, else the reason (naming the attribute). */
    std::string CheckConfig() const;

    /** \return packets marked CE in class \p tc. */
    uint64_t GetMarks(uint8_t tc) const;

    /** Use \p stream for the random variables; \return streams used. */
    virtual int64_t AssignStreams(int64_t stream) = 0;

  private:
    virtual std::string DoCheckConfig() const;
    virtual bool DoShouldMark(uint8_t tc, uint64_t queueBytes) = 0;

    std::array<uint64_t, 8> m_marks{};
    MarkingPoint m_point{ENQUEUE};
};

} // namespace ns3

#endif /* ECN_MARKER_H */
