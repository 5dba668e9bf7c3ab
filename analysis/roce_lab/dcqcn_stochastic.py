"""DCQCN as N stochastic per-flow state machines: why the simulator's queue sits above
the fluid model's fixed point at N = 4 and 8 (analysis/dcqcn_fluid.py).

usage: dcqcn_stochastic.py closed --flows N [--seeds 1,2,3]
       dcqcn_stochastic.py open --flows N [--np-window] [--alpha-windows] [--fluid-relaxation]
                                          [--cnp-per-mark]

Each flow runs the ns3::RdmaDcqcn reaction point (attribute defaults) and notification
point event by event: a CNP for the first CE mark at least CnpInterval (50 us) after the
last CNP; on a CNP R_T <- R_C (after any increase), R_C <- R_C (1 - alpha/2), alpha <-
(1-g) alpha + g, and the rate and alpha timers restart; alpha <- (1-g) alpha every 55 us
without a CNP; every rate-timer (55 us) or byte-counter (10 MB) event R_C <- (R_T + R_C)/2,
R_T += R_AI from the F-th event after a cut on (hyper increase once both counters reach
F). Marks are Bernoulli per packet. Nothing else of the packet model is in it: no
packets, NICs, ACKs, PFC or MTU quantization (the queue is a fluid).

closed: N such flows into one C Gb/s queue marked by RED(q) at enqueue (the mark reaches
        the receiver after base + q/C), stepped every 1 us; prints the mean queue, the
        share of time at or below Kmin, marks per packet, CNPs per flow per second and
        mean alpha over [--from-ms, --duration-ms), per seed and averaged. This is the
        reference test/rdma/dcqcn-fluid-test.cc checks the simulator against at N = 4, 8.
open:   one flow at a constant marking probability p (no queue, exponential mark gaps);
        bisects for the p* at which its mean rate is C/N and prints the queue at which
        RED marks with p*, Kmin + (p*/Pmax)(Kmax - Kmin). The switches replace one rule
        at a time by the fluid model's: --np-window (a CNP at the end of each 50 us window
        with a mark, the model's a = 1-(1-p)^(tau R)), --alpha-windows (alpha <- (1-g)
        alpha + g [a mark in the window] every 55 us, the model's alpha equation),
        --fluid-relaxation (R_T - R_C shrinks by e^-1/2 per event, the mean of the
        model's (R_T - R) R (b + d)/2 term, instead of halving), --cnp-per-mark.
"""
import argparse
import collections
import math
import random
import sys


class Params:
    """ns3::RdmaDcqcn defaults and the ctest bottleneck (40 Gb/s, RED 40 KB/400 KB/1 %)."""

    def __init__(self, a):
        self.flows = a.flows
        self.cap = a.rate_gbps * 1e9  # bits/s, wire
        self.wire = a.wire_bytes
        self.payload = a.payload_bytes
        self.kmin, self.kmax, self.pmax = a.kmin_kb * 1e3, a.kmax_kb * 1e3, a.pmax
        self.tau, self.taup, self.timer = a.cnp_us * 1e-6, a.alpha_us * 1e-6, a.timer_us * 1e-6
        self.bc = a.byte_counter
        self.fr = a.fr
        self.rai, self.hai, self.rmin = a.rai_mbps * 1e6, a.hai_mbps * 1e6, a.min_rate_mbps * 1e6
        self.g = a.g
        self.base = a.base_delay_us * 1e-6

    def red(self, q):
        if q <= self.kmin:
            return 0.0
        if q >= self.kmax:
            return 1.0
        return self.pmax * (q - self.kmin) / (self.kmax - self.kmin)


