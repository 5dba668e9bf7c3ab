#!/usr/bin/python3
"""Plot host push-back into the fabric: Hostping Fig. 1 and Azure §8.3, from their runs.

usage: analysis/host_pushback.py OUTDIR [-o host-pushback.png]

OUTDIR is the --out directory of `host-allreduce` (allreduce.csv: case, hosts,
comm_time_ms, per_host_gbps) or of `host-azure-loopback` (azure.csv: loopback, server,
xoff_sent, tor_paused_share, external_gbps, loopback_gbps), read by column name.
- allreduce.csv: per-host allreduce throughput, ideal against one degraded RNIC PCIe link
  (Hostping Fig. 1: every host drops to ~50 Gb/s, ~70 % below ideal).
- azure.csv: per server, XOFF frames sent to the ToR and the share of time the ToR port is
  paused, with loopback traffic on and off (Azure §8.3: pauses only with loopback).
"""
import argparse
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from output_csv import parse, read_rows  # noqa: E402

ALLREDUCE = ("case", "hosts", "comm_time_ms", "per_host_gbps")
AZURE = ("loopback", "server", "xoff_sent", "tor_paused_share", "external_gbps", "loopback_gbps")


def plot_allreduce(outdir, ax):
    path, rows = read_rows(outdir, "allreduce.csv", ALLREDUCE, "host-allreduce")
    cases = [r["case"] for _, r in rows]
    gbps = [parse(path, line, lambda: float(r["per_host_gbps"])) for line, r in rows]
    ax.bar(cases, gbps, color=[f"C{i}" for i in range(len(cases))])
    for i, g in enumerate(gbps):
        ax.annotate(f"{g:.1f}", (i, g), ha="center", va="bottom", fontsize=8)
    ax.set_ylabel("per-host allreduce throughput (Gb/s)")
    ax.set_title("Hostping Fig. 1: one degraded RNIC PCIe link", fontsize=9)


def plot_azure(outdir, ax):
    path, rows = read_rows(outdir, "azure.csv", AZURE, "host-azure-loopback")
    for loopback, label, color in (("1", "loopback on", "C3"), ("0", "loopback off", "C0")):
        sel = [(line, r) for line, r in rows if r["loopback"] == loopback]
        servers = [parse(path, line, lambda: int(r["server"])) for line, r in sel]
        share = [parse(path, line, lambda: float(r["tor_paused_share"])) * 100 for line, r in sel]
        offset = -0.2 if loopback == "1" else 0.2
        ax.bar([s + offset for s in servers], share, width=0.4, color=color, label=label)
    ax.set_xlabel("server")
    ax.set_ylabel("ToR port paused (% of time)")
    ax.set_title("Azure §8.3: loopback + external traffic", fontsize=9)
    ax.legend(fontsize=8)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("outdir")
    ap.add_argument("-o", "--output", default="host-pushback.png")
    args = ap.parse_args()
    out = pathlib.Path(args.outdir)
    kinds = [k for k in ("allreduce.csv", "azure.csv") if (out / k).is_file()]
    if not kinds:
        sys.exit(f"{out}: neither allreduce.csv nor azure.csv (a host-allreduce or "
                 "host-azure-loopback output directory?)")
    fig, axes = plt.subplots(1, len(kinds), figsize=(5.0 * len(kinds), 3.5), squeeze=False)
    for ax, kind in zip(axes[0], kinds):
        (plot_allreduce if kind == "allreduce.csv" else plot_azure)(out, ax)
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
