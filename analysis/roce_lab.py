#!/usr/bin/python3
"""roce-lab's configuration edits and sweeps (Debian python3 only, no PyPI).

  roce_lab.py prepare CONFIG OUTDIR [--set /pointer=value ...] [--seed N]
      write OUTDIR/input.json: CONFIG with the edits, paths made absolute; print its path
  roce_lab.py expand SWEEP                 list the runs (name and parameters)
  roce_lab.py sweep SWEEP --roce-run BIN [--jobs N]
      run every run not yet complete (resume), then gather
  roce_lab.py slurm SWEEP --roce-run BIN [--no-submit] [--wait]
      write a SLURM job array (one run per index) and a gather job; submit with sbatch
  roce_lab.py run-index SWEEP INDEX --roce-run BIN    one run (what each array task does)
  roce_lab.py gather SWEEP                 OUT/table.csv: parameters + summary.json metrics
  roce_lab.py check-plots CONFIG           check CONFIG's "plots" (before ./roce-lab run)
  roce_lab.py after-run CONFIG OUTDIR [--prepared]
      after ./roce-lab run: make CONFIG's "plots" in OUTDIR and add them (and input.json,
      with --prepared) to OUTDIR/README

Sweep file (JSON):
  {"base": "path/to/config.json" (relative to the sweep file) or an inline config object,
   "set":  {"/pointer": value, ...}           edits applied to every run (optional),
   "grid": {"/pointer": [v1, v2, ...], ...}   the cartesian product, first key outermost,
   "seeds": [1, 2] or "repetitions": N        (seeds 1..N; default: the base's seed),
   "out": "results/sweeps/NAME"               (relative to the current directory;
                                               default results/sweeps/<sweep file name>),
   "program": "dcqcn-regional", "args": [...]  (optional: a program beside roce-run taking
                                               the same CONFIG --out DIR, extra arguments)}

Runs are named rNNNN-<key>=<value>...-s<seed> (key: the pointer's last token), in
expansion order, so the same sweep file always gives the same names. A run is complete
when OUT/NAME/summary.json parses and OUT/NAME/input.json is the run's current input.

JSON pointers are RFC 6901 (/a/b/0, ~1 for '/', ~0 for '~'). A --set value is parsed
as JSON when it parses (numbers, true, null, "quoted", {...}); otherwise it is a string.
Objects missing on the way to a pointer are created (--set /cc/type=... works on a
file without "cc"); roce-run rejects keys outside the schema with the pointer's name.
Paths inside the configuration (/topology/path for "file" topologies, /flows_file/path,
/workload/cdf, /buffer/config_db, /buffer_switches/N/buffer/config_db: PATH_FIELDS)
are relative to the configuration file, as in roce-run; they are rewritten as
absolute paths in input.json so that it runs from any directory.
"""

import argparse
import concurrent.futures
import copy
import csv
import itertools
import json
import os
import re
import shlex
import subprocess
import sys


class UsageError(Exception):
    """A bad sweep file, configuration or --set: the message names file and pointer."""


# ----------------------------------------------------------------------------- pointers


def parse_pointer(pointer, where):
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise UsageError("%s: JSON pointer '%s' must start with '/'" % (where, pointer))
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer[1:].split("/")]


def set_pointer(doc, pointer, value, where):
    """Set doc[pointer] = value. Missing objects on the way are created; array indices
    must exist (or be '-', append); a parent that is a number or string is an error."""
    tokens = parse_pointer(pointer, where)
    if not tokens:
        raise UsageError("%s: cannot replace the whole document (pointer '')" % where)
    node = doc
    for depth, token in enumerate(tokens[:-1]):
        here = "/" + "/".join(tokens[: depth + 1])
        node = _child(node, token, here, where)
    last = tokens[-1]
    if isinstance(node, dict):
        node[last] = value
    elif isinstance(node, list):
        if last == "-":
            node.append(value)
        else:
            node[_index(node, last, pointer, where)] = value
    else:
        parent = "/" + "/".join(tokens[:-1])
        raise UsageError(
            "%s: %s: %s is a %s, not an object or array"
            % (where, pointer, parent or "/", type(node).__name__)
        )


