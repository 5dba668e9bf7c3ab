"""roce-lab's configuration edits, sweeps and plots: the command line that ./roce-lab calls
(Debian python3 only, no PyPI). Run as `python3 analysis/roce_lab COMMAND ...` or, with
analysis/ on PYTHONPATH, `python3 -m roce_lab COMMAND ...`.

  prepare CONFIG OUTDIR [--set /pointer=value ...] [--seed N]
      write OUTDIR/input.json: CONFIG with the edits, its paths relative to CONFIG's folder
      ("paths_relative_to"); print its path. OUTDIR must be new, empty or a run's
  expand SWEEP                 list the runs (name and parameters)
  sweep SWEEP --roce-run BIN [--jobs N]
      run every run not yet complete (resume), then gather
  slurm SWEEP --roce-run BIN [--no-submit] [--wait] [--sbatch-option OPT]
      write a SLURM job array (one task per run to do) and a gather job; submit with sbatch
  run-index SWEEP INDEX --roce-run BIN    run one run of the sweep by its index
  run-dir DIR -- PROGRAM [ARGS]           run PROGRAM DIR/input.json --out DIR ARGS (a
                                          SLURM array task), recording DIR/sweep-run.json
  gather SWEEP|OUT             OUT/table.csv: parameters + summary.json metrics (from
                               the sweep file, or from OUT/runs.json)
  plot DIR... [-o PREFIX] [--title T] [--labels A,B] [--scale log|linear]
      the FCT CDF, slowdown CDF and slowdown-by-size figures of run directories
  check-plots CONFIG           check CONFIG's "plots" (before ./roce-lab run)
  by-size OUTDIR [--peer dcqcn|hpcc] [--peer-file FILE] [--force] [--peer-fct FCT.txt]
      FCT and slowdown (the HPCC simulator's definition) by flow size, beside the peer's
      (refused, or printed under a warning, for a run that is not the peer's benchmark)
  fuzz-sim --roce-run BIN [SECONDS] [--seed N] [--out DIR] [--replay CASE...]
      random small experiments checked against invariants (./roce-lab fuzz --sim)
  after-run CONFIG OUTDIR [--prepared [--source FILE] [--set /pointer=value ...] [--seed N]]
      after ./roce-lab run: make CONFIG's "plots" in OUTDIR and add them (and input.json,
      with --prepared, with its source and edits) to OUTDIR/README

The analyses of runs and sweeps, each also a script analysis/NAME.py (NAME: the command
with _ for -); COMMAND -h gives its options:

  fct-cdf, slowdown-by-size, node-effects, compare-profiles, dcqcn-fluid, dcqcn-regional,
  dcqcn-stochastic, dcqcn-sweep, dfabric-pool, host-pushback, maestro-paths,
  maestro-transport, srnic-loss
  bench [SUITE|SCENARIO ...] [--build DIR] [--vs DIR]   (analysis/roce_bench.py)
"""

import argparse
import importlib
import json
import os
import sys

from . import by_size, simfuzz
from . import config as cfg
from . import plots, slurm
from . import sweep as sweeps
from .config import UsageError, log

EPILOG = "\n".join([cfg.__doc__, sweeps.__doc__])

# The modules that are also scripts (analysis/MODULE.py, analysis/roce_bench.py for bench):
# subcommand -> (module, what it does). Their own argument parsers read the arguments.
SCRIPTS = {
    "fct-cdf": ("fct_cdf", "FCT (or slowdown) CDF of run directories"),
    "slowdown-by-size": ("slowdown_by_size", "slowdown of run directories by flow-size bucket"),
    "node-effects": ("node_effects", "per-node PFC pauses, NIC caches, collectives, slowdown"),
    "compare-profiles": ("compare_profiles", "NIC profiles across fat-tree scales (SRNIC "
                         "Fig. 12)"),
    "dcqcn-fluid": ("dcqcn_fluid", "DCQCN fluid model on one bottleneck"),
    "dcqcn-regional": ("dcqcn_regional", "goodput and queue watermarks of a dcqcn-regional "
                       "run"),
    "dcqcn-stochastic": ("dcqcn_stochastic", "DCQCN as stochastic per-flow state machines"),
    "dcqcn-sweep": ("dcqcn_sweep", "heat maps and line plots of a sweep's table.csv"),
    "dfabric-pool": ("dfabric_pool", "DFabric Fig. 2 from the dfabric-pool sweep"),
    "host-pushback": ("host_pushback", "host push-back into the fabric (Hostping, Azure)"),
    "maestro-paths": ("maestro_paths", "per-path throughput of Maestro endpoints"),
    "maestro-transport": ("maestro_transport", "collectives over one path vs Maestro"),
    "srnic-loss": ("srnic_loss", "SRNIC Fig. 11: goodput against random loss"),
    "bench": ("bench", "speed and memory of named scenarios (./roce-lab bench)"),
}


