/*
 * RED-style ECN marking on the instantaneous egress queue length (DCQCN's CP).
 */
#ifndef RED_ECN_MARKER_H
#define RED_ECN_MARKER_H

#include "ecn-marker.h"

#include "ns3/queue-size.h"
#include "ns3/random-variable-stream.h"

namespace ns3
{

/**
 * \ingroup dcb
 * Marks with probability 0 below Kmin, Pmax × (q − Kmin)/(Kmax − Kmin) between
 * Kmin and Kmax, and 1 above Kmax, q being the instantaneous queue length
 * (DCQCN SIGCOMM'15; spec §3.2) or, with Weight w > 0, its WRED average
 * avg += (q - avg) / 2^w (SAI WRED weight; spec §5). The attributes are the defaults of every
 * class; SetClassThresholds overrides one class, and EcnClasses disables marking in classes not
 * listed.
 */
class RedEcnMarker : public EcnMarker
{
  public:
    static TypeId GetTypeId();
    RedEcnMarker();

    /** Override the thresholds of class \p tc. */
    void SetClassThresholds(uint8_t tc, uint64_t kminBytes, uint64_t kmaxBytes, double pmax);
    /** \return the marking probability for a queue of \p queueBytes in class \p tc. */
    double GetProbability(uint8_t tc, uint64_t queueBytes) const;
    /** \return the averaged queue of class \p tc (Weight > 0), bytes. */
    double GetAverage(uint8_t tc) const;
    int64_t AssignStreams(int64_t stream) override;

  private:
    std::string DoCheckConfig() const override;
    bool DoShouldMark(uint8_t tc, uint64_t queueBytes) override;

    struct Thresholds
    {
        uint64_t kmin{0};
        uint64_t kmax{0};
        double pmax{0};
        bool overridden{false};
    };

    const Thresholds& Get(uint8_t tc) const;

    QueueSize m_kmin;
    QueueSize m_kmax;
    double m_pmax;
    uint8_t m_ecnClasses;
    uint8_t m_weight;
    std::array<double, 8> m_avg{};
    std::array<Thresholds, 8> m_class;
    mutable Thresholds m_default;
    Ptr<UniformRandomVariable> m_uniform;
};

} // namespace ns3

#endif /* RED_ECN_MARKER_H */
