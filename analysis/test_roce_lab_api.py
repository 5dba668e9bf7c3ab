#!/usr/bin/python3
"""Tests of the roce_lab package from Python (the Python way in, sweeps,
"Plots", quiet builds): Experiment edits and runs, runs and sweeps as DataFrames, run
names by parameter value (a grid value added reruns nothing; old rNNNN- folders are
renamed, not rerun), the sweep README and run list, SLURM scripts (--time, the run list
they carry), a typo in "program", the figures' titles, legends and counts, and quiet
builds. unittest (pytest runs it as well: python3 -m pytest analysis/test_roce_lab_api.py);
run by ctest (analysis-python-api) with
ROCE_LAB_BUILD_DIR set to the build directory and ROCE_LAB_TEST_DIR to a scratch
directory."""

import contextlib
import io
import json
import numbers
import os
import shutil
import stat
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)  # what a user's notebook does: the documented line
import roce_lab  # noqa: E402
from roce_lab import sweep as sweeps  # noqa: E402

BUILD = os.environ.get("ROCE_LAB_BUILD_DIR", os.path.join(ROOT, "build"))
ROCE_RUN = os.path.join(BUILD, "bin", "roce-run")
WORK = os.environ.get("ROCE_LAB_TEST_DIR", "/tmp/roce-lab-test-api")
SMALL = os.path.join(ROOT, "configs", "dumbbell-small.json")
SMOKE = os.path.join(ROOT, "configs", "sweeps", "dumbbell-smoke.json")
HAVE_ROCE_RUN = os.access(ROCE_RUN, os.X_OK)
os.makedirs(WORK, exist_ok=True)  # here, not under __main__: pytest imports this file


def have(module):
    try:
        __import__(module)
        return True
    except ImportError:
        return False


HAVE_PANDAS = have("pandas")
HAVE_MATPLOTLIB = have("matplotlib")


