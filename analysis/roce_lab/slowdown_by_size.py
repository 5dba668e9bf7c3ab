"""Plot the slowdown of flows by flow-size bucket for one or more roce-lab output directories.

usage: analysis/slowdown_by_size.py OUTDIR [OUTDIR ...] [-o slowdown-by-size.png]
                                    [--title TEXT] [--labels A,B,...] [--scale log|linear]

Reads each OUTDIR/flows.csv by column name (bytes, slowdown). Buckets (bytes,
KB = 1000 B, upper bounds inclusive) are those of summary.json's "by_size":
0-10KB, 10KB-100KB, 100KB-1MB, 1MB+. Each run's finished flows of a bucket are a box
(25th to 75th percentile, line at the median, whiskers at the 1st and 99th
percentiles, a diamond at the mean; buckets of fewer than 5 flows show each flow as a
point), labelled with the number of flows it holds; unfinished flows (empty slowdown)
are left out, counted under the box and on stderr. Percentiles printed on stderr are
nearest-rank, as in summary.json.
"""
import argparse
import pathlib
import sys

from . import csvfile
from . import labels as run_labels
from .stats import BUCKETS, bucket_index, nearest_rank

FEW = 5  # buckets with fewer finished flows are drawn as points, not a box


def load(outdir):
    path = pathlib.Path(outdir) / "flows.csv"
    values = [[] for _ in BUCKETS]
    unfinished = [0] * len(BUCKETS)
    for line, row in csvfile.rows(path, ("bytes", "slowdown"),
                                  missing=f"is {outdir} a roce-lab output directory?"):
        try:
            b = bucket_index(int(row["bytes"]))
            cell = row["slowdown"].strip()
            if not cell:
                unfinished[b] += 1
                continue
            values[b].append(float(cell))
        except ValueError:
            sys.exit(f"{path}:{line}: bytes or slowdown is not a number")
    return [sorted(v) for v in values], unfinished


def count_text(finished, unfinished):
    text = f"n={finished}"
    return text + f"\n+{unfinished} unfin." if unfinished else text


def figure(outdirs, title=None, labels=None, scale="log"):
    """The slowdown-by-size figure (a matplotlib Figure) of the runs in OUTDIRS."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    names, shared = run_labels.named(outdirs, labels)
    runs = [load(d) for d in outdirs]
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    fig, ax = plt.subplots(figsize=(7.5, 4.6))
    width = 0.8 / len(outdirs)
    handles, finished, boxes, points = [], 0, False, False
    for k, ((values, unfinished), name) in enumerate(zip(runs, names)):
        color = colors[k % len(colors)]
        xs = [i + (k - (len(outdirs) - 1) / 2) * width for i in range(len(BUCKETS))]
        boxed = [(x, v) for x, v in zip(xs, values) if len(v) >= FEW]
        if boxed:
            parts = ax.boxplot([v for _, v in boxed], positions=[x for x, _ in boxed],
                               widths=width * 0.7, whis=(1, 99), showmeans=True,
                               patch_artist=True, manage_ticks=False,
                               flierprops={"marker": ".", "markersize": 3,
                                           "markeredgecolor": color, "alpha": 0.5},
                               meanprops={"marker": "D", "markersize": 4,
                                          "markerfacecolor": "white", "markeredgecolor": "k"},
                               medianprops={"color": "k"})
            for box in parts["boxes"]:
                box.set_facecolor(color)
                box.set_alpha(0.55)
            boxes = True
        for x, v in zip(xs, values):
            if 0 < len(v) < FEW:
                ax.plot([x] * len(v), v, "o", color=color, markersize=4, alpha=0.8)
                points = True
        for x, v, u in zip(xs, values, unfinished):
            ax.annotate(count_text(len(v), u), (x, 0), xycoords=("data", "axes fraction"),
                        xytext=(0, 3), textcoords="offset points", ha="center", va="bottom",
                        fontsize=8, color=color)
        left_out = sum(unfinished)
        suffix = f" ({left_out} unfinished, not shown)" if left_out else ""
        handles.append(Patch(facecolor=color, alpha=0.55, label=name + suffix))
        for (_, label), v, u in zip(BUCKETS, values, unfinished):
            stats = (f", median {nearest_rank(v, 50):.3f}, p99 {nearest_rank(v, 99):.3f}"
                     if v else "")
            print(f"{name} {label}: {len(v)} finished, {u} unfinished{stats}", file=sys.stderr)
        finished += sum(len(v) for v in values)
    ax.set_xticks(range(len(BUCKETS)))
    ax.set_xticklabels([label for _, label in BUCKETS])
    ax.set_xlim(-0.5, len(BUCKETS) - 0.5)
    ax.set_xlabel("flow size (bytes; KB = 1000 B)")
    ax.set_ylabel("slowdown (FCT / ideal FCT)")
    run_labels.title(ax, title or "Slowdown by flow size", shared)
    if finished:
        if scale == "log":
            ax.set_yscale("log")
        # Room below the boxes for the flow counts.
        low, high = ax.get_ylim()
        if scale == "log":
            ax.set_ylim(low / (high / low) ** 0.15, high)
            run_labels.log_ticks(ax.yaxis)
        else:
            ax.set_ylim(low - 0.15 * (high - low), high)
    else:
        ax.text(0.5, 0.5, "no finished flows", transform=ax.transAxes, ha="center",
                va="center")
    ax.grid(True, axis="y", which="both", alpha=0.3)
    if boxes:
        handles.append(plt.Line2D([], [], marker="D", color="w", markerfacecolor="white",
                                  markeredgecolor="k",
                                  label="box: 25th-75th percentile, line: median, whiskers: "
                                        "1st-99th, \u25c7: mean"))
    if points:
        handles.append(plt.Line2D([], [], marker="o", color="w", markerfacecolor="grey",
                                  label=f"points: each flow of a bucket of < {FEW} flows"))
    run_labels.legend_below(ax, handles)
    return fig


def main(argv=None, prog=None):
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    parser.add_argument("outdirs", nargs="+")
    parser.add_argument("-o", "--output", default="slowdown-by-size.png", help="image file")
    run_labels.add_options(parser)
    args = parser.parse_args(argv)
    import matplotlib
    matplotlib.use("Agg")
    fig = figure(args.outdirs, args.title, run_labels.split(args.labels, args.outdirs, parser),
                 args.scale)
    fig.savefig(args.output, dpi=150, bbox_inches="tight")
    print(args.output)


if __name__ == "__main__":
    main()
