"""Per-path throughput of a run's Maestro endpoints, step by step (SOSR'21 Fig. 12d/e).

usage: analysis/maestro_paths.py OUTDIR [--step 2ms] [-o maestro-paths.png]

Reads OUTDIR/paths.csv by column name (collective, hop, time_us, via, gbps):
the rate of every virtual path over each sampling interval, named by the node
it goes through ("via", the spine). Prints, for each step of --step (the
interval paths are enabled or failed at), the mean rate of every path over the
samples that end in that step, and their total. With -o, draws the samples:
one line per path plus the total, so paths enabled or failed one by one show
as steps.
"""
import argparse
import pathlib
import re
import sys
from collections import defaultdict

from . import csvfile
from . import labels as run_labels

COLUMNS = ("collective", "hop", "time_us", "via", "gbps")
UNITS_US = {"s": 1e6, "ms": 1e3, "us": 1.0, "ns": 1e-3}


def parse_step(text):
    m = re.fullmatch(r"([0-9]+(?:\.[0-9]+)?)(s|ms|us|ns)", text)
    if not m or float(m.group(1)) <= 0:
        sys.exit(f"--step {text}: expected a positive duration such as 2ms")
    return float(m.group(1)) * UNITS_US[m.group(2)]


def load(outdir):
    """{(collective, hop, via): {time_us: gbps}}"""
    path = pathlib.Path(outdir) / "paths.csv"
    series = defaultdict(dict)
    for line, row in csvfile.rows(path, COLUMNS, missing="a run with a collective's "
                                  "\"path_interval\"?"):
        try:
            t, gbps = float(row["time_us"]), float(row["gbps"])
        except ValueError as e:
            sys.exit(f"{path}:{line}: {e}")
        key = (row["collective"], row["hop"], row["via"])
        series[key][t] = series[key].get(t, 0.0) + gbps
    if not series:
        sys.exit(f"{path}: no rows")
    return series


def steps(series, step_us):
    """Lines: per step, the mean rate of each path over the samples ending in it, and the total."""
    keys = sorted(series)
    last = max(t for s in series.values() for t in s)
    lines = []
    k = 0
    while k * step_us < last:
        lo, hi = k * step_us, (k + 1) * step_us
        cells = []
        total = 0.0
        for key in keys:
            values = [g for t, g in series[key].items() if lo < t <= hi + 1e-9]
            mean = sum(values) / len(values) if values else 0.0
            total += mean
            cells.append(f"{key[2] or 'path'} {mean:.2f}")
        lines.append(f"step {k} ({lo / 1e3:g}-{hi / 1e3:g} ms): " + ", ".join(cells)
                     + f"; total {total:.2f} Gb/s")
        k += 1
    return lines


def plot(series, output):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5))
    total = defaultdict(float)
    for index, key in enumerate(sorted(series)):
        times = sorted(series[key])
        ax.step([t / 1e3 for t in times], [series[key][t] for t in times], where="pre",
                label=key[2] or f"{key[0]} hop {key[1]}", **run_labels.style(index, len(times)))
        for t in times:
            total[t] += series[key][t]
    times = sorted(total)
    ax.step([t / 1e3 for t in times], [total[t] for t in times], where="pre", color="k",
            label="total")
    ax.set_xlabel("time (ms)")
    ax.set_ylabel("throughput (Gb/s)")
    ax.grid(alpha=0.3)
    run_labels.legend_below(ax)
    fig.savefig(output, dpi=120, bbox_inches="tight")
    print(f"wrote {output}")


def main(argv=None, prog=None):
    ap = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    ap.add_argument("outdir")
    ap.add_argument("--step", default="2ms", help="length of a step (default 2ms)")
    ap.add_argument("-o", "--output", help="also draw the samples into this PNG")
    args = ap.parse_args(argv)
    series = load(args.outdir)
    print("\n".join(steps(series, parse_step(args.step))))
    if args.output:
        plot(series, args.output)


if __name__ == "__main__":
    main()
