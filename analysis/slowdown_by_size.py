#!/usr/bin/python3
"""Plot mean and p99 slowdown by flow-size bucket for one or more roce-lab output directories.

usage: analysis/slowdown_by_size.py OUTDIR [OUTDIR ...] [-o slowdown-by-size.png]

Reads each OUTDIR/flows.csv by column name (bytes, slowdown). Buckets (bytes,
KB = 1000 B, upper bounds inclusive) are those of summary.json's "by_size":
0-10KB, 10KB-100KB, 100KB-1MB, 1MB+. Unfinished flows (empty slowdown) are
counted per bucket on stderr and left out. Percentiles are nearest-rank, as
in summary.json.
"""
import argparse
import csv
import math
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

BUCKETS = [(10_000, "0-10KB"), (100_000, "10KB-100KB"), (1_000_000, "100KB-1MB"), (None, "1MB+")]


def bucket_of(size):
    for i, (limit, _) in enumerate(BUCKETS):
        if limit is None or size <= limit:
            return i
    return len(BUCKETS) - 1


def nearest_rank(sorted_values, percent):
    if not sorted_values:
        return float("nan")
    rank = max(1, math.ceil(percent / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


def load(outdir):
    path = pathlib.Path(outdir) / "flows.csv"
    if not path.is_file():
        sys.exit(f"{path}: not found (is {outdir} a roce-lab output directory?)")
    values = [[] for _ in BUCKETS]
    unfinished = [0] * len(BUCKETS)
    with path.open(newline="") as f:
        reader = csv.DictReader(f)
        for column in ("bytes", "slowdown"):
            if column not in (reader.fieldnames or []):
                sys.exit(f"{path}: no column '{column}' (columns: {reader.fieldnames})")
        for line, row in enumerate(reader, start=2):
            try:
                b = bucket_of(int(row["bytes"]))
                cell = row["slowdown"].strip()
                if not cell:
                    unfinished[b] += 1
                    continue
                values[b].append(float(cell))
            except ValueError:
                sys.exit(f"{path}:{line}: bytes or slowdown is not a number")
    return [sorted(v) for v in values], unfinished


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdirs", nargs="+")
    parser.add_argument("-o", "--output", default="slowdown-by-size.png", help="image file")
    args = parser.parse_args()

    fig, ax = plt.subplots(figsize=(7, 4))
    width = 0.8 / len(args.outdirs)
    finished = 0
    for k, outdir in enumerate(args.outdirs):
        values, unfinished = load(outdir)
        name = pathlib.Path(outdir).name
        xs = [i + (k - (len(args.outdirs) - 1) / 2) * width for i in range(len(BUCKETS))]
        means = [sum(v) / len(v) if v else float("nan") for v in values]
        p99 = [nearest_rank(v, 99) for v in values]
        left_out = sum(unfinished)
        suffix = f" ({left_out} unfinished not shown)" if left_out else ""
        bars = ax.bar(xs, means, width, label=f"{name} mean{suffix}")
        ax.scatter(xs, p99, marker="_", s=200, color=bars.patches[0].get_facecolor(),
                   label=f"{name} p99")
        for (_, label), n, u in zip(BUCKETS, values, unfinished):
            print(f"{name} {label}: {len(n)} finished, {u} unfinished", file=sys.stderr)
        finished += sum(len(v) for v in values)
    ax.set_xticks(range(len(BUCKETS)))
    ax.set_xticklabels([label for _, label in BUCKETS])
    ax.set_xlabel("flow size")
    ax.set_ylabel("slowdown (FCT / ideal FCT)")
    if finished:
        ax.set_yscale("log")
    else:
        # Nothing to put on a log axis (matplotlib raises ValueError): say so instead.
        ax.text(0.5, 0.5, "no finished flows", transform=ax.transAxes, ha="center",
                va="center")
    ax.grid(True, axis="y", which="both", alpha=0.3)
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(args.output, dpi=150)
    print(args.output)


if __name__ == "__main__":
    main()
