"""Heat maps and line plots of a DCQCN sweep table (OUT/table.csv of ./roce-lab sweep).

usage: dcqcn_sweep.py heatmap TABLE --x /ecn/Kmax --y /ecn/Pmax [--metric dcqcn.jain] [-o f.png]
       dcqcn_sweep.py line TABLE --x /topology/long_haul_km [--group /cc_hosts]
                      [--metric dcqcn.goodput_min_gbps] [-o f.png]

Columns are read by name: the grid's JSON pointers and the summary.json leaves
(dcqcn.goodput_gbps.N per backlogged flow, dcqcn.goodput_min_gbps, dcqcn.jain,
fct_us.p99 for the messages that completed, pfc.paused_us,
dcqcn.watermark_mean_bytes, dcqcn.watermark_peak_bytes). Several seeds of one
grid point are averaged. Without -o the values are printed as a text table.
"""
import argparse
import json
import re
import sys
from collections import defaultdict

from . import csvfile
from . import labels as run_labels


def load(path, metric):
    rows = []
    table = csvfile.rows(path)
    if metric not in (table.fieldnames or []):
        names = [n for n in table.fieldnames or [] if n.startswith(("dcqcn.", "fct_us", "pfc"))]
        sys.exit("%s: no column %s (metrics: %s)" % (path, metric, ", ".join(names)))
    for row in table.dicts():
        if row["status"] == "done" and row[metric] != "":
            rows.append(row)
    if not rows:
        sys.exit("%s: no completed run has %s" % (path, metric))
    return rows


def average(rows, keys, metric):
    acc = defaultdict(list)
    for row in rows:
        acc[tuple(row[k] for k in keys)].append(float(row[metric]))
    return {k: sum(v) / len(v) for k, v in acc.items()}


def seeds_note(rows):
    seeds = sorted({row.get("seed", "") for row in rows})
    return " (mean of %d seeds)" % len(seeds) if len(seeds) > 1 else ""


def parsed(v):
    try:
        return json.loads(v)
    except ValueError:
        return v


# Units of the configuration's quantity strings (ns-3 Time, QueueSize, DataRate as
# json-attribute-converter.cc reads them): dimension and factor to the base unit. K/k
# and M, G are decimal (1 KB = 1000 B), Ki/Mi/Gi binary.
_PREFIX = {"": 1, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12,
           "Ki": 2 ** 10, "Mi": 2 ** 20, "Gi": 2 ** 30, "Ti": 2 ** 40}
UNITS = {"s": ("time", 1.0), "ms": ("time", 1e-3), "us": ("time", 1e-6),
         "ns": ("time", 1e-9), "ps": ("time", 1e-12), "min": ("time", 60.0),
         "h": ("time", 3600.0), "p": ("packets", 1.0)}
for _p, _f in _PREFIX.items():
    UNITS[_p + "B"] = ("size", _f)
    for _bits in ("bps", "b/s"):
        UNITS[_p + _bits] = ("rate", _f)
    for _bytes in ("Bps", "B/s"):
        UNITS[_p + _bytes] = ("rate", 8 * _f)
DIMENSIONS = ["time", "size", "packets", "rate"]
_QUANTITY = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([A-Za-z/]+)\s*$")


def quantity(text):
    """(dimension, value in base units) of a string such as "55us", "5KB" or "40Gbps";
    None when it is not one."""
    m = _QUANTITY.match(text) if isinstance(text, str) else None
    if not m or m.group(2) not in UNITS:
        return None
    dimension, factor = UNITS[m.group(2)]
    return dimension, float(m.group(1)) * factor


def ordered(values):
    """Numbers (or lists of numbers, e.g. per-datacenter km) numerically, quantities with
    units ("300us", "5KB", "40Gbps") by their value within each dimension, the rest as
    text."""
    def key(v):
        x = parsed(v)
        if isinstance(x, bool):
            return (2, 0, (), v)
        if isinstance(x, (int, float)):
            return (0, 0, (x,), v)
        if isinstance(x, list) and x and all(isinstance(e, (int, float)) for e in x):
            return (0, 0, tuple(reversed(x)), v)
        q = quantity(x)
        if q is not None:
            return (1, DIMENSIONS.index(q[0]), (q[1],), v)
        return (2, 0, (), v)
    return sorted(set(values), key=key)


def label(v):
    """A short name: numbers as they are; objects by the TypeIds and attribute count
    they set (a /cc_hosts entry reads "RdmaDcqcn+3"); [] as "none"."""
    x = parsed(v)
    if x == [] or x == {}:
        return "none"
    if isinstance(x, (list, dict)) and "type" in v:
        names = []

        def walk(o):
            if isinstance(o, dict):
                if "type" in o:
                    extra = len([k for k in o if k != "type"])
                    names.append(str(o["type"]).replace("ns3::", "") + ("+%d" % extra if extra else ""))
                for e in o.values():
                    walk(e)
            elif isinstance(o, list):
                for e in o:
                    walk(e)
        walk(x)
        return ",".join(names)
    text = v.strip('"')
    return text if len(text) <= 24 else text[:21] + "..."