def _index(node, token, here, where):
    if not re.fullmatch(r"0|[1-9][0-9]*", token) or int(token) >= len(node):
        raise UsageError(
            "%s: %s: no element '%s' (the array has %d)" % (where, here, token, len(node))
        )
    return int(token)


def _child(node, token, here, where):
    if isinstance(node, dict):
        # A missing object on the way is created ({"cc": {}} is the default anyway);
        # roce-run then rejects keys that are not in the schema, naming the pointer.
        if node.get(token) is None:
            node[token] = {}
        return node[token]
    if isinstance(node, list):
        return node[_index(node, token, here, where)]
    raise UsageError("%s: %s: parent is a %s" % (where, here, type(node).__name__))


def parse_value(text):
    try:
        return json.loads(text)
    except ValueError:
        return text


# ------------------------------------------------------------------------ configuration


def load_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        raise UsageError("%s: cannot read: %s" % (path, e.strerror))
    except ValueError as e:
        raise UsageError("%s: not valid JSON: %s" % (path, e))


# Every path-valued field of an experiment file, the one list: a JSON pointer whose
# "*" tokens match each element of an array, and the condition on the object holding
# the field under which it is a path (None: always). roce-run resolves the same
# fields relative to the experiment file (ExperimentTopology::ResolvePath).
PATH_FIELDS = [
    ("/topology/path", lambda holder: holder.get("type") == "file"),
    ("/flows_file/path", None),
    ("/workload/cdf", None),
    ("/buffer/config_db", None),
    ("/buffer_switches/*/buffer/config_db", None),
]


def absolutize_paths(config, base_dir):
    """Make the configuration's file references (PATH_FIELDS) absolute; they are
    relative to base_dir."""

    def walk(node, tokens, condition):
        if not tokens:
            return
        token, rest = tokens[0], tokens[1:]
        if token == "*":
            for child in node if isinstance(node, list) else []:
                walk(child, rest, condition)
            return
        if not isinstance(node, dict):
            return
        if rest:
            walk(node.get(token), rest, condition)
        elif isinstance(node.get(token), str) and (condition is None or condition(node)):
            node[token] = os.path.normpath(os.path.join(base_dir, node[token]))

    for pointer, condition in PATH_FIELDS:
        walk(config, pointer.split("/")[1:], condition)


def effective_config(config, base_dir, edits, where):
    """config with edits [(pointer, value)] applied, paths absolute."""
    config = copy.deepcopy(config)
    for pointer, value in edits:
        set_pointer(config, pointer, value, where)
    absolutize_paths(config, base_dir)
    return config


def dumps(config):
    return json.dumps(config, indent=2, sort_keys=False) + "\n"


def write_if_changed(path, text):
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except OSError:
        pass
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def parse_sets(items, seed):
    edits = []
    for item in items or []:
        if "=" not in item:
            raise UsageError("--set %s: expected /json/pointer=value" % item)
        pointer, value = item.split("=", 1)
        edits.append((pointer, parse_value(value)))
    if seed is not None:
        edits.append(("/seed", seed))
    return edits


def cmd_prepare(args):
    config = load_json(args.config)
    edits = parse_sets(args.set, args.seed)
    eff = effective_config(config, os.path.dirname(os.path.abspath(args.config)), edits,
                           "--set on " + args.config)
    os.makedirs(args.outdir, exist_ok=True)
    path = os.path.join(args.outdir, "input.json")
    write_if_changed(path, dumps(eff))
    print(path)


# ------------------------------------------------------------------------------ plots

