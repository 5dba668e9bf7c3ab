"""Sweeps: a base configuration, a grid of JSON pointers and values, seeds.

Sweep file (JSON):
  {"base": "path/to/config.json" (relative to the sweep file) or an inline config object,
   "set":  {"/pointer": value, ...}           edits applied to every run (optional),
   "grid": {"/pointer": [v1, v2, ...], ...}   the cartesian product, first key outermost,
   "seeds": [1, 2] or "repetitions": N        (seeds 1..N; default: the base's seed),
   "out": "results/sweeps/NAME"               (relative to the current directory;
                                               default results/sweeps/<sweep file name>),
   "program": "dcqcn-regional", "args": [...]  (optional: a program beside roce-run taking
                                               the same CONFIG --out DIR, extra arguments),
   "slurm_time": "00:20:00"                   (optional: each SLURM array task's --time,
                                               SLURM's format or minutes; else estimated
                                               from the runs done so far),
   "description": "..."}

A run is named by its parameter values, key=value for each grid pointer (key: the
pointer's last token, or more tokens where two pointers end alike; "ns3::" left out of
values), then s<seed>: e.g. bytes=20000-type=RdmaDcqcn-s1. Where a value does not
fit a folder name (characters other than letters, digits and ._+:, or a name over 120
characters), the name ends in -h and 10 hex digits of a SHA-1 of the run's parameters.
A run's name depends on its own values only, so adding a value to the grid neither
renames nor reruns the runs already done. A run is complete when OUT/NAME/summary.json
parses and OUT/NAME/input.json is the run's current input.

Before the first run starts, the configuration of every run to do is checked (roce-run
--check on its input.json): a refused one is printed with its values and error and
nothing runs. A run that fails later prints its error lines (its output is in log.txt).

Sweep folders of earlier versions named runs rNNNN-...: such a run whose input.json is
a run's current input is renamed to the run's name (and not rerun) by ./roce-lab sweep
and by --gather; other rNNNN- folders are left where they are.
"""

import concurrent.futures
import hashlib
import itertools
import json
import os
import re
import subprocess
import sys
import time

from .config import (UsageError, anchor_paths, checked_value, claim_output, dumps,
                     effective_config, escape_token, load_json, log, parse_pointer,
                     write_if_changed)

SWEEP_KEYS = ("base", "set", "grid", "seeds", "repetitions", "out", "description", "program",
              "args", "slurm_time")
MANIFEST = "runs.json"  # OUT/runs.json: the resolved run list (SLURM tasks, gather)
INLINE = "sweep.json"  # OUT/sweep.json: a sweep given as a dict (run_sweep), as a file
OLD_NAME = re.compile(r"^r[0-9]{4}-")
_PLAIN = re.compile(r"[A-Za-z0-9._+:]*")
SLURM_TIME = re.compile(r"([0-9]+-)?[0-9]+(:[0-9]{1,2}){0,2}")


