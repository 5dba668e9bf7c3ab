/*
 * Maestro load-balancer interface.
 */
#ifndef MAESTRO_LOAD_BALANCER_H
#define MAESTRO_LOAD_BALANCER_H

#include "maestro-path-monitor.h"

#include "ns3/object.h"

namespace ns3
{

/**
 * \ingroup multipath
 * Chooses the virtual path of the next chunk (QueueDisc shape: a public
 * non-virtual entry point calls a private hook). A path is eligible when it is
 * usable and has fewer than \p liveLimit live work requests. A policy may also
 * answer "wait" (-1): the endpoint then retries at the next completion.
 */
class MaestroLoadBalancer : public Object
{
  public:
    static TypeId GetTypeId();

    /**
     * \param monitor per-path state
     * \param chunkBytes size of the chunk to place
     * \param messageBytes size of the message it belongs to
     * \param liveLimit live work requests allowed per path
     * \return the path id, or -1 to wait
     */
    int64_t SelectPath(const MaestroPathMonitor& monitor, uint64_t chunkBytes,
                       uint64_t messageBytes, uint32_t liveLimit);

    /** \return whether \p vp may take one more chunk. */
    static bool Eligible(const MaestroPathState& p, uint32_t liveLimit);

  private:
    virtual int64_t DoSelectPath(const MaestroPathMonitor& monitor, uint64_t chunkBytes,
                                 uint64_t messageBytes, uint32_t liveLimit) = 0;
};

} // namespace ns3

#endif /* MAESTRO_LOAD_BALANCER_H */
