"""Whole-simulation invariant fuzzing: `./roce-lab fuzz --sim [SECONDS] [--seed N]`: the
checks, runs, shrinking and campaigns (the cases come from simfuzz_cases.py).

Generates random small experiments (topologies, transports and NIC profiles, congestion
controls, PFC on or off, faults, flows, collectives, host models), runs each with
roce-run and checks the invariants that must hold for every run (INVARIANTS below;
contrib/dc-experiment/doc/dc-experiment.md, "Reliability: invariant fuzzing").

Each case is a folder: config.json (the experiment), fuzz.json (what the generator
expects of it: may it deadlock, must every flow finish, must it lose nothing, which hosts
each flow joins) and the files the config names (an HPCC-format topology, a flow file,
a flow-size CDF, NIC profiles), all relative to it, so that a case can be copied into
test/sim-fuzz/cases/ and replayed anywhere with `--replay`. A case that breaks an
invariant is kept with its outputs and printed with the one command that reproduces it.
"""

import json
import os
import shutil
import subprocess
import sys
import time

from . import csvfile
from .simfuzz_cases import (GENERATOR_VERSION, KNOWN_DEFECTS, MAX_OUTAGE_US,  # noqa: F401
                            case_seed, generate, known_defect, rate_bps, write_case)


# name: what must hold. The doc's list is this one.
INVARIANTS = {
    "runs": "roce-run exits 0 within the time limit (no crash, abort or hang); a "
            "configuration error (exit 2) only where the generator said the case may be "
            "refused",
    "exactly_once": "every byte of every flow placed exactly once (summary.json "
                    "exactly_once.violation_count is 0)",
    "no_stall": "every flow ends (finished or failed), every collective iteration "
                "finishes and every job iteration finishes or has a failed message, when the "
                "faults have ended and time is ample",
    "completes": "no flow or job message fails (error completion: retries exceeded) "
                 "unless a rate fault slowed a link or PCIe, flows of several classes share "
                 "the fabric (a class starved by a higher one may outlast the retry budget), "
                 "or Gilbert-Elliott loss has bursts of 2 frames or more on average (r < 0.9: "
                 "8 tries in a row may be lost)",
    "lossless": "no packet dropped (summary.json drops, buffer and switch) with PFC on for "
                "every class in use and no loss, link-down or NIC-down fault",
    "no_deadlock": "no PFC deadlock reported on a topology without cycles in its "
                   "up-down routes (all but rings)",
    "rate_bound": "a flow into a host whose link (host_rate) or PCIe (pcie_rate) a fault "
                  "cut to R before the flow started takes at least half of bytes x 8 / R "
                  "(the fault acted)",
    "endpoints": "each flow of flows.csv joins the hosts the experiment named "
                 "(explicit flows and HPCC flow files)",
    "deterministic": "the same configuration and seed give byte-identical output files "
                     "on a rerun",
    "mpi_ranks": "1 and 2 MPI ranks give identical flows.csv, pfc.csv and summary.json "
                 "(only with an MPI build: ./roce-lab setup --mpi)",
}

# ----------------------------------------------------------------------------- checks


def read_csv(path):
    return csvfile.table(path)


def duration_us(text):
    for unit, scale in (("ps", 1e-6), ("ns", 1e-3), ("us", 1.0), ("ms", 1e3), ("s", 1e6)):
        if text.endswith(unit) and text[: -len(unit)].replace(".", "", 1).isdigit():
            value = float(text[: -len(unit)]) * scale
    return value


def rate_bound(config, flows):
    """The rate_bound invariant on the explicit flows (flows.csv's first rows)."""
    events = (config.get("faults") or {}).get("events", [])
    v = []
    for i, f in enumerate(config.get("flows", [])):
        if i >= len(flows) or not flows[i].get("fct_us") or f["bytes"] < 50000:
            continue
        start = duration_us(f.get("start", "0us"))
        for kind in ("host_rate", "pcie_rate"):
            hits = [e for e in events if e["kind"] == kind
                    and (e["host"] == f["dst"] or (kind == "host_rate" and e["host"] == f["src"]))]
            if len(hits) != 1 or duration_us(hits[0]["time"]) > start:
                continue
            bound = f["bytes"] * 8 / rate_bps(hits[0]["rate"]) * 1e6
            if float(flows[i]["fct_us"]) < 0.5 * bound:
                v.append(("rate_bound", "flow %d (%s->%s, %d B) took %s us; %s %s of %s at %s "
                          "before its start allows no less than %.1f us"
                          % (i, f["src"], f["dst"], f["bytes"], flows[i]["fct_us"], kind,
                             hits[0]["rate"], hits[0]["host"], hits[0]["time"], bound)))
    return v


