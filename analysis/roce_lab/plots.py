"""The figures of ./roce-lab plot and of an experiment's "plots" (after ./roce-lab run).

The drawing itself is in fct_cdf and slowdown_by_size (modules of this package, also the
scripts analysis/fct_cdf.py and analysis/slowdown_by_size.py and the subcommands fct-cdf and
slowdown-by-size); this module names the figures, checks "plots" and draws them into a
run's directory, for the command line and for Python alike.
"""

import json
import os
import shlex
import sys

from .config import README_FIRST_WORDS, UsageError, load_json, log

# "plots" names of an experiment file: script in analysis/ (a module of this package too),
# its extra arguments, the PNG written into the output directory (the names ./roce-lab plot
# gives), and what it shows.
PLOTS = {
    "fct_cdf": ("fct_cdf.py", [], "plot-fct-cdf.png",
                "CDF of the flows' completion times (flows.csv fct_us)"),
    "slowdown_cdf": ("fct_cdf.py", ["--slowdown"], "plot-slowdown-cdf.png",
                     "CDF of the flows' slowdowns (flows.csv slowdown)"),
    "slowdown_by_size": ("slowdown_by_size.py", [], "plot-slowdown-by-size.png",
                         "slowdown of each flow by flow-size bucket, with the number of "
                         "flows per bucket (flows.csv bytes, slowdown)"),
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


def readme_add(outdir, name, what, details=()):
    """Add an entry to OUTDIR/README, a run's (roce-run writes it), for a file written
    here: "NAME: WHAT" and indented DETAILS lines, once (an entry already there is left).
    The next run into OUTDIR removes the files its README lists, these too
    (OutputDirectory); a folder with no run's README is left alone."""
    path = os.path.join(outdir, "README")
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return False
    if not text.startswith(README_FIRST_WORDS):
        return False
    if ("\n%s: " % name) in text:
        return True
    with open(path, "a", encoding="utf-8") as f:
        f.write("%s: %s\n" % (name, what))
        f.writelines("    %s\n" % line for line in details)
    return True


def edit_arguments(edits):
    """Edits [(pointer, value)] as the command line's --set/--seed arguments (strings)."""
    args = []
    for pointer, value in edits:
        if pointer == "/seed" and isinstance(value, int) and not isinstance(value, bool):
            args += ["--seed", str(value)]
        else:
            args += ["--set", "%s=%s" % (pointer, json.dumps(value))]
    return args


def provenance(source, edits, outdir):
    """The README lines under input.json: the configuration it was made from, each edit,
    and the command that makes it again."""
    args = edit_arguments(edits)
    pairs = [" ".join(args[i:i + 2]) for i in range(0, len(args), 2)]
    lines = ["source: %s" % (source or "an inline configuration (Python)")]
    lines += ["edit: %s" % p for p in pairs] or ["edits: none"]
    if source:
        lines.append("the same from the shell: %s" % " ".join(shlex.quote(a) for a in (
            ["./roce-lab", "run", source] + args + ["--out", outdir])))
    return lines


def _figure_modules():
    from . import fct_cdf, slowdown_by_size
    return fct_cdf, slowdown_by_size


def figure(name, outdirs, title=None, labels=None, scale=None):
    """The matplotlib Figure PLOTS[name] ("fct_cdf", "slowdown_cdf", "slowdown_by_size")
    of the run directories OUTDIRS (a notebook shows it); labels: one legend name per
    directory (default: each run's description); scale: "log" (default) or "linear"."""
    if name not in PLOTS:
        raise UsageError("no figure %s (figures: %s)" % (json.dumps(name), ", ".join(PLOTS)))
    fct_cdf, slowdown_by_size = _figure_modules()
    script, extra, _, _ = PLOTS[name]
    if script == "fct_cdf.py":
        return fct_cdf.figure(outdirs, slowdown="--slowdown" in extra, title=title,
                              labels=labels, scale=scale or "log")
    return slowdown_by_size.figure(outdirs, title=title, labels=labels, scale=scale or "log")


def draw(name, outdirs, output, title=None, labels=None, scale=None):
    """Draw figure(name, ...) into OUTPUT (a PNG); returns OUTPUT."""
    fig = figure(name, outdirs, title, labels, scale)
    fig.savefig(output, dpi=150, bbox_inches="tight")
    import matplotlib.pyplot as plt
    plt.close(fig)
    return output


def plot_runs(outdirs, prefix, title=None, labels=None, scale=None):
    """./roce-lab plot: the three figures of OUTDIRS as PREFIX-fct-cdf.png,
    PREFIX-slowdown-cdf.png and PREFIX-slowdown-by-size.png; returns their paths."""
    for d in outdirs:
        if not os.path.isfile(os.path.join(d, "flows.csv")):
            raise UsageError("plot: '%s' has no flows.csv (not a run's output directory)" % d)
    if labels is not None and len(labels) != len(outdirs):
        raise UsageError("plot: --labels gives %d names for %d directories"
                         % (len(labels), len(outdirs)))
    written = []
    for name in ("fct_cdf", "slowdown_cdf", "slowdown_by_size"):
        png = prefix + PLOTS[name][2][len("plot"):]
        written.append(draw(name, outdirs, png, title, labels, scale))
        # Drawn into a run's folder (the default prefix): listed in its README, so that
        # the next run into it clears the figure with the run's other files.
        folder, file = os.path.split(os.path.abspath(png))
        readme_add(folder, file, "%s of %s (./roce-lab plot, analysis/%s)"
                   % (PLOTS[name][3], ", ".join(outdirs), PLOTS[name][0]))
    return written


def after_run(config_path, outdir, prepared=False, source=None, edits=()):
    """After ./roce-lab run: draw CONFIG's "plots" into OUTDIR and list them (and
    input.json, when prepared from SOURCE, a file or None for a dict, with EDITS
    [(pointer, value)]) in OUTDIR/README. Returns an exit status."""
    names = plot_names(load_json(config_path), config_path)
    if prepared:
        readme_add(outdir, "input.json",
                   "the configuration as run: the source configuration with its "
                   "--set/--seed edits, its paths relative to the source's folder "
                   "(paths_relative_to; roce_lab prepare)",
                   provenance(source and os.path.abspath(source), edits, outdir))
    if not names:
        return 0
    if not have_matplotlib():
        log("plots: matplotlib is not installed for %s (Debian: apt-get install "
            "python3-matplotlib, or ./roce-lab plot %s, which installs it); the run's other "
            "outputs are complete" % (sys.executable, outdir))
        return 3
    for name in names:
        script, _, png, what = PLOTS[name]
        draw(name, [outdir], os.path.join(outdir, png))
        readme_add(outdir, png, "%s (plots: %s, analysis/%s)" % (what, name, script))
    return 0