def run_script(name, argv):
    """The subcommand NAME of SCRIPTS on ARGV: its module's main, imported only now (some
    draw with matplotlib from their first line)."""
    module = importlib.import_module("." + SCRIPTS[name][0], __package__)
    return module.main(argv, prog="roce_lab " + name) or 0


def open_sweep(path, out=None):
    """A sweep file, or (for gather) a sweep output directory with its runs.json."""
    if os.path.isdir(path):
        return sweeps.SweepRuns(path)
    return sweeps.Sweep(path, out)


def cmd_prepare(args):
    config = cfg.load_json(args.config)
    edits = cfg.parse_sets(args.set, args.seed)
    print(cfg.prepare(config, os.path.dirname(os.path.abspath(args.config)), edits,
                      args.outdir, "--set on " + args.config))


def cmd_expand(args):
    sweep = sweeps.Sweep(args.sweep, args.out)
    print("%d runs into %s" % (len(sweep.runs), sweep.out))
    for run in sweep.runs:
        params = " ".join("%s=%s" % (p, json.dumps(v)) for p, v in run["params"])
        print("%s  seed=%s  %s" % (run["name"], run["seed"], params))


def cmd_sweep(args):
    sweep = sweeps.Sweep(args.sweep, args.out)
    table, failed = sweeps.run_sweep(sweep, args.roce_run, args.jobs)
    print(table)
    if failed:
        log("%d runs failed: %s" % (len(failed), " ".join(failed)))
        return 1
    return 0


def cmd_run_index(args):
    sweep = sweeps.Sweep(args.sweep, args.out)
    if not 0 <= args.index < len(sweep.runs):
        raise UsageError("%s: index %d outside 0..%d" % (args.sweep, args.index,
                                                          len(sweep.runs) - 1))
    program = sweeps.program_path(sweep, args.roce_run)
    run = sweep.runs[args.index]
    if sweeps.is_complete(sweep, run):
        log("%s: already complete" % run["name"])
        return 0
    name, status = sweeps.execute(sweep, run, program)
    log("%s: %s" % (name, status))
    return 0 if status == "done" else 1


def cmd_run_dir(args):
    if not args.program:
        raise UsageError("run-dir: give the program after --")
    d = args.dir
    if not os.path.isfile(os.path.join(d, "input.json")):
        raise UsageError("%s: no input.json (written when the SLURM scripts were)" % d)
    rc = sweeps.run_in(d, [args.program[0], os.path.join(d, "input.json"), "--out", d]
                       + args.program[1:])
    log("%s: %s" % (d, "done" if rc == 0 else "failed (rc %d, see %s/log.txt)" % (rc, d)))
    return 0 if rc == 0 else 1


def cmd_slurm(args):
    sweep = sweeps.Sweep(args.sweep, args.out)
    return slurm.submit(sweep, args.roce_run, args.sbatch_option or [], args.no_submit,
                        args.wait)


def cmd_gather(args):
    print(sweeps.gather(open_sweep(args.sweep, args.out)))


def use_agg():
    """Figures for files, on machines with or without a display."""
    import matplotlib
    matplotlib.use("Agg")


def cmd_plot(args):
    use_agg()
    labels = args.labels.split(",") if args.labels is not None else None
    prefix = args.output or os.path.join(args.dirs[0], "plot")
    for path in plots.plot_runs(args.dirs, prefix, args.title, labels, args.scale):
        print(path)


def cmd_check_plots(args):
    plots.plot_names(cfg.load_json(args.config), args.config)


def cmd_by_size(args):
    print(by_size.report(args.outdir, args.peer, args.peer_file, args.force, args.peer_fct))