def output_files(d):
    out = {}
    for root, _, names in os.walk(d):
        for n in names:
            p = os.path.join(root, n)
            with open(p, "rb") as f:
                out[os.path.relpath(p, d)] = f.read()
    return out


class Runner:
    """Runs roce-run on a case folder and checks the invariants."""

    def __init__(self, roce_run, time_limit=60.0, mpi_run=None, inject=None):
        # Absolute: each run's working directory is its case folder.
        self.roce_run = os.path.abspath(roce_run) if os.sep in roce_run else roce_run
        self.time_limit = time_limit
        self.mpi_run = os.path.abspath(mpi_run) if mpi_run else None
        self.inject = inject or set()

    def run(self, folder, out_name, program=None, np=None):
        out = os.path.join(folder, out_name)
        if os.path.isdir(out):
            shutil.rmtree(out)
        cmd = [program or self.roce_run, "config.json", "--out", out_name]
        if np:
            cmd = ["mpirun", "-np", str(np), "--oversubscribe"] + (
                ["--allow-run-as-root"] if os.geteuid() == 0 else []) + cmd
        start = time.monotonic()
        try:
            p = subprocess.run(cmd, cwd=folder, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, timeout=self.time_limit)
            rc, text = p.returncode, p.stdout.decode(errors="replace")
        except subprocess.TimeoutExpired as e:
            rc, text = None, (e.stdout or b"").decode(errors="replace")
        return rc, text, time.monotonic() - start

    def check(self, folder, determinism=False):
        """The invariants' verdicts on one case folder: (violations, notes, seconds)."""
        with open(os.path.join(folder, "fuzz.json")) as f:
            meta = json.load(f)
        expect = meta["expect"]
        violations, notes = [], []
        rc, text, seconds = self.run(folder, "run")
        with open(os.path.join(folder, "run.log"), "w") as f:
            f.write(text)
        tail = " | ".join(text.strip().splitlines()[-3:])[:400]
        if rc is None:
            return [("runs", "no exit within %.0f s (hang)" % self.time_limit)], notes, seconds
        refusable = expect.get("may_refuse")  # [pointer the error names, why]
        if rc == 2 and refusable and refusable[0] in text:
            notes.append("refused (%s): %s" % (refusable[1], tail))
            return violations, notes, seconds
        if rc != 0:
            what = "exit status %d" % rc if rc > 0 else "killed by signal %d" % -rc
            violations.append(("runs", "%s: %s" % (what, tail)))
        out = os.path.join(folder, "run")
        summary_path = os.path.join(out, "summary.json")
        if not os.path.isfile(summary_path):
            if rc == 0:
                violations.append(("runs", "exit 0 but no summary.json"))
            return violations, notes, seconds
        with open(summary_path) as f:
            summary = json.load(f)
        flows = read_csv(os.path.join(out, "flows.csv"))
        if "exactly_once" in self.inject:
            summary["exactly_once"] = {"checked": 1, "violation_count": 1,
                                       "violations": [{"flow": 0, "finished": True,
                                                       "reason": "injected"}]}
        with open(os.path.join(folder, "config.json")) as f:
            config = json.load(f)
        violations += self.invariants(summary, flows, expect, config)
        violations += rate_bound(config, flows)
        if determinism and rc == 0:
            first = output_files(out)
            moved = out + "-first"
            if os.path.isdir(moved):
                shutil.rmtree(moved)
            os.rename(out, moved)
            rc2, text2, s2 = self.run(folder, "run")
            seconds += s2
            second = output_files(out)
            if "deterministic" in self.inject:
                second["flows.csv"] = b"injected"
            if rc2 != rc:
                violations.append(("deterministic", "rerun exit status %s, first 0" % rc2))
            else:
                differ = sorted(n for n in set(first) | set(second)
                                if first.get(n) != second.get(n))
                if differ:
                    violations.append(("deterministic", "rerun differs in %s"
                                       % ", ".join(differ[:6])))
            shutil.rmtree(moved)
        return violations, notes, seconds

    def invariants(self, summary, flows, expect, config):
        v = []
        eo = summary.get("exactly_once", {})
        if eo.get("violation_count", 0):
            first = (eo.get("violations") or [{}])[0]
            v.append(("exactly_once", "%d flows violate it (first: flow %s, %s)"
                      % (eo["violation_count"], first.get("flow"), first.get("reason"))))
        deadlocks = (summary.get("deadlocks") or {}).get("count", 0)
        if deadlocks and expect.get("deadlock_free", True):
            v.append(("no_deadlock", "%d deadlocks reported" % deadlocks))
        if expect.get("complete") and not (deadlocks and not expect.get("deadlock_free")):
            # summary.json's "unfinished" counts the failed flows too.
            stalled = (summary.get("unfinished") or 0) - (summary.get("failed") or 0)
            if stalled > 0:
                unended = [f for f in flows if not f.get("finish_us")]
                first = unended[0] if unended else {}
                v.append(("no_stall", "%s of %s flows never ended (first without a finish: "
                          "flow %s %s->%s, %s "
                          "of %s bytes placed); run ended at %s us"
                          % (stalled, summary.get("flows"), first.get("id"),
                             first.get("src"), first.get("dst"),
                             first.get("delivered_bytes"), first.get("bytes"),
                             summary.get("end_time_us"))))
            for c in summary.get("collectives", []):
                if c.get("finished_iterations") != c.get("iterations"):
                    v.append(("no_stall", "collective %s: %s of %s iterations finished, %s "
                              "failed messages" % (c.get("name"), c.get("finished_iterations"),
                                                   c.get("iterations"),
                                                   c.get("failed_messages"))))
            # A job's iteration ends, or one of its messages failed (an error completion:
            # the iteration cannot end), which "completes" judges as a failed flow.
            for j in summary.get("jobs", []):
                if j.get("finished_iterations") != j.get("iterations") \
                        and not j.get("failed_messages"):
                    v.append(("no_stall", "job %s: %s of %s iterations finished, no failed "
                              "message" % (j.get("name"), j.get("finished_iterations"),
                                           j.get("iterations"))))
            rate_cut = any(e["kind"] in ("link_rate", "host_rate", "pcie_rate")
                           for e in (config.get("faults") or {}).get("events", []))
            classes = {f.get("priority", 3) for key in ("flows", "flow_sets")
                       for f in config.get(key, [])}
            classes |= {config["workload"].get("priority", 3)} if "workload" in config else set()
            classes |= {3} if (config.get("collectives") or config.get("jobs")
                               or config.get("flows_file")) else set()
            # Gilbert-Elliott bursts count frames. A QP down to its retries sends one frame
            # per timeout, and each stays in the bad state (lost) with probability 1 - r:
            # RetryCount + 1 = 8 tries fail in a row with probability about (1 - r)^7, 0.21
            # for r = 0.2 and 0.008 for r = 0.5, per burst a retrying QP meets (a run meets
            # dozens). A NIC with retry_cnt 7 fails there too (its QP goes to the error
            # state once the retries are spent); for r = 0.9 it is 1e-7: still a defect.
            bursty = any((entry.get("gilbert_elliott") or {}).get("r", 1.0) < 0.9
                         for entry in (config.get("faults") or {}).get("loss", []))
            job_failed = sum(j.get("failed_messages") or 0 for j in summary.get("jobs", []))
            if (summary.get("failed") or job_failed) and not rate_cut and not bursty \
                    and len(classes) == 1:
                v.append(("completes", "%s of %s flows and %d job messages failed (error "
                          "completion) with one class, no rate cut, no long loss bursts and "
                          "outages below the retry budget"
                          % (summary.get("failed"), summary.get("flows"), job_failed)))
        if expect.get("lossless"):
            drops = summary.get("drops", {})
            n = sum(sum(d.values()) for d in drops.values() if isinstance(d, dict))
            if n:
                what = ", ".join("%s %s %d" % (k, r, c) for k, d in drops.items()
                                 if isinstance(d, dict) for r, c in d.items() if c)
                v.append(("lossless", "%d drops with PFC on and no loss fault (%s)"
                          % (n, what)))
        ends = expect.get("endpoints") or []
        for i, pair in enumerate(ends):
            if pair is None or i >= len(flows):
                continue
            got = [flows[i]["src"], flows[i]["dst"]]
            if got != pair:
                v.append(("endpoints", "flow %d runs %s->%s, the experiment named %s->%s"
                          % (i, got[0], got[1], pair[0], pair[1])))
                break
        if len(flows) < len([p for p in ends]):
            v.append(("endpoints", "%d flows in flows.csv, the experiment has %d"
                      % (len(flows), len(ends))))
        return v

    def check_mpi(self, folder):
        """1 and 2 ranks of the MPI build: identical flows.csv, pfc.csv, summary.json.
        None when the case cannot run distributed (a configuration error at np 1)."""
        rc1, _, s1 = self.run(folder, "mpi-1", self.mpi_run, 1)
        if rc1 != 0:
            return None, s1
        rc2, text, s2 = self.run(folder, "mpi-2", self.mpi_run, 2)
        if rc2 == 2:  # a configuration only sequential runs take (faults, nodes, ...)
            return None, s1 + s2
        if rc2 != 0:
            return [("mpi_ranks", "2 ranks: exit %s: %s" % (rc2, text.strip()[-200:]))], s1 + s2
        v = []
        for n in ("flows.csv", "pfc.csv", "summary.json"):
            a = open(os.path.join(folder, "mpi-1", n), "rb").read()
            b = open(os.path.join(folder, "mpi-2", n), "rb").read()
            if a != b:
                v.append(("mpi_ranks", "%s differs between 1 and 2 ranks" % n))
        return v, s1 + s2


