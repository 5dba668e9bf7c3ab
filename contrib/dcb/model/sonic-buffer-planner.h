/*
 * The set-up half of the SONiC buffer model: from a loaded config_db to the per-port bindings
 * admission uses.
 */
#ifndef SONIC_BUFFER_PLANNER_H
#define SONIC_BUFFER_PLANNER_H

#include "buffer-manager.h"
#include "sonic-buffer-config.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dcb
 * Plans a SonicBufferManager's buffer once, at Setup, before any packet: binds every switch
 * port to the configuration (ports no table names take the first configured port's, with
 * UnlistedPortsLikeFirst), adds buffermgrd's calculated headroom profiles for the dynamic
 * model's PGs and the cable-derived lossless profiles (CableHeadroom), and sizes the pools the
 * dynamic model leaves unsized. It edits the configuration in place and adds a note for each
 * thing it derived; admission (SonicBufferManager::DoAdmit) only reads the result.
 */
class SonicBufferPlanner
{
  public:
    /**
     * \param config the configuration to complete (its ports become the switch's ports)
     * \param ports the switch's ports (rate and cable of each)
     * \param notes where each derived profile and pool size is reported
     */
    SonicBufferPlanner(SonicBufferConfig& config, const std::vector<BufferPortInfo>& ports,
                       std::vector<std::string>& notes);

    /**
     * \param unlistedLikeFirst give ports no table names the first configured port's buffers
     * \param cableHeadroom derive per-port lossless profiles from HeadroomCalculator
     * \param mmuSize the buffer the dynamic model's pools are sized from (0: the largest
     *        given pool)
     * \return "" or why the configuration cannot be used
     */
    std::string Plan(bool unlistedLikeFirst, bool cableHeadroom, uint64_t mmuSize);

  private:
    /** Bind every switch port. \return "" or why not. */
    std::string BindPorts(bool unlistedLikeFirst);
    /** CableHeadroom: derive per-port lossless profiles from HeadroomCalculator. */
    void ApplyCableHeadroom();
    /** Dynamic model: a profile for each BUFFER_PG without one, from speed and cable. */
    void ApplyCalculatedHeadroom();
    /** Dynamic model: size the pools the file gives no size. \return "" or why not. */
    std::string SizePools(uint64_t mmuSize);
    /** \return the derived profile (index >= \p firstDerived) named \p name, or -1. */
    int32_t FindDerived(const std::string& name, size_t firstDerived) const;
    /** \return \p name, or it with a suffix when a profile of the file has that name. */
    std::string DerivedName(const std::string& name, size_t firstDerived) const;
    /** Port \p p's speed and cable for headroom: the file's PORT / CABLE_LENGTH, else the link. */
    void PortCable(uint32_t p, DataRate& speed, double& metres) const;

    SonicBufferConfig& m_config;
    const std::vector<BufferPortInfo>& m_ports;
    std::vector<std::string>& m_notes;
};

} // namespace ns3

#endif /* SONIC_BUFFER_PLANNER_H */
