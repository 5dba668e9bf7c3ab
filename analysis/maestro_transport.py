#!/usr/bin/python3
"""Plot single-path vs Maestro times of a maestro-ddl or maestro-mice run (SOSR'21 Fig. 11/12f).

usage: analysis/maestro_transport.py OUTDIR [-o maestro-transport.png]

Reads OUTDIR/ddl.csv (columns transport, iteration, comm_time_ms: per-iteration
communication time of the ring-allreduce) or OUTDIR/mice.csv (columns transport,
round, round_time_us: 2-byte token round times), by column name, and draws one
line per transport against the iteration or round.
"""
import argparse
import csv
import pathlib
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

KINDS = {
    "ddl.csv": ("iteration", "comm_time_ms", "communication time (ms)"),
    "mice.csv": ("round", "round_time_us", "token round time (us)"),
}


def load(outdir):
    for name, (xcol, ycol, label) in KINDS.items():
        path = pathlib.Path(outdir) / name
        if path.is_file():
            break
    else:
        sys.exit(f"{outdir}: neither ddl.csv nor mice.csv (a maestro-ddl/maestro-mice output?)")
    series = defaultdict(list)
    with path.open(newline="") as f:
        reader = csv.DictReader(f)
        for column in ("transport", xcol, ycol):
            if column not in (reader.fieldnames or []):
                sys.exit(f"{path}: no column '{column}' (columns: {reader.fieldnames})")
        for line, row in enumerate(reader, start=2):
            try:
                series[row["transport"]].append((int(row[xcol]), float(row[ycol])))
            except ValueError as e:
                sys.exit(f"{path}:{line}: {e}")
    if not series:
        sys.exit(f"{path}: no rows")
    return series, xcol, label


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("outdir")
    ap.add_argument("-o", "--output", default="maestro-transport.png")
    args = ap.parse_args()
    series, xcol, label = load(args.outdir)
    fig, ax = plt.subplots(figsize=(6, 3.5))
    for transport in sorted(series):
        points = sorted(series[transport])
        mean = sum(y for _, y in points) / len(points)
        ax.plot([x for x, _ in points], [y for _, y in points], marker=".",
                label=f"{transport} (mean {mean:.3g})")
    ax.set_xlabel(xcol)
    ax.set_ylabel(label)
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