# "plots" names of an experiment file: script in analysis/, its extra arguments, the PNG
# written into the output directory (the names ./roce-lab plot gives), and what it shows.
PLOTS = {
    "fct_cdf": ("fct_cdf.py", [], "plot-fct-cdf.png",
                "CDF of the flows' completion times (flows.csv fct_us)"),
    "slowdown_cdf": ("fct_cdf.py", ["--slowdown"], "plot-slowdown-cdf.png",
                     "CDF of the flows' slowdowns (flows.csv slowdown)"),
    "slowdown_by_size": ("slowdown_by_size.py", [], "plot-slowdown-by-size.png",
                         "mean and p99 slowdown by flow-size bucket (flows.csv bytes, slowdown)"),
}


def plot_names(config, where):
    """The config's "plots", checked: a list of PLOTS names (errors name the pointer)."""
    if not isinstance(config, dict) or "plots" not in config:
        return []
    plots = config["plots"]
    if not isinstance(plots, list):
        raise UsageError("%s: /plots: must be an array of plot names (%s)"
                         % (where, ", ".join(sorted(PLOTS))))
    for i, name in enumerate(plots):
        if name not in PLOTS:
            raise UsageError("%s: /plots/%d: unknown plot %s (allowed: %s)"
                             % (where, i, json.dumps(name), ", ".join(sorted(PLOTS))))
    return plots


def have_matplotlib():
    import importlib.util
    return importlib.util.find_spec("matplotlib") is not None


def readme_add(outdir, name, what):
    """Append an entry to OUTDIR/README (written by roce-run) for a file written here."""
    path = os.path.join(outdir, "README")
    if os.path.isfile(path):
        with open(path, "a", encoding="utf-8") as f:
            f.write("%s: %s\n" % (name, what))


def cmd_check_plots(args):
    plot_names(load_json(args.config), args.config)


def cmd_after_run(args):
    names = plot_names(load_json(args.config), args.config)
    if args.prepared:
        readme_add(args.outdir, "input.json",
                   "the configuration as run: the file given to ./roce-lab run with its "
                   "--set/--seed edits, paths made absolute (roce_lab.py prepare)")
    if not names:
        return 0
    if not have_matplotlib():
        log("plots: matplotlib is not installed for %s (Debian: apt-get install "
            "python3-matplotlib, or ./roce-lab plot %s, which installs it); the run's other "
            "outputs are complete" % (sys.executable, args.outdir))
        return 3
    here = os.path.dirname(os.path.abspath(__file__))
    for name in names:
        script, extra, png, what = PLOTS[name]
        argv = [sys.executable, os.path.join(here, script), args.outdir,
                "-o", os.path.join(args.outdir, png)] + extra
        if subprocess.run(argv).returncode != 0:
            log("plots: %s failed (%s)" % (name, " ".join(shlex.quote(a) for a in argv)))
            return 1
        readme_add(args.outdir, png, "%s (plots: %s, analysis/%s)" % (what, name, script))
    return 0


# ---------------------------------------------------------------------------- sweeps


