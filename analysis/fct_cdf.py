#!/usr/bin/python3
"""Plot the FCT CDF (and slowdown CDF) of one or more roce-lab output directories.

usage: analysis/fct_cdf.py OUTDIR [OUTDIR ...] [-o fct-cdf.png] [--slowdown]

Reads each OUTDIR/flows.csv by column name (fct_us, slowdown); unfinished flows
(empty fct_us) are left out of the curve, and the run's legend entry (and stderr)
gives their count. A run with no finished flows has a legend entry and no curve.
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


def legend_label(name, finished, unfinished):
    """The run's legend entry: the CDF is over its finished flows, so the entry says how
    many flows did not finish and are not in the curve."""
    if not unfinished:
        return name
    if not finished:
        return f"{name}: no finished flows ({unfinished} unfinished)"
    return f"{name} ({unfinished} of {finished + unfinished} flows unfinished, not shown)"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdirs", nargs="+")
    parser.add_argument("-o", "--output", default=None, help="image file (default fct-cdf.png)")
    parser.add_argument("--slowdown", action="store_true", help="plot slowdown instead of FCT")
    args = parser.parse_args()
    column = "slowdown" if args.slowdown else "fct_us"
    output = args.output or ("slowdown-cdf.png" if args.slowdown else "fct-cdf.png")

    fig, ax = plt.subplots(figsize=(6, 4))
    plotted = 0
    for outdir in args.outdirs:
        values, unfinished = load(outdir, column)
        name = pathlib.Path(outdir).name
        if unfinished:
            print(f"{outdir}: {unfinished} unfinished flows left out", file=sys.stderr)
        if not values:
            print(f"{outdir}: no finished flows", file=sys.stderr)
            # An empty entry keeps the run in the legend, saying why it has no curve.
            ax.plot([], [], label=legend_label(name, 0, unfinished))
            continue
        n = len(values)
        ax.plot(values, [(i + 1) / n for i in range(n)], label=legend_label(name, n, unfinished))
        plotted += 1
    if plotted:
        ax.set_xscale("log")
    else:
        ax.text(0.5, 0.5, "no finished flows", transform=ax.transAxes, ha="center",
                va="center")
    ax.set_xlabel("slowdown" if args.slowdown else "flow completion time (µs)")
    ax.set_ylabel("CDF (of finished flows)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(output, dpi=150)
    print(output)


if __name__ == "__main__":
    main()
