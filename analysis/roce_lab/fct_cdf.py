"""Plot the FCT CDF (and slowdown CDF) of one or more roce-lab output directories.

usage: analysis/fct_cdf.py OUTDIR [OUTDIR ...] [-o fct-cdf.png] [--slowdown]
                           [--title TEXT] [--labels A,B,...] [--scale log|linear]

Reads each OUTDIR/flows.csv by column name (fct_us, slowdown); unfinished flows
(empty fct_us) are left out of the curve, and the run's legend entry (and stderr)
gives their count. A run with no finished flows has a legend entry and no curve.
Legend names are the runs' descriptions (config.json), else their folder names.
"""
import argparse
import pathlib
import sys

from . import csvfile
from . import labels as run_labels


def load(outdir, column):
    path = pathlib.Path(outdir) / "flows.csv"
    values, unfinished = [], 0
    for line, row in csvfile.rows(path, (column,), missing=f"is {outdir} a roce-lab output "
                                  "directory?"):
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
        return f"{name} ({finished} flows)"
    if not finished:
        return f"{name}: no finished flows ({unfinished} unfinished)"
    return f"{name} ({unfinished} of {finished + unfinished} flows unfinished, not shown)"


def figure(outdirs, slowdown=False, title=None, labels=None, scale="log"):
    """The CDF figure (a matplotlib Figure) of the runs in OUTDIRS."""
    import matplotlib.pyplot as plt

    column = "slowdown" if slowdown else "fct_us"
    names, shared = run_labels.named(outdirs, labels)
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    plotted = 0
    drawn = {}  # a curve's values -> the name of the first run drawn with them
    for index, (outdir, name) in enumerate(zip(outdirs, names)):
        values, unfinished = load(outdir, column)
        if unfinished:
            print(f"{outdir}: {unfinished} unfinished flows left out", file=sys.stderr)
        if not values:
            print(f"{outdir}: no finished flows", file=sys.stderr)
            # An empty entry keeps the run in the legend, saying why it has no curve.
            ax.plot([], [], label=legend_label(name, 0, unfinished))
            continue
        n = len(values)
        label = legend_label(name, n, unfinished)
        same = drawn.setdefault(tuple(values), name)
        if same != name:
            # Drawn over the other: its dashes and markers show it, the legend says so.
            label += f", the same curve as {same}"
            print(f"{outdir}: the same {column} values as {same}", file=sys.stderr)
        # From 0 at the first value up to 1 at the last, a step at each flow.
        ax.step([values[0]] + values, [0.0] + [(i + 1) / n for i in range(n)], where="post",
                label=label, **run_labels.style(index, n + 1))
        plotted += 1
    if plotted and scale == "log":
        ax.set_xscale("log")
        run_labels.log_ticks(ax.xaxis)
    if not plotted:
        ax.text(0.5, 0.5, "no finished flows", transform=ax.transAxes, ha="center",
                va="center")
    ax.set_xlabel("slowdown (FCT / ideal FCT)" if slowdown else "flow completion time (µs)")
    ax.set_ylabel("fraction of finished flows")
    ax.set_ylim(0, 1.02)
    run_labels.title(ax, title or ("Slowdown CDF" if slowdown else "Flow completion time CDF"),
                     shared)
    ax.grid(True, which="both", alpha=0.3)
    run_labels.legend_below(ax)
    return fig


def main(argv=None, prog=None):
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    parser.add_argument("outdirs", nargs="+")
    parser.add_argument("-o", "--output", default=None, help="image file (default fct-cdf.png)")
    parser.add_argument("--slowdown", action="store_true", help="plot slowdown instead of FCT")
    run_labels.add_options(parser)
    args = parser.parse_args(argv)
    output = args.output or ("slowdown-cdf.png" if args.slowdown else "fct-cdf.png")
    import matplotlib
    matplotlib.use("Agg")
    fig = figure(args.outdirs, args.slowdown, args.title,
                 run_labels.split(args.labels, args.outdirs, parser), args.scale)
    fig.savefig(output, dpi=150, bbox_inches="tight")
    print(output)


if __name__ == "__main__":
    main()