class Sweep:
    """A sweep file, expanded: .runs is a list of {index, name, params [(pointer, value)],
    seed, config}; .out the output directory."""

    def __init__(self, path, out=None):
        self.path = path
        spec = load_json(path)
        if not isinstance(spec, dict):
            raise UsageError("%s: a sweep file is a JSON object" % path)
        for key in spec:
            if key not in SWEEP_KEYS:
                raise UsageError("%s: /%s: unknown key (allowed: %s)"
                                 % (path, escape_token(key), ", ".join(sorted(SWEEP_KEYS))))
        self.description = str(spec.get("description", ""))
        here = os.path.dirname(os.path.abspath(path))
        base = spec.get("base")
        if isinstance(base, str):
            base_path = os.path.join(here, base)
            try:
                self.base = load_json(base_path)
            except UsageError as e:
                # the sweep file and its field first, then what is wrong with the base file
                raise UsageError("%s: /base: %s" % (path, e))
            self.base_dir = os.path.dirname(os.path.abspath(base_path))
            self.base_name = os.path.normpath(base_path)
        elif isinstance(base, dict):
            self.base, self.base_dir, self.base_name = base, here, "(inline in the sweep file)"
        else:
            raise UsageError("%s: /base: required, a configuration path or object" % path)
        self.fixed = list(_object(spec, "set", path).items())
        grid = _object(spec, "grid", path)
        for key, pointers in (("set", [p for p, _ in self.fixed]), ("grid", list(grid))):
            for pointer in pointers:
                if not pointer.startswith("/"):
                    raise UsageError("%s: /%s/%s: expected the JSON pointer of a field, such "
                                     "as \"/seed\" (got %s)" % (path, key, escape_token(pointer),
                                                                json.dumps(pointer)))
        for pointer, values in grid.items():
            if not isinstance(values, list) or not values:
                raise UsageError("%s: /grid/%s: expected a non-empty list of values"
                                 % (path, escape_token(pointer)))
        self.grid = list(grid.items())
        self.seeds = _seeds(spec, path)
        # "program": another experiment program built beside roce-run that takes the same
        # CONFIG --out DIR arguments (and writes summary.json); "args": extra arguments.
        self.program = spec.get("program", "roce-run")
        if not isinstance(self.program, str) or not re.fullmatch(r"[a-z0-9][a-z0-9-]*",
                                                                  self.program):
            raise UsageError("%s: /program: expected a program name such as dcqcn-regional"
                             % path)
        self.args = spec.get("args", [])
        if not isinstance(self.args, list) or not all(isinstance(a, str) for a in self.args):
            raise UsageError("%s: /args: expected a list of strings" % path)
        self.slurm_time = spec.get("slurm_time")
        if isinstance(self.slurm_time, int) and not isinstance(self.slurm_time, bool):
            self.slurm_time = str(self.slurm_time)
        if self.slurm_time is not None and (not isinstance(self.slurm_time, str)
                                            or not SLURM_TIME.fullmatch(self.slurm_time)):
            raise UsageError("%s: /slurm_time: expected minutes or a SLURM time such as "
                             "\"30\", \"01:30:00\" or \"1-00:00:00\"" % path)
        stem = os.path.splitext(os.path.basename(path))[0]
        self.out = out or spec.get("out") or os.path.join("results", "sweeps", stem)
        self.runs = self._expand()

    def _expand(self):
        runs = []
        pointers = [p for p, _ in self.grid]
        keys = short_keys(pointers, self.path)
        names = {}
        for combo in itertools.product(*[values for _, values in self.grid]):
            for seed in self.seeds:
                index = len(runs)
                params = list(zip(pointers, combo))
                edits = self.fixed + params + ([("/seed", seed)] if seed is not None else [])
                where = "%s (run %d)" % (self.path, index)
                config = effective_config(self.base, self.base_dir, edits, where)
                name = run_name(keys, params, seed)
                if name in names:
                    raise UsageError(
                        "%s: /grid: runs %d and %d would share the folder name %s (values "
                        "that differ only by \"ns3::\"?)" % (self.path, names[name], index, name))
                names[name] = index
                runs.append({"index": index, "name": name, "params": params,
                             "seed": config.get("seed", 1), "config": config})
        return runs

    def run_dir(self, run):
        return os.path.join(self.out, run["name"])


def write_inline(spec, out, base_dir):
    """A sweep given as a dict (run_sweep from Python): written as OUT/sweep.json, with
    its base file's path (or an inline base's "paths_relative_to") and OUT made absolute
    from BASE_DIR and the current directory, so that the file reads the same files from
    anywhere (./roce-lab sweep OUT/sweep.json resumes it). Returns its path; values JSON
    has no place for are a UsageError naming the pointer."""
    where = "an inline sweep"
    if not isinstance(spec, dict):
        raise UsageError("%s: a sweep is a dict (or a sweep file's path)" % where)
    spec = checked_value(spec, where)
    out = out or spec.get("out")
    if not isinstance(out, str) or not out:
        raise UsageError("%s: give its output directory (run_sweep(..., out=DIR) or \"out\")"
                         % where)
    spec["out"] = os.path.abspath(out)
    base = spec.get("base")
    if isinstance(base, str):
        spec["base"] = os.path.normpath(os.path.join(os.path.abspath(base_dir), base))
    elif isinstance(base, dict):
        spec["base"] = anchor_paths(base, base_dir)
    os.makedirs(spec["out"], exist_ok=True)
    path = os.path.join(spec["out"], INLINE)
    write_if_changed(path, dumps(spec))
    return path


def _object(spec, key, path):
    value = spec.get(key, {})
    if not isinstance(value, dict):
        raise UsageError("%s: /%s: expected an object of JSON pointers" % (path, key))
    return value


# Runs per grid point at most: seeds 1..N are each a whole run, so a larger count is a typo.
MAX_REPETITIONS = 10000


