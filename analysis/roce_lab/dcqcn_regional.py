"""Azure NSDI'23 Fig. 12 from a dcqcn-regional output directory.

usage: dcqcn_regional.py OUTDIR [--node dc0-c0-t0-0 --port 1] [--window-us 1000] [-o fig.png]

Prints per-QP goodput (goodput.csv) and the congested queue's watermark: the
peak of queues.csv samples in each whole window from goodput.csv's from_us to its
to_us (the paper polls watermark counters; a window without samples had an empty
queue, since queues.csv leaves empty queues out, and reads 0), then their mean and
range. Plots the queue and the watermarks against time. Columns are read by name.
"""
import argparse
import json
import os
import sys

from . import csvfile
from . import labels as run_labels


def queue_samples(path, node, port):
    """(times_us, bytes, sample interval_us) of one switch port from queues.csv, its
    largest class queue at each sample (as DcqcnRunMonitor samples queues). queues.csv
    lists only queues holding data, so an absent sample is an empty queue; the interval
    is the smallest step between any two sample times."""
    per_time = {}
    all_times = set()
    for row in csvfile.rows(path).dicts():
        t = float(row["time_us"])
        all_times.add(t)
        if row["node"] == node and row["port"] == port:
            per_time[t] = max(per_time.get(t, 0), int(row["bytes"]))
    grid = sorted(all_times)
    steps = [b - a for a, b in zip(grid, grid[1:]) if b > a]
    interval = min(steps) if steps else None
    times = sorted(per_time)
    return times, [per_time[t] for t in times], interval


def watermarks(times, sizes, start, end, window):
    """The largest sample in each whole window [start + k window, start + (k+1) window)
    up to end (at least one window), as dcqcn-regional's DcqcnRunMonitor takes them: a
    window without a sample had an empty queue and reads 0; the partial last window is
    left out."""
    n = max(1, int((end - start) // window))
    wm = [0] * n
    for t, b in zip(times, sizes):
        if t >= start:
            k = int((t - start) // window)
            if k < n:
                wm[k] = max(wm[k], b)
    return wm


def watermark_steps(wm, start, window):
    """Points for a where="post" step plot: each window from its start to its end (the
    last point closes the last window)."""
    xs = [start + k * window for k in range(len(wm) + 1)]
    return xs, list(wm) + [wm[-1]]


def zero_filled(times, sizes, interval):
    """The queue curve with the empty-queue samples queues.csv leaves out put back as 0."""
    if not interval or not times:
        return list(times), list(sizes)
    xs, ys = [], []
    for t, b in zip(times, sizes):
        if xs and t - xs[-1] > 1.5 * interval:
            xs += [xs[-1] + interval, t - interval]
            ys += [0, 0]
        xs.append(t)
        ys.append(b)
    return xs, ys


def main(argv=None, prog=None):
    ap = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    ap.add_argument("outdir")
    ap.add_argument("--node", default="dc0-c0-t0-0", help="switch of the congested queue")
    ap.add_argument("--port", default="1", help="its port (interface index)")
    ap.add_argument("--window-us", type=float, default=1000.0, help="watermark poll period")
    ap.add_argument("--from-us", type=float, default=None,
                    help="ignore samples before this time (default: goodput.csv's from_us)")
    ap.add_argument("-o", "--output", default=None, help="figure file (default: no figure)")
    args = ap.parse_args(argv)

    goodput = os.path.join(args.outdir, "goodput.csv")
    queues_csv = os.path.join(args.outdir, "queues.csv")
    for path, why in ((goodput, "run dcqcn-regional --out=%s" % args.outdir),
                      (queues_csv, "the config needs \"monitors\": {\"queue_interval\": ...}")):
        if not os.path.isfile(path):
            print(f"{path}: not found ({why})", file=sys.stderr)
            return 1
    # The measured window: summary.json's "dcqcn" (from --warmup to the run's end), else
    # goodput.csv's rows.
    start, end = None, None
    try:
        with open(os.path.join(args.outdir, "summary.json")) as f:
            window = json.load(f).get("dcqcn", {})
        start, end = window.get("from_us"), window.get("to_us")
    except (OSError, ValueError):
        pass
    for row in csvfile.rows(goodput).dicts():
        print(f"host {row['host']} qpn {row['qpn']}: {float(row['goodput_gbps']):.2f} Gb/s "
              f"({row['from_us']}..{row['to_us']} us)")
        start = float(row["from_us"]) if start is None else start
        end = float(row["to_us"]) if end is None else end
    if args.from_us is not None:
        start = args.from_us
    start = start or 0.0

    times, sizes, interval = queue_samples(queues_csv, args.node, args.port)
    if end is None:  # no backlogged flow in goodput.csv: up to the last sample
        end = times[-1] if times else start
    if not times:
        print(f"no samples of {args.node} port {args.port} (the queue never held data, or "
              f"the run had no queue_interval monitor)", file=sys.stderr)
        return 1
    wm = watermarks(times, sizes, start, end, args.window_us)
    print(f"{args.node} port {args.port}: watermark per {args.window_us:.0f} us mean "
          f"{sum(wm) / len(wm) / 1e6:.3f} MB, min {min(wm) / 1e6:.3f}, max {max(wm) / 1e6:.3f} "
          f"({len(wm)} windows)")
    if args.output:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(6, 3))
        qt, qb = zero_filled(times, sizes, interval)
        ax.plot([t / 1e3 for t in qt], [b / 1e6 for b in qb], lw=0.5, label="queue")
        xs, ys = watermark_steps(wm, start, args.window_us)
        ax.step([x / 1e3 for x in xs], [y / 1e6 for y in ys], where="post",
                label=f"watermark per {args.window_us:g} µs")
        ax.set_xlabel("time (ms)")
        ax.set_ylabel("queue (MB)")
        ax.set_title(f"{args.node} port {args.port}")
        run_labels.legend_below(ax)
        fig.savefig(args.output, dpi=150, bbox_inches="tight")
    return 0


if __name__ == "__main__":
    sys.exit(main())
