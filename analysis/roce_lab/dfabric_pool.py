"""Plot DFabric Fig. 2 (ring allreduce time against the NIC pool size) from the sweep
configs/sweeps/dfabric-pool.json.

usage: analysis/dfabric_pool.py SWEEPDIR [-o dfabric-fig2.png]

SWEEPDIR is the sweep's output directory (`./roce-lab sweep configs/sweeps/dfabric-pool.json`
writes results/sweeps/dfabric-pool); its table.csv is read by column name: the NIC pool size
(the grid pointer ending in /nic_pool_size) and, per collective k of the experiment (one per
scenario), collectives.k.name and collectives.k.normalized.0 (the allreduce time over the
optimal one: every hop at a node's CXL link rate). One line per scenario, the optimal drawn
at 1.
"""
import argparse
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from .csvfile import parse, read_rows  # noqa: E402
from . import labels as run_labels  # noqa: E402


def load(outdir):
    path, lines = read_rows(outdir, "table.csv", ("run", "status"),
                            "./roce-lab sweep configs/sweeps/dfabric-pool.json")
    columns = lines[0][1].keys()
    size = [c for c in columns if c.endswith("/nic_pool_size")]
    if len(size) != 1:
        raise SystemExit(f"{path}: no grid column ending in /nic_pool_size "
                         f"(columns: {list(columns)})")
    rows = defaultdict(list)
    for line, row in lines:
        if row["status"] != "done":
            raise SystemExit(f"{path}:{line}: run {row['run']} is {row['status']} "
                             "(run the sweep again: it reruns what is missing)")
        k = 0
        while f"collectives.{k}.name" in row:
            name = row[f"collectives.{k}.name"]
            value = row.get(f"collectives.{k}.normalized.0", "")
            rows[name].append(parse(path, line, lambda: (int(row[size[0]]), float(value))))
            k += 1
        if k == 0:
            raise SystemExit(f"{path}:{line}: no collectives.0.name column (not a run of "
                             "dfabric-pool.json?)")
    return rows


def main(argv=None, prog=None):
    ap = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    ap.add_argument("outdir")
    ap.add_argument("-o", "--output", default="dfabric-fig2.png")
    args = ap.parse_args(argv)
    rows = load(args.outdir)
    fig, ax = plt.subplots(figsize=(5.5, 3.5))
    for i, (scenario, values) in enumerate(rows.items()):
        values.sort()
        ax.plot([v[0] for v in values], [v[1] for v in values], label=scenario,
                **run_labels.style(i, 1))
    ax.axhline(1.0, color="gray", linestyle="--", label="optimal (CXL link)")
    ax.set_xlabel("NIC pool size")
    ax.set_ylabel("allreduce time / optimal")
    ax.set_yscale("log")
    run_labels.log_ticks(ax.yaxis)
    run_labels.legend_below(ax)
    fig.savefig(args.output, dpi=150, bbox_inches="tight")
    print(args.output)


if __name__ == "__main__":
    main()