class ReactionPoint:
    """One flow's DCQCN RP state (rates in bits/s of wire)."""

    def __init__(self, m, rate, alpha, halving=True):
        self.m = m
        self.rc = self.rt = rate
        self.alpha = alpha
        self.tc = self.bcount = 0
        self.left = m.bc
        self.recovering = False
        self.fast = True
        self.relax = 0.5 if halving else math.exp(-0.5)
        self.next_timer = math.inf
        self.next_alpha = math.inf

    def cut(self, now, restart_alpha=True, update_alpha=True):
        m = self.m
        if self.tc or self.bcount:
            self.rt = self.rc
        self.rc = max(m.rmin, self.rc * (1 - self.alpha / 2))
        if update_alpha:
            self.alpha = (1 - m.g) * self.alpha + m.g
        self.fast = True
        self.tc = self.bcount = 0
        self.left = m.bc
        self.recovering = True
        self.next_timer = now + m.timer
        if restart_alpha:
            self.next_alpha = now + m.taup

    def increase(self, count):
        m = self.m
        if self.fast and count < m.fr:
            step = 0.0
        else:
            self.fast = False
            low = min(self.tc, self.bcount)
            step = m.rai if low < m.fr else m.hai * (low - m.fr + 1)
        self.rt = min(m.cap, self.rt + step)
        self.rc = min(m.cap, self.rt - (self.rt - self.rc) * self.relax)
        if self.rc >= m.cap and self.rt >= m.cap:
            self.recovering = False
            self.next_timer = math.inf

    def timer_event(self, now):
        self.tc += 1
        self.next_timer = now + self.m.timer
        self.increase(self.tc)

    def bytes_sent(self, nbytes):
        if not self.recovering:
            return
        self.left -= nbytes
        if self.left <= 0:
            self.bcount += 1
            self.left += self.m.bc
            self.increase(self.bcount)


def closed_loop(m, seed, duration, start, dt=1e-6):
    """N flows, one RED queue, 1-us steps. Returns time averages over [start, duration)."""
    rng = random.Random(seed)
    flows = [ReactionPoint(m, m.cap, 1.0) for _ in range(m.flows)]
    for f in flows:
        f.next_alpha = m.taup
    last_cnp = [-math.inf] * m.flows
    pending = [collections.deque() for _ in range(m.flows)]
    q = 0.0
    qsum = below = pkts = marks = cnps = asum = 0.0
    samples = 0
    for s in range(int(round(duration / dt))):
        now = s * dt
        counting = now >= start
        p = m.red(q)
        arrive = now + m.base + q * 8 / m.cap
        total = 0.0
        for i, f in enumerate(flows):
            rate = f.rc
            total += rate
            n = rate * dt / (8 * m.wire)
            if p > 0 and rng.random() < -math.expm1(-p * n):
                pending[i].append(arrive)
                marks += counting
            if counting:
                pkts += n
            cnp = False
            due = pending[i]
            while due and due[0] <= now:
                due.popleft()
                if now - last_cnp[i] >= m.tau - 1e-12:
                    last_cnp[i] = now
                    cnp = True
            if cnp:
                cnps += counting
                f.cut(now)
                continue
            if now >= f.next_alpha:
                f.alpha *= 1 - m.g
                f.next_alpha = now + m.taup
            if f.recovering:
                f.bytes_sent(rate * dt / 8)
                if now >= f.next_timer:
                    f.timer_event(now)
        q = max(0.0, q + (total - m.cap) * dt / 8)
        if counting:
            qsum += q
            below += q <= m.kmin
            asum += sum(f.alpha for f in flows) / m.flows
            samples += 1
    secs = duration - start
    return {"queue_kb": qsum / samples / 1e3, "below_kmin": below / samples,
            "marks_per_pkt": marks / pkts, "cnps_per_s": cnps / secs / m.flows,
            "alpha": asum / samples}


def open_loop_rate(m, p, rules, seed, duration):
    """Mean R_C (bits/s) of one flow at marking probability p, event by event."""
    rng = random.Random(seed)
    f = ReactionPoint(m, m.cap / m.flows, 0.12, halving=not rules.fluid_relaxation)
    f.next_alpha = m.taup
    now, start = 0.0, 0.2 * duration
    area = 0.0
    last_cnp = -math.inf
    window_end, window_mark = m.tau, False
    alpha_mark = False
    f.recovering = True
    f.next_timer = m.timer
    while now < duration:
        lam = p * f.rc / (8 * m.wire)
        t_mark = now + rng.expovariate(lam)
        t_bytes = now + f.left * 8 / f.rc if f.recovering else math.inf
        t_next = min(t_mark, f.next_timer, f.next_alpha, t_bytes,
                     window_end if rules.np_window else math.inf)
        if t_next > start:
            area += f.rc * (t_next - max(now, start))
        if f.recovering:
            f.left -= f.rc * (t_next - now) / 8
        now = t_next
        cnp = False
        if rules.np_window and now == window_end:
            cnp, window_mark = window_mark, False
            window_end += m.tau
        elif now == t_mark:
            alpha_mark = True
            if rules.np_window:
                window_mark = True
            elif rules.cnp_per_mark or now - last_cnp >= m.tau:
                last_cnp = now
                cnp = True
        elif now == f.next_alpha:
            if rules.alpha_windows:
                f.alpha = (1 - m.g) * f.alpha + (m.g if alpha_mark else 0.0)
                alpha_mark = False
            else:
                f.alpha *= 1 - m.g
            f.next_alpha = now + m.taup
        elif now == f.next_timer:
            f.timer_event(now)
        elif now == t_bytes:
            f.left = 0
            f.bytes_sent(0)
        if cnp:
            f.cut(now, restart_alpha=not rules.alpha_windows,
                  update_alpha=not rules.alpha_windows)
    return area / (duration - start)