def cmd_after_run(args):
    if plots.have_matplotlib():
        use_agg()
    return plots.after_run(args.config, args.outdir, args.prepared, args.source,
                           cfg.parse_sets(args.set, args.seed))


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] in SCRIPTS:
        return run_script(argv[0], argv[1:])
    parser = argparse.ArgumentParser(prog="roce_lab", description=__doc__, epilog=EPILOG,
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
    q = sweep_parser("run-index", "run one run of a sweep by its index")
    q.add_argument("index", type=int)
    q.add_argument("--roce-run", required=True)
    q.set_defaults(func=cmd_run_index)
    q = sub.add_parser("run-dir", help="run a program on DIR/input.json (a SLURM array task)")
    q.add_argument("dir")
    q.add_argument("program", nargs=argparse.REMAINDER, help="-- PROGRAM [ARGS]")
    q.set_defaults(func=cmd_run_dir)
    sweep_parser("gather", "build OUT/table.csv from the runs").set_defaults(func=cmd_gather)

    p = sub.add_parser("plot", help="FCT CDF, slowdown CDF and slowdown-by-size figures")
    p.add_argument("dirs", nargs="+", metavar="DIR")
    p.add_argument("-o", "--output", metavar="PREFIX",
                   help="file name prefix (default: FIRST-DIR/plot)")
    p.add_argument("--title", help="the figures' title (default: what they show)")
    p.add_argument("--labels", metavar="A,B,...",
                   help="legend names, one per DIR (default: each run's description)")
    p.add_argument("--scale", choices=["log", "linear"], default=None,
                   help="the value axis: log (default) or linear")
    p.set_defaults(func=cmd_plot)
    p = sub.add_parser("check-plots", help="check a config's \"plots\"")
    p.add_argument("config")
    p.set_defaults(func=cmd_check_plots)
    p = sub.add_parser("by-size", help="FCT and slowdown by flow size, beside the HPCC "
                       "simulator's figures")
    p.add_argument("outdir")
    p.add_argument("--peer", choices=["dcqcn", "hpcc"],
                   help="print the peer's figures for its DCQCN or HPCC run beside ours")
    p.add_argument("--peer-file", default=by_size.PEER_FILE,
                   help="the peer's figures (default: configs/bench/hpcc-peer-by-size.json)")
    p.add_argument("--force", action="store_true",
                   help="with --peer: print the comparison even for a run that is not the "
                   "peer's benchmark (under a warning)")
    p.add_argument("--peer-fct", metavar="FCT.txt",
                   help="the HPCC simulator's own fct.txt of the same run (e.g. "
                   "bench/hpcc-sim-*-fct.txt): its figures beside ours")
    p.set_defaults(func=cmd_by_size)
    p = sub.add_parser("after-run", help="make a config's plots in a run's output directory")
    p.add_argument("config")
    p.add_argument("outdir")
    p.add_argument("--prepared", action="store_true",
                   help="OUTDIR/input.json was written for this run (README entry)")
    p.add_argument("--source", help="with --prepared: the configuration it was made from")
    p.add_argument("--set", action="append", metavar="/POINTER=VALUE",
                   help="with --prepared: the edits it was made with (README entry)")
    p.add_argument("--seed", type=int)
    p.set_defaults(func=cmd_after_run)

    p = sub.add_parser("fuzz-sim", help="whole-simulation invariant fuzzing "
                       "(./roce-lab fuzz --sim)", description=simfuzz.__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       epilog="invariants:\n" + "\n".join(
                           "  %-14s %s" % kv for kv in simfuzz.INVARIANTS.items()))
    p.add_argument("seconds", type=float, nargs="?", default=120.0,
                   help="wall-clock budget: no case starts after it (default 120)")
    p.add_argument("--seed", type=int, default=1,
                   help="campaign seed: case i is generated from (seed, i) (default 1)")
    p.add_argument("--out", default="results/sim-fuzz",
                   help="where cases are written; failing ones are kept (default "
                   "results/sim-fuzz)")
    p.add_argument("--roce-run", required=True)
    p.add_argument("--mpi-run", help="roce-run of the MPI build (1 and 2 ranks compared)")
    p.add_argument("--replay", nargs="+", metavar="CASE",
                   help="rerun case folders (or folders of them) and check them")
    p.add_argument("--work", help="with --replay: run copies of the cases here")
    p.add_argument("--case", type=int, metavar="I",
                   help="generate and check only case I of --seed")
    p.add_argument("--max-cases", type=int, help="stop after this many cases")
    p.add_argument("--keep", action="store_true", help="keep passing cases too")
    p.add_argument("--shrink", type=float, default=20.0, metavar="SECONDS",
                   help="time spent shrinking each failing case into CASE-min (default 20; "
                   "0: none)")
    p.add_argument("--skip-known", action="store_true",
                   help="leave out cases that can meet a defect known on main "
                   "(simfuzz_cases.KNOWN_DEFECTS; CI)")
    p.add_argument("--shrink-case", metavar="CASE",
                   help="shrink one failing case folder into CASE-min")
    p.add_argument("--inject", action="append", choices=["exactly_once", "deterministic"],
                   help=argparse.SUPPRESS)
    p.set_defaults(func=simfuzz.main)
    for name, (_, what) in SCRIPTS.items():
        # Listed in --help; main() hands their arguments to the module before parsing.
        sub.add_parser(name, help=what, add_help=False)

    args = parser.parse_args(argv)
    if args.command == "run-dir" and args.program[:1] == ["--"]:
        args.program = args.program[1:]
    if getattr(args, "jobs", 1) < 1:
        parser.error("--jobs must be >= 1")
    try:
        return args.func(args) or 0
    except UsageError as e:
        log("error: %s" % e)
        return 2
