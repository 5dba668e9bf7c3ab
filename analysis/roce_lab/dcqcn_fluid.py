"""DCQCN fluid model (Zhu et al., "ECN or Delay", CoNEXT'16) on one bottleneck.

usage: dcqcn_fluid.py [--flows N] [--rate-gbps C] [--kmin-kb ..] [--kmax-kb ..] [--pmax ..]
                      [--rtt-us ..] [--sim OUTDIR [--node t0a --port 1]] [-o fig.png]

N identical DCQCN flows share a link of C Gb/s; packets are --wire-bytes on the
wire (--payload-bytes of them goodput). Prints the fixed point (small-p closed
form of design/spec-buffers-pfc-dcqcn.md section 3.8, and the exact fixed point of the
full equations, which test/rdma/dcqcn-fluid-test.cc solves too) and the time average of
the integrated delay-differential equations over the second half of --duration-ms:
per-flow rate, marking probability and queue. With --sim it also reads a
dcqcn-regional / roce-run output directory (goodput.csv, queues.csv) and prints
the simulator's per-flow goodput and mean queue beside the model's. The fixed point is
a mean-field approximation: analysis/dcqcn_stochastic.py runs the same rules as
per-flow state machines, which is where the simulator's queue sits at N = 4 and 8.

Model (rates in packets/s, queue in packets, p = RED(q(t - tau*))):
  a = 1 - (1-p)^(tau R(t-tau*))       b = p / ((1-p)^-B - 1)       c = b (1-p)^(F B)
  d = p / ((1-p)^-(T R(t-tau*)) - 1)   e = d (1-p)^(F T R(t-tau*))
  dR/dt  = -R alpha a / (2 tau) + (R_T - R) R(t-tau*) (b + d) / 2
  dR_T/dt = -(R_T - R) a / tau + R_AI R(t-tau*) (c + e)
  dalpha/dt = (g / tau') [(1 - (1-p)^(tau' R(t-tau*))) - alpha]
  dq/dt  = N R - C  (q >= 0)
Defaults are the ns3::RdmaDcqcn attribute defaults (tau = CnpInterval 50 us,
tau' = AlphaUpdatePeriod 55 us, T = RateIncreaseTimer 55 us, B = ByteCounter
10 MB, F = 5, R_AI = 40 Mb/s, g = 1/256). The fluid model has no hyper increase.
"""
import argparse
import math
import os
import sys

from . import csvfile


def red(q_bytes, kmin, kmax, pmax):
    if q_bytes <= kmin:
        return 0.0
    if q_bytes >= kmax:
        return 1.0
    return pmax * (q_bytes - kmin) / (kmax - kmin)


def fixed_point(a):
    """Small-p fixed point for N identical flows; returns (R*, p*, q* bytes)."""
    cap = a.rate_gbps * 1e9 / (8 * a.wire_bytes)
    r = cap / a.flows
    b = a.byte_counter / a.wire_bytes
    rai = a.rai_mbps * 1e6 / (8 * a.wire_bytes)
    p = ((rai / (a.alpha_us * 1e-6 * r * r)) * (1 / b + 1 / (a.timer_us * 1e-6 * r)) ** 2) ** (1 / 3)
    q = a.kmin_kb * 1e3 + p / a.pmax * (a.kmax_kb - a.kmin_kb) * 1e3
    return r, p, q


def exact_fixed_point(a):
    """Fixed point of the full equations (no small-p approximation), by bisection on p:
    alpha a^2 = R_AI R tau^2 (b + d)(c + e) with R = C/N. Returns (R*, p*, q* bytes)."""
    cap = a.rate_gbps * 1e9 / (8 * a.wire_bytes)
    r = cap / a.flows
    bc = a.byte_counter / a.wire_bytes
    rai = a.rai_mbps * 1e6 / (8 * a.wire_bytes)
    tau, taup, timer = a.cnp_us * 1e-6, a.alpha_us * 1e-6, a.timer_us * 1e-6

    def h(p):
        lg = math.log1p(-p)
        av = -math.expm1(tau * r * lg)
        am = -math.expm1(taup * r * lg)
        bv = inv_growth(p, bc, lg)
        cv = bv * math.exp(a.fr * bc * lg)
        dv = inv_growth(p, timer * r, lg)
        ev = dv * math.exp(a.fr * timer * r * lg)
        return am * av * av - rai * r * tau * tau * (bv + dv) * (cv + ev)

    lo, hi = 1e-9, min(a.pmax, 0.5)
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if h(mid) > 0 else (mid, hi)
    p = (lo + hi) / 2
    return r, p, a.kmin_kb * 1e3 + p / a.pmax * (a.kmax_kb - a.kmin_kb) * 1e3


