"""FCT and slowdown by flow size of a run, beside the HPCC simulator's figures.

Reads OUTDIR/flows.csv (columns bytes, fct_us, ideal_fct_us) and prints, for all flows and
for each size bucket (bytes, KB = 1000 B, upper bounds inclusive: 0-10KB, 10KB-100KB,
100KB-1MB, 1MB+), the FCT mean / p50 / p99 (us) and the slowdown mean / p50 / p95 / p99 of the
finished flows, with the HPCC simulator's slowdown definition: FCT / ideal, at least 1, where
the ideal is base RTT + bytes with headers (INT included under HPCC) / bottleneck rate
(ideal_fct_us). Percentiles are nearest-rank, as summary.json's. Beside each figure: the
peer's (configs/bench/hpcc-peer-by-size.json, with its provenance) and our value / peer's.

The peer's figures are for one benchmark (the file's "identity": topology and flow file by
SHA-256, number of flows), and a run is checked against it (its config.json names the files
it read, flows.csv and summary.json count its flows): a run on another topology, or one
whose files cannot be told, is refused (--force prints it anyway, under a warning); a run on
the benchmark's topology with another flow file (the 1 ms form of it) is printed under a
warning that says what differs.

With --peer-fct, the same figures computed from that simulator's own fct.txt instead (its
columns: src dst sport dport bytes start_ns fct_ns standalone_ns; slowdown = fct / standalone,
at least 1), e.g. bench/hpcc-sim-*-fct.txt.
"""

import hashlib
import os
import sys

from . import csvfile
from .config import PATHS_KEY, UsageError, load_json
from .stats import BUCKET_NAMES, bucket_name, describe

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PEER_FILE = os.path.join(ROOT, "configs", "bench", "hpcc-peer-by-size.json")
FCT_STATS = ("mean", "p50", "p99")
SLOWDOWN_STATS = ("mean", "p50", "p95", "p99")


def load_flows(outdir):
    """{bucket: {"flows", "finished", "fct_us", "slowdown"}} for "all" and each bucket."""
    path = os.path.join(outdir, "flows.csv")
    names = ["all"] + BUCKET_NAMES
    fct = {n: [] for n in names}
    slowdown = {n: [] for n in names}
    flows = {n: 0 for n in names}
    for line, row in csvfile.rows(path, ("bytes", "fct_us", "ideal_fct_us"), error=UsageError,
                                  missing=f"is {outdir} a roce-lab output directory?"):
        try:
            size = int(row["bytes"])
            cell = row["fct_us"].strip()
            ideal = float(row["ideal_fct_us"])
            us = float(cell) if cell else None
        except ValueError:
            raise UsageError(f"{path}:{line}: bytes, fct_us or ideal_fct_us is not a number")
        if ideal <= 0:
            raise UsageError(f"{path}:{line}: ideal_fct_us must be > 0, got {ideal}")
        for name in ("all", bucket_name(size)):
            flows[name] += 1
            if us is not None:
                fct[name].append(us)
                slowdown[name].append(max(1.0, us / ideal))
    return {n: {"flows": flows[n], "finished": len(fct[n]),
                "fct_us": describe(fct[n], FCT_STATS),
                "slowdown": describe(slowdown[n], SLOWDOWN_STATS)} for n in names}


def load_peer_fct(path):
    """The figures of the HPCC simulator's fct.txt at PATH, in load_flows's shape."""
    names = ["all"] + BUCKET_NAMES
    fct = {n: [] for n in names}
    slowdown = {n: [] for n in names}
    try:
        f = open(path)
    except OSError as e:
        raise UsageError(f"{path}: {e.strerror}")
    with f:
        for line, text in enumerate(f, start=1):
            cols = text.split()
            if not cols:
                continue
            try:
                size, ns, standalone = int(cols[4]), int(cols[6]), int(cols[7])
            except (IndexError, ValueError):
                raise UsageError(f"{path}:{line}: expected 8 columns (src dst sport dport bytes "
                                 f"start_ns fct_ns standalone_ns)")
            if standalone <= 0:
                raise UsageError(f"{path}:{line}: standalone FCT must be > 0, got {standalone}")
            for name in ("all", bucket_name(size)):
                fct[name].append(ns / 1000)
                slowdown[name].append(max(1.0, ns / standalone))
    return {n: {"fct_us": describe(fct[n], FCT_STATS),
                "slowdown": describe(slowdown[n], SLOWDOWN_STATS)} for n in names}


def load_peer(run, path=PEER_FILE):
    """The peer's figures for RUN ("dcqcn" or "hpcc") and the file's description."""
    data = load_json(path)
    if run not in data["runs"]:
        raise UsageError(f"{path}: no run '{run}' (runs: {', '.join(sorted(data['runs']))})")
    return data["runs"][run], data["description"]


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _file_of(config, key):
    entry = config.get(key)
    return entry.get("path") if isinstance(entry, dict) else None