# ----------------------------------------------------------------------------- shrinking


def _pairs(events):
    """Timed faults grouped so that an outage's down and up go together."""
    groups, open_ = [], {}
    for i, e in enumerate(events):
        key = (e["kind"].split("_")[0], json.dumps(e.get("link", e.get("host"))))
        if e["kind"] in ("link_down", "nic_down"):
            open_[key] = len(groups)
            groups.append([i])
        elif e["kind"] in ("link_up", "nic_up") and key in open_:
            groups[open_.pop(key)].append(i)
        else:
            groups.append([i])
    return groups


def _candidates(config, meta, keep_flows):
    """Smaller variants of a case: (what was removed, config, meta)."""
    import copy
    # A case's transport stays: removing a NIC profile (a "nodes" entry naming one) moves
    # its hosts to the default one, go-back-N with the 67 ms IBTA timeout, whose retries
    # the case's stop time (300 ms unless the generator chose the slow profile) does not
    # cover: the shrunk case then "stalls" for want of simulated time, not for the defect.
    for key in ("workload", "flow_sets", "flows_file", "collectives", "jobs", "buffer", "cc"):
        if key in config and not (keep_flows and key in ("flow_sets", "flows_file")):
            c = copy.deepcopy(config)
            del c[key]
            yield key, c, meta
    lists = [("faults", "loss"), (None, "nodes"), (None, "collectives")]
    if not keep_flows:
        lists.append((None, "flows"))
    for parent, key in lists:
        holder = config.get(parent, {}) if parent else config
        items = holder.get(key) or []
        for i in range(len(items)):
            if key == "nodes" and "nic_profile" in items[i]:
                continue
            c = copy.deepcopy(config)
            h = c[parent] if parent else c
            del h[key][i]
            if not h[key]:
                del h[key]
            m = meta
            if key == "flows":
                m = copy.deepcopy(meta)
                del m["expect"]["endpoints"][i]
            yield "%s/%s/%d" % (parent or "", key, i), c, m
    events = config.get("faults", {}).get("events", [])
    for group in _pairs(events):
        c = copy.deepcopy(config)
        c["faults"]["events"] = [e for i, e in enumerate(events) if i not in group]
        if not c["faults"]["events"]:
            del c["faults"]["events"]
        yield "faults/events/%s" % ",".join(map(str, group)), c, meta
    if "faults" in config and not config["faults"]:
        c = copy.deepcopy(config)
        del c["faults"]
        yield "faults", c, meta
    for i, f in enumerate(config.get("flows", [])):
        for k in ("message_bytes", "start", "verb", "priority"):
            if k in f:
                c = copy.deepcopy(config)
                del c["flows"][i][k]
                if k == "message_bytes":
                    c["flows"][i].pop("outstanding", None)
                yield "flows/%d/%s" % (i, k), c, meta


