"""A run's or a sweep's output directory as pandas DataFrames (Debian: python3-pandas).

    run = load_run("results/dumbbell-small")
    run.flows            flows.csv (fct_us, slowdown NaN for unfinished flows)
    run.summary          summary.json as a Series of dotted names (fct_us.p99, ...)
    run.queues, run.pfc, run.rates, run.csv("goodput")   the other CSV files
    run.config           config.json (the effective configuration) as a dict

    sweep = load_sweep("results/sweeps/dumbbell-smoke")   (or the sweep file)
    sweep.summary        table.csv: one row per run (run, status, seed, each grid
                         pointer, every summary.json metric), indexed by run name
    sweep.flows          every run's flows.csv with the run's name, seed and grid values
    sweep.runs           {name: Run} of the runs that are done
"""

import os
import sys

from .config import UsageError, load_json
from .sweep import MANIFEST, Sweep, flatten


def _pandas():
    try:
        import pandas
    except ImportError:
        raise UsageError("pandas is not installed for %s, the Python running this (Debian's "
                         "/usr/bin/python3 has it after apt-get install python3-pandas, which "
                         "./roce-lab build does; or install pandas for this interpreter)"
                         % sys.executable)
    return pandas


class Run:
    """One run's output directory. DataFrames are read when first used."""

    def __init__(self, directory):
        if not os.path.isfile(os.path.join(directory, "summary.json")):
            raise UsageError("%s: not a run's output directory (no summary.json)" % directory)
        self.dir = directory
        self._cache = {}

    def __repr__(self):
        return "Run(%r: %s)" % (self.dir, self.description or "no description")

    def path(self, name):
        return os.path.join(self.dir, name)

    def csv(self, name):
        """OUTDIR/NAME.csv as a DataFrame; a file the run did not write is an error that
        says what writes it."""
        file = name if name.endswith(".csv") else name + ".csv"
        if file not in self._cache:
            path = self.path(file)
            if not os.path.isfile(path):
                written = sorted(f for f in os.listdir(self.dir) if f.endswith(".csv"))
                raise UsageError("%s: this run wrote no %s (it wrote %s; see %s)"
                                 % (self.dir, file, ", ".join(written), self.path("README")))
            self._cache[file] = _pandas().read_csv(path)
        return self._cache[file]

    @property
    def flows(self):
        return self.csv("flows")

    @property
    def queues(self):
        """queues.csv: written with "monitors": {"queue_interval": ...}."""
        return self.csv("queues")

    @property
    def pfc(self):
        return self.csv("pfc")

    @property
    def rates(self):
        return self.csv("rates")

    @property
    def summary_json(self):
        if "summary.json" not in self._cache:
            self._cache["summary.json"] = load_json(self.path("summary.json"))
        return self._cache["summary.json"]

    @property
    def summary(self):
        """summary.json's leaves as a Series: "fct_us.p99", "by_size.1MB+.flows", ... (the
        column names of a sweep's table.csv)."""
        leaves = {}
        flatten("", self.summary_json, leaves)
        return _pandas().Series(leaves, dtype=object).infer_objects()

    @property
    def config(self):
        """config.json (the effective configuration), else input.json, as a dict."""
        for name in ("config.json", "input.json"):
            if os.path.isfile(self.path(name)):
                return load_json(self.path(name))
        return {}

    @property
    def description(self):
        return str(self.config.get("description", ""))

    @property
    def label(self):
        """The run's name in a legend: its description, else its folder name."""
        return self.description or os.path.basename(os.path.normpath(self.dir))


def load_run(directory):
    return Run(directory)


class SweepData:
    """A sweep's output directory: its table and its runs."""

    def __init__(self, out):
        table = os.path.join(out, "table.csv")
        if not os.path.isfile(table):
            raise UsageError("%s: no table.csv (run ./roce-lab sweep SWEEP.json --out %s, or "
                             "--gather)" % (out, out))
        self.out = out
        self.summary = _pandas().read_csv(table, keep_default_na=False,
                                          na_values=[""]).set_index("run", drop=False)
        self.summary.index.name = None
        manifest = os.path.join(out, MANIFEST)
        if os.path.isfile(manifest):
            self.params = [g[0] for g in load_json(manifest).get("grid", [])]
        else:  # an earlier version's folder: its grid columns are the pointers
            self.params = [c for c in self.summary.columns if c.startswith("/")]
        self._cache = {}

    def __repr__(self):
        done = int((self.summary["status"] == "done").sum())
        return "SweepData(%r: %d runs, %d done, grid %s)" % (self.out, len(self.summary),
                                                            done, ", ".join(self.params))

    @property
    def table(self):
        return self.summary

    @property
    def runs(self):
        """{name: Run} of the runs that are done, in the table's order."""
        done = self.summary[self.summary["status"] == "done"]["run"]
        return {name: Run(os.path.join(self.out, name)) for name in done}

    def concat(self, name):
        """Every done run's NAME.csv, with the run's name, seed and grid values as the
        first columns."""
        if name not in self._cache:
            pandas = _pandas()
            frames = []
            for run_name, run in self.runs.items():
                frame = run.csv(name).copy()
                row = self.summary.loc[run_name]
                for i, column in enumerate(["run", "seed"] + self.params):
                    frame.insert(i, column, row[column])
                frames.append(frame)
            if not frames:
                raise UsageError("%s: no run is done" % self.out)
            self._cache[name] = pandas.concat(frames, ignore_index=True)
        return self._cache[name]

    @property
    def flows(self):
        return self.concat("flows")

    @property
    def queues(self):
        return self.concat("queues")

    @property
    def pfc(self):
        return self.concat("pfc")


def load_sweep(path, out=None):
    """A sweep's results: PATH is its output directory, or its sweep file (whose /out,
    or OUT, is read)."""
    if os.path.isdir(path):
        return SweepData(path)
    return SweepData(out or Sweep(path).out)

