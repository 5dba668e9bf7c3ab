"""A sweep as a SLURM job array (one task per run to do) and a gather job.

The scripts carry the resolved run list: each task runs the run folder its index names
(its input.json written here, before submission), and the gather job reads OUT/runs.json;
neither reads the sweep file again, so editing it after submission changes nothing.
Each task's --time is the sweep's "slurm_time", else twice the longest wall time of the
sweep's runs done so far (sweep-run.json), rounded up to whole minutes; an
--sbatch-option=--time=... wins over both.
"""

import math
import os
import shlex
import subprocess
import sys

from .config import UsageError, log, write_if_changed
from .sweep import (check_runs, is_complete, migrate, program_path, wall_times, write_input,
                    write_manifest, write_readme)

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def python():
    """Debian's interpreter where there is one (python3-matplotlib), else this one."""
    return "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else sys.executable


def time_limit(sweep, options):
    """(the --time value or None, where it comes from)."""
    if any(o.startswith(("--time", "-t")) for o in options):
        return None, "the --sbatch-option"
    if sweep.slurm_time:
        return sweep.slurm_time, "%s /slurm_time" % sweep.path
    times = wall_times(sweep)
    if times:
        minutes = max(1, math.ceil(2 * max(times) / 60))
        return ("%02d:%02d:00" % divmod(minutes, 60),
                "twice the longest wall time of the %d runs done (%.1f s)" % (len(times),
                                                                               max(times)))
    return None, None


def write_scripts(sweep, roce_run, options=()):
    """Write OUT/slurm/array.sbatch (absent when every run is complete) and
    gather.sbatch; returns (array script or None, gather script, number of tasks)."""
    program = program_path(sweep, roce_run)
    migrate(sweep)
    todo = [r for r in sweep.runs if not is_complete(sweep, r)]
    check_runs(sweep, roce_run, todo)  # every configuration before any task is submitted
    for run in todo:  # each task's input, resolved now
        d = sweep.run_dir(run)
        write_input(sweep, run)
        for stale in ("summary.json", "log.txt"):
            try:
                os.remove(os.path.join(d, stale))
            except OSError:
                pass
    write_manifest(sweep)
    slurm_dir = os.path.abspath(os.path.join(sweep.out, "slurm"))
    os.makedirs(slurm_dir, exist_ok=True)
    q = shlex.quote
    out = os.path.abspath(sweep.out)
    extra = "".join("#SBATCH %s\n" % o for o in options)
    tool = "%s %s" % (q(python()), q(PACKAGE_DIR))
    array = os.path.join(slurm_dir, "array.sbatch")
    if todo:
        limit, source = time_limit(sweep, options)
        if limit:
            extra = "#SBATCH --time=%s\n" % limit + extra
            log("each task's --time: %s (%s)" % (limit, source))
        elif source is None:
            log("warning: no --time for the tasks: set \"slurm_time\" in %s or run a point "
                "first (./roce-lab sweep --jobs 1 measures it); SLURM gives them the "
                "partition's default limit" % sweep.path)
        cases = "".join("  %d) run=%s ;;\n" % (i, q(r["name"])) for i, r in enumerate(todo))
        write_if_changed(array, (
            "#!/bin/sh\n#SBATCH --job-name=roce-sweep\n#SBATCH --array=0-%d\n"
            "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n#SBATCH --output=%s/run-%%a.log\n"
            "%s"
            "# The runs of %s not complete when this was written (each folder holds its\n"
            "# input.json); this script does not read the sweep file.\n"
            "case \"$SLURM_ARRAY_TASK_ID\" in\n%s"
            "  *) echo \"array.sbatch: no run for task $SLURM_ARRAY_TASK_ID\" >&2; exit 2 ;;\n"
            "esac\n"
            "exec %s run-dir %s/\"$run\" -- %s\n")
            % (len(todo) - 1, slurm_dir, extra, sweep.path, cases, tool, q(out),
               " ".join(q(a) for a in [program] + sweep.args)))
    elif os.path.exists(array):
        os.remove(array)
    gather_script = os.path.join(slurm_dir, "gather.sbatch")
    write_if_changed(gather_script, (
        "#!/bin/sh\n#SBATCH --job-name=roce-gather\n#SBATCH --ntasks=1\n"
        "#SBATCH --output=%s/gather.log\n%s"
        "# Reads %s/runs.json (the run list), not the sweep file.\n"
        "exec %s gather %s\n")
        % (slurm_dir, "".join("#SBATCH %s\n" % o for o in options), q(out), tool, q(out)))
    write_readme(sweep, [(r["name"], "done" if is_complete(sweep, r) else "submitted")
                         for r in sweep.runs])
    return (array if todo else None), gather_script, len(todo)


def submit(sweep, roce_run, options=(), no_submit=False, wait=False):
    array, gather_script, tasks = write_scripts(sweep, roce_run, options)
    if array:
        log("wrote %s (%d tasks for the %d runs not complete) and %s"
            % (array, tasks, tasks, gather_script))
    else:
        log("all %d runs are complete; wrote %s only" % (len(sweep.runs), gather_script))
    if no_submit:
        if array:
            print("sbatch --parsable %s  # then: sbatch --dependency=afterany:JOBID %s"
                  % (array, gather_script))
        else:
            print("sbatch %s" % gather_script)
        return 0
    wait_option = ["--wait"] if wait else []
    if array:
        job = sbatch([array])
        gather_job = sbatch(["--dependency=afterany:%s" % job] + wait_option + [gather_script])
        log("submitted array job %s and gather job %s; the table will be %s"
            % (job, gather_job, os.path.join(sweep.out, "table.csv")))
    else:
        gather_job = sbatch(wait_option + [gather_script])
        log("submitted gather job %s" % gather_job)
    log("gather again at any time: ./roce-lab sweep %s --out %s --gather" % (sweep.path,
                                                                            sweep.out))
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
