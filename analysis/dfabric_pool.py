#!/usr/bin/python3
"""Plot DFabric Fig. 2 (ring allreduce time against the NIC pool size) from a dfabric-pool run.

usage: analysis/dfabric_pool.py OUTDIR [-o dfabric-fig2.png]

OUTDIR is the --out directory of `dfabric-pool`; its dfabric-pool.csv is read by column name
(scenario, nic_pool_size, allreduce_us, optimal_us, normalized). One line per scenario: the
allreduce time over the optimal one (every hop at a node's CXL link rate), with the optimal
drawn at 1.
"""
import argparse
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from output_csv import parse, read_rows  # noqa: E402

COLUMNS = ("scenario", "nic_pool_size", "allreduce_us", "optimal_us", "normalized")


def load(outdir):
    path, lines = read_rows(outdir, "dfabric-pool.csv", COLUMNS, "dfabric-pool")
    rows = defaultdict(list)
    for line, row in lines:
        rows[row["scenario"]].append(
            parse(path, line, lambda: (int(row["nic_pool_size"]), float(row["normalized"]))))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("outdir")
    ap.add_argument("-o", "--output", default="dfabric-fig2.png")
    args = ap.parse_args()
    rows = load(args.outdir)
    fig, ax = plt.subplots(figsize=(5.5, 3.5))
    for i, (scenario, values) in enumerate(rows.items()):
        values.sort()
        ax.plot([v[0] for v in values], [v[1] for v in values], "o-", color=f"C{i}", label=scenario)
    ax.axhline(1.0, color="gray", linestyle="--", label="optimal (CXL link)")
    ax.set_xlabel("NIC pool size")
    ax.set_ylabel("allreduce time / optimal")
    ax.set_yscale("log")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(args.output, dpi=150)
    print(args.output)


if __name__ == "__main__":
    main()