def shrink(runner, folder, files, violations, budget=90.0):
    """Greedily remove parts of a failing case while the same invariant still fails;
    the smallest one is written to FOLDER-min. Returns that folder, or None."""
    with open(os.path.join(folder, "config.json")) as f:
        config = json.load(f)
    with open(os.path.join(folder, "fuzz.json")) as f:
        meta = json.load(f)
    target = violations[0][0]
    keep_flows = target == "endpoints"
    small = folder + "-min"
    start, changed, best = time.monotonic(), True, None
    while changed and time.monotonic() - start < budget:
        changed = False
        for what, c, m in _candidates(config, meta, keep_flows):
            if time.monotonic() - start > budget:
                break
            if not (c.get("flows") or c.get("flow_sets") or c.get("flows_file")
                    or c.get("workload") or c.get("collectives") or c.get("jobs")):
                continue
            if os.path.isdir(small):
                shutil.rmtree(small)
            write_case(small, c, files, m)
            v, _, _ = runner.check(small)
            if any(name == target for name, _ in v):
                config, meta, changed, best = c, m, True, v
                break
    if best is None:
        if os.path.isdir(small):
            shutil.rmtree(small)
        return None, None
    if os.path.isdir(small):
        shutil.rmtree(small)
    write_case(small, config, files, meta)
    runner.check(small)
    return small, best


