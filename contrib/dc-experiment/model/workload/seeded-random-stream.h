/*
 * A random stream with its own seed, for generators that run at load time.
 */
#ifndef SEEDED_RANDOM_STREAM_H
#define SEEDED_RANDOM_STREAM_H

#include "ns3/rng-stream.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * ns-3's MRG32k3a generator (RngStream) at an explicit seed, stream and run, with the
 * draws of ns-3's UniformRandomVariable and ExponentialRandomVariable.
 *
 * Why not a RandomVariableStream: those take their seed and run from the global
 * RngSeedManager when their stream is assigned, so a generator that runs while an
 * experiment file is loaded (before the run sets the global seed) could only get the
 * experiment's seed by setting the global one. This stream is the one a
 * RandomVariableStream given stream number \c stream draws from under RngSeedManager
 * seed \c seed and run \c run (RandomVariableStream::SetStream: RngStream(seed,
 * 2^63 + stream, run)), and each draw below is the arithmetic of the ns-3 variable it
 * names, so the numbers are those a RandomVariableStream would give (the
 * workload tests compare them draw for draw).
 */
class SeededRandomStream
{
  public:
    /**
     * \param seed the experiment's seed (RngSeedManager's role)
     * \param stream the stream number (as RandomVariableStream::SetStream takes it, >= 0)
     * \param run the run (substream); 1, as ExperimentRunner sets it for the simulation
     */
    SeededRandomStream(uint32_t seed, int64_t stream, uint64_t run = 1);

    /** \return a uniform number in (0, 1) (RngStream::RandU01). */
    double GetValue();
    /** \return a uniform number in [min, max) (UniformRandomVariable::GetValue(min, max)). */
    double GetUniform(double min, double max);
    /** \return an integer in [min, max] (UniformRandomVariable::GetInteger(min, max)). */
    uint32_t GetInteger(uint32_t min, uint32_t max);
    /**
     * \return an exponential number of mean \p mean, redrawn above \p bound unless it is 0
     * (ExponentialRandomVariable::GetValue(mean, bound)).
     */
    double GetExponential(double mean, double bound = 0);

  private:
    RngStream m_rng;
};

} // namespace ns3

#endif /* SEEDED_RANDOM_STREAM_H */
