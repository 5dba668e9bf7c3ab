"""Edit and run an experiment, run a sweep: ./roce-lab run and sweep, from Python.

    exp = Experiment("configs/dumbbell-small.json")
    exp.set("/flows/0/bytes", 20000).set("/cc/type", "ns3::RdmaDctcp")
    run = exp.run(out="results/x")        # roce-run; returns a data.Run
    sweep = run_sweep("configs/sweeps/poisson-cc.json", jobs=2)   # a data.SweepData

The edits are JSON pointers as with --set; the edited configuration is written to
OUT/input.json (its paths relative to the file's folder, "paths_relative_to") and run by
the built program, as ./roce-lab run
does, and the configuration's "plots" are drawn. Programs are taken from
$ROCE_LAB_BUILD_DIR/bin (default: build/bin of this checkout): ./roce-lab build first.
"""

import copy
import os
import subprocess

from . import plots
from . import sweep as sweeps
from .config import (UsageError, checked_value, effective_config, get_pointer, load_json,
                     prepare)
from .data import Run, load_sweep

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def program(name="roce-run", build_dir=None):
    """The path of a built program; an error that says how to build it if it is not."""
    build = build_dir or os.environ.get("ROCE_LAB_BUILD_DIR") or os.path.join(ROOT, "build")
    path = os.path.join(build, "bin", name)
    if not os.access(path, os.X_OK):
        raise UsageError("%s: not built (run %s build, or set ROCE_LAB_BUILD_DIR)"
                         % (path, os.path.join(ROOT, "roce-lab")))
    return path


class RunError(UsageError):
    """The program exited with an error; .returncode, .stderr (its last lines are in
    the message: a configuration error names the file, pointer and field)."""

    def __init__(self, message, returncode, stderr):
        super().__init__(message)
        self.returncode = returncode
        self.stderr = stderr


class Experiment:
    """An experiment file (or a configuration object) with edits at JSON pointers."""

    def __init__(self, config, base_dir=None):
        if isinstance(config, dict):
            self.path = None
            self.base = checked_value(copy.deepcopy(config), "an inline configuration")
            self.base_dir = base_dir or os.getcwd()
        elif not isinstance(config, (str, os.PathLike)):
            raise UsageError("Experiment(%r): expected an experiment file's path or a "
                             "configuration dict, got %s" % (config, type(config).__name__))
        else:
            self.path = str(config)
            self.base = load_json(self.path)
            self.base_dir = os.path.dirname(os.path.abspath(self.path))
        self.edits = []

    def __repr__(self):
        edits = ", ".join("%s=%r" % e for e in self.edits)
        return "Experiment(%s%s)" % (self.path or "inline", "; " + edits if edits else "")

    @property
    def where(self):
        return "edit of " + (self.path or "an inline configuration")

    def set(self, pointer, value):
        """Set the configuration at a JSON pointer (as --set /pointer=value, but the
        value is a Python value); returns the experiment. A pointer whose parent does
        not exist is an error naming it."""
        effective_config(self.base, self.base_dir, self.edits + [(pointer, value)], self.where)
        self.edits.append((pointer, value))
        return self

    def get(self, pointer):
        return get_pointer(self.config, pointer, self.where)

    @property
    def config(self):
        """The configuration with the edits applied and "paths_relative_to" (input.json)."""
        return effective_config(self.base, self.base_dir, self.edits, self.where)

    @property
    def seed(self):
        return self.config.get("seed", 1)

    @seed.setter
    def seed(self, value):
        self.set("/seed", value)

    def default_out(self):
        if self.path is None:
            raise UsageError("an inline configuration needs run(out=DIR)")
        return os.path.join("results", os.path.splitext(os.path.basename(self.path))[0])

    def run(self, out=None, program_name="roce-run", args=(), build_dir=None, echo=False):
        """Run it with the built program (roce-run, or another that takes CONFIG --out
        DIR, e.g. dcqcn-regional) and extra ARGS; returns the data.Run of OUT. The
        program's stderr (progress, warnings) is printed when echo is true, and is in
        the error when it fails."""
        out = out or self.default_out()
        binary = program(program_name, build_dir)
        input_json = prepare(self.base, self.base_dir, self.edits, out, self.where)
        argv = [binary, input_json, "--out", out] + list(args)
        result = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        if echo and result.stderr:
            print(result.stderr, end="")
        if result.returncode != 0:
            tail = "\n".join(result.stderr.strip().splitlines()[-5:])
            raise RunError("%s exited with status %d:\n%s" % (" ".join(argv), result.returncode,
                                                               tail),
                           result.returncode, result.stderr)
        plots.after_run(input_json, out, prepared=True, source=self.path, edits=self.edits)
        return Run(out)


def run_sweep(sweep, jobs=1, out=None, build_dir=None, base_dir=None):
    """./roce-lab sweep SWEEP --jobs N [--out OUT]: run what is not complete, gather, and
    return the sweep's data (load_sweep). Failed runs are 'failed' in its table.

    SWEEP is a sweep file's path or the sweep itself as a dict (the same keys, e.g.
    {"base": "configs/dumbbell-small.json", "grid": {"/cc/type": [...]}, "out":
    "results/sweeps/mine"}): its relative paths are relative to BASE_DIR (default: the
    current directory), and it is written to OUT/sweep.json, which ./roce-lab sweep
    reruns or resumes. Errors in it are UsageError naming the pointer."""
    if isinstance(sweep, dict):
        sweep = sweeps.write_inline(sweep, out, base_dir or os.getcwd())
    elif not isinstance(sweep, (str, os.PathLike)):
        raise UsageError("run_sweep(%r): expected a sweep file's path or a sweep dict, got %s"
                         % (sweep, type(sweep).__name__))
    sweep = sweeps.Sweep(sweep, out)
    sweeps.run_sweep(sweep, program("roce-run", build_dir), jobs)
    return load_sweep(sweep.out)