# ----------------------------------------------------------------------------- campaigns


def shown(path):
    """PATH relative to the working directory when inside it, else absolute."""
    rel = os.path.relpath(path)
    return os.path.abspath(path) if rel.startswith("..") else rel


def reproduce_command(folder):
    return "./roce-lab fuzz --sim --replay %s" % shown(folder)


def print_failure(folder, meta, violations, stream=None):
    stream = stream or sys.stdout
    print("FAIL %s (seed %s; %s)" % (shown(folder), meta.get("seed"),
                                     " ".join(meta.get("features", []))), file=stream)
    for name, text in violations:
        print("  %s: %s" % (name, text), file=stream)
    print("  reproduce: %s" % reproduce_command(folder), file=stream)
    print("  (or: build/bin/roce-run %s/config.json --out %s/run)"
          % (shown(folder), shown(folder)), file=stream, flush=True)


def campaign(roce_run, seconds, seed, out, keep=False, mpi_run=None, inject=None,
             determinism_every=3, max_cases=None, quiet=False, shrink_budget=20.0,
             skip_known=False):
    """Fuzz for SECONDS of wall time (a case started before the deadline finishes).
    Returns (cases, failures)."""
    runner = Runner(roce_run, mpi_run=mpi_run, inject=inject)
    os.makedirs(out, exist_ok=True)
    if mpi_run is None:
        print("sim-fuzz: MPI ranks check skipped: no MPI build of roce-run "
              "(./roce-lab setup --mpi)", flush=True)
    start = time.monotonic()
    cases, failures, refused, cpu, skipped, shrinking = 0, [], 0, 0.0, {}, 0.0
    counts = {}
    index = 0
    while time.monotonic() - start < seconds and (max_cases is None or index < max_cases):
        s = case_seed(seed, index)
        folder = os.path.join(out, "case-%d-%04d" % (seed, index))
        if os.path.isdir(folder):
            shutil.rmtree(folder)
        config, files, meta = generate(s)
        known = known_defect(meta) if skip_known else None
        if known:
            skipped[known] = skipped.get(known, 0) + 1
            index += 1
            continue
        write_case(folder, config, files, meta)
        violations, notes, secs = runner.check(folder, determinism=(index % determinism_every
                                                                   == 0))
        if mpi_run and not violations and index % 4 == 1:
            mv, s2 = runner.check_mpi(folder)
            secs += s2
            violations += mv or []
        cpu += secs
        cases += 1
        for f in meta["features"]:
            counts[f] = counts.get(f, 0) + 1
        if notes:
            refused += 1
            if not quiet:
                print("note %s: %s" % (shown(folder), "; ".join(notes)), flush=True)
        if violations:
            failures.append((folder, violations))
            print_failure(folder, meta, violations)
            refusal = violations[0][0] == "runs" and "exit status 2" in violations[0][1]
            if shrink_budget > 0 and not refusal and shrinking < seconds / 4:
                t0 = time.monotonic()
                small, sv = shrink(runner, folder, files, violations,
                                   min(shrink_budget, seconds / 4 - shrinking))
                shrinking += time.monotonic() - t0
                if small:
                    print("  smaller case with the same failure (%s):" % sv[0][0])
                    print("  reproduce: %s" % reproduce_command(small), flush=True)
        elif not keep:
            shutil.rmtree(folder)
        index += 1
    elapsed = time.monotonic() - start
    print("sim-fuzz: %d cases in %.1f s (%.1f cases/min; seed %d), %d failed, %d refused "
          "as allowed" % (cases, elapsed, 60.0 * cases / max(elapsed, 1e-9), seed,
                          len(failures), refused))
    if not quiet:
        print("sim-fuzz: features: " + ", ".join("%s %d" % kv for kv in sorted(counts.items())))
    for name, n in skipped.items():
        print("sim-fuzz: skipped %d cases that can meet a known defect: %s" % (n, name))
    if failures:
        print("sim-fuzz: failing cases kept in %s (each line 'reproduce:' reruns one)" % out)
    return cases, failures


