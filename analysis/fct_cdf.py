#!/usr/bin/python3
"""Plot the FCT CDF (and slowdown CDF) of one or more roce-lab output directories.

usage: analysis/fct_cdf.py OUTDIR [OUTDIR ...] [-o fct-cdf.png] [--slowdown]

Reads each OUTDIR/flows.csv by column name (fct_us, slowdown); unfinished flows
(empty fct_us) are reported and left out of the curve.
"""
import argparse
import csv
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load(outdir, column):
    path = pathlib.Path(outdir) / "flows.csv"
    if not path.is_file():
        sys.exit(f"{path}: not found (is {outdir} a roce-lab output directory?)")
    values, unfinished = [], 0
    with path.open(newline="") as f:
        reader = csv.DictReader(f)
        if column not in (reader.fieldnames or []):
            sys.exit(f"{path}: no column '{column}' (columns: {reader.fieldnames})")
        for line, row in enumerate(reader, start=2):
            cell = row[column].strip()
            if not cell:
                unfinished += 1
                continue
            try:
                values.append(float(cell))
            except ValueError:
                sys.exit(f"{path}:{line}: column '{column}' is not a number: {cell!r}")
    return sorted(values), unfinished


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdirs", nargs="+")
    parser.add_argument("-o", "--output", default=None, help="image file (default fct-cdf.png)")
    parser.add_argument("--slowdown", action="store_true", help="plot slowdown instead of FCT")
    args = parser.parse_args()
    column = "slowdown" if args.slowdown else "fct_us"
    output = args.output or ("slowdown-cdf.png" if args.slowdown else "fct-cdf.png")

    fig, ax = plt.subplots(figsize=(6, 4))
    for outdir in args.outdirs:
        values, unfinished = load(outdir, column)
        if not values:
            print(f"{outdir}: no finished flows", file=sys.stderr)
            continue
        n = len(values)
        ax.plot(values, [(i + 1) / n for i in range(n)], label=pathlib.Path(outdir).name)
        if unfinished:
            print(f"{outdir}: {unfinished} unfinished flows left out", file=sys.stderr)
    ax.set_xscale("log")
    ax.set_xlabel("slowdown" if args.slowdown else "flow completion time (µs)")
    ax.set_ylabel("CDF")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(output, dpi=150)
    print(output)


if __name__ == "__main__":
    main()
