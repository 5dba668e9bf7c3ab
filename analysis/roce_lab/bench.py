"""Speed and memory of named scenarios (configs/bench/suite.json).

Runs each scenario's program with --bench as a child process and reads the
kernel's accounting of it (wait4: user + system CPU seconds, peak RSS), and the
program's own counts (events, frames serialized: one per frame per hop, so events ÷
frames is the events each frame costs per hop). Prints one row per scenario and
writes them as CSV. With --vs OTHER_BUILD the two builds run in turn (A B A B ...)
on the same machine, and the rows give the ratio A/B of median CPU time and peak
RSS, and whether the two builds wrote byte-identical flows.csv, pfc.csv and
summary.json: machines are shared and noisy, so compare only such ratios.

  roce_bench.py [SUITE|SCENARIO ...] [--build DIR] [--vs DIR] [--repeat N]
                [--csv FILE] [--out DIR] [--list]
"""
import argparse
import csv
import filecmp
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SUITE_FILE = os.path.join(ROOT, "configs", "bench", "suite.json")
COMPARED = ("flows.csv", "pfc.csv", "summary.json")
COLUMNS = ["scenario", "build", "run", "exit_status", "cpu_s", "user_s", "sys_s", "wall_s",
           "events", "frames", "events_per_frame_hop", "events_per_cpu_s", "frames_per_cpu_s",
           "peak_rss_mb"]


class BenchError(Exception):
    pass


def load_suite(path=SUITE_FILE):
    with open(path) as f:
        suite = json.load(f)
    scenarios = suite.get("scenarios", {})
    for name, spec in scenarios.items():
        if not isinstance(spec.get("argv"), list) or not spec["argv"]:
            raise BenchError(f"{path}: /scenarios/{name}/argv: a non-empty list is required")
    for name, members in suite.get("suites", {}).items():
        for m in members:
            if m not in scenarios:
                raise BenchError(f"{path}: /suites/{name}: unknown scenario '{m}'")
    return suite


def resolve(names, suite):
    """Suite and scenario names -> scenario names, in order, without repeats."""
    out = []
    for n in names:
        if n in suite.get("suites", {}):
            members = suite["suites"][n]
        elif n in suite["scenarios"]:
            members = [n]
        else:
            known = sorted(list(suite.get("suites", {})) + list(suite["scenarios"]))
            raise BenchError(f"unknown suite or scenario '{n}' (known: {', '.join(known)})")
        out.extend(m for m in members if m not in out)
    return out


def parse_counts(text):
    """The program's --bench lines: events and frames serialized (summed over runs)."""
    events = sum(int(m) for m in re.findall(r"^events: (\d+)$", text, re.M))
    frames = sum(int(m) for m in re.findall(r"^frames serialized \(all ports\): (\d+)$", text, re.M))
    return events, frames


