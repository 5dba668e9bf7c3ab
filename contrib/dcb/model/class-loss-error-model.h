/*
 * Random frame loss in chosen traffic classes: Bernoulli or Gilbert-Elliott bursts.
 */
#ifndef CLASS_LOSS_ERROR_MODEL_H
#define CLASS_LOSS_ERROR_MODEL_H

#include "ns3/error-model.h"
#include "ns3/random-variable-stream.h"

namespace ns3
{

/**
 * \ingroup dcb
 * An ErrorModel for DcbNetDevice::ReceiveErrorModel that loses data frames of the
 * traffic classes in ClassMask (the 802.1Q PCP of the frame; untagged frames are
 * class 0) and passes every other frame untouched, without drawing a random number
 * for it. PFC frames never reach a receive error model (DcbNetDevice handles MAC
 * control frames first), so they are not lost.
 *
 * Model Bernoulli: each frame is lost with probability Rate. Model GilbertElliott
 * (Gilbert 1960, Elliott 1963): a two-state Markov chain advanced once per frame
 * of the selected classes, good -> bad with probability P, bad -> good with R; the
 * frame is then lost with probability LossGood or LossBad of the state it finds.
 * The mean burst length is 1/R frames and the stationary loss rate
 * (R * LossGood + P * LossBad) / (P + R).
 *
 * Per frame: one 16-byte copy of the header and one or two draws; no allocation.
 */
class ClassLossErrorModel : public ErrorModel
{
  public:
    /** The loss process (an unscoped enum: ns-3's EnumValue takes an int). */
    enum Model
    {
        BERNOULLI,
        GILBERT_ELLIOTT,
    };

    static TypeId GetTypeId();
    ClassLossErrorModel();

    /** \return the number of streams used (1). */
    int64_t AssignStreams(int64_t stream);

    /** \return frames of the selected classes seen so far. */
    uint64_t GetFramesSeen() const;
    /** \return frames lost so far. */
    uint64_t GetFramesLost() const;
    /** \return true while the Gilbert-Elliott chain is in its bad state. */
    bool IsInBadState() const;

    /** \return the 802.1Q PCP of an Ethernet \p frame (0 when untagged or too short). */
    static uint8_t GetFrameClass(Ptr<const Packet> frame);

  private:
    bool DoCorrupt(Ptr<Packet> p) override;
    void DoReset() override;

    uint8_t m_classMask{0xff};
    Model m_model{BERNOULLI};
    double m_rate{0};
    double m_p{0};
    double m_r{1};
    double m_lossGood{0};
    double m_lossBad{1};
    bool m_bad{false};
    uint64_t m_seen{0};
    uint64_t m_lost{0};
    Ptr<UniformRandomVariable> m_uniform;
};

} // namespace ns3

#endif /* CLASS_LOSS_ERROR_MODEL_H */