def benchmark_differences(outdir, ours, identity):
    """(what makes OUTDIR another fabric or unknown, what makes it another load): lists of
    sentences comparing the run with the peer's benchmark IDENTITY."""
    other_fabric, other_load = [], []
    config_path = os.path.join(outdir, "config.json")
    config = load_json(config_path) if os.path.isfile(config_path) else None
    if not isinstance(config, dict):
        other_fabric.append(f"{outdir} has no config.json naming the topology and flow file "
                            "it ran")
        config = {}
    for key, into in (("topology", other_fabric), ("flows_file", other_load)):
        want = identity[key]
        path = _file_of(config, key) if config else None
        if config and path is None:
            into.append(f"it read no {key} file (the benchmark's is {want['file']})")
        elif path is not None:
            if not os.path.isabs(path):
                path = os.path.join(config.get(PATHS_KEY, outdir), path)
            try:
                same = sha256(path) == want["sha256"]
            except OSError:
                same = os.path.basename(path) == os.path.basename(want["file"])
            if not same:
                into.append(f"its {key} {path} is not the benchmark's {want['file']}")
    total = ours["all"]["flows"]
    summary_path = os.path.join(outdir, "summary.json")
    if os.path.isfile(summary_path):
        late = load_json(summary_path).get("not_started") or {}
        total += late.get("flows", 0) if isinstance(late, dict) else 0
    if total != identity["flows"]:
        other_load.append(f"it has {total} flows, the benchmark {identity['flows']}")
    return other_fabric, other_load


def number(v, digits):
    return "-" if v is None else f"{v:.{digits}f}"


def table(ours, peer=None):
    """The comparison as text lines: ours, and with PEER the peer's figures and the ratios."""
    header = f"{'bucket':<11} {'flows':>11}  {'FCT us mean/p50/p99':<26} {'slowdown mean/p50/p95/p99':<26}"
    lines = [header]
    for name, r in ours.items():
        f = "/".join(number(r["fct_us"][s], 1) for s in FCT_STATS)
        sd = "/".join(number(r["slowdown"][s], 2) for s in SLOWDOWN_STATS)
        count = f"{r['finished']}/{r['flows']}"
        lines.append(f"{name:<11} {count:>11}  {f:<26} {sd:<26}")
        if peer is not None and name in peer:
            p = peer[name]
            pf = "/".join(number(p["fct_us"][s], 1) for s in FCT_STATS)
            ps = "/".join(number(p["slowdown"][s], 2) for s in SLOWDOWN_STATS)
            lines.append(f"{'  peer':<11} {'':>11}  {pf:<26} {ps:<26}")
            ratios = []
            for key, stats in (("fct_us", FCT_STATS), ("slowdown", SLOWDOWN_STATS)):
                parts = []
                for s in stats:
                    a, b = r[key][s], p[key][s]
                    parts.append("-" if a is None or not b else f"{a / b:.2f}")
                ratios.append("/".join(parts))
            lines.append(f"{'  ours/peer':<11} {'':>11}  {ratios[0]:<26} {ratios[1]:<26}")
    return lines


def report(outdir, peer_run=None, peer_file=PEER_FILE, force=False, peer_fct=None):
    """The text by-size prints. With PEER_RUN, a run that is not the peer's benchmark is a
    UsageError (another topology, or none known) unless FORCE, or printed under a WARNING
    (the benchmark's topology with another flow file); the warning also goes to stderr."""
    ours = load_flows(outdir)
    peer = None
    lines = [f"{outdir}: FCT and slowdown (FCT / ideal, >= 1) by flow size; finished/flows"]
    if peer_run and peer_fct:
        raise UsageError("--peer and --peer-fct: give one of them")
    if peer_run:
        peer, description = load_peer(peer_run, peer_file)
        identity = load_json(peer_file).get("identity")
        benchmark = load_json(peer_file).get("benchmark", "the peer's benchmark")
        if identity:
            fabric, load = benchmark_differences(outdir, ours, identity)
            if fabric and not force:
                raise UsageError(f"--peer {peer_run}: {outdir} is not {benchmark}, the run the "
                                 f"peer's figures are for: {'; '.join(fabric + load)}. Its "
                                 "figures are not comparable (--force prints them anyway)")
            if fabric or load:
                warning = (f"WARNING: {outdir} is not {benchmark}, the run the peer's figures "
                           f"are for: {'; '.join(fabric + load)}; the ratios compare different "
                           "experiments")
                print(warning, file=sys.stderr)
                lines.insert(0, warning)
        lines.append(f"peer ({peer_run}): {description}")
    if peer_fct:
        peer = load_peer_fct(peer_fct)
        lines.append(f"peer: the HPCC simulator's {peer_fct} (slowdown = FCT / its standalone FCT)")
    return "\n".join(lines + table(ours, peer))