def _seeds(spec, path):
    if "seeds" in spec and "repetitions" in spec:
        raise UsageError("%s: give /seeds or /repetitions, not both" % path)
    if "seeds" in spec:
        seeds = spec["seeds"]
        if (not isinstance(seeds, list) or not seeds
                or not all(isinstance(s, int) and not isinstance(s, bool) and 1 <= s <= 4294967295 for s in seeds)):
            raise UsageError("%s: /seeds: expected a list of integers in [1, 4294967295]"
                             % path)
        return seeds
    if "repetitions" in spec:
        reps = spec["repetitions"]
        if not isinstance(reps, int) or isinstance(reps, bool) or not 1 <= reps <= MAX_REPETITIONS:
            raise UsageError("%s: /repetitions: expected an integer in [1, %d]"
                             % (path, MAX_REPETITIONS))
        return list(range(1, reps + 1))
    return [None]


# ------------------------------------------------------------------------------ names


def short_keys(pointers, where):
    """The name of each grid pointer in run names: its last token, or as many trailing
    tokens (joined by '.') as make it unlike the others'."""
    tokens = [parse_pointer(p, where) for p in pointers]
    keys = []
    for i, t in enumerate(tokens):
        for n in range(1, len(t) + 1):
            key = ".".join(t[-n:])
            if all(".".join(o[-n:]) != key for j, o in enumerate(tokens) if j != i):
                break
        keys.append(key)
    return keys


def value_text(value):
    """A parameter value as it appears in a run name (before the folder-name check)."""
    if isinstance(value, str):
        return value[5:] if value.startswith("ns3::") else value
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def run_name(keys, params, seed):
    """The folder name of a run: key=value for each parameter, then s<seed>; a name that
    had to be changed to be a folder name (or shortened) ends in -h<hash of the
    parameters>, so that it stays unique and stable."""
    parts = ["%s=%s" % (key, value_text(value)) for key, (_, value) in zip(keys, params)]
    if seed is not None:
        parts.append("s%d" % seed)
    raw = "-".join(parts) or "base"
    plain = all(_PLAIN.fullmatch(value_text(v)) for _, v in params) and \
        all(_PLAIN.fullmatch(k) for k in keys)
    if plain and len(raw) <= 120:
        return raw
    digest = hashlib.sha1(json.dumps([params, seed], sort_keys=True,
                                     separators=(",", ":")).encode()).hexdigest()[:10]
    safe = re.sub(r"[^A-Za-z0-9._=+-]+", "_", raw)[:100].rstrip("_-")
    return "%s-h%s" % (safe, digest)


# ------------------------------------------------------------------------- completion


def input_text(run):
    return dumps(run["config"])


def is_complete(sweep, run, directory=None):
    """OUT/NAME (or directory) holds this run's current input and a summary.json."""
    d = directory or sweep.run_dir(run)
    try:
        with open(os.path.join(d, "input.json"), encoding="utf-8") as f:
            text = f.read()
        if "config" in run:
            if text != input_text(run):
                return False
        elif hashlib.sha1(text.encode()).hexdigest() != run["input_sha1"]:
            return False
        with open(os.path.join(d, "summary.json"), encoding="utf-8") as f:
            json.load(f)
        return True
    except (OSError, ValueError):
        return False


def migrate(sweep):
    """Rename the complete rNNNN-... run folders of earlier versions whose input is a
    run's current input to that run's name. Returns (renamed, left) folder names."""
    try:
        old = sorted(n for n in os.listdir(sweep.out)
                     if OLD_NAME.match(n) and os.path.isdir(os.path.join(sweep.out, n)))
    except OSError:
        return [], []
    if not old:
        return [], []
    by_input = {}
    for name in old:
        try:
            with open(os.path.join(sweep.out, name, "input.json"), encoding="utf-8") as f:
                by_input.setdefault(f.read(), name)
        except OSError:
            pass
    renamed = []
    for run in sweep.runs:
        old_name = by_input.get(input_text(run)) if "config" in run else None
        if (old_name is None or os.path.exists(sweep.run_dir(run))
                or not is_complete(sweep, run, os.path.join(sweep.out, old_name))):
            continue
        os.rename(os.path.join(sweep.out, old_name), sweep.run_dir(run))
        renamed.append(old_name)
    left = [n for n in old if n not in renamed]
    if renamed:
        log("%s: %d complete runs named the old way (rNNNN-...) renamed by their parameter "
            "values, not rerun" % (sweep.out, len(renamed)))
    if left:
        log("%s: %d old rNNNN-... folders are no run of this sweep now (left in place): %s"
            % (sweep.out, len(left), " ".join(left[:5]) + (" ..." if len(left) > 5 else "")))
    return renamed, left


