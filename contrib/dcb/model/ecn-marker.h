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
 * Decides whether an ECN-capable packet entering an egress queue gets CE.
 * Public non-virtual entry point, private hook, per-class counters.
 */
class EcnMarker : public Object
{
  public:
    static TypeId GetTypeId();
    EcnMarker();
    ~EcnMarker() override;

    /**
     * \param tc traffic class of the egress queue
     * \param queueBytes bytes in that queue before this packet
     * \return true if the packet is to be marked CE
     */
    bool ShouldMark(uint8_t tc, uint64_t queueBytes);

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
};

} // namespace ns3

#endif /* ECN_MARKER_H */