def open_loop(m, rules, seed, duration):
    """p* at which the mean rate is C/N (bisection in log p, common random numbers)."""
    target = m.cap / m.flows
    lo, hi = 1e-5, 0.05
    for _ in range(24):
        mid = math.sqrt(lo * hi)
        if open_loop_rate(m, mid, rules, seed, duration) > target:
            lo = mid
        else:
            hi = mid
    p = math.sqrt(lo * hi)
    return p, m.kmin + p / m.pmax * (m.kmax - m.kmin)


def main(argv=None, prog=None):
    ap = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    ap.add_argument("mode", choices=["closed", "open"])
    ap.add_argument("--flows", type=int, default=4)
    ap.add_argument("--rate-gbps", type=float, default=40.0)
    ap.add_argument("--wire-bytes", type=float, default=1110.0)
    ap.add_argument("--payload-bytes", type=float, default=1024.0)
    ap.add_argument("--kmin-kb", type=float, default=40.0)
    ap.add_argument("--kmax-kb", type=float, default=400.0)
    ap.add_argument("--pmax", type=float, default=0.01)
    ap.add_argument("--base-delay-us", type=float, default=4.0,
                    help="mark-to-CNP-to-RP delay besides the queue's")
    ap.add_argument("--cnp-us", type=float, default=50.0)
    ap.add_argument("--alpha-us", type=float, default=55.0)
    ap.add_argument("--timer-us", type=float, default=55.0)
    ap.add_argument("--byte-counter", type=float, default=10e6)
    ap.add_argument("--fr", type=int, default=5)
    ap.add_argument("--rai-mbps", type=float, default=40.0)
    ap.add_argument("--hai-mbps", type=float, default=200.0)
    ap.add_argument("--min-rate-mbps", type=float, default=100.0)
    ap.add_argument("--g", type=float, default=1 / 256)
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--duration-ms", type=float, default=None,
                    help="closed: 90 (as the ctest), open: 2000 per evaluation")
    ap.add_argument("--from-ms", type=float, default=30.0, help="closed: start of the average")
    ap.add_argument("--np-window", action="store_true")
    ap.add_argument("--alpha-windows", action="store_true")
    ap.add_argument("--fluid-relaxation", action="store_true")
    ap.add_argument("--cnp-per-mark", action="store_true")
    a = ap.parse_args(argv)
    if a.flows < 1:
        ap.error("--flows must be >= 1")
    m = Params(a)
    seeds = [int(s) for s in a.seeds.split(",")]
    if a.mode == "closed":
        duration = (a.duration_ms or 90.0) * 1e-3
        rows = []
        for seed in seeds:
            r = closed_loop(m, seed, duration, a.from_ms * 1e-3)
            rows.append(r)
            print(f"seed {seed}: " + ", ".join(f"{k} {v:.4g}" for k, v in r.items()))
        mean = {k: sum(r[k] for r in rows) / len(rows) for k in rows[0]}
        print("mean:   " + ", ".join(f"{k} {v:.4g}" for k, v in mean.items()))
    else:
        duration = (a.duration_ms or 2000.0) * 1e-3
        for seed in seeds:
            p, q = open_loop(m, a, seed, duration)
            print(f"seed {seed}: p* {p:.5f}, RED queue at p* {q / 1e3:.1f} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