def heatmap(a):
    rows = load(a.table, a.metric)
    for p in (a.x, a.y):
        if p not in rows[0]:
            sys.exit("%s: no grid column %s" % (a.table, p))
    data = average(rows, [a.x, a.y], a.metric)
    xs = ordered(r[a.x] for r in rows)
    ys = ordered(r[a.y] for r in rows)
    grid = [[data.get((x, y), float("nan")) for x in xs] for y in ys]
    if not a.output:
        print("%-14s" % (a.y + "\\" + a.x) + "".join("%16s" % label(x) for x in xs))
        for y, line in zip(ys, grid):
            print("%-14s" % label(y) + "".join("%16.4g" % v for v in line))
        return 0
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(1.2 * len(xs) + 2.5, 0.8 * len(ys) + 1.8))
    im = ax.imshow(grid, origin="lower", aspect="auto", cmap="viridis")
    ax.set_xticks(range(len(xs)), [label(x) for x in xs])
    ax.set_yticks(range(len(ys)), [label(y) for y in ys])
    ax.set_xlabel(run_labels.quantity(a.x))
    ax.set_ylabel(run_labels.quantity(a.y))
    ax.set_title(a.title or "%s by %s and %s%s" % (run_labels.quantity(a.metric),
                                                   run_labels.quantity(a.x),
                                                   run_labels.quantity(a.y), seeds_note(rows)),
                 fontsize="medium")
    finite = [v for line in grid for v in line if v == v]
    middle = (min(finite) + max(finite)) / 2 if finite else 0
    for j, line in enumerate(grid):
        for i, v in enumerate(line):
            # dark text on viridis' bright (high) cells, white on its dark ones
            ax.text(i, j, "%.3g" % v, ha="center", va="center", fontsize=9,
                    color="k" if v == v and v > middle else "w")
    fig.colorbar(im, ax=ax, label=run_labels.quantity(a.metric))
    fig.tight_layout()
    fig.savefig(a.output, dpi=150)
    print("wrote " + a.output)
    return 0


def line(a):
    rows = load(a.table, a.metric)
    keys = [a.x] + ([a.group] if a.group else [])
    for p in keys:
        if p not in rows[0]:
            sys.exit("%s: no grid column %s" % (a.table, p))
    data = average(rows, keys, a.metric)
    xs = ordered(r[a.x] for r in rows)
    groups = ordered(r[a.group] for r in rows) if a.group else [None]
    series = {g: [data.get((x, g) if a.group else (x,), float("nan")) for x in xs] for g in groups}
    if not a.output:
        print("%-24s" % a.x + "".join("%16s" % label(x) for x in xs))
        for g, vals in series.items():
            print("%-24s" % (label(g) if g else a.metric) + "".join("%16.4g" % v for v in vals))
        return 0
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6, 3.5))
    seen = {}
    for index, (g, vals) in enumerate(series.items()):
        name = label(g) if g else run_labels.quantity(a.metric)
        same = seen.setdefault(tuple(vals), name)
        if same != name:
            name += " (the same values as %s)" % same  # drawn over it, dashed
        ax.plot(range(len(xs)), vals, label=name, **run_labels.style(index, 1))
    ax.set_xticks(range(len(xs)), [label(x) for x in xs], rotation=20)
    ax.set_xlabel(run_labels.quantity(a.x))
    ax.set_ylabel(run_labels.quantity(a.metric))
    ax.set_title(a.title or "%s by %s%s" % (run_labels.quantity(a.metric),
                                            run_labels.quantity(a.x), seeds_note(rows)),
                 fontsize="medium")
    if a.group:
        run_labels.legend_below(ax)
        ax.get_legend().set_title(run_labels.quantity(a.group))
    fig.tight_layout()
    fig.savefig(a.output, dpi=150, bbox_inches="tight")
    print("wrote " + a.output)
    return 0


def main(argv=None, prog=None):
    ap = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    h = sub.add_parser("heatmap")
    h.add_argument("table")
    h.add_argument("--x", required=True)
    h.add_argument("--y", required=True)
    h.add_argument("--metric", default="dcqcn.jain")
    h.add_argument("-o", "--output")
    h.add_argument("--title", help="the figure's title (default: the metric and the axes)")
    h.set_defaults(func=heatmap)
    li = sub.add_parser("line")
    li.add_argument("table")
    li.add_argument("--x", required=True)
    li.add_argument("--group")
    li.add_argument("--metric", default="dcqcn.goodput_min_gbps")
    li.add_argument("-o", "--output")
    li.add_argument("--title", help="the figure's title (default: the metric and x)")
    li.set_defaults(func=line)
    a = ap.parse_args(argv)
    return a.func(a)


if __name__ == "__main__":
    sys.exit(main())
