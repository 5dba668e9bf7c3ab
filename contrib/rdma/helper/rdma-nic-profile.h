/*
 * Named RNIC presets: transport, QP scheduler, on-chip caches, congestion control.
 */
#ifndef RDMA_NIC_PROFILE_H
#define RDMA_NIC_PROFILE_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class JsonSchemaReader;
class RdmaHelper;

/**
 * \ingroup rdma
 * A named NIC preset, each field with its source (see rdma.md, "NIC profiles"):
 * Cx5 and Cx6 (ConnectX: go-back-N, DCQCN, WQE-caching scheduler over a context
 * cache whose effective size is calibrated to SRNIC Fig. 9, PFC expected), Srnic
 * (SRNIC selective repeat with a software slow path, DCTCP, cache-free scheduler,
 * 4.4 MB SRAM holding 210 B QPCs,
 * no PFC needed, 66/78 B SEND/WRITE headers) and Irn (selective repeat with an
 * ideal NIC, DCQCN, no PFC; Mittal et al., SIGCOMM'18).
 */
struct RdmaNicProfile
{
    using Attributes = std::vector<std::pair<std::string, std::string>>;

    std::string name;
    std::string lossRecovery;
    Attributes lossRecoveryAttributes;
    std::string congestionControl;
    std::string qpScheduler;
    Attributes qpSchedulerAttributes;
    std::string cacheModel; //!< "" when every resource is on chip
    Attributes cacheModelAttributes;
    bool pfcExpected{true};            //!< the NIC relies on a lossless fabric
    uint32_t sendHeaderBytes{58};      //!< Eth+IP+UDP+BTH(+ext)+ICRC+FCS of a SEND packet
    uint32_t writeHeaderBytes{58};     //!< same for a middle WRITE packet
    bool srnicHeaderExtensions{false}; //!< RdmaQueuePair::SrnicHeaderExtensions
    std::string source;

    /** \return the names Lookup knows. */
    static std::vector<std::string> Names();
    /**
     * \return the profile \p name (case-sensitive)
     * \param name the profile's name
     * \param reader the reader of the file (or the program option) that names it
     * \param pointer where \p reader's file names it
     * \throw ConfigError at \p pointer, with the allowed names, if there is none
     */
    static RdmaNicProfile Lookup(const std::string& name, const JsonSchemaReader& reader,
                                 const std::string& pointer);
    /** Configure \p helper (loss recovery, CC, scheduler, cache model) as this profile. */
    void Apply(RdmaHelper& helper) const;
};

} // namespace ns3

#endif /* RDMA_NIC_PROFILE_H */