def inv_growth(p, n, lg):
    """p / ((1-p)^-n - 1), the rate of counter events (0 when n p is huge)."""
    x = -n * lg
    if x <= 0:
        return 0.0
    return 0.0 if x > 700 else p / math.expm1(x)


def integrate(a):
    """Euler integration of the DDEs; returns time averages over the second half."""
    cap = a.rate_gbps * 1e9 / (8 * a.wire_bytes)
    bc = a.byte_counter / a.wire_bytes
    rai = a.rai_mbps * 1e6 / (8 * a.wire_bytes)
    tau, taup, timer = a.cnp_us * 1e-6, a.alpha_us * 1e-6, a.timer_us * 1e-6
    dt = a.dt_us * 1e-6
    steps = int(a.duration_ms * 1e-3 / dt)
    lag = max(1, int(round(a.rtt_us * 1e-6 / dt)))
    kmin, kmax = a.kmin_kb * 1e3, a.kmax_kb * 1e3
    r, rt, alpha, q = cap, cap, 1.0, 0.0  # flows start at line rate (no slow start)
    hist_r = [r] * lag
    hist_q = [q] * lag
    acc = [0.0, 0.0, 0.0, 0]
    for i in range(steps):
        rd = hist_r[i % lag]
        p = red(hist_q[i % lag] * a.wire_bytes, kmin, kmax, a.pmax)
        if p > 0:
            lg = math.log1p(-min(p, 1 - 1e-12))  # log(1 - p)
            av = -math.expm1(tau * rd * lg)
            bv = inv_growth(p, bc, lg)
            cv = bv * math.exp(a.fr * bc * lg)
            dv = inv_growth(p, timer * rd, lg)
            ev = dv * math.exp(a.fr * timer * rd * lg)
            am = -math.expm1(taup * rd * lg)
        else:  # p -> 0: b -> 1/B, d -> 1/(T R), no cuts
            av, bv, cv = 0.0, 1 / bc, 1 / bc
            dv = 1 / (timer * rd) if rd > 0 else 0.0
            ev = dv
            am = 0.0
        dr = -r * alpha * av / (2 * tau) + (rt - r) * rd * (bv + dv) / 2
        drt = -(rt - r) * av / tau + rai * rd * (cv + ev)
        dal = a.g / taup * (am - alpha)
        dq = a.flows * r - cap
        r = min(cap, max(a.min_rate_mbps * 1e6 / (8 * a.wire_bytes), r + dr * dt))
        rt = min(cap, max(r, rt + drt * dt))
        alpha = min(1.0, max(0.0, alpha + dal * dt))
        q = max(0.0, q + dq * dt)
        hist_r[i % lag] = r
        hist_q[i % lag] = q
        if i >= steps // 2:
            acc[0] += r
            acc[1] += q
            acc[2] += red(q * a.wire_bytes, kmin, kmax, a.pmax)
            acc[3] += 1
    n = acc[3]
    return acc[0] / n, acc[2] / n, acc[1] / n * a.wire_bytes


def read_sim(outdir, node, port, from_us, interval_us):
    """Goodputs (goodput.csv) and the mean queue of node/port from from_us to the end.
    queues.csv lists non-empty queues only: absent samples count as 0."""
    gp = []
    to_us = None
    for row in csvfile.rows(os.path.join(outdir, "goodput.csv")).dicts():
        gp.append(float(row["goodput_gbps"]))
        from_us = from_us if from_us is not None else float(row["from_us"])
        to_us = float(row["to_us"])
    total = 0
    for row in csvfile.rows(os.path.join(outdir, "queues.csv")).dicts():
        if row["node"] == node and row["port"] == port and float(row["time_us"]) >= from_us:
            total += int(row["bytes"])
    samples = max(1, int((to_us - from_us) / interval_us))
    return gp, total / samples


