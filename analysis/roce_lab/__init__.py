"""roce_lab: roce-lab from Python (Debian's python3, python3-pandas, python3-matplotlib).

From a clone, put its analysis/ folder on the path, then import:

    import sys; sys.path.insert(0, "/path/to/roce-lab/analysis")
    import roce_lab

(or PYTHONPATH=/path/to/roce-lab/analysis). What ./roce-lab run, sweep and plot do:

    exp = roce_lab.Experiment("configs/dumbbell-small.json")
    exp.set("/flows/0/bytes", 20000)          # a JSON pointer, as --set
    run = exp.run(out="results/x")             # -> Run
    run.flows, run.summary, run.queues, run.pfc    # DataFrames (summary: a Series)
    sweep = roce_lab.run_sweep("configs/sweeps/poisson-cc.json", jobs=2)
    sweep.summary, sweep.flows                 # table.csv; every run's flows.csv
    roce_lab.run_sweep({"base": ..., "grid": {...}}, out="results/sweeps/x")  # a dict too
    roce_lab.load_run(DIR), roce_lab.load_sweep(OUT)   # results already there
    roce_lab.plot_runs([DIR, ...], PREFIX, title=..., labels=[...])   # PNG files
    roce_lab.figure("slowdown_by_size", [DIR, ...])   # a matplotlib Figure

The analyses are modules, each also a subcommand (NAME with - for _) and a script
analysis/NAME.py: fct_cdf, slowdown_by_size, node_effects, compare_profiles, dcqcn_fluid,
dcqcn_regional, dcqcn_stochastic, dcqcn_sweep, dfabric_pool, host_pushback, maestro_paths,
maestro_transport, srnic_loss, bench (analysis/roce_bench.py); by_size is by-size. What
they share: csvfile (reading CSV files by column name), stats (percentiles, flow-size
buckets), labels (legend names and figure options).

The command line (./roce-lab calls it): python3 analysis/roce_lab --help. Errors in
configurations, sweeps and edits (a value JSON has no place for included) are UsageError,
whose message names the file and JSON pointer; a run that roce-run refuses is RunError, a
UsageError with roce-run's message.
"""

from .cli import main
from .config import (PATHS_KEY, UsageError, anchor_paths, effective_config,
                     get_pointer, load_json, parse_json, parse_pointer, parse_sets, parse_value,
                     set_pointer)
from .data import Run, SweepData, load_run, load_sweep
from .experiment import Experiment, RunError, program, run_sweep
from .plots import PLOTS, figure, plot_names, plot_runs
from .sweep import Sweep, SweepRuns, execute, gather, is_complete, run_name

__all__ = ["main", "PATHS_KEY", "UsageError", "anchor_paths", "effective_config",
           "get_pointer", "load_json", "parse_json", "parse_pointer", "parse_sets", "parse_value",
           "set_pointer", "Run", "SweepData", "load_run", "load_sweep", "Experiment",
           "RunError", "program", "run_sweep", "PLOTS", "figure", "plot_names", "plot_runs", "Sweep",
           "SweepRuns", "execute", "gather", "is_complete", "run_name"]
