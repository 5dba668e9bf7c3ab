"""Compare NIC profiles across fat-tree scales (SRNIC Fig. 12): average FCT, p99 FCT
and average slowdown per profile and scale, as grouped bars.

usage: analysis/compare_profiles.py DIR [DIR ...] [-o compare-profiles.png] [--csv table.csv]

Each DIR is searched for run directories holding summary.json (as written by
roce-run / fat-tree-fct). A run's profile is its directory name and its scale
the parent directory's name, which is fat-tree-fct's layout OUT/<servers>/<profile>/.
Reads summary.json's fct_us.mean, fct_us.p99, slowdown.mean, finished and flows;
prints one table row per run (and ratios to the first profile, "cx6" if present)
and draws three panels.
"""
import argparse
import json
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

METRICS = [("fct_us", "mean", "average FCT (µs)"),
           ("fct_us", "p99", "p99 FCT (µs)"),
           ("slowdown", "mean", "average slowdown")]


def scale_key(name):
    return (0, int(name)) if name.isdigit() else (1, name)


def find_runs(dirs):
    runs = {}
    for d in dirs:
        root = pathlib.Path(d)
        if not root.is_dir():
            sys.exit(f"compare_profiles.py: {d}: not a directory")
        for summary in sorted(root.rglob("summary.json")):
            run = summary.parent
            try:
                data = json.loads(summary.read_text())
            except (OSError, ValueError) as e:
                sys.exit(f"compare_profiles.py: {summary}: {e}")
            runs[(run.parent.name, run.name)] = data
    if not runs:
        sys.exit("compare_profiles.py: no summary.json under " + " ".join(dirs))
    return runs


def main(argv=None, prog=None):
    ap = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("-o", "--output", default="compare-profiles.png")
    ap.add_argument("--csv", help="also write the table as CSV")
    args = ap.parse_args(argv)
    runs = find_runs(args.dirs)
    scales = sorted({s for s, _ in runs}, key=scale_key)
    profiles = []
    for _, p in sorted(runs):
        if p not in profiles:
            profiles.append(p)
    if "cx6" in profiles:
        profiles.remove("cx6")
        profiles.insert(0, "cx6")

    rows = []
    header = "scale,profile,flows,finished,fct_mean_us,fct_p99_us,slowdown_mean"
    print(header)
    for s in scales:
        for p in profiles:
            d = runs.get((s, p))
            if d is None:
                continue
            row = [s, p, d["flows"], d["finished"], d["fct_us"]["mean"], d["fct_us"]["p99"],
                   d["slowdown"]["mean"]]
            rows.append(row)
            print(",".join(str(v) for v in row))
        base = runs.get((s, profiles[0]))
        for p in profiles[1:]:
            d = runs.get((s, p))
            if base and d:
                ratios = [base[m][k] / d[m][k] if d[m][k] and base[m][k] is not None
                          else float("nan") for m, k, _ in METRICS]
                print(f"# {s}: {profiles[0]} / {p}: avg FCT {ratios[0]:.2f}x, "
                      f"p99 FCT {ratios[1]:.2f}x, avg slowdown {ratios[2]:.2f}x")
    if args.csv:
        with open(args.csv, "w") as f:
            f.write(header + "\n")
            for row in rows:
                f.write(",".join(str(v) for v in row) + "\n")

    fig, axes = plt.subplots(1, len(METRICS), figsize=(4.2 * len(METRICS), 3.6))
    width = 0.8 / max(1, len(profiles))
    for ax, (m, k, label) in zip(axes, METRICS):
        for i, p in enumerate(profiles):
            xs, ys = [], []
            for j, s in enumerate(scales):
                d = runs.get((s, p))
                if d is not None and d[m][k] is not None:
                    xs.append(j + (i - (len(profiles) - 1) / 2) * width)
                    ys.append(d[m][k])
            ax.bar(xs, ys, width, label=p)
        ax.set_xticks(range(len(scales)))
        ax.set_xticklabels(scales)
        ax.set_xlabel("servers")
        ax.set_ylabel(label)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper center", ncol=len(profiles), frameon=False)
    fig.tight_layout(rect=(0, 0, 1, 0.9))
    fig.savefig(args.output, dpi=120)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