# ---------------------------------------------------------------------------- running


def program_path(sweep, roce_run):
    """The sweep's program, beside roce_run; a missing one is an error naming the
    sweep file, /program and the programs that are there."""
    bin_dir = os.path.dirname(os.path.abspath(roce_run))
    path = os.path.join(bin_dir, sweep.program)
    if not os.access(path, os.X_OK):
        try:
            built = sorted(n for n in os.listdir(bin_dir) if not n.startswith("test-"))
        except OSError:
            built = []
        raise UsageError("%s: /program: no program %s in %s (%s)"
                         % (sweep.path, json.dumps(sweep.program), bin_dir,
                            "built there: " + ", ".join(built) if built
                            else "build first: ./roce-lab build"))
    return path


def run_in(directory, argv):
    """Run argv (a program and its arguments; CONFIG --out DIR included) with its output
    in DIRECTORY/log.txt, and record the command, exit status and wall time in
    DIRECTORY/sweep-run.json. Returns the exit status."""
    try:
        os.remove(os.path.join(directory, "summary.json"))  # stale if this run fails
    except OSError:
        pass
    start = time.monotonic()
    with open(os.path.join(directory, "log.txt"), "w", encoding="utf-8") as out:
        try:
            rc = subprocess.call(argv, stdout=out, stderr=subprocess.STDOUT)
        except OSError as e:
            out.write("cannot run %s: %s\n" % (argv[0], e.strerror))
            rc = 127
    record = {"command": argv, "exit_status": rc,
              "wall_s": round(time.monotonic() - start, 3)}
    write_if_changed(os.path.join(directory, "sweep-run.json"),
                     json.dumps(record, indent=2) + "\n")
    return rc


# What a sweep writes into a run's folder itself (beside the run's outputs).
RUN_FOLDER_FILES = ("input.json", "log.txt", "sweep-run.json")


def write_input(sweep, run):
    """Write the run's OUT/NAME/input.json (the folder made a run's, claim_output);
    returns its path."""
    d = sweep.run_dir(run)
    claim_output(d, RUN_FOLDER_FILES)
    path = os.path.join(d, "input.json")
    write_if_changed(path, input_text(run))
    return path


def execute(sweep, run, program):
    """Run one run with PROGRAM; returns (name, status) with status 'done' or
    'failed (rc N, see LOG)'."""
    d = sweep.run_dir(run)
    write_input(sweep, run)
    rc = run_in(d, [program, os.path.join(d, "input.json"), "--out", d] + sweep.args)
    return run["name"], "done" if rc == 0 else "failed (rc %d, see %s)" % (
        rc, os.path.join(d, "log.txt"))


def describe(run):
    """A run's name and grid values, for messages."""
    values = ", ".join("%s = %s" % (p, json.dumps(v)) for p, v in run["params"])
    return "%s%s" % (run["name"], " (%s)" % values if values else "")


def error_lines(text, limit=3):
    """The lines of a program's output that say what went wrong: its error lines, else
    its last lines (progress lines left out)."""
    lines = [l for l in text.replace("\r", "\n").splitlines()
             if l.strip() and not l.startswith("progress: ")]
    errors = [l for l in lines if "error" in l]
    return (errors or lines)[-limit:]