class Sweep:
    def __init__(self, path, out=None):
        self.path = path
        spec = load_json(path)
        if not isinstance(spec, dict):
            raise UsageError("%s: a sweep file is a JSON object" % path)
        known = {"base", "set", "grid", "seeds", "repetitions", "out", "description",
                 "program", "args"}
        for key in spec:
            if key not in known:
                raise UsageError("%s: /%s: unknown key (allowed: %s)"
                                 % (path, key, ", ".join(sorted(known))))
        here = os.path.dirname(os.path.abspath(path))
        base = spec.get("base")
        if isinstance(base, str):
            base_path = os.path.join(here, base)
            self.base = load_json(base_path)
            self.base_dir = os.path.dirname(os.path.abspath(base_path))
        elif isinstance(base, dict):
            self.base, self.base_dir = base, here
        else:
            raise UsageError("%s: /base: required, a configuration path or object" % path)
        self.fixed = list(self._object(spec, "set", path).items())
        grid = self._object(spec, "grid", path)
        for pointer, values in grid.items():
            if not isinstance(values, list) or not values:
                raise UsageError("%s: /grid/%s: expected a non-empty list of values"
                                 % (path, pointer.replace("~", "~0").replace("/", "~1")))
        self.grid = list(grid.items())
        if "seeds" in spec and "repetitions" in spec:
            raise UsageError("%s: give /seeds or /repetitions, not both" % path)
        if "seeds" in spec:
            seeds = spec["seeds"]
            if (not isinstance(seeds, list) or not seeds
                    or not all(isinstance(s, int) and 1 <= s <= 4294967295 for s in seeds)):
                raise UsageError("%s: /seeds: expected a list of integers in [1, 4294967295]"
                                 % path)
            self.seeds = seeds
        elif "repetitions" in spec:
            reps = spec["repetitions"]
            if not isinstance(reps, int) or reps < 1:
                raise UsageError("%s: /repetitions: expected an integer >= 1" % path)
            self.seeds = list(range(1, reps + 1))
        else:
            self.seeds = [None]
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
        stem = os.path.splitext(os.path.basename(path))[0]
        self.out = out or spec.get("out") or os.path.join("results", "sweeps", stem)
        self.runs = self._expand()

    @staticmethod
    def _object(spec, key, path):
        value = spec.get(key, {})
        if not isinstance(value, dict):
            raise UsageError("%s: /%s: expected an object of JSON pointers" % (path, key))
        return value

    def _expand(self):
        runs = []
        pointers = [p for p, _ in self.grid]
        combos = itertools.product(*[values for _, values in self.grid])
        for combo in combos:
            for seed in self.seeds:
                index = len(runs)
                params = list(zip(pointers, combo))
                edits = self.fixed + params + ([("/seed", seed)] if seed is not None else [])
                where = "%s (run %d)" % (self.path, index)
                config = effective_config(self.base, self.base_dir, edits, where)
                parts = ["r%04d" % index]
                for pointer, value in params:
                    key = parse_pointer(pointer, self.path)[-1]
                    text = value if isinstance(value, str) else json.dumps(value)
                    parts.append("%s=%s" % (key, text))
                if seed is not None:
                    parts.append("s%d" % seed)
                name = re.sub(r"[^A-Za-z0-9._=+-]", "_", "-".join(parts))[:120]
                runs.append({"index": index, "name": name, "params": params,
                             "seed": config.get("seed", 1), "config": config})
        return runs

    def run_dir(self, run):
        return os.path.join(self.out, run["name"])


def is_complete(sweep, run):
    d = sweep.run_dir(run)
    try:
        with open(os.path.join(d, "input.json"), encoding="utf-8") as f:
            if f.read() != dumps(run["config"]):
                return False
        with open(os.path.join(d, "summary.json"), encoding="utf-8") as f:
            json.load(f)
        return True
    except (OSError, ValueError):
        return False


def execute(sweep, run, roce_run):
    """Run one run; returns (name, status) with status 'done' or 'failed (rc N)'."""
    d = sweep.run_dir(run)
    os.makedirs(d, exist_ok=True)
    # A stale summary from an earlier input must not count as complete if this run fails.
    try:
        os.remove(os.path.join(d, "summary.json"))
    except OSError:
        pass
    write_if_changed(os.path.join(d, "input.json"), dumps(run["config"]))
    with open(os.path.join(d, "log.txt"), "w", encoding="utf-8") as log:
        program = os.path.join(os.path.dirname(roce_run), sweep.program)
        rc = subprocess.call([program, os.path.join(d, "input.json"), "--out", d] + sweep.args,
                             stdout=log, stderr=subprocess.STDOUT)
    return run["name"], "done" if rc == 0 else "failed (rc %d, see %s)" % (
        rc, os.path.join(d, "log.txt"))


