#!/usr/bin/python3
"""Azure NSDI'23 Fig. 12 from a dcqcn-regional output directory.

usage: dcqcn_regional.py OUTDIR [--node dc0-c0-t0-0 --port 1] [--window-us 1000] [-o fig.png]

Prints per-QP goodput (goodput.csv) and the congested queue's watermark: the
peak of queues.csv samples in each window (the paper polls watermark counters),
then their mean and range. Plots the queue and the watermarks against time.
Columns are read by name.
"""
import argparse
import csv
import os
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("outdir")
    ap.add_argument("--node", default="dc0-c0-t0-0", help="switch of the congested queue")
    ap.add_argument("--port", default="1", help="its port (interface index)")
    ap.add_argument("--window-us", type=float, default=1000.0, help="watermark poll period")
    ap.add_argument("--from-us", type=float, default=None,
                    help="ignore samples before this time (default: goodput.csv's from_us)")
    ap.add_argument("-o", "--output", default=None, help="figure file (default: no figure)")
    args = ap.parse_args()

    start = args.from_us
    with open(os.path.join(args.outdir, "goodput.csv")) as f:
        for row in csv.DictReader(f):
            print(f"host {row['host']} qpn {row['qpn']}: {float(row['goodput_gbps']):.2f} Gb/s "
                  f"({row['from_us']}..{row['to_us']} us)")
            if start is None:
                start = float(row["from_us"])
    start = start or 0.0

    times, sizes = [], []
    with open(os.path.join(args.outdir, "queues.csv")) as f:
        for row in csv.DictReader(f):
            if row["node"] == args.node and row["port"] == args.port:
                times.append(float(row["time_us"]))
                sizes.append(int(row["bytes"]))
    marks = {}
    for t, b in zip(times, sizes):
        if t >= start:
            k = int((t - start) // args.window_us)
            marks[k] = max(marks.get(k, 0), b)
    if not marks:
        print(f"no samples of {args.node} port {args.port} after {start} us", file=sys.stderr)
        return 1
    wm = [marks[k] for k in sorted(marks)]
    print(f"{args.node} port {args.port}: watermark per {args.window_us:.0f} us mean "
          f"{sum(wm) / len(wm) / 1e6:.3f} MB, min {min(wm) / 1e6:.3f}, max {max(wm) / 1e6:.3f} "
          f"({len(wm)} windows)")
    if args.output:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(6, 3))
        ax.plot([t / 1e3 for t in times], [b / 1e6 for b in sizes], lw=0.5, label="queue")
        ax.step([(start + k * args.window_us) / 1e3 for k in sorted(marks)],
                [marks[k] / 1e6 for k in sorted(marks)], where="post", label="watermark")
        ax.set_xlabel("time (ms)")
        ax.set_ylabel("MB")
        ax.legend()
        fig.tight_layout()
        fig.savefig(args.output, dpi=150)
    return 0


if __name__ == "__main__":
    sys.exit(main())
