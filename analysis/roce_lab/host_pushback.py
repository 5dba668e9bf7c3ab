"""Plot host push-back into the fabric: Hostping Fig. 1 and Azure §8.3, from their runs.

usage: analysis/host_pushback.py RUNDIR... [-o host-pushback.png]

Each RUNDIR is the output directory of `./roce-lab run` on one of the host experiment files
(configs/host-*.json), read by column name:
- with collectives.csv (host-allreduce.json, host-allreduce-ideal.json; Hostping Fig. 1): one
  bar per run, the per-host allreduce throughput = the bytes each rank sent in the ring's
  steps (sum of the step rows' bytes) / the iteration's duration (one degraded RNIC PCIe
  link: every host drops to ~50 Gb/s, ~70 % below ideal);
- otherwise (host-azure-loopback.json, host-azure-no-loopback.json; Azure §8.3): per
  receiving server (flows.csv dst), the share of the run (summary.json end_time_us) its ToR
  port was paused (pfc.csv paused_us, class 3, of the switch port whose peer is the server
  in ports.csv); loopback on when the run has host_dma_flows.csv (pauses only with loopback).
"""
import argparse
import json
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from .csvfile import parse, read_rows  # noqa: E402
from . import labels as run_labels  # noqa: E402

COLLECTIVES = ("kind", "iteration", "step", "bytes", "duration_us")
FLOWS = ("dst",)
PORTS = ("node", "port", "peer_node")
PFC = ("node", "port", "class", "paused_us")
RUN = "./roce-lab run configs/host-*.json"


def allreduce_gbps(outdir):
    """Per-host throughput of the first finished iteration of the run's collective."""
    path, rows = read_rows(outdir, "collectives.csv", COLLECTIVES, RUN)
    sent = 0
    for line, r in rows:
        if r["kind"] == "step" and r["iteration"] == "0":
            sent += parse(path, line, lambda: int(r["bytes"]))
        if r["kind"] == "iteration" and r["iteration"] == "0":
            if not r["duration_us"]:
                sys.exit(f"{path}:{line}: the allreduce did not finish")
            duration = parse(path, line, lambda: float(r["duration_us"]))
            return 8.0 * sent / duration / 1e3
    sys.exit(f"{path}: no iteration row")


def paused_shares(outdir):
    """{server: share of the run its ToR port was paused} for each flow destination."""
    summary = pathlib.Path(outdir) / "summary.json"
    try:
        end_us = float(json.loads(summary.read_text())["end_time_us"])
    except (OSError, ValueError, KeyError) as e:
        sys.exit(f"{summary}: {e}")
    _, flows = read_rows(outdir, "flows.csv", FLOWS, RUN)
    _, ports = read_rows(outdir, "ports.csv", PORTS, RUN)
    path = pathlib.Path(outdir) / "pfc.csv"
    paused_lines = path.read_text().count("\n") if path.is_file() else 0
    # No pause at all (no row below the header) is a valid run: every share is 0.
    path, pfc = read_rows(outdir, "pfc.csv", PFC, RUN) if paused_lines > 1 else (path, [])
    facing = {r["peer_node"]: (r["node"], r["port"]) for _, r in ports}
    paused = {(r["node"], r["port"]): parse(path, line, lambda: float(r["paused_us"]))
              for line, r in pfc if r["class"] == "3"}
    servers = sorted({r["dst"] for _, r in flows}, key=lambda h: (len(h), h))
    return {s: paused.get(facing.get(s), 0.0) / end_us for s in servers}


def main(argv=None, prog=None):
    ap = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    ap.add_argument("rundirs", nargs="+")
    ap.add_argument("-o", "--output", default="host-pushback.png")
    args = ap.parse_args(argv)
    allreduce, azure = [], []
    for d in map(pathlib.Path, args.rundirs):
        if not d.is_dir():
            sys.exit(f"{d}: not a directory (run {RUN} --out {d})")
        (allreduce if (d / "collectives.csv").is_file() else azure).append(d)
    panels = [p for p in (("allreduce", allreduce), ("azure", azure)) if p[1]]
    fig, axes = plt.subplots(1, len(panels), figsize=(5.0 * len(panels), 3.5), squeeze=False)
    for ax, (kind, dirs) in zip(axes[0], panels):
        if kind == "allreduce":
            gbps = [allreduce_gbps(d) for d in dirs]
            ax.bar([d.name for d in dirs], gbps, color=[f"C{i}" for i in range(len(dirs))])
            for i, g in enumerate(gbps):
                ax.annotate(f"{g:.1f}", (i, g), ha="center", va="bottom", fontsize=8)
            ax.set_ylabel("per-host allreduce throughput (Gb/s)")
            ax.set_title("Hostping Fig. 1: one degraded RNIC PCIe link", fontsize=9)
            continue
        width = 0.8 / len(dirs)
        for i, d in enumerate(dirs):
            shares = paused_shares(d)
            loopback = (d / "host_dma_flows.csv").is_file()
            xs = [k + (i - (len(dirs) - 1) / 2) * width for k in range(len(shares))]
            heights = [s * 100 for s in shares.values()]
            ax.bar(xs, heights, width=width, color=f"C{3 if loopback else 0}",
                   label=f"{d.name} (loopback {'on' if loopback else 'off'})")
            # Every bar's value above it: a zero-height bar is otherwise no bar at all.
            for x, h in zip(xs, heights):
                ax.annotate(f"{h:.0f} %" if h >= 1 or h == 0 else f"{h:.1g} %", (x, h),
                            ha="center", va="bottom", fontsize=8, xytext=(0, 1),
                            textcoords="offset points")
            ax.set_xticks(range(len(shares)), list(shares))
        ax.set_xlabel("server")
        ax.set_ylabel("ToR port paused (% of time)")
        ax.set_title("Azure §8.3: loopback + external traffic", fontsize=9)
        run_labels.legend_below(ax)
    fig.tight_layout()
    fig.savefig(args.output, dpi=120, bbox_inches="tight")
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
