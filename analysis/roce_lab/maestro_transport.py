"""Compare the collectives of a run: single path vs Maestro (SOSR'21 Fig. 11, Fig. 12f).

usage: analysis/maestro_transport.py OUTDIR [--baseline NAME] [-o maestro-transport.png]

Reads OUTDIR/collectives.csv by column name (collective, type, over, kind,
iteration, duration_us) and takes the rows of kind "iteration": a ring
allreduce's communication time per iteration, a token ring's rounds. Prints,
per collective, its finished iterations, mean and total; then each other
collective against the baseline (the first collective unless --baseline):
how many times faster its mean is and by how much its total is cut. Draws one
line per collective against the iteration with -o.
"""
import argparse
import pathlib
import sys

from . import csvfile
from . import labels as run_labels

COLUMNS = ("collective", "type", "over", "kind", "iteration", "duration_us")


def load(outdir):
    """{name: {"type", "over", "times": [(iteration, us), ...]}} in file order."""
    path = pathlib.Path(outdir) / "collectives.csv"
    runs = {}
    for line, row in csvfile.rows(path, COLUMNS, missing=f"does {outdir} hold a run with "
                                  "\"collectives\"?"):
        run = runs.setdefault(row["collective"],
                              {"type": row["type"], "over": row["over"], "times": []})
        if row["kind"] != "iteration" or not row["duration_us"]:
            continue  # steps, messages, an iteration that did not finish
        try:
            run["times"].append((int(row["iteration"]), float(row["duration_us"])))
        except ValueError as e:
            sys.exit(f"{path}:{line}: {e}")
    if not runs:
        sys.exit(f"{path}: no rows")
    return runs


def report(runs, baseline=None):
    """The lines the script prints."""
    lines = []
    for name, run in runs.items():
        times = [t for _, t in run["times"]]
        if not times:
            lines.append(f"{name} ({run['type']} over {run['over']}): no finished iteration")
            continue
        lines.append(f"{name} ({run['type']} over {run['over']}): {len(times)} iterations, "
                     f"mean {sum(times) / len(times):.3f} us, total {sum(times):.3f} us")
    base = baseline or next(iter(runs))
    if base not in runs:
        sys.exit(f"--baseline {base}: no such collective (have: {', '.join(runs)})")
    base_times = [t for _, t in runs[base]["times"]]
    for name, run in runs.items():
        times = [t for _, t in run["times"]]
        if name == base or not times or not base_times:
            continue
        mean_ratio = (sum(base_times) / len(base_times)) / (sum(times) / len(times))
        cut = (1 - sum(times) / sum(base_times)) * 100
        lines.append(f"{name} vs {base}: mean {mean_ratio:.3f}x faster, total cut {cut:.2f} %")
    return lines


def plot(runs, output):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5))
    for index, (name, run) in enumerate(runs.items()):
        points = sorted(run["times"])
        if points:
            ax.plot([x for x, _ in points], [y for _, y in points],
                    label=f"{name} ({run['over']})", **run_labels.style(index, len(points)))
    ax.set_xlabel("iteration (token ring: round)")
    ax.set_ylabel("time (µs)")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    run_labels.legend_below(ax)
    fig.savefig(output, dpi=120, bbox_inches="tight")
    print(f"wrote {output}")


def main(argv=None, prog=None):
    ap = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    ap.add_argument("outdir")
    ap.add_argument("--baseline", help="collective the others are compared with (default: the first)")
    ap.add_argument("-o", "--output", help="also draw the iteration times into this PNG")
    args = ap.parse_args(argv)
    runs = load(args.outdir)
    print("\n".join(report(runs, args.baseline)))
    if args.output:
        plot(runs, args.output)


if __name__ == "__main__":
    main()
