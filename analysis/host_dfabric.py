#!/usr/bin/python3
"""DFabric Fig. 2 trend: allreduce communication time against the NIC pool size, one line per
memory-pool bandwidth (host-dfabric's dfabric.csv, columns read by name).

usage: analysis/host_dfabric.py OUT_DIR [-o host-dfabric.png]
"""
import argparse
import csv
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out_dir")
    ap.add_argument("-o", "--output", default="host-dfabric.png")
    args = ap.parse_args()
    path = pathlib.Path(args.out_dir) / "dfabric.csv"
    if not path.is_file():
        sys.exit(f"host_dfabric.py: {path}: no such file (run host-dfabric --out={args.out_dir})")
    series = {}
    with path.open() as f:
        for row in csv.DictReader(f):
            series.setdefault(int(row["memory_channels"]), []).append(
                (int(row["nics"]), float(row["comm_time_us"])))
    fig, ax = plt.subplots(figsize=(5, 3.5))
    for channels, points in sorted(series.items(), reverse=True):
        points.sort()
        ax.plot([n for n, _ in points], [t for _, t in points], marker="o",
                label=f"memory pool: {channels} DDR4 channels")
        print(f"{channels} channels: " + ", ".join(f"{n} NICs {t:.0f} us" for n, t in points))
    first = min(series.items(), key=lambda kv: -kv[0])[1]
    n1, t1 = first[0]
    ax.plot([n for n, _ in first], [t1 * n1 / n for n, _ in first], "k:", label="ideal 1/n")
    ax.set_xlabel("NICs in the pool")
    ax.set_ylabel("communication time (us)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.output, dpi=150)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
