/*
 * DCQCN as run by NVIDIA ConnectX-4 and later firmware/hardware ("Gen2/Gen3" in Azure,
 * NSDI'23, section 7.2): the TypeId ns3::RdmaDcqcnFirmware, which is RdmaDcqcn with
 * every knob exposed and the firmware defaults. Specification:
 * design/spec-buffers-pfc-dcqcn.md sections 3.5, 3.6 (knob table) and 4.
 */
#ifndef RDMA_DCQCN_FIRMWARE_H
#define RDMA_DCQCN_FIRMWARE_H

#include "rdma-dcqcn.h"

namespace ns3
{

/**
 * \ingroup rdma
 * The Gen2/Gen3 (firmware) DCQCN generation as a TypeId over RdmaDcqcn (no class of its
 * own: objects of this TypeId are RdmaDcqcn). It exposes every RdmaDcqcn knob under the
 * attribute names of ns3::RdmaDcqcn, with the ConnectX defaults [MLX-DUMP]; the
 * firmware's own knob names (rpg_time_reset, dce_tcp_g, ...) are read by NIC profiles
 * (NicProfile, contrib/rdma/doc/dcqcn-generations.md has the table).
 *
 * - Notification point: a CNP for every CE-marked packet (CnpInterval 0,
 *   np_min_time_between_cnps; per QP in this model, per port in firmware).
 * - Reaction point: at most one cut per RateDecreaseInterval (4 us,
 *   rate_reduce_monitor_period), at once if the last cut is at least one interval old,
 *   else at the end of that interval (RateDecreaseTiming SinceLastCut).
 * - alpha: AlphaUpdate ActivePeriods: every AlphaUpdatePeriod (dce_tcp_rtt, 1 us) while
 *   active, alpha <- g cnp_received + (1 - g) alpha with G (1/256); the first CNP sets
 *   alpha to InitialAlpha (1023/1024) and, if RateOnFirstCnp > 0, R_C = R_T to it. The cut
 *   R_C (1 - alpha/2) (rpg_gd = 11 with alpha in 2^10 units) leaves alpha unchanged.
 * - Rate increase: the paper's stages with the firmware values (rpg_time_reset 300 us,
 *   rpg_byte_reset 32767 B, rpg_threshold 1, rpg_ai_rate 5 Mbps, rpg_hai_rate 50 Mbps,
 *   rpg_min_rate 1 Mbps, clamp_tgt_rate false, clamp_tgt_rate_after_time_inc true).
 * - Rate limiter: per packet; BurstBytes > 0 asks for per-burst pacing (the Azure fix).
 *
 * Not modelled: rpg_gd other than 11, rpg_min_dec_fac (with alpha <= 1 the cut never
 * exceeds the default 50 %), rpg_max_rate, CNP moderation per port, the shaper key (one
 * rate limiter per QP).
 */
class RdmaDcqcnFirmware
{
  public:
    /** \return the TypeId ns3::RdmaDcqcnFirmware (parent ns3::RdmaCongestionOps) */
    static TypeId GetTypeId();
    /** \return the firmware configuration (the ConnectX defaults) */
    static RdmaDcqcnParams Defaults();
    /** \return a new RdmaDcqcn of this TypeId, at its defaults */
    static Ptr<RdmaDcqcn> Create();
    RdmaDcqcnFirmware() = delete;
};

} // namespace ns3

#endif /* RDMA_DCQCN_FIRMWARE_H */