def cmd_expand(args):
    sweep = Sweep(args.sweep, args.out)
    print("%d runs into %s" % (len(sweep.runs), sweep.out))
    for run in sweep.runs:
        params = " ".join("%s=%s" % (p, json.dumps(v)) for p, v in run["params"])
        print("%s  seed=%s  %s" % (run["name"], run["seed"], params))


def cmd_sweep(args):
    sweep = Sweep(args.sweep, args.out)
    todo = [r for r in sweep.runs if not is_complete(sweep, r)]
    log("%d runs, %d complete, %d to run with %d jobs -> %s"
        % (len(sweep.runs), len(sweep.runs) - len(todo), len(todo), args.jobs, sweep.out))
    failed = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(execute, sweep, r, args.roce_run) for r in todo]
        for n, future in enumerate(concurrent.futures.as_completed(futures), 1):
            name, status = future.result()
            log("[%d/%d] %s: %s" % (n, len(todo), name, status))
            if status != "done":
                failed.append(name)
    table = gather(sweep)
    print(table)
    if failed:
        log("%d runs failed: %s" % (len(failed), " ".join(failed)))
        return 1
    return 0


def cmd_run_index(args):
    sweep = Sweep(args.sweep, args.out)
    if not 0 <= args.index < len(sweep.runs):
        raise UsageError("%s: index %d outside 0..%d" % (args.sweep, args.index,
                                                          len(sweep.runs) - 1))
    run = sweep.runs[args.index]
    if is_complete(sweep, run):
        log("%s: already complete" % run["name"])
        return 0
    name, status = execute(sweep, run, args.roce_run)
    log("%s: %s" % (name, status))
    return 0 if status == "done" else 1


def cmd_slurm(args):
    sweep = Sweep(args.sweep, args.out)
    slurm_dir = os.path.abspath(os.path.join(sweep.out, "slurm"))
    os.makedirs(slurm_dir, exist_ok=True)
    q = shlex.quote
    tool = "/usr/bin/python3 %s" % q(os.path.abspath(__file__))
    where = "%s --out %s" % (q(os.path.abspath(args.sweep)), q(os.path.abspath(sweep.out)))
    extra = "".join("#SBATCH %s\n" % o for o in args.sbatch_option or [])
    array = os.path.join(slurm_dir, "array.sbatch")
    write_if_changed(array, (
        "#!/bin/sh\n#SBATCH --job-name=roce-sweep\n#SBATCH --array=0-%d\n"
        "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n#SBATCH --output=%s/run-%%a.log\n%s"
        "exec %s run-index %s \"$SLURM_ARRAY_TASK_ID\" --roce-run %s\n")
        % (len(sweep.runs) - 1, slurm_dir, extra, tool, where,
           q(os.path.abspath(args.roce_run))))
    gather_script = os.path.join(slurm_dir, "gather.sbatch")
    write_if_changed(gather_script, (
        "#!/bin/sh\n#SBATCH --job-name=roce-gather\n#SBATCH --ntasks=1\n"
        "#SBATCH --output=%s/gather.log\n%sexec %s gather %s\n")
        % (slurm_dir, extra, tool, where))
    log("wrote %s (%d tasks) and %s" % (array, len(sweep.runs), gather_script))
    if args.no_submit:
        print("sbatch --parsable %s  # then: sbatch --dependency=afterany:JOBID %s"
              % (array, gather_script))
        return 0
    job = sbatch([array])
    gather_job = sbatch(["--dependency=afterany:%s" % job] + (["--wait"] if args.wait else [])
                        + [gather_script])
    log("submitted array job %s and gather job %s; the table will be %s"
        % (job, gather_job, os.path.join(sweep.out, "table.csv")))
    log("gather again at any time: ./roce-lab sweep %s --out %s --gather" % (args.sweep, sweep.out))
    return 0


