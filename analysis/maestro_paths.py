#!/usr/bin/python3
"""Plot per-spine throughput over time of a maestro-paths run (SOSR'21 Fig. 12d/e).

usage: analysis/maestro_paths.py OUTDIR [-o maestro-paths.png]

Reads OUTDIR/paths.csv by column name (time_ms, spine, gbps): one line per spine,
plus the total, so that paths being enabled or failed one by one show as steps.
"""
import argparse
import csv
import pathlib
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load(outdir):
    path = pathlib.Path(outdir) / "paths.csv"
    if not path.is_file():
        sys.exit(f"{path}: not found (is {outdir} a maestro-paths output directory?)")
    series = defaultdict(dict)
    with path.open(newline="") as f:
        reader = csv.DictReader(f)
        for column in ("time_ms", "spine", "gbps"):
            if column not in (reader.fieldnames or []):
                sys.exit(f"{path}: no column '{column}' (columns: {reader.fieldnames})")
        for line, row in enumerate(reader, start=2):
            try:
                t, spine, gbps = float(row["time_ms"]), int(row["spine"]), float(row["gbps"])
            except ValueError as e:
                sys.exit(f"{path}:{line}: {e}")
            series[spine][t] = series[spine].get(t, 0.0) + gbps
    if not series:
        sys.exit(f"{path}: no rows")
    return series


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("outdir")
    ap.add_argument("-o", "--output", default="maestro-paths.png")
    args = ap.parse_args()
    series = load(args.outdir)
    fig, ax = plt.subplots(figsize=(6, 3.5))
    total = defaultdict(float)
    for spine in sorted(series):
        times = sorted(series[spine])
        ax.step(times, [series[spine][t] for t in times], where="pre", label=f"spine {spine}")
        for t in times:
            total[t] += series[spine][t]
    times = sorted(total)
    ax.step(times, [total[t] for t in times], where="pre", color="k", label="total")
    ax.set_xlabel("time (ms)")
    ax.set_ylabel("throughput (Gb/s)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