def measure(build, argv, out_dir):
    """Run one scenario; the kernel's accounting of the child (wait4) and its counts."""
    program = os.path.join(build, "bin", argv[0])
    if not os.access(program, os.X_OK):
        raise BenchError(f"{program}: not built (run ./roce-lab build, or give --build)")
    cmd = [program] + argv[1:] + ["--bench", f"--out={out_dir}"]
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.monotonic()
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=out, stderr=err)
        _, wait_status, usage = os.wait4(proc.pid, 0)
        wall = time.monotonic() - start
        proc.returncode = os.waitstatus_to_exitcode(wait_status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    events, frames = parse_counts(stdout)
    cpu = usage.ru_utime + usage.ru_stime
    return {
        "exit_status": proc.returncode, "cpu_s": round(cpu, 3),
        "user_s": round(usage.ru_utime, 3), "sys_s": round(usage.ru_stime, 3),
        "wall_s": round(wall, 3), "events": events, "frames": frames,
        "events_per_frame_hop": round(events / frames, 3) if frames > 0 else "",
        "events_per_cpu_s": round(events / cpu) if cpu > 0 else "",
        "frames_per_cpu_s": round(frames / cpu) if cpu > 0 else "",
        "peak_rss_mb": round(usage.ru_maxrss / 1024.0, 1), "stderr": stderr,
    }


def same_outputs(a, b):
    """True when every compared file under run directory a equals its twin under b."""
    found = False
    for dirpath, _, files in os.walk(a):
        for f in files:
            if f in COMPARED:
                found = True
                twin = os.path.join(b, os.path.relpath(os.path.join(dirpath, f), a))
                if not os.path.exists(twin) or not filecmp.cmp(os.path.join(dirpath, f), twin,
                                                              shallow=False):
                    return False
    return found


def main(argv=None, prog=None):
    p = argparse.ArgumentParser(prog=prog or "./roce-lab bench", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("names", nargs="*", default=["default"], help="suites or scenarios")
    p.add_argument("--build", default=os.environ.get("ROCE_LAB_BUILD_DIR",
                                                     os.path.join(ROOT, "build")))
    p.add_argument("--vs", metavar="BUILD_B", help="a second build directory to compare with")
    p.add_argument("--repeat", type=int, default=1, help="runs of each build (default 1)")
    p.add_argument("--csv", help="CSV file (default OUT/bench.csv)")
    p.add_argument("--out", default=os.path.join(ROOT, "results", "bench"))
    p.add_argument("--list", action="store_true", help="list suites and scenarios")
    args = p.parse_args(argv)
    try:
        suite = load_suite()
        if args.list:
            for n, members in suite.get("suites", {}).items():
                print(f"suite {n}: {' '.join(members)}")
            for n, spec in suite["scenarios"].items():
                print(f"{n}: {spec.get('what', '')}")
            return 0
        if args.repeat < 1:
            raise BenchError("--repeat must be at least 1")
        names = resolve(args.names, suite)
    except (BenchError, OSError, json.JSONDecodeError) as e:
        print(f"roce-lab bench: {e}", file=sys.stderr)
        return 2
    builds = [("A", os.path.abspath(args.build))]
    if args.vs:
        builds.append(("B", os.path.abspath(args.vs)))
    os.makedirs(args.out, exist_ok=True)
    csv_path = args.csv or os.path.join(args.out, "bench.csv")
    rows = []
    failed = False
    for name in names:
        spec = suite["scenarios"][name]
        per_build = {label: [] for label, _ in builds}
        for i in range(args.repeat):
            for label, build in builds:  # alternating: A B A B ...
                out_dir = os.path.join(args.out, name, f"{label}{i}")
                try:
                    r = measure(build, spec["argv"], out_dir)
                except BenchError as e:
                    print(f"roce-lab bench: {e}", file=sys.stderr)
                    return 2
                if r["exit_status"] != 0:
                    failed = True
                    print(f"roce-lab bench: {name} ({build}) exited {r['exit_status']}:\n"
                          f"{r['stderr'][-2000:]}", file=sys.stderr)
                r.pop("stderr")
                r.update(scenario=name, build=build, run=i)
                rows.append(r)
                per_build[label].append(r)
        a = per_build["A"]
        print(f"{name}: {spec.get('what', '')}")
        for label, build in builds:
            rs = per_build[label]
            cpu = statistics.median(r["cpu_s"] for r in rs)
            rss = max(r["peak_rss_mb"] for r in rs)
            ev = rs[0]["events"]
            fr = rs[0]["frames"]
            per_hop = f"{ev / fr:.3f}" if fr else "n/a"
            print(f"  {label} {build}: CPU {cpu:.2f} s (median of {len(rs)}), events {ev}, "
                  f"frame-hops {fr}, {per_hop} events/frame-hop, "
                  f"{ev / cpu if cpu else 0:,.0f} events/CPU-s, {fr / cpu if cpu else 0:,.0f} "
                  f"frames/CPU-s, peak RSS {rss:.1f} MB")
        if args.vs:
            b = per_build["B"]
            ratios = [x["cpu_s"] / y["cpu_s"] for x, y in zip(a, b) if y["cpu_s"] > 0]
            cpu_ratio = statistics.median(r["cpu_s"] for r in a) / max(
                1e-9, statistics.median(r["cpu_s"] for r in b))
            rss_ratio = max(r["peak_rss_mb"] for r in a) / max(1e-9, max(r["peak_rss_mb"]
                                                                          for r in b))
            same = same_outputs(os.path.join(args.out, name, "A0"),
                                os.path.join(args.out, name, "B0"))
            print(f"  A/B: CPU {cpu_ratio:.3f} (pairs {', '.join(f'{r:.3f}' for r in ratios)}), "
                  f"peak RSS {rss_ratio:.3f}, outputs {'identical' if same else 'DIFFER'}")
    with open(csv_path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS)
        w.writeheader()
        for r in rows:
            w.writerow({k: r[k] for k in COLUMNS})
    print(f"csv: {csv_path}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