def case_folders(path):
    """A case folder, or a folder of case folders (test/sim-fuzz/cases)."""
    if os.path.isfile(os.path.join(path, "fuzz.json")):
        return [path]
    return sorted(os.path.join(path, d) for d in os.listdir(path)
                  if os.path.isfile(os.path.join(path, d, "fuzz.json")))


def replay(roce_run, paths, work=None, mpi_run=None, inject=None):
    """Rerun cases and check them (determinism included). Case folders given are run in
    place; with WORK, copies are run there (test/sim-fuzz/cases is left untouched).
    Returns the number of failing cases."""
    runner = Runner(roce_run, mpi_run=mpi_run, inject=inject)
    failed = 0
    folders = [f for p in paths for f in case_folders(p)]
    if not folders:
        print("sim-fuzz: no case folder (with fuzz.json) in %s" % " ".join(paths))
        return 1
    for folder in folders:
        run_in = folder
        if work:
            run_in = os.path.join(work, os.path.basename(os.path.normpath(folder)))
            if os.path.isdir(run_in):
                shutil.rmtree(run_in)
            shutil.copytree(folder, run_in, ignore=shutil.ignore_patterns(
                "run", "run-first", "mpi-*", "run.log"))
        with open(os.path.join(run_in, "fuzz.json")) as f:
            meta = json.load(f)
        violations, notes, secs = runner.check(run_in, determinism=True)
        if violations:
            failed += 1
            print_failure(folder, meta, violations)
        else:
            print("ok   %s (%.1f s)%s" % (shown(folder), secs,
                                         "; " + "; ".join(notes) if notes else ""))
    print("sim-fuzz: replayed %d cases, %d failed" % (len(folders), failed))
    return failed


def main(args):
    inject = set(args.inject or [])
    mpi_run = args.mpi_run if args.mpi_run and os.access(args.mpi_run, os.X_OK) else None
    if mpi_run and not shutil.which("mpirun"):
        mpi_run = None
    if args.replay:
        return 1 if replay(args.roce_run, args.replay, args.work, mpi_run, inject) else 0
    if args.case is not None:
        folder = os.path.join(args.out, "case-%d-%04d" % (args.seed, args.case))
        config, files, meta = generate(case_seed(args.seed, args.case))
        write_case(folder, config, files, meta)
        return 1 if replay(args.roce_run, [folder], None, mpi_run, inject) else 0
    if args.shrink_case:
        runner = Runner(args.roce_run, inject=inject)
        violations, _, _ = runner.check(args.shrink_case)
        if not violations:
            print("sim-fuzz: %s passes; nothing to shrink" % shown(args.shrink_case))
            return 0
        files = {n: open(os.path.join(args.shrink_case, n)).read()
                 for n in os.listdir(args.shrink_case)
                 if os.path.isfile(os.path.join(args.shrink_case, n))
                 and n not in ("config.json", "fuzz.json", "run.log")}
        small, sv = shrink(runner, args.shrink_case, files, violations, args.shrink or 90)
        if small:
            print_failure(small, json.load(open(os.path.join(small, "fuzz.json"))), sv)
        else:
            print("sim-fuzz: no smaller case fails %s" % violations[0][0])
        return 1
    _, failures = campaign(args.roce_run, args.seconds, args.seed, args.out, args.keep,
                           mpi_run, inject, max_cases=args.max_cases,
                           shrink_budget=args.shrink, skip_known=args.skip_known)
    return 1 if failures else 0