def main(argv=None, prog=None):
    ap = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    ap.add_argument("--flows", type=int, default=2)
    ap.add_argument("--rate-gbps", type=float, default=40.0)
    ap.add_argument("--wire-bytes", type=float, default=1110.0, help="bytes per packet on the wire")
    ap.add_argument("--payload-bytes", type=float, default=1024.0)
    ap.add_argument("--kmin-kb", type=float, default=1000.0)
    ap.add_argument("--kmax-kb", type=float, default=2000.0)
    ap.add_argument("--pmax", type=float, default=0.05)
    ap.add_argument("--rtt-us", type=float, default=4.0, help="feedback delay tau*")
    ap.add_argument("--cnp-us", type=float, default=50.0, help="NP window tau")
    ap.add_argument("--alpha-us", type=float, default=55.0, help="alpha timer tau'")
    ap.add_argument("--timer-us", type=float, default=55.0, help="rate timer T")
    ap.add_argument("--byte-counter", type=float, default=10e6, help="B in bytes")
    ap.add_argument("--fr", type=float, default=5, help="fast recovery steps F")
    ap.add_argument("--rai-mbps", type=float, default=40.0)
    ap.add_argument("--min-rate-mbps", type=float, default=100.0)
    ap.add_argument("--g", type=float, default=1 / 256)
    ap.add_argument("--duration-ms", type=float, default=200.0)
    ap.add_argument("--dt-us", type=float, default=0.5)
    ap.add_argument("--sim", help="simulator output directory to compare with")
    ap.add_argument("--node", default="dc0-c0-t0-0")
    ap.add_argument("--port", default="1")
    ap.add_argument("--from-us", type=float, default=None)
    ap.add_argument("--interval-us", type=float, default=10.0, help="monitors.queue_interval")
    ap.add_argument("-o", "--output", help="write the comparison as a bar figure")
    a = ap.parse_args(argv)

    good = a.payload_bytes / a.wire_bytes
    to_gbps = 8 * a.wire_bytes / 1e9 * good
    r, p, q = exact_fixed_point(a)
    print(f"fixed point: rate {r * to_gbps:.2f} Gb/s goodput per flow, p {p:.5f}, "
          f"queue {q / 1e6:.3f} MB" + ("" if p < a.pmax * 0.999 else " (p* >= Pmax: outside RED's slope)"))
    _, ps, qs = fixed_point(a)
    print(f"small-p closed form: p {ps:.5f}, queue {qs / 1e6:.3f} MB (drops (1-p)^(F T R))")
    ri, pi, qi = integrate(a)
    print(f"integrated:  rate {ri * to_gbps:.2f} Gb/s goodput per flow, p {pi:.5f}, "
          f"queue {qi / 1e6:.3f} MB (mean of the second half of {a.duration_ms:g} ms)")
    if a.sim:
        gp, sq = read_sim(a.sim, a.node, a.port, a.from_us, a.interval_us)
        print("simulator:   goodput " + ", ".join(f"{g:.2f}" for g in gp)
              + f" Gb/s, queue mean {sq / 1e6:.3f} MB")
        if a.output:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
            fig, axs = plt.subplots(1, 2, figsize=(7, 3))
            axs[0].bar(["fixed pt", "fluid", "sim"], [r * to_gbps, ri * to_gbps, sum(gp) / len(gp)])
            axs[0].set_ylabel("goodput per flow (Gb/s)")
            axs[1].bar(["fixed pt", "fluid", "sim"], [q / 1e6, qi / 1e6, sq / 1e6])
            axs[1].set_ylabel("queue (MB)")
            fig.tight_layout()
            fig.savefig(a.output, dpi=150)
            print("wrote " + a.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
