/*
 * NIC profiles: JSON files holding the transport and fabric sections that make
 * an experiment "CX-6-like", "IRN-like" or "SRNIC-like", merged into a base
 * experiment file.
 */
#ifndef NIC_PROFILE_H
#define NIC_PROFILE_H

#include "ns3/experiment-config.h"
#include "ns3/json-schema-reader.h"

#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{

/**
 * \ingroup dc-experiment
 * Merges a profile file into a base experiment file.
 *
 * A profile is a JSON object with at most the keys "description", "preset", "nic",
 * "switch", "link", "buffer", "ecn", "cc", "loss_recovery" and "qp" (each an
 * object, as in an experiment file). "preset" names an RdmaNicProfile (Cx5, Cx6,
 * Srnic, Irn), the one source of a NIC's transport: Read fills in its loss recovery
 * (type and attributes), congestion control type and "qp" SrnicHeaderExtensions,
 * and the file's own keys override them one by one (each such override is a
 * deliberate deviation from the preset, said in the file's description). Merging: for each section,
 * the profile's keys replace the base's; when the profile names a different "type" than the base,
 * the base section is dropped first (its attributes belong to another TypeId). The experiment is
 * then validated as a whole; errors in a merged section name the base file and the section's
 * pointer.
 *
 * A DCQCN "cc" section (ns3::RdmaDcqcn, the one DCQCN TypeId) may name the ConnectX
 * firmware's knobs (RpgTimeReset, RpgByteReset, RpgThreshold, RpgAiRate,
 * RpgHaiRate, RpgMinRate, ClampTgtRate, ClampTgtRateAfterTimeInc, DceTcpG, DceTcpRtt,
 * RateDecreasePeriod, InitialAlphaValue, MinTimeBetweenCnps, InteropCnpInterval): Read
 * replaces each by the RdmaDcqcn attribute it sets (contrib/rdma/doc/dcqcn-generations.md),
 * and errors in such a value name the knob.
 */
class NicProfile
{
  public:
    /** Options that override the base file (0 / empty: keep the base's). */
    struct Overrides
    {
        uint32_t srnicServers = 0;         //!< topology := {"type":"fat_tree","srnic_servers":n}
        std::string duration;              //!< workload/duration
        uint32_t seed = 0;                 //!< seed
        std::string stopTime;              //!< stop_time (e.g. to bound a large-scale run)
        bool progress = false;             //!< true: progress := true
        CommandLineAttributes commandLine; //!< --ns3::T::A=v: win over both files
    };

    /**
     * \return the profile \p profileFile with its "preset" expanded (see above), without the
     *         "preset" key.
     * \throw ExperimentConfigError naming the profile file
     */
    static nlohmann::json Read(const std::string& profileFile);

    /**
     * \return the sections preset \p name gives a profile (loss_recovery, cc, qp), as
     *         typed JSON
     * \param name an RdmaNicProfile name
     * \param reader the reader of the file that names it
     * \param pointer where that file names it
     * \throw ConfigError at \p pointer, with the allowed names, for an unknown name
     */
    static nlohmann::json PresetSections(const std::string& name, const JsonSchemaReader& reader,
                                         const std::string& pointer);

    /**
     * \return the merged experiment text (JSON) of \p baseFile with \p profileFile.
     * \throw ExperimentConfigError naming the profile file for profile errors
     */
    static std::string Merge(const std::string& baseFile, const std::string& profileFile,
                             const Overrides& overrides);

    /** Merge and load. \throw ExperimentConfigError */
    static ExperimentConfig Load(const std::string& baseFile, const std::string& profileFile,
                                 const Overrides& overrides);

  private:
    /** \return \p profile over the sections of its preset, \p preset (PresetSections) */
    static nlohmann::json Expand(const nlohmann::json& profile, const nlohmann::json& preset);
};

} // namespace ns3

#endif /* NIC_PROFILE_H */