def fresh(name):
    d = os.path.join(WORK, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def write_sweep(directory, name, spec):
    path = os.path.join(directory, name + ".json")
    with open(path, "w") as f:
        json.dump(spec, f)
    return path


def quietly(fn, *args, **kwargs):
    """fn(...) with its stderr (roce-lab's log lines) captured: (result, stderr text)."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        result = fn(*args, **kwargs)
    return result, err.getvalue()


def mtimes(out, names):
    return {n: os.stat(os.path.join(out, n, "summary.json")).st_mtime_ns for n in names}


class Import(unittest.TestCase):
    def test_command_line_runs_as_folder_and_module(self):
        for argv, env in [([sys.executable, os.path.join(HERE, "roce_lab"), "--help"], {}),
                          ([sys.executable, "-m", "roce_lab", "--help"], {"PYTHONPATH": HERE})]:
            r = subprocess.run(argv, capture_output=True, text=True, cwd=WORK,
                               env=dict(os.environ, **env))
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("slurm_time", r.stdout)  # the sweep format is in the help
            self.assertIn("run-dir", r.stdout)

    def test_public_names(self):
        for name in roce_lab.__all__:
            self.assertTrue(hasattr(roce_lab, name), name)


class Edits(unittest.TestCase):
    def test_set_get_and_errors(self):
        exp = roce_lab.Experiment(SMALL)
        self.assertIs(exp.set("/flows/0/bytes", 4096), exp)
        exp.seed = 7
        self.assertEqual(exp.get("/flows/0/bytes"), 4096)
        self.assertEqual(exp.seed, 7)
        self.assertEqual(exp.config["flows"][1]["bytes"], 100000)
        with self.assertRaises(roce_lab.UsageError) as ctx:
            exp.set("/flows/9/bytes", 1)
        self.assertIn("/flows/9", str(ctx.exception))
        self.assertIn("dumbbell-small.json", str(ctx.exception))
        self.assertEqual(len(exp.edits), 2)  # the bad edit was not kept
        with self.assertRaises(roce_lab.UsageError) as ctx:
            exp.get("/cc/nope")
        self.assertIn("/cc", str(ctx.exception))
        inline = roce_lab.Experiment({"seed": 1})
        with self.assertRaises(roce_lab.UsageError):
            inline.default_out()

    def test_configuration_errors_are_usage_errors(self):
        # Whatever is wrong with a configuration or an edit is a UsageError naming it,
        # raised where it is given (not a TypeError when the run writes input.json).
        exp = roce_lab.Experiment(SMALL)
        for bad, words in ((lambda: roce_lab.Experiment(42), "got int"),
                           (lambda: exp.set("/cc/type", object()), "/cc/type: <object"),
                           (lambda: exp.set("/cc", {1: "x"}), "key 1 is not a string"),
                           (lambda: exp.set("/seed", float("nan")), "/seed"),
                           (lambda: roce_lab.Experiment({"seed": {2}}), "/seed"),
                           (lambda: roce_lab.run_sweep({"base": SMALL}), "output directory"),
                           (lambda: roce_lab.run_sweep(["x"], out=WORK), "got list")):
            with self.assertRaises(roce_lab.UsageError) as ctx:
                bad()
            self.assertIn(words, str(ctx.exception))
        self.assertEqual(exp.edits, [])
        # Numbers of other types (numpy's, from a DataFrame) are JSON numbers.
        self.assertEqual(exp.set("/flows/0/bytes", FakeInt(4096)).get("/flows/0/bytes"), 4096)

    def test_missing_pandas_names_the_interpreter(self):
        from roce_lab import data
        saved = sys.modules.get("pandas")
        sys.modules["pandas"] = None  # import pandas then fails, as where it is missing
        try:
            with self.assertRaises(roce_lab.UsageError) as ctx:
                data._pandas()
        finally:
            if saved is None:
                del sys.modules["pandas"]
            else:
                sys.modules["pandas"] = saved
        self.assertIn(sys.executable, str(ctx.exception))
        self.assertIn("python3-pandas", str(ctx.exception))


class FakeInt:
    """An integer that is not a Python int (as numpy.int64 is not)."""

    def __init__(self, value):
        self.value = value

    def __int__(self):
        return self.value


numbers.Integral.register(FakeInt)


@unittest.skipUnless(HAVE_ROCE_RUN and HAVE_PANDAS, "needs roce-run and python3-pandas")
class ExperimentRuns(unittest.TestCase):
    def test_run_returns_dataframes(self):
        out = fresh("exp-run")
        exp = roce_lab.Experiment(SMALL).set("/flows/0/bytes", 20000)
        run = exp.run(out=out)
        self.assertIsInstance(run, roce_lab.Run)
        flows = run.flows
        self.assertEqual(len(flows), 3)
        self.assertEqual(int(flows.loc[0, "bytes"]), 20000)
        with open(os.path.join(out, "flows.csv")) as f:
            second = f.read().splitlines()[2].split(",")
        self.assertAlmostEqual(flows.loc[1, "fct_us"], float(second[6]), places=6)
        self.assertEqual(run.summary["finished"], 3)
        with open(os.path.join(out, "summary.json")) as f:
            self.assertEqual(run.summary["fct_us.p99"], json.load(f)["fct_us"]["p99"])
        self.assertTrue(str(run.summary["by_size.0-10KB.fct_us.mean"]) in ("None", "nan"))
        self.assertEqual(list(run.queues.columns), ["time_us", "node", "port", "class", "bytes"])
        self.assertEqual(len(run.pfc), 0)  # no PFC activity: a header, no rows
        self.assertIn("Smoke test", run.description)
        self.assertEqual(run.label, run.description)  # a property, as description
        with open(os.path.join(out, "input.json")) as f:
            self.assertEqual(json.load(f)["flows"][0]["bytes"], 20000)
        with self.assertRaises(roce_lab.UsageError) as ctx:
            run.csv("goodput")
        self.assertIn("flows.csv", str(ctx.exception))  # says what the run wrote

    @unittest.skipUnless(HAVE_MATPLOTLIB, "python3-matplotlib not installed")
    def test_readme_records_source_edits_and_plots(self):
        out = fresh("exp-readme")
        exp = roce_lab.Experiment(SMALL).set("/flows/0/bytes", 20000)
        exp.seed = 3
        exp.run(out=out)
        with open(os.path.join(out, "README")) as f:
            readme = f.read()
        self.assertIn("\n    source: %s\n" % SMALL, readme)
        self.assertIn("\n    edit: --set /flows/0/bytes=20000\n    edit: --seed 3\n", readme)
        self.assertIn("the same from the shell: ./roce-lab run %s --set /flows/0/bytes=20000 "
                      "--seed 3 --out %s\n" % (SMALL, out), readme)
        # ./roce-lab plot DIR draws into DIR: the figures are listed (once, however often
        # drawn), and the next run into DIR clears them with the run's other files.
        for _ in range(2):
            pngs = roce_lab.plot_runs([out], os.path.join(out, "plot"))
        with open(os.path.join(out, "README")) as f:
            readme = f.read()
        for png in pngs:
            self.assertEqual(readme.count("\n%s: " % os.path.basename(png)), 1, png)
        roce_lab.Experiment(SMALL).run(out=out)
        for png in pngs:
            self.assertFalse(os.path.exists(png), png)
        # The command line's after-run records the same from ./roce-lab run's arguments.
        other = fresh("exp-readme-cli")
        input_json = roce_lab.config.prepare(roce_lab.load_json(SMALL), os.path.dirname(SMALL),
                                             [("/seed", 2)], other, "test")
        subprocess.run([ROCE_RUN, input_json, "--out", other], check=True, capture_output=True)
        self.assertEqual(roce_lab.main(["after-run", input_json, other, "--prepared", "--source",
                                        SMALL, "--set", "/cc/type=ns3::RdmaDctcp", "--seed",
                                        "2"]), 0)
        with open(os.path.join(other, "README")) as f:
            readme = f.read()
        self.assertIn("    edit: --set /cc/type=\"ns3::RdmaDctcp\"\n    edit: --seed 2\n", readme)

    def test_failed_run_names_the_pointer(self):
        exp = roce_lab.Experiment(SMALL).set("/cc/NoSuchKnob", 1)
        with self.assertRaises(roce_lab.RunError) as ctx:
            exp.run(out=fresh("exp-bad"))
        self.assertEqual(ctx.exception.returncode, 2)
        self.assertIn("/cc", str(ctx.exception))

    def test_not_a_run(self):
        with self.assertRaises(roce_lab.UsageError) as ctx:
            roce_lab.load_run(fresh("not-a-run"))
        self.assertIn("no summary.json", str(ctx.exception))


def two_point_sweep(directory, values, **extra):
    spec = {"description": "two first-flow sizes", "base": SMALL,
            "set": {"/monitors/rate_interval": None}, "grid": {"/flows/0/bytes": values},
            "seeds": [1], "out": os.path.join(directory, "out")}
    spec.update(extra)
    return write_sweep(directory, "sizes", spec)


class Names(unittest.TestCase):
    def test_names_by_value(self):
        keys = sweeps.short_keys(["/flows/0/bytes", "/flows/1/bytes", "/cc/type"], "t")
        self.assertEqual(keys, ["0.bytes", "1.bytes", "type"])
        self.assertEqual(sweeps.run_name(["type"], [("/cc/type", "ns3::RdmaDctcp")], 3),
                         "type=RdmaDctcp-s3")
        self.assertEqual(sweeps.run_name([], [], None), "base")
        # Values that are not folder-name text get a stable hash of the parameters.
        odd = sweeps.run_name(["hosts"], [("/cc_hosts", [{"type": "ns3::X"}])], 1)
        self.assertRegex(odd, r"^hosts=.*-h[0-9a-f]{10}$")
        self.assertEqual(odd, sweeps.run_name(["hosts"], [("/cc_hosts", [{"type": "ns3::X"}])],
                                              1))
        self.assertNotEqual(odd, sweeps.run_name(["hosts"], [("/cc_hosts", [{"type": "ns3:X"}])],
                                                 1))
        long_name = sweeps.run_name(["k"], [("/k", "x" * 200)], None)
        self.assertLessEqual(len(long_name), 120)

    def test_inserting_a_value_keeps_the_other_names(self):
        d = fresh("names-insert")
        before = roce_lab.Sweep(two_point_sweep(d, [20000, 200000]))
        after = roce_lab.Sweep(two_point_sweep(d, [20000, 100000, 200000]))
        self.assertEqual([r["name"] for r in before.runs],
                         ["bytes=20000-s1", "bytes=200000-s1"])
        self.assertTrue({r["name"] for r in before.runs} <= {r["name"] for r in after.runs})

    def test_colliding_names_are_an_error(self):
        d = fresh("names-collide")
        path = write_sweep(d, "c", {"base": SMALL,
                                    "grid": {"/cc/type": ["ns3::RdmaDcqcn", "RdmaDcqcn"]}})
        with self.assertRaises(roce_lab.UsageError) as ctx:
            roce_lab.Sweep(path)
        self.assertIn("/grid", str(ctx.exception))

    def test_slurm_time_field(self):
        d = fresh("names-time")
        self.assertEqual(roce_lab.Sweep(two_point_sweep(d, [1], slurm_time=30)).slurm_time, "30")
        for bad in ("soon", "1:2:3:4", True):
            with self.assertRaises(roce_lab.UsageError) as ctx:
                roce_lab.Sweep(two_point_sweep(d, [1], slurm_time=bad))
            self.assertIn("/slurm_time", str(ctx.exception))


@unittest.skipUnless(HAVE_ROCE_RUN, "roce-run not built: " + ROCE_RUN)
class Sweeps(unittest.TestCase):
    def run_cli(self, *argv):
        return quietly(roce_lab.main, list(argv))

    def test_added_value_reruns_nothing_readme_and_manifest(self):
        d = fresh("sweep-insert")
        path = two_point_sweep(d, [20000, 200000])
        out = os.path.join(d, "out")
        rc, _ = self.run_cli("sweep", path, "--roce-run", ROCE_RUN)
        self.assertEqual(rc, 0)
        done = mtimes(out, ["bytes=20000-s1", "bytes=200000-s1"])
        path = two_point_sweep(d, [20000, 100000, 200000])
        rc, log = self.run_cli("sweep", path, "--roce-run", ROCE_RUN)
        self.assertEqual(rc, 0)
        self.assertIn("3 runs, 2 complete, 1 to run", log)
        self.assertEqual(mtimes(out, list(done)), done)
        folders = sorted(n for n in os.listdir(out) if os.path.isdir(os.path.join(out, n)))
        self.assertEqual(folders, ["bytes=100000-s1", "bytes=20000-s1", "bytes=200000-s1"])
        with open(os.path.join(out, "README")) as f:
            readme = f.read()
        self.assertIn("two first-flow sizes", readme)
        self.assertIn("command: ./roce-lab sweep %s --out %s" % (path, out), readme)
        self.assertIn("/flows/0/bytes: 20000, 100000, 200000", readme)
        self.assertIn("/monitors/rate_interval = null", readme)
        self.assertRegex(readme, r"\n  bytes=100000-s1 +done\n")
        with open(os.path.join(out, "runs.json")) as f:
            manifest = json.load(f)
        self.assertEqual([r["name"] for r in manifest["runs"]],
                         ["bytes=20000-s1", "bytes=100000-s1", "bytes=200000-s1"])
        with open(os.path.join(out, "bytes=100000-s1", "sweep-run.json")) as f:
            record = json.load(f)
        self.assertEqual(record["exit_status"], 0)
        self.assertGreaterEqual(record["wall_s"], 0)

    def test_old_style_folder_is_renamed_not_rerun(self):
        d = fresh("sweep-migrate")
        path = two_point_sweep(d, [20000, 200000])
        out = os.path.join(d, "out")
        self.assertEqual(self.run_cli("sweep", path, "--roce-run", ROCE_RUN)[0], 0)
        # What an earlier version left: rNNNN- names, a table, no runs.json or README.
        os.rename(os.path.join(out, "bytes=20000-s1"), os.path.join(out, "r0000-bytes=20000-s1"))
        os.rename(os.path.join(out, "bytes=200000-s1"),
                  os.path.join(out, "r0001-bytes=200000-s1"))
        shutil.copytree(os.path.join(out, "r0001-bytes=200000-s1"),
                        os.path.join(out, "r0002-bytes=7-s1"))
        with open(os.path.join(out, "r0002-bytes=7-s1", "input.json"), "a") as f:
            f.write(" ")  # an input that is no run of the sweep now
        for name in ("runs.json", "README"):
            os.remove(os.path.join(out, name))
        with open(os.path.join(out, "table.csv")) as f:
            table = f.read()
        with open(os.path.join(out, "table.csv"), "w") as f:
            f.write(table.replace("bytes=20000-s1", "r0000-bytes=20000-s1")
                    .replace("\nbytes=200000-s1", "\nr0001-bytes=200000-s1"))
        if HAVE_PANDAS:  # an old folder still reads
            old = roce_lab.load_sweep(out)
            self.assertEqual(list(old.summary["run"]), ["r0000-bytes=20000-s1",
                                                        "r0001-bytes=200000-s1"])
            self.assertEqual(old.params, ["/flows/0/bytes"])
            self.assertEqual(len(old.flows), 6)
        with self.assertRaises(roce_lab.UsageError) as ctx:
            roce_lab.SweepRuns(out)
        self.assertIn("earlier roce-lab", str(ctx.exception))
        before = {n: os.stat(os.path.join(out, "r000%d-bytes=%s-s1" % (i, v), "summary.json"))
                  .st_mtime_ns for i, (n, v) in enumerate([("bytes=20000-s1", 20000),
                                                          ("bytes=200000-s1", 200000)])}
        rc, log = self.run_cli("sweep", path, "--roce-run", ROCE_RUN)
        self.assertEqual(rc, 0)
        self.assertIn("2 complete runs named the old way", log)
        self.assertIn("r0002-bytes=7-s1", log)  # left in place, and said so
        self.assertIn("2 runs, 2 complete, 0 to run", log)
        self.assertEqual(mtimes(out, list(before)), before)
        self.assertTrue(os.path.isdir(os.path.join(out, "r0002-bytes=7-s1")))

    @unittest.skipUnless(HAVE_PANDAS, "python3-pandas not installed")
    def test_run_sweep_and_load_sweep(self):
        out = os.path.join(fresh("sweep-api"), "smoke")
        data = roce_lab.run_sweep(SMOKE, jobs=2, out=out)
        self.assertIsInstance(data, roce_lab.SweepData)
        self.assertEqual(len(data.summary), 8)
        self.assertTrue((data.summary["status"] == "done").all())
        self.assertEqual(data.params, ["/flows/0/bytes", "/cc/type"])
        flows = data.flows
        self.assertEqual(len(flows), 24)
        self.assertEqual(list(flows.columns[:4]), ["run", "seed", "/flows/0/bytes", "/cc/type"])
        name = "bytes=200000-type=RdmaDcqcn-s2"
        run = data.runs[name]
        self.assertEqual(data.summary.loc[name, "fct_us.mean"], run.summary["fct_us.mean"])
        self.assertEqual(len(flows[flows["run"] == name]), 3)
        self.assertEqual(set(flows[flows["run"] == name]["/flows/0/bytes"]), {200000})
        # The sweep file names its output directory: load_sweep reads it either way.
        again = roce_lab.load_sweep(SMOKE, out=out)
        self.assertEqual(list(again.summary["run"]), list(data.summary["run"]))

    @unittest.skipUnless(HAVE_ROCE_RUN and HAVE_PANDAS, "needs roce-run and python3-pandas")
    def test_run_sweep_from_a_dict(self):
        d = fresh("sweep-dict")
        out = os.path.join(d, "out")
        spec = {"base": os.path.relpath(SMALL, d), "set": {"/monitors/rate_interval": None},
                "grid": {"/flows/0/bytes": [20000, 200000]}}
        here = os.getcwd()
        os.chdir(d)  # the base is relative to the current directory
        try:
            data = roce_lab.run_sweep(spec, out=out)
        finally:
            os.chdir(here)
        self.assertEqual(list(data.summary["/flows/0/bytes"]), [20000, 200000])
        self.assertTrue((data.summary["status"] == "done").all())
        written = os.path.join(out, "sweep.json")
        self.assertEqual(roce_lab.load_json(written)["base"], SMALL)
        with open(os.path.join(out, "README")) as f:
            self.assertIn("sweep.json: the sweep as given to run_sweep", f.read())
        # The written file resumes it: nothing is rerun.
        again = roce_lab.run_sweep(written)
        self.assertEqual(list(again.summary["run"]), list(data.summary["run"]))

    def test_program_typo_is_one_line(self):
        d = fresh("sweep-typo")
        path = two_point_sweep(d, [20000], program="dcqcn-regionl")
        env = dict(os.environ, ROCE_LAB_NO_BUILD="1", ROCE_LAB_BUILD_DIR=BUILD)
        r = subprocess.run([os.path.join(ROOT, "roce-lab"), "sweep", path], capture_output=True,
                           text=True, env=env, cwd=d)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertNotIn("Traceback", r.stderr)
        lines = r.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, r.stderr)
        self.assertIn(path + ": /program: no program \"dcqcn-regionl\"", lines[0])
        self.assertIn("dcqcn-regional", lines[0])  # what is there


@unittest.skipUnless(HAVE_ROCE_RUN, "roce-run not built: " + ROCE_RUN)
class Slurm(unittest.TestCase):
    def scripts(self, path, *options):
        rc, log = quietly(roce_lab.main, ["slurm", path, "--roce-run", ROCE_RUN, "--no-submit"]
                          + ["--sbatch-option=" + o for o in options])
        self.assertEqual(rc, 0, log)
        out = roce_lab.Sweep(path).out
        with open(os.path.join(out, "slurm", "array.sbatch")) as f:
            return f.read(), log, out

    def test_time_from_field_measure_or_option(self):
        d = fresh("slurm-time")
        text, _, _ = self.scripts(two_point_sweep(d, [20000, 200000], slurm_time="00:05:00"))
        self.assertIn("#SBATCH --time=00:05:00\n", text)
        text, _, _ = self.scripts(two_point_sweep(d, [20000, 200000], slurm_time="00:05:00"),
                                  "--time=9")
        self.assertIn("#SBATCH --time=9\n", text)
        self.assertNotIn("00:05:00", text)
        path = two_point_sweep(d, [20000, 200000])
        text, log, out = self.scripts(path)
        self.assertNotIn("--time", text)
        self.assertIn("slurm_time", log)  # says how to set one
        # One run done locally: its wall time gives the estimate (twice it, >= 1 min),
        # and the array holds only the run still to do.
        quietly(roce_lab.main, ["run-index", path, "0", "--roce-run", ROCE_RUN])
        text, log, _ = self.scripts(path)
        self.assertIn("#SBATCH --time=00:01:00\n", text)
        self.assertIn("#SBATCH --array=0-0\n", text)
        self.assertIn("  0) run=bytes=200000-s1 ;;\n", text)
        self.assertNotIn("bytes=20000-s1", text)

    def test_tasks_and_gather_read_the_run_list_not_the_sweep_file(self):
        d = fresh("slurm-list")
        path = two_point_sweep(d, [20000, 200000])
        text, _, out = self.scripts(path)
        os.remove(path)  # the scripts do not need it any more
        array = os.path.join(out, "slurm", "array.sbatch")
        for task in ("0", "1"):
            r = subprocess.run(["sh", array], env=dict(os.environ, SLURM_ARRAY_TASK_ID=task),
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
        r = subprocess.run(["sh", array], env=dict(os.environ, SLURM_ARRAY_TASK_ID="2"),
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        r = subprocess.run(["sh", os.path.join(out, "slurm", "gather.sbatch")],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(out, "table.csv")) as f:
            rows = f.read().splitlines()
        self.assertEqual([row.split(",")[:2] for row in rows[1:]],
                         [["bytes=20000-s1", "done"], ["bytes=200000-s1", "done"]])


@unittest.skipUnless(HAVE_MATPLOTLIB, "matplotlib is not installed")
class Figures(unittest.TestCase):
    def run_dirs(self):
        d = fresh("figures")
        header = ("id,src,dst,bytes,start_us,finish_us,fct_us,ideal_fct_us,slowdown,"
                  "retransmitted_packets,verb,priority\n")
        dirs = []
        for k, description in enumerate(["DCQCN, ECN at 5KB", "no congestion control"]):
            run = os.path.join(d, "r%04d-x" % k)
            os.makedirs(run)
            rows = [header]
            for i in range(40):
                size = [1000, 50000, 500000][i % 3]
                slowdown = 1.0 + (i % 7) * (k + 1)
                fct = "" if i == 39 else "%.3f" % (10 * slowdown)
                rows.append("%d,h0,h1,%d,0,%s,%s,10,%s,0,write,3\n"
                            % (i, size, fct, fct, "%.3f" % slowdown if fct else ""))
            with open(os.path.join(run, "flows.csv"), "w") as f:
                f.write("".join(rows))
            with open(os.path.join(run, "config.json"), "w") as f:
                json.dump({"description": description}, f)
            dirs.append(run)
        return dirs

    def test_titles_legends_counts_and_scale(self):
        import matplotlib
        matplotlib.use("Agg")
        from roce_lab import fct_cdf
        from roce_lab import slowdown_by_size
        dirs = self.run_dirs()
        fig = fct_cdf.figure(dirs)
        ax = fig.axes[0]
        legend = [t.get_text() for t in ax.get_legend().get_texts()]
        self.assertEqual(legend[0], "DCQCN, ECN at 5KB (1 of 40 flows unfinished, not shown)")
        self.assertEqual(ax.get_title(), "Flow completion time CDF")
        self.assertEqual(ax.get_xlabel(), "flow completion time (µs)")
        self.assertEqual(ax.get_xscale(), "log")
        fig = fct_cdf.figure(dirs, slowdown=True, title="T", labels=["a", "b"], scale="linear")
        ax = fig.axes[0]
        self.assertEqual(ax.get_title(), "T")
        self.assertEqual(ax.get_xscale(), "linear")
        self.assertTrue(ax.get_legend().get_texts()[1].get_text().startswith("b ("))
        fig = slowdown_by_size.figure(dirs)
        ax = fig.axes[0]
        texts = [t.get_text() for t in ax.texts]
        # 40 flows: 14 of 1000 B, 13 of 50 KB, 13 of 500 KB; flow 39 (1000 B) unfinished.
        self.assertIn("n=13\n+1 unfin.", texts)
        self.assertEqual(texts.count("n=13"), 4)  # 10KB-100KB and 100KB-1MB of both runs
        self.assertIn("n=0", texts)
        self.assertEqual(ax.get_yscale(), "log")
        self.assertEqual(ax.get_ylabel(), "slowdown (FCT / ideal FCT)")
        self.assertEqual(len(ax.patches), 6)  # a box for each bucket with flows, each run
        self.assertIn("no congestion control", [t.get_text() for t in
                                                ax.get_legend().get_texts()][1])
        self.assertEqual(slowdown_by_size.figure(dirs, scale="linear").axes[0].get_yscale(),
                         "linear")

    def test_figure_from_python(self):
        dirs = self.run_dirs()
        fig = roce_lab.figure("slowdown_cdf", dirs, labels=["x", "y"])
        self.assertEqual(fig.axes[0].get_title(), "Slowdown CDF")
        with self.assertRaises(roce_lab.UsageError):
            roce_lab.figure("fct-cdf", dirs)

    def test_same_description_is_told_apart(self):
        from roce_lab import labels as run_labels
        dirs = self.run_dirs()
        with open(os.path.join(dirs[1], "config.json"), "w") as f:
            json.dump({"description": "DCQCN, ECN at 5KB"}, f)
        # All alike (a sweep's runs): named by their folders, the description in the title.
        self.assertEqual(run_labels.named(dirs), (["r0000-x", "r0001-x"], "DCQCN, ECN at 5KB"))
        from roce_lab import fct_cdf
        self.assertEqual(fct_cdf.figure(dirs).axes[0].get_title(),
                         "Flow completion time CDF\nDCQCN, ECN at 5KB")
        # Some alike: those names end in their folder.
        third = os.path.join(os.path.dirname(dirs[0]), "third")
        shutil.copytree(dirs[0], third)
        with open(os.path.join(third, "config.json"), "w") as f:
            json.dump({"description": "lossy"}, f)
        self.assertEqual(run_labels.labels(dirs + [third]),
                         ["DCQCN, ECN at 5KB [r0000-x]", "DCQCN, ECN at 5KB [r0001-x]", "lossy"])

    def test_roce_lab_plot_options(self):
        dirs = self.run_dirs()
        prefix = os.path.join(os.path.dirname(dirs[0]), "cmp")
        env = dict(os.environ, PATH="/usr/bin:" + os.environ.get("PATH", ""))
        r = subprocess.run([os.path.join(ROOT, "roce-lab"), "plot", *dirs, "-o", prefix,
                            "--title", "ECN or not", "--labels", "ecn,none", "--scale",
                            "linear"], capture_output=True, text=True, env=env)
        self.assertEqual(r.returncode, 0, r.stderr)
        for suffix in ("-fct-cdf.png", "-slowdown-cdf.png", "-slowdown-by-size.png"):
            self.assertGreater(os.path.getsize(prefix + suffix), 10000, suffix)
        r = subprocess.run([os.path.join(ROOT, "roce-lab"), "plot", *dirs, "--labels", "one"],
                           capture_output=True, text=True, env=env)
        self.assertEqual(r.returncode, 2)
        self.assertIn("--labels gives 1 names for 2 directories", r.stderr)
        self.assertNotIn("Traceback", r.stderr)


class QuietBuild(unittest.TestCase):
    """./roce-lab's build output, with a stand-in cmake that prints what a build prints."""

    def fake(self, rc):
        d = fresh("quiet-build-%d" % rc)
        os.makedirs(os.path.join(d, "bin"))
        os.makedirs(os.path.join(d, "build"))
        open(os.path.join(d, "build", "CMakeCache.txt"), "w").close()
        cmake = os.path.join(d, "bin", "cmake")
        with open(cmake, "w") as f:
            f.write("#!/bin/sh\n"
                    "for i in 1 2 3 4 5; do echo \"[ $((i * 4))%] Built target lib$i\"; done\n"
                    "echo 'Consolidate compiler generated dependencies of target x'\n"
                    "echo '[ 40%] Building CXX object x.cc.o'\n"
                    "echo 'x.cc:3:1: error: expected something' >&2\n"
                    "echo '[100%] Built target roce-run'\n"
                    + "exit %d\n" % rc)
        os.chmod(cmake, os.stat(cmake).st_mode | stat.S_IEXEC)
        env = dict(os.environ, PATH=os.path.join(d, "bin") + ":" + os.environ["PATH"],
                   ROCE_LAB_BUILD_DIR=os.path.join(d, "build"))
        env.pop("ROCE_LAB_VERBOSE", None)
        env.pop("ROCE_LAB_NO_BUILD", None)
        return env

    def build(self, env, *args):
        return subprocess.run([os.path.join(ROOT, "roce-lab"), *args], capture_output=True,
                              text=True, env=env, timeout=120)

    def test_quiet_unless_asked(self):
        env = self.fake(0)
        r = self.build(env, "build")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertNotIn("Built target", r.stdout + r.stderr)
        self.assertNotIn("Consolidate", r.stderr)
        self.assertIn("Building CXX object x.cc.o", r.stderr)  # work done is shown
        self.assertIn("error: expected something", r.stderr)
        for verbose in (["-v", "build"], ["build", "-v"]):
            r = self.build(env, *verbose)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(r.stderr.count("Built target"), 6, r.stderr)
        r = self.build(dict(env, ROCE_LAB_VERBOSE="1"), "build")
        self.assertEqual(r.stderr.count("Built target"), 6)

    def test_a_failed_build_fails_with_its_errors(self):
        env = self.fake(1)
        r = self.build(env, "build")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("x.cc:3:1: error: expected something", r.stderr)
        r = self.build(env, "run", SMALL)
        self.assertNotEqual(r.returncode, 0)  # a run does not go on after a failed build


if __name__ == "__main__":
    unittest.main(verbosity=2)