def check_runs(sweep, roce_run, runs, jobs=1):
    """Check each run's configuration (roce-run --check on its input.json: loaded, the
    fabric built, validated; nothing run) before any run starts. Raises a UsageError
    after printing each refused run with the error, so that a bad grid value is found at
    once, not when its run comes up."""

    def check(run):
        path = write_input(sweep, run)
        try:
            r = subprocess.run([roce_run, "--check", path, "--out", sweep.run_dir(run)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        except OSError as e:
            return run, ["cannot run %s: %s" % (roce_run, e.strerror)]
        return run, error_lines(r.stderr) if r.returncode != 0 else None

    refused = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for run, lines in pool.map(check, runs):
            if lines is not None:
                refused.append(run)
                log("error: %s: run %s:" % (sweep.path, describe(run)))
                for line in lines:
                    print("    " + line, file=sys.stderr, flush=True)
    if refused:
        raise UsageError("%s: %d of %d runs refused by roce-run --check (above); no run was "
                         "started" % (sweep.path, len(refused), len(runs)))


def run_sweep(sweep, roce_run, jobs=1):
    """Check the configuration of every run that is not complete (check_runs), run them
    on JOBS local processes, then gather. Returns (table path, names of the runs that
    failed); a failed run's error lines are printed as it ends."""
    program = program_path(sweep, roce_run)
    migrate(sweep)
    todo = [r for r in sweep.runs if not is_complete(sweep, r)]
    log("%d runs, %d complete, %d to run with %d jobs -> %s"
        % (len(sweep.runs), len(sweep.runs) - len(todo), len(todo), jobs, sweep.out))
    check_runs(sweep, roce_run, todo, jobs)
    failed = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(execute, sweep, r, program) for r in todo]
        for n, future in enumerate(concurrent.futures.as_completed(futures), 1):
            name, status = future.result()
            log("[%d/%d] %s: %s" % (n, len(todo), name, status))
            if status != "done":
                failed.append(name)
                try:
                    with open(os.path.join(sweep.out, name, "log.txt"), encoding="utf-8",
                              errors="replace") as f:
                        for line in error_lines(f.read()):
                            print("    " + line, file=sys.stderr, flush=True)
                except OSError:
                    pass
    return gather(sweep), failed


def wall_times(sweep):
    """Wall seconds of the sweep's complete runs (their sweep-run.json)."""
    times = []
    for run in sweep.runs:
        try:
            with open(os.path.join(sweep.run_dir(run), "sweep-run.json"),
                      encoding="utf-8") as f:
                record = json.load(f)
            if record.get("exit_status") == 0 and is_complete(sweep, run):
                times.append(float(record["wall_s"]))
        except (OSError, ValueError, KeyError, TypeError):
            pass
    return times


# ---------------------------------------------------------------------------- gather


def flatten(prefix, value, out):
    if isinstance(value, dict):
        for key, child in value.items():
            flatten(prefix + "." + key if prefix else key, child, out)
    elif isinstance(value, list):
        # Lists of named objects (summary.json's by_size buckets) are keyed by the name.
        for i, child in enumerate(value):
            name = child.get("bucket", i) if isinstance(child, dict) else i
            flatten("%s.%s" % (prefix, name), child, out)
    else:
        out[prefix] = value


def cell(value):
    if value is None:
        return ""
    if isinstance(value, (dict, list, bool)):
        return json.dumps(value)
    return value


def status_of(sweep, run):
    if is_complete(sweep, run):
        return "done"
    if os.path.exists(os.path.join(sweep.run_dir(run), "log.txt")):
        return "failed"
    return "missing"


def gather(sweep):
    """Write OUT/table.csv (one row per run in expansion order: run, status, seed, each
    grid pointer, then every summary.json leaf by dotted name), OUT/runs.json (the
    resolved run list) and OUT/README. Returns the table's path."""
    import csv

    if isinstance(sweep, Sweep):
        migrate(sweep)
    rows, metric_names = [], []
    for run in sweep.runs:
        metrics = {}
        status = status_of(sweep, run)
        if status == "done":
            with open(os.path.join(sweep.run_dir(run), "summary.json"), encoding="utf-8") as f:
                flatten("", json.load(f), metrics)
        for key in metrics:
            if key not in metric_names:
                metric_names.append(key)
        rows.append((run, status, metrics))
    os.makedirs(sweep.out, exist_ok=True)
    path = os.path.join(sweep.out, "table.csv")
    pointers = [p for p, _ in sweep.grid]
    with open(path + ".tmp", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["run", "status", "seed"] + pointers + metric_names)
        for run, status, metrics in rows:
            params = dict(run["params"])
            w.writerow([run["name"], status, run["seed"]]
                       + [cell(params[p]) for p in pointers]
                       + [cell(metrics.get(m)) for m in metric_names])
    os.replace(path + ".tmp", path)
    write_manifest(sweep)
    write_readme(sweep, [(run["name"], status) for run, status, _ in rows])
    return path


# ------------------------------------------------------------------ run list, README


def default_command(sweep):
    return "./roce-lab sweep %s --out %s" % (sweep.path, sweep.out)


def write_manifest(sweep):
    """OUT/runs.json: what was swept and each run's name, parameters, seed and the SHA-1
    of its input.json; SLURM tasks and the gather job read it, not the sweep file."""
    if not isinstance(sweep, Sweep):
        return  # read from runs.json itself
    runs = [{"name": r["name"], "seed": r["seed"], "params": [[p, v] for p, v in r["params"]],
             "input_sha1": hashlib.sha1(input_text(r).encode()).hexdigest()}
            for r in sweep.runs]
    manifest = {"sweep": os.path.abspath(sweep.path), "description": sweep.description,
                "command": default_command(sweep), "base": sweep.base_name,
                "set": [[p, v] for p, v in sweep.fixed], "grid": [[p, v] for p, v in sweep.grid],
                "seeds": sweep.seeds, "program": sweep.program, "args": sweep.args,
                "runs": runs}
    os.makedirs(sweep.out, exist_ok=True)
    write_if_changed(os.path.join(sweep.out, MANIFEST), json.dumps(manifest, indent=1) + "\n")


class SweepRuns:
    """The run list of a sweep output directory, from its runs.json: the attributes of
    Sweep that gather and the SLURM tasks use (out, grid, runs, run_dir)."""

    def __init__(self, out):
        path = os.path.join(out, MANIFEST)
        if not os.path.isfile(path):
            hint = ""
            if os.path.isfile(os.path.join(out, "table.csv")):
                hint = (" (written by an earlier roce-lab, whose runs are named rNNNN-...: "
                        "run ./roce-lab sweep SWEEP.json --out %s --gather once; complete "
                        "runs are renamed, not rerun)" % out)
            raise UsageError("%s: not a sweep output directory: no %s%s" % (out, MANIFEST, hint))
        manifest = load_json(path)
        self.out = out
        self.path = manifest.get("sweep", path)
        self.description = manifest.get("description", "")
        self.base_name = manifest.get("base", "")
        self.fixed = [tuple(g) for g in manifest.get("set", [])]
        self.grid = [tuple(g) for g in manifest.get("grid", [])]
        self.seeds = manifest.get("seeds", [None])
        self.program = manifest.get("program", "roce-run")
        self.args = manifest.get("args", [])
        self.runs = [{"index": i, "name": r["name"], "seed": r["seed"],
                      "params": [tuple(p) for p in r["params"]], "input_sha1": r["input_sha1"]}
                     for i, r in enumerate(manifest.get("runs", []))]

    def run_dir(self, run):
        return os.path.join(self.out, run["name"])


def write_readme(sweep, statuses):
    """OUT/README: what was swept, the command, and the runs with their status."""
    lines = ["Sweep %s" % os.path.abspath(sweep.path)]
    if sweep.description:
        lines.append(sweep.description)
    lines += ["", "command: %s" % default_command(sweep),
              "  (runs what is not complete, then gathers; --gather only gathers, "
              "--slurm submits a SLURM job array)",
              "base: %s" % sweep.base_name,
              "program: %s" % " ".join([sweep.program] + sweep.args)]
    if sweep.fixed:
        lines.append("set in every run:")
        lines += ["  %s = %s" % (p, json.dumps(v)) for p, v in sweep.fixed]
    if sweep.grid:
        lines.append("grid (the cartesian product, first pointer outermost):")
        lines += ["  %s: %s" % (p, ", ".join(json.dumps(v) for v in values))
                  for p, values in sweep.grid]
    seeds = [s for s in sweep.seeds if s is not None]
    lines.append("seeds: %s" % (", ".join(map(str, seeds)) if seeds else "the base's"))
    done = sum(1 for _, s in statuses if s == "done")
    lines += ["", "runs (%d, %d done; one folder each, named by its values):"
              % (len(statuses), done)]
    width = max([len(n) for n, _ in statuses] + [3])
    lines += ["  %-*s  %s" % (width, n, s) for n, s in statuses]
    lines += ["", "Files:",
              "table.csv: one row per run: run, status, seed, each grid pointer, then every "
              "summary.json metric (dotted names)",
              "runs.json: the resolved run list (names, parameters, seeds, SHA-1 of each "
              "input.json); SLURM tasks and the gather job read it",
              "NAME/: a run's output directory (its README lists its files), with input.json "
              "(the configuration run), log.txt (the program's output) and sweep-run.json "
              "(command, exit status, wall seconds)"]
    if os.path.isfile(os.path.join(sweep.out, INLINE)):
        lines.append("%s: the sweep as given to run_sweep (a dict), its paths absolute"
                     % INLINE)
    if os.path.isdir(os.path.join(sweep.out, "slurm")):
        lines.append("slurm/: array.sbatch (one task per run to do), gather.sbatch, task logs")
    write_if_changed(os.path.join(sweep.out, "README"), "\n".join(lines) + "\n")