def sbatch(argv):
    try:
        result = subprocess.run(["sbatch", "--parsable"] + argv, capture_output=True,
                                text=True, check=False)
    except FileNotFoundError:
        raise UsageError("sbatch not found: install SLURM (Debian: slurm-client) or use "
                         "--jobs N; the scripts are written, submit them where SLURM runs")
    if result.returncode != 0:
        raise UsageError("sbatch %s failed: %s" % (" ".join(argv), result.stderr.strip()))
    return result.stdout.strip().split(";")[0]


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


def gather(sweep):
    """Write OUT/table.csv; returns its path. One row per run in expansion order:
    run, status, seed, each grid pointer, then every summary.json leaf (dotted names)."""
    rows, metric_names = [], []
    for run in sweep.runs:
        metrics = {}
        status = "missing"
        if is_complete(sweep, run):
            with open(os.path.join(sweep.run_dir(run), "summary.json"), encoding="utf-8") as f:
                flatten("", json.load(f), metrics)
            status = "done"
        elif os.path.exists(os.path.join(sweep.run_dir(run), "log.txt")):
            status = "failed"
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
    return path


def cell(value):
    if value is None:
        return ""
    if isinstance(value, (dict, list, bool)):
        return json.dumps(value)
    return value


def cmd_gather(args):
    sweep = Sweep(args.sweep, args.out)
    print(gather(sweep))


# ------------------------------------------------------------------------------ main


def log(message):
    print("roce-lab: " + message, file=sys.stderr, flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="roce_lab.py", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("prepare", help="apply --set/--seed to a config, write OUTDIR/input.json")
    p.add_argument("config")
    p.add_argument("outdir")
    p.add_argument("--set", action="append", metavar="/POINTER=VALUE")
    p.add_argument("--seed", type=int)
    p.set_defaults(func=cmd_prepare)

    def sweep_parser(name, help_text):
        q = sub.add_parser(name, help=help_text)
        q.add_argument("sweep")
        q.add_argument("--out", help="output directory (default: the sweep file's /out)")
        return q

    sweep_parser("expand", "list the runs of a sweep").set_defaults(func=cmd_expand)
    q = sweep_parser("sweep", "run a sweep locally (resumes), then gather")
    q.add_argument("--roce-run", required=True)
    q.add_argument("--jobs", type=int, default=1)
    q.set_defaults(func=cmd_sweep)
    q = sweep_parser("slurm", "write and submit a SLURM job array and a gather job")
    q.add_argument("--roce-run", required=True)
    q.add_argument("--no-submit", action="store_true", help="write the scripts only")
    q.add_argument("--wait", action="store_true", help="wait until the gather job ends")
    q.add_argument("--sbatch-option", action="append", metavar="OPT",
                   help="extra #SBATCH line, e.g. --partition=short (repeatable)")
    q.set_defaults(func=cmd_slurm)
    q = sweep_parser("run-index", "run one run of a sweep (a SLURM array task)")
    q.add_argument("index", type=int)
    q.add_argument("--roce-run", required=True)
    q.set_defaults(func=cmd_run_index)
    sweep_parser("gather", "build OUT/table.csv from the runs").set_defaults(func=cmd_gather)

    p = sub.add_parser("check-plots", help="check a config's \"plots\"")
    p.add_argument("config")
    p.set_defaults(func=cmd_check_plots)
    p = sub.add_parser("after-run", help="make a config's plots in a run's output directory")
    p.add_argument("config")
    p.add_argument("outdir")
    p.add_argument("--prepared", action="store_true",
                   help="OUTDIR/input.json was written for this run (README entry)")
    p.set_defaults(func=cmd_after_run)

    args = parser.parse_args(argv)
    if getattr(args, "jobs", 1) < 1:
        parser.error("--jobs must be >= 1")
    try:
        return args.func(args) or 0
    except UsageError as e:
        log("error: %s" % e)
        return 2


if __name__ == "__main__":
    sys.exit(main())
