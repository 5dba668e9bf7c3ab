#!/usr/bin/python3
"""Tests of the roce_lab package's command line (analysis/roce_lab): --set edits, sweep expansion, resume and the gathered
table; roce-run's output directory (README, config.json, plots) and progress lines. Run
by ctest (scratch-sweep) with ROCE_RUN set to the roce-run binary and ROCE_LAB_TEST_DIR
to a scratch directory."""

import csv
import json
import os
import re
import shutil
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import roce_lab  # noqa: E402

ROCE_RUN = os.environ.get("ROCE_RUN", os.path.join(ROOT, "build", "bin", "roce-run"))
WORK = os.environ.get("ROCE_LAB_TEST_DIR", "/tmp/roce-lab-test-sweep")
SMOKE = os.path.join(ROOT, "configs", "sweeps", "dumbbell-smoke.json")


def write_files(root, name, files):
    """A fresh folder root/name holding files ({file name: text}); returns its path."""
    out = os.path.join(root, name)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    for file, text in files.items():
        with open(os.path.join(out, file), "w") as f:
            f.write(text)
    return out


def write_sweep(name, spec):
    os.makedirs(WORK, exist_ok=True)
    path = os.path.join(WORK, name + ".json")
    with open(path, "w") as f:
        json.dump(spec, f)
    return path


class SetPointer(unittest.TestCase):
    def test_edits(self):
        doc = {"flows": [{"bytes": 1}], "seed": 1}
        roce_lab.set_pointer(doc, "/flows/0/bytes", 5, "t")
        roce_lab.set_pointer(doc, "/cc/type", "ns3::RdmaDctcp", "t")  # creates /cc
        roce_lab.set_pointer(doc, "/flows/-", {"bytes": 2}, "t")
        roce_lab.set_pointer(doc, "/a~1b", 1, "t")
        self.assertEqual(doc["flows"], [{"bytes": 5}, {"bytes": 2}])
        self.assertEqual(doc["cc"], {"type": "ns3::RdmaDctcp"})
        self.assertEqual(doc["a/b"], 1)

    def test_errors_name_the_pointer(self):
        doc = {"flows": [{"bytes": 1}], "seed": 1}
        for pointer, text in [("/flows/3/bytes", "/flows/3"), ("/seed/x", "/seed"),
                              ("flows", "must start with '/'"), ("/flows/01", "/flows/01")]:
            with self.assertRaises(roce_lab.UsageError) as ctx:
                roce_lab.set_pointer(doc, pointer, 1, "cfg.json")
            self.assertIn(text, str(ctx.exception))
            self.assertIn("cfg.json", str(ctx.exception))

    def test_values(self):
        self.assertEqual(roce_lab.parse_value("3"), 3)
        self.assertEqual(roce_lab.parse_value("0.5"), 0.5)
        self.assertEqual(roce_lab.parse_value("true"), True)
        self.assertEqual(roce_lab.parse_value("5KB"), "5KB")
        self.assertEqual(roce_lab.parse_value('"7"'), "7")

    def test_prepare_anchors_paths_at_the_config(self):
        # input.json keeps the paths as written and names the configuration's folder in
        # "paths_relative_to", against which roce-run resolves every path field.
        config = os.path.join(ROOT, "configs", "poisson-small.json")
        out = os.path.join(WORK, "prepare")
        shutil.rmtree(out, ignore_errors=True)
        self.assertEqual(roce_lab.main(["prepare", config, out, "--set", "/workload/load=0.3",
                                        "--seed", "9"]), 0)
        with open(os.path.join(out, "input.json")) as f:
            eff = json.load(f)
        self.assertEqual(list(eff)[0], roce_lab.PATHS_KEY)
        self.assertEqual(eff[roce_lab.PATHS_KEY], os.path.join(ROOT, "configs"))
        self.assertEqual(eff["seed"], 9)
        self.assertEqual(eff["workload"]["load"], 0.3)
        with open(config) as f:
            self.assertEqual(eff["workload"]["cdf"], json.load(f)["workload"]["cdf"])
        self.assertEqual(roce_lab.main(["prepare", config, out, "--set", "/x/3=1"]), 0)
        self.assertEqual(roce_lab.main(["prepare", config, out, "--set", "/seed/3=1"]), 2)
        # A "paths_relative_to" given is itself relative to the configuration.
        self.assertEqual(roce_lab.anchor_paths({"paths_relative_to": "../t", "seed": 1},
                                               "/a/b"),
                         {"paths_relative_to": "/a/t", "seed": 1})

    @unittest.skipUnless(os.access(ROCE_RUN, os.X_OK), "roce-run not built: " + ROCE_RUN)
    def test_every_shipped_config_checks_under_seed_2(self):
        # --set, --seed and sweeps once broke the relative paths the table
        # of path fields lacked (NIC profiles by name, host-model files, lists of
        # config_db files): nodes-composition.json and composite-64.json failed under
        # --seed 2. Every shipped experiment now checks (roce-run --check) after --seed 2,
        # and its edited copy builds the same nodes, flows and faults as the original.
        configs = os.path.join(ROOT, "configs")
        names = sorted(n for n in os.listdir(configs) if n.endswith(".json")
                       and not reads_outside_the_repository(os.path.join(configs, n)))
        self.assertIn("composite-64.json", names)
        for name in names:
            with self.subTest(config=name):
                config = os.path.join(configs, name)
                out = os.path.join(WORK, "seed2", os.path.splitext(name)[0])
                shutil.rmtree(out, ignore_errors=True)
                self.assertEqual(roce_lab.main(["prepare", config, out, "--seed", "2"]), 0)
                edited = os.path.join(out, "input.json")
                r = subprocess.run([ROCE_RUN, "--check", edited, "--out", out],
                                   capture_output=True, text=True, timeout=300)
                if r.returncode != 0:  # only where the original is refused the same way
                    orig = subprocess.run([ROCE_RUN, "--check", config, "--out", out],
                                          capture_output=True, text=True, timeout=300)
                    self.assertNotEqual(orig.returncode, 0, r.stderr)
                    self.assertEqual(r.stderr.replace(edited, config), orig.stderr)
        for name in ("nodes-composition.json", "composite-64.json",
                     "leaf-spine-buffer-roles.json"):
            config = os.path.join(configs, name)
            out = os.path.join(WORK, "same-" + name)
            shutil.rmtree(out, ignore_errors=True)
            self.assertEqual(roce_lab.main(["prepare", config, out]), 0)
            reports = []
            for path in (config, os.path.join(out, "input.json")):
                r = subprocess.run([ROCE_RUN, "--check", path, "--out", out],
                                   capture_output=True, text=True, timeout=300)
                self.assertEqual(r.returncode, 0, r.stderr)
                reports.append([l for l in r.stdout.splitlines()
                                if not l.startswith(("check: ", "outputs: "))])
            self.assertEqual(reports[0], reports[1], name)
            if name != "leaf-spine-buffer-roles.json":
                self.assertTrue(any(l.startswith("  NIC profiles: ") for l in reports[0]),
                                reports[0])


class StrictJson(unittest.TestCase):
    """Python once read duplicate keys (the last won), NaN and Infinity
    (then written into input.json, where roce-run refused them naming input.json). Both
    readers now refuse them, naming the user's file and the pointer."""

    def write(self, name, text):
        os.makedirs(WORK, exist_ok=True)
        path = os.path.join(WORK, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def small_text(self):
        with open(os.path.join(ROOT, "configs", "dumbbell-small.json")) as f:
            return f.read()

    def test_duplicate_keys_are_refused_by_both_readers(self):
        text = self.small_text().replace('"bytes":', '"bytes": 5, "bytes":', 1)
        self.assertNotEqual(text, self.small_text())
        path = self.write("dup-key.json", text)
        with self.assertRaises(roce_lab.UsageError) as ctx:
            roce_lab.load_json(path)
        self.assertIn(path + ": /flows/0/bytes: duplicate key \"bytes\"", str(ctx.exception))
        out = os.path.join(WORK, "dup-key")
        shutil.rmtree(out, ignore_errors=True)
        self.assertEqual(roce_lab.main(["prepare", path, out, "--seed", "2"]), 2)
        self.assertFalse(os.path.exists(os.path.join(out, "input.json")))
        with self.assertRaises(roce_lab.UsageError):
            roce_lab.Experiment(path)
        if os.access(ROCE_RUN, os.X_OK):
            r = subprocess.run([ROCE_RUN, path, "--out", out], capture_output=True, text=True)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn(path + ": /flows/0/bytes: duplicate key \"bytes\"", r.stderr)

    def test_nan_and_infinity_name_the_users_file(self):
        for token, pointer in [("NaN", "/seed"), ("Infinity", "/seed"), ("-Infinity", "/seed"),
                               ("1e400", "/seed")]:
            text = self.small_text().replace("{", '{"seed": %s, ' % token, 1)
            path = self.write("nan.json", text)
            with self.assertRaises(roce_lab.UsageError) as ctx:
                roce_lab.load_json(path)
            self.assertTrue(str(ctx.exception).startswith(path + ": " + pointer + ": "),
                            str(ctx.exception))
            self.assertNotIn("input.json", str(ctx.exception))
        for value in ("NaN", "Infinity", "1e999"):
            with self.assertRaises(roce_lab.UsageError) as ctx:
                roce_lab.parse_sets(["/seed=" + value], None)
            self.assertIn("--set /seed=" + value, str(ctx.exception))
        with self.assertRaises(roce_lab.UsageError):
            roce_lab.Experiment(os.path.join(ROOT, "configs",
                                             "dumbbell-small.json")).set("/x", float("nan"))

    def test_sweep_with_a_duplicate_key(self):
        base = os.path.join(ROOT, "configs", "dumbbell-small.json")
        path = self.write("dup-sweep.json", '{"base": "%s", "seeds": [1], "seeds": [2]}' % base)
        with self.assertRaises(roce_lab.UsageError) as ctx:
            roce_lab.Sweep(path)
        self.assertIn(path + ": /seeds: duplicate key", str(ctx.exception))

    def test_sweep_with_an_empty_pointer(self):
        # The pointer "" (the whole document) in a grid gave a traceback.
        base = os.path.join(ROOT, "configs", "dumbbell-small.json")
        for key in ("grid", "set"):
            spec = {"base": base, key: {"": [1] if key == "grid" else 1}}
            path = write_sweep("empty-pointer-" + key, spec)
            with self.assertRaises(roce_lab.UsageError) as ctx:
                roce_lab.Sweep(path)
            self.assertIn(path + ": /%s/: expected the JSON pointer of a field" % key,
                          str(ctx.exception))
            r = subprocess.run([sys.executable, os.path.join(HERE, "roce_lab"), "expand", path],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertNotIn("Traceback", r.stderr)


def reads_outside_the_repository(config):
    """True if a relative path in the experiment file CONFIG leads out of the repository
    (the benchmark inputs some configurations read from a folder beside it)."""
    def strings(node):
        if isinstance(node, dict):
            for v in node.values():
                yield from strings(v)
        elif isinstance(node, list):
            for v in node:
                yield from strings(v)
        elif isinstance(node, str):
            yield node
    with open(config) as f:
        doc = json.load(f)
    here = os.path.dirname(config)
    return any(s.startswith("..") and not os.path.normpath(os.path.join(here, s)).startswith(ROOT)
               for s in strings(doc))


class Expansion(unittest.TestCase):
    def test_grid_seeds_names(self):
        sweep = roce_lab.Sweep(SMOKE, os.path.join(WORK, "expand"))
        self.assertEqual(len(sweep.runs), 8)
        names = [r["name"] for r in sweep.runs]
        self.assertEqual(names[0], "bytes=20000-type=RdmaDcqcn-s1")
        self.assertEqual(names[7], "bytes=200000-type=RdmaNoCongestionControl-s2")
        self.assertEqual(len(set(names)), 8)
        # First grid key outermost, seeds innermost.
        self.assertEqual([r["seed"] for r in sweep.runs], [1, 2] * 4)
        self.assertEqual([r["config"]["flows"][0]["bytes"] for r in sweep.runs],
                         [20000] * 4 + [200000] * 4)
        self.assertEqual(sweep.runs[2]["config"]["cc"]["type"], "ns3::RdmaNoCongestionControl")
        self.assertIsNone(sweep.runs[0]["config"]["monitors"]["queue_interval"])
        # Deterministic: a second expansion is identical.
        again = roce_lab.Sweep(SMOKE, os.path.join(WORK, "expand"))
        self.assertEqual([r["config"] for r in again.runs], [r["config"] for r in sweep.runs])

    def test_repetitions_and_errors(self):
        base = os.path.join(ROOT, "configs", "dumbbell-small.json")
        path = write_sweep("reps", {"base": base, "repetitions": 3})
        sweep = roce_lab.Sweep(path)
        self.assertEqual([r["name"] for r in sweep.runs], ["s1", "s2", "s3"])
        for spec, text in [({"base": base, "grid": {"/seed": []}}, "/grid/~1seed"),
                           ({"base": base, "grid": {"/flows/9/bytes": [1]}}, "/flows/9"),
                           ({"base": base, "seeds": [0]}, "/seeds"),
                           ({"base": base, "repetitions": 2, "seeds": [1]}, "not both"),
                           ({"base": base, "gird": {}}, "/gird"),
                           ({"base": base, "program": "../bin/x"}, "/program"),
                           ({"base": base, "args": "--warmup=1ms"}, "/args"),
                           ({}, "/base")]:
            with self.assertRaises(roce_lab.UsageError) as ctx:
                roce_lab.Sweep(write_sweep("bad", spec))
            self.assertIn(text, str(ctx.exception))


def python_with_matplotlib():
    """An interpreter that can draw: Debian's (python3-matplotlib) or this one."""
    for exe in ("/usr/bin/python3", sys.executable):
        if os.access(exe, os.X_OK) and subprocess.run(
                [exe, "-c", "import matplotlib"], capture_output=True).returncode == 0:
            return exe
    return None


class FigureScripts(unittest.TestCase):
    """Each per-figure script reads its CSV by column name and names the file on bad input."""

    def figure(self, script, outdir, *extra):
        exe = python_with_matplotlib()
        if exe is None:
            self.skipTest("matplotlib is not installed")
        return subprocess.run([exe, os.path.join(HERE, script), outdir, *extra],
                              capture_output=True, text=True, cwd=WORK)

    def write(self, name, files):
        return write_files(WORK, name, files)

    def test_host_pushback(self):
        # Run directories of ./roce-lab run on the host experiment files (trimmed).
        steps = "".join(f"allreduce,ring_allreduce,qps,2,step,0,{k},500,0,1,1,\n" for k in range(2))
        head = "collective,type,over,ranks,kind,iteration,step,bytes,start_us,end_us,duration_us," \
               "failed_messages\n"
        ideal = self.write("fig-host-ideal", {
            "collectives.csv": head + steps + "allreduce,ring_allreduce,qps,2,iteration,0,,1000,"
                                              "0,0.05,0.05,0\n"})
        azure = {"flows.csv": "id,src,dst,bytes\n0,h1,h0,1000\n",
                 "ports.csv": "node,port,peer_node,peer_port\nh0,0,s0,0\ns0,0,h0,0\n",
                 "summary.json": json.dumps({"end_time_us": 100.0})}
        loop = self.write("fig-host-loop", dict(azure, **{
            "pfc.csv": "node,port,class,xoff_sent,xon_sent,xoff_received,paused_us\n"
                       "s0,0,3,0,0,5,25.0\n",
            "host_dma_flows.csv": "stream,host\n0,h0\n"}))
        quiet = self.write("fig-host-quiet", dict(azure, **{
            "pfc.csv": "node,port,class,xoff_sent,xon_sent,xoff_received,paused_us\n"}))
        png = os.path.join(WORK, "fig-host.png")
        r = self.figure("host_pushback.py", ideal, loop, quiet, "-o", png)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(os.path.getsize(png) > 0)
        # 2 steps of 500 B in 0.05 us: 160 Gb/s; s0's port to h0 paused 25 of 100 us.
        r = subprocess.run([python_with_matplotlib(), "-c",
                            "import pathlib, sys; sys.path.insert(0, sys.argv[1]); "
                            "from roce_lab import host_pushback as h; "
                            "print(round(h.allreduce_gbps(pathlib.Path(sys.argv[2])), 6), "
                            "h.paused_shares(sys.argv[3]), h.paused_shares(sys.argv[4]))",
                            HERE, ideal, loop, quiet], capture_output=True, text=True, cwd=WORK)
        self.assertEqual(r.stdout.strip(), "160.0 {'h0': 0.25} {'h0': 0.0}", r.stderr)
        bad = self.write("fig-host-bad", dict(azure, **{"pfc.csv": "node,port\ns0,0\n"}))
        r = self.figure("host_pushback.py", bad)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("pfc.csv: no column 'class'", r.stderr)
        self.assertNotIn("Traceback", r.stderr)

    def test_srnic_loss_and_dfabric_name_the_line(self):
        out = self.write("fig-srnic", {
            "fig11.csv": "profile,loss,goodput_gbps,sr_analytic_gbps,gbn_analytic_gbps,"
                         "sr_rto_analytic_gbps\n"
                         "Srnic,0.01,66.2,90.1,91.0,69.2\nCx6,x,24.3,91.6,23.8,91.6\n"})
        r = self.figure("srnic_loss.py", out, "-o", os.path.join(WORK, "fig11.png"))
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("fig11.csv:3:", r.stderr)
        header = ("run,status,seed,/nodes/0/dfabric_rack/nic_pool_size,collectives.0.name,"
                  "collectives.0.communication_us.0,collectives.0.optimal_us,"
                  "collectives.0.normalized.0\n")
        out = self.write("fig-dfabric", {
            "table.csv": header + "nic_pool_size=1,done,1,1,full,678,70,9.64\n"
                                  "nic_pool_size=10,done,1,10,full,79,70,1.05\n"})
        png = os.path.join(WORK, "dfabric.png")
        r = self.figure("dfabric_pool.py", out, "-o", png)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(os.path.getsize(png) > 0)
        out = self.write("fig-dfabric-bad", {
            "table.csv": header + "nic_pool_size=1,done,1,1,full,678,70,x\n"})
        r = self.figure("dfabric_pool.py", out, "-o", png)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("table.csv:2:", r.stderr)
        self.assertNotIn("Traceback", r.stderr)


@unittest.skipUnless(os.access(ROCE_RUN, os.X_OK), "roce-run not built: " + ROCE_RUN)
class RunResumeGather(unittest.TestCase):
    def test_sweep_resume_table(self):
        out = os.path.join(WORK, "smoke")
        shutil.rmtree(out, ignore_errors=True)
        args = ["sweep", SMOKE, "--out", out, "--jobs", "2", "--roce-run", ROCE_RUN]
        self.assertEqual(roce_lab.main(args), 0)
        sweep = roce_lab.Sweep(SMOKE, out)
        mtimes = {r["name"]: os.stat(os.path.join(out, r["name"], "summary.json")).st_mtime_ns
                  for r in sweep.runs}

        # Resume: remove one run's summary and corrupt another's; only those two rerun.
        os.remove(os.path.join(out, sweep.runs[1]["name"], "summary.json"))
        with open(os.path.join(out, sweep.runs[6]["name"], "summary.json"), "w") as f:
            f.write('{"flows": 3, "fct_')
        self.assertEqual(roce_lab.main(args), 0)
        for i, run in enumerate(sweep.runs):
            mtime = os.stat(os.path.join(out, run["name"], "summary.json")).st_mtime_ns
            if i in (1, 6):
                self.assertNotEqual(mtime, mtimes[run["name"]], run["name"])
            else:
                self.assertEqual(mtime, mtimes[run["name"]], run["name"] + " was rerun")

        # The table: one row per run in order, parameters and summary metrics as they are.
        with open(os.path.join(out, "table.csv")) as f:
            rows = list(csv.DictReader(f))
        self.assertEqual([r["run"] for r in rows], [r["name"] for r in sweep.runs])
        for row, run in zip(rows, sweep.runs):
            with open(os.path.join(out, run["name"], "summary.json")) as f:
                summary = json.load(f)
            self.assertEqual(row["status"], "done")
            self.assertEqual(int(row["seed"]), run["seed"])
            self.assertEqual(int(row["/flows/0/bytes"]), run["config"]["flows"][0]["bytes"])
            self.assertEqual(row["/cc/type"], run["config"]["cc"]["type"])
            self.assertEqual(int(row["finished"]), summary["finished"])
            self.assertEqual(float(row["fct_us.mean"]), summary["fct_us"]["mean"])
            self.assertIn("by_size.1MB+.flows", row)
        # A larger first flow takes longer: the table carries the runs' own numbers.
        self.assertGreater(float(rows[4]["fct_us.max"]), float(rows[0]["fct_us.max"]))
        # A changed input (edited sweep) is not complete any more, and a missing run is
        # reported as such in the table.
        sweep.runs[0]["config"]["stop_time"] = "4ms"
        self.assertFalse(roce_lab.is_complete(sweep, sweep.runs[0]))
        shutil.rmtree(os.path.join(out, sweep.runs[3]["name"]))
        roce_lab.gather(roce_lab.Sweep(SMOKE, out))
        with open(os.path.join(out, "table.csv")) as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(rows[3]["status"], "missing")
        self.assertEqual(rows[3]["fct_us.mean"], "")

    def test_other_program_adds_its_metrics(self):
        # "program": dcqcn-regional takes the same CONFIG --out DIR and adds "dcqcn" to
        # summary.json, which the table carries.
        program = os.path.join(os.path.dirname(ROCE_RUN), "dcqcn-regional")
        if not os.access(program, os.X_OK):
            self.skipTest("dcqcn-regional not built")
        out = os.path.join(WORK, "dcqcn")
        shutil.rmtree(out, ignore_errors=True)
        path = write_sweep("dcqcn", {
            "base": os.path.join(ROOT, "configs", "regional-small.json"),
            "program": "dcqcn-regional", "args": ["--warmup=4ms"],
            "grid": {"/ecn/Pmax": [0.01, 0.05]}})
        self.assertEqual(roce_lab.main(["sweep", path, "--out", out, "--jobs", "2",
                                        "--roce-run", ROCE_RUN]), 0)
        with open(os.path.join(out, "table.csv")) as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(len(rows), 2)
        for row in rows:
            self.assertEqual(row["status"], "done")
            self.assertGreater(float(row["dcqcn.jain"]), 0.0)
            self.assertEqual(float(row["dcqcn.from_us"]), 4000.0)
            self.assertIn("dcqcn.goodput_gbps.1", row)

    def test_slurm_scripts(self):
        out = os.path.join(WORK, "slurm")
        shutil.rmtree(out, ignore_errors=True)
        self.assertEqual(roce_lab.main(["slurm", SMOKE, "--out", out, "--roce-run", ROCE_RUN,
                                        "--no-submit", "--sbatch-option=--time=5"]), 0)
        with open(os.path.join(out, "slurm", "array.sbatch")) as f:
            text = f.read()
        self.assertIn("#SBATCH --array=0-7\n", text)
        self.assertIn("#SBATCH --time=5\n", text)
        self.assertIn("run-dir", text)
        self.assertIn("  5) run=%s ;;\n" % roce_lab.Sweep(SMOKE, out).runs[5]["name"], text)
        # Each array task runs exactly its run: index 5 by hand.
        self.assertEqual(roce_lab.main(["run-index", SMOKE, "5", "--out", out,
                                        "--roce-run", ROCE_RUN]), 0)
        sweep = roce_lab.Sweep(SMOKE, out)
        done = [roce_lab.is_complete(sweep, r) for r in sweep.runs]
        self.assertEqual(done, [i == 5 for i in range(8)])
        self.assertEqual(roce_lab.main(["run-index", SMOKE, "8", "--out", out,
                                        "--roce-run", ROCE_RUN]), 2)


def write_config(name, config):
    os.makedirs(WORK, exist_ok=True)
    path = os.path.join(WORK, name + ".json")
    with open(path, "w") as f:
        json.dump(config, f)
    return path


def small_config(**extra):
    config = load_small()
    config.update(extra)
    return config


def load_small():
    with open(os.path.join(ROOT, "configs", "dumbbell-small.json")) as f:
        return json.load(f)


class Plots(unittest.TestCase):
    def test_unknown_plot_names_pointer_and_allowed(self):
        path = write_config("bad-plots", small_config(plots=["fct_cdf", "fct-cdf"]))
        with self.assertRaises(roce_lab.UsageError) as ctx:
            roce_lab.plot_names(roce_lab.load_json(path), path)
        message = str(ctx.exception)
        self.assertIn(path, message)
        self.assertIn("/plots/1", message)
        self.assertIn('"fct-cdf"', message)
        for name in roce_lab.PLOTS:
            self.assertIn(name, message)
        self.assertEqual(roce_lab.main(["check-plots", path]), 2)
        not_list = write_config("bad-plots-type", small_config(plots="fct_cdf"))
        self.assertEqual(roce_lab.main(["check-plots", not_list]), 2)
        self.assertEqual(roce_lab.main(["check-plots", SMOKE]), 0)  # no "plots": fine

    def test_roce_run_knows_the_same_plot_names(self):
        # roce-run checks "plots" itself (PLOT_NAMES in outputs-reader.cc): the two
        # lists must agree.
        with open(os.path.join(ROOT, "contrib", "dc-experiment", "model",
                               "readers", "outputs-reader.cc")) as f:
            source = f.read()
        match = re.search(r"PLOT_NAMES = \{([^}]*)\}", source)
        self.assertIsNotNone(match)
        self.assertEqual(set(re.findall(r'"([^"]+)"', match.group(1))), set(roce_lab.PLOTS))
        if os.path.isfile(ROCE_RUN):
            path = write_config("bad-plots-roce-run", small_config(plots=["fct_cfd"]))
            run = subprocess.run([ROCE_RUN, path, "--out=" + os.path.join(WORK, "bad-plots")],
                                 capture_output=True, text=True)
            self.assertEqual(run.returncode, 2, run.stderr)
            self.assertIn("/plots/0", run.stderr)
            self.assertIn("fct_cfd", run.stderr)

    def test_roce_run_number_overflow_is_a_configuration_error(self):
        # "seed": 1e400 once exited with the output-error status 1, unlocated.
        if not os.path.isfile(ROCE_RUN):
            self.skipTest("roce-run not built")
        path = write_config("seed-overflow", small_config(seed=12345))
        with open(path) as f:
            text = f.read().replace("12345", "1e400")
        with open(path, "w") as f:
            f.write(text)
        run = subprocess.run([ROCE_RUN, path, "--out=" + os.path.join(WORK, "seed-overflow")],
                             capture_output=True, text=True)
        self.assertEqual(run.returncode, 2, run.stderr)
        self.assertIn(path + ": /seed:", run.stderr)

    def test_missing_matplotlib_is_a_message(self):
        out = os.path.join(WORK, "plots-no-matplotlib")
        os.makedirs(out, exist_ok=True)
        path = write_config("plots-no-mpl", small_config(plots=["fct_cdf"]))
        code = ("import sys; sys.modules['matplotlib'] = None; sys.path.insert(0, %r); "
                "import roce_lab; sys.exit(roce_lab.main(['after-run', %r, %r]))"
                % (HERE, path, out))
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        self.assertEqual(r.returncode, 3, r.stderr)
        self.assertIn("matplotlib is not installed", r.stderr)
        self.assertIn("python3-matplotlib", r.stderr)
        self.assertNotIn("Traceback", r.stderr)


@unittest.skipUnless(os.access(ROCE_RUN, os.X_OK), "roce-run not built: " + ROCE_RUN)
class OutputDirectory(unittest.TestCase):
    def run_roce(self, config, out, *extra):
        return subprocess.run([ROCE_RUN, config, "--out", out] + list(extra),
                              capture_output=True, text=True, timeout=120)

    def test_readme_config_and_plots(self):
        cfg = small_config(plots=["slowdown_by_size"])
        cfg["cc"] = {"type": "ns3::RdmaDcqcn", "RateAI": "50Mbps"}
        path = write_config("outputs", cfg)
        out = os.path.join(WORK, "outputs")
        shutil.rmtree(out, ignore_errors=True)
        # A JSON attribute (RateAI) and an ns-3 passthrough default (MinRate).
        r = self.run_roce(path, out, "--ns3::RdmaDcqcn::MinRate=7Mbps")
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(out, "config.json")) as f:
            config = json.load(f)
        dcqcn = config["non_default_attributes"]["ns3::RdmaDcqcn"]
        self.assertEqual(dcqcn["RateAI"], "50000000bps")
        self.assertEqual(dcqcn["MinRate"], "7000000bps")
        self.assertNotIn("RateHAI", dcqcn)  # untouched
        self.assertEqual(config["plots"], ["slowdown_by_size"])

        with open(os.path.join(out, "README")) as f:
            readme = f.read()
        self.assertIn("configuration: " + path, readme)
        self.assertIn("seed: 1", readme)
        self.assertIn("command: roce-run " + path + " --out " + out, readme)
        listed = [line.split(":")[0] for line in readme.split("Files:\n")[1].splitlines()
                  if line and not line.startswith(" ")]
        self.assertEqual(listed, ["queues.csv", "rates.csv", "config.json", "flows.csv",
                                  "trace.csv", "pfc.csv", "ports.csv", "summary.json"])
        with open(os.path.join(out, "flows.csv")) as f:
            self.assertIn("    columns: " + f.readline(), readme)  # the header as written

        # Re-run: the same command gives byte-identical config.json, README and results.
        files = ["config.json", "README", "flows.csv", "summary.json", "queues.csv"]
        first = {}
        for name in files:
            with open(os.path.join(out, name), "rb") as f:
                first[name] = f.read()
        r = self.run_roce(path, out, "--ns3::RdmaDcqcn::MinRate=7Mbps")
        self.assertEqual(r.returncode, 0, r.stderr)
        for name in files:
            with open(os.path.join(out, name), "rb") as f:
                self.assertEqual(f.read(), first[name], name + " differs on a re-run")

        # The config's plots, as ./roce-lab run makes them after the run (with Debian's
        # interpreter, as ./roce-lab does, where there is one).
        python = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else sys.executable
        if subprocess.run([python, "-c", "import matplotlib"],
                          capture_output=True).returncode != 0:
            self.skipTest("python3-matplotlib not installed for " + python)
        r = subprocess.run([python, os.path.join(HERE, "roce_lab"), "after-run", path, out],
                           capture_output=True, text=True, timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertGreater(os.path.getsize(os.path.join(out, "plot-slowdown-by-size.png")), 1000)
        for png in ("plot-fct-cdf.png", "plot-slowdown-cdf.png"):  # not asked for
            self.assertFalse(os.path.exists(os.path.join(out, png)))
        with open(os.path.join(out, "README")) as f:
            readme = f.read()
        self.assertIn("plot-slowdown-by-size.png: slowdown of each flow by flow-size bucket",
                      readme)
        self.assertNotIn("plot-fct-cdf.png", readme)

    def test_rerun_never_deletes_through_a_linked_folder(self):
        # Clearing a used output folder once followed a symlinked pcap/
        # folder and removed every .pcap of the user's captures it pointed to.
        out = os.path.join(WORK, "linked-pcap")
        captures = os.path.join(WORK, "users-captures")
        for d in (out, captures):
            shutil.rmtree(d, ignore_errors=True)
        os.makedirs(captures)
        with_pcap = write_config("with-pcap", small_config(pcap={"hosts": ["h0"]}))
        r = self.run_roce(with_pcap, out)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(os.listdir(os.path.join(out, "pcap")))
        with open(os.path.join(out, "README")) as f:
            self.assertIn("pcap/<node>-<port>.pcap: ", f.read())
        shutil.rmtree(os.path.join(out, "pcap"))
        mine = ["h0-0.pcap", "trace-2025.pcap"]
        for name in mine:
            with open(os.path.join(captures, name), "w") as f:
                f.write("the user's capture\n")
        os.symlink(captures, os.path.join(out, "pcap"))
        r = self.run_roce(write_config("no-pcap", small_config()), out)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(sorted(os.listdir(captures)), mine, "files removed through a link")
        # Only the captures the previous run's README lists are removed: a .pcap the
        # user put beside them stays.
        os.remove(os.path.join(out, "pcap"))
        r = self.run_roce(with_pcap, out)
        self.assertEqual(r.returncode, 0, r.stderr)
        written = sorted(os.listdir(os.path.join(out, "pcap")))
        with open(os.path.join(out, "pcap", "mine.pcap"), "w") as f:
            f.write("the user's\n")
        r = self.run_roce(write_config("no-pcap", small_config()), out)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(os.listdir(os.path.join(out, "pcap")), ["mine.pcap"], written)

    def test_a_folder_that_is_no_runs_is_refused(self):
        # --out into the user's own folder once silently replaced its
        # README, config.json and flows.csv. roce-run and ./roce-lab run's --set/--seed
        # path (prepare) refuse it, naming the folder, and change nothing in it.
        out = os.path.join(WORK, "users-folder")
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        mine = {"README": "my notes\n", "config.json": "{}\n", "flows.csv": "a,b\n"}
        for name, text in mine.items():
            with open(os.path.join(out, name), "w") as f:
                f.write(text)
        config = os.path.join(ROOT, "configs", "dumbbell-small.json")
        r = self.run_roce(config, out)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn(out + ": output directory: not a previous run's", r.stderr)
        self.assertEqual(roce_lab.main(["prepare", config, out, "--seed", "2"]), 2)
        self.assertEqual(sorted(os.listdir(out)), sorted(mine))
        for name, text in mine.items():
            with open(os.path.join(out, name)) as f:
                self.assertEqual(f.read(), text, name)
        # An empty folder, a new one and a previous run's are used.
        shutil.rmtree(out)
        os.makedirs(out)
        self.assertEqual(roce_lab.main(["prepare", config, out, "--seed", "2"]), 0)
        r = self.run_roce(os.path.join(out, "input.json"), out)
        self.assertEqual(r.returncode, 0, r.stderr)
        r = self.run_roce(config, out)
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_check_prints_what_would_run_and_writes_nothing(self):
        # ./roce-lab check CONFIG (and roce-run --check).
        out = os.path.join(WORK, "check-out")
        shutil.rmtree(out, ignore_errors=True)
        config = os.path.join(ROOT, "configs", "faults-link-down.json")
        r = self.run_roce(config, out, "--check")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertFalse(os.path.exists(out), "--check wrote the output directory")
        text = r.stdout
        self.assertIn("check: %s: valid" % config, text)
        self.assertRegex(text, r"\nnodes: \d+ hosts, \d+ switches, \d+ links")
        self.assertRegex(text, r"\nflows: \d+ \(")
        self.assertRegex(text, r"\nfaults: [1-9]\d*\n  .*link_down .*<->.* \(/faults/")
        self.assertIn("\noutputs: %s (new)\n" % out, text)
        # A refused configuration: the located error, status 2, nothing written.
        bad = write_config("check-bad", small_config(flows=[{"src": "h0", "dst": "h9",
                                                              "bytes": 1000}]))
        r = self.run_roce(bad, out, "--check")
        self.assertEqual(r.returncode, 2, r.stdout)
        self.assertIn(bad + ": /flows/0/dst", r.stderr)
        self.assertFalse(os.path.exists(out))

    def test_progress_in_logs_is_periodic_full_lines(self):
        # stderr is a pipe here (not a terminal): full lines every --progress-period,
        # no carriage returns, and one report (not ns-3's ShowProgress lines as well).
        out = os.path.join(WORK, "progress")
        config = os.path.join(ROOT, "configs", "leaf-spine-incast.json")
        r = self.run_roce(config, out, "--progress-period=0.05")
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stderr.splitlines()
        self.assertNotIn("\r", r.stderr)
        self.assertGreaterEqual(len(lines), 1, "no progress line in %r" % r.stderr)
        for line in lines:
            self.assertRegex(line, r"^progress: [0-9.]+ / 20\.000 ms simulated, \d+ / \d+ flows "
                                   r"finished, \d+ k events/s, .* elapsed, ETA ")
        self.assertEqual(len(lines), len(set(lines)), "duplicate progress lines")
        self.assertNotIn("wall clock", r.stderr)
        r = self.run_roce(config, out, "--progress-period=0")
        self.assertEqual(r.returncode, 2)
        self.assertIn("--progress-period", r.stderr)

    def test_progress_on_a_terminal_is_one_updating_line(self):
        # stderr on a pseudo-terminal: the line is redrawn after a carriage return and
        # ended by one newline when the run ends (the quiet time is the log period when
        # that is shorter, so this short run reports).
        import pty
        out = os.path.join(WORK, "progress-tty")
        config = os.path.join(ROOT, "configs", "leaf-spine-incast.json")
        master, slave = pty.openpty()
        try:
            p = subprocess.run([ROCE_RUN, config, "--out", out, "--progress-period=0.05"],
                               stdout=subprocess.DEVNULL, stderr=slave, timeout=120)
            os.close(slave)
            data = b""
            while True:
                try:
                    chunk = os.read(master, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                data += chunk
        finally:
            os.close(master)
        self.assertEqual(p.returncode, 0)
        text = data.decode()
        self.assertTrue(text.startswith("\rprogress: "), repr(text[:80]))
        self.assertEqual(text.count("\n"), 1, repr(text))  # one line, redrawn in place
        self.assertTrue(text.endswith("\n"), repr(text[-80:]))
        self.assertNotIn("wall clock", text)


@unittest.skipUnless(os.access(ROCE_RUN, os.X_OK), "roce-run not built: " + ROCE_RUN)
class SweepPreCheck(unittest.TestCase):
    def test_a_bad_grid_value_stops_the_sweep_before_any_run(self):
        # A bad grid value was once found only when its run came up, and
        # its message went only to that run's log.txt. Every run's configuration is now
        # checked first; the error is printed on the terminal and nothing runs.
        out = os.path.join(WORK, "precheck")
        shutil.rmtree(out, ignore_errors=True)
        path = write_sweep("precheck", {
            "base": os.path.join(ROOT, "configs", "dumbbell-small.json"),
            "grid": {"/flows/0/bytes": [20000, "lots"]}, "seeds": [1, 2]})
        r = subprocess.run([sys.executable, os.path.join(HERE, "roce_lab"), "sweep", path,
                            "--out", out, "--roce-run", ROCE_RUN, "--jobs", "2"],
                           capture_output=True, text=True, timeout=300)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertNotIn("Traceback", r.stderr)
        self.assertIn('run bytes=lots-s1 (/flows/0/bytes = "lots")', r.stderr)
        self.assertIn("/flows/0/bytes", r.stderr.split("run bytes=lots-s1", 1)[1])
        self.assertIn("2 of 4 runs refused by roce-run --check", r.stderr)
        for run in os.listdir(out):
            self.assertFalse(os.path.exists(os.path.join(out, run, "log.txt")), run + " ran")
            self.assertFalse(os.path.exists(os.path.join(out, run, "summary.json")), run)


class SweepFileRandomized(unittest.TestCase):
    """Sweep files are read in Python (roce_lab.Sweep), so they get a short randomized-input
    test instead of a libFuzzer target: 300 mutations of the shipped sweeps (fixed seed),
    each either read or refused with a UsageError naming the file; nothing else escapes."""

    VALUES = [None, True, 0, -1, 1.5, 1e400, "", "x", "\u0000", [], [[]], {}, {"/x": []},
              {"/seed": [0]}, ["/a", 1], 2 ** 64, "../nope.json", {"": 1}]

    def mutate(self, rng, doc):
        if isinstance(doc, dict) and doc and rng.random() < 0.7:
            key = rng.choice(sorted(doc))
            if rng.random() < 0.5:
                doc[key] = self.mutate(rng, doc[key])
            elif rng.random() < 0.5:
                del doc[key]
            else:
                doc[rng.choice(["grid", "set", "seeds", "repetitions", "base", "bogus"])] = \
                    rng.choice(self.VALUES)
            return doc
        if isinstance(doc, list) and doc and rng.random() < 0.7:
            i = rng.randrange(len(doc))
            doc[i] = self.mutate(rng, doc[i])
            return doc
        return rng.choice(self.VALUES)

    def test_mutated_sweeps(self):
        import random
        rng = random.Random(19)
        sweeps = os.path.join(ROOT, "configs", "sweeps")
        names = sorted(f for f in os.listdir(sweeps) if f.endswith(".json"))
        os.makedirs(WORK, exist_ok=True)
        for i in range(200):
            name = names[i % len(names)]
            with open(os.path.join(sweeps, name)) as f:
                doc = json.load(f)
            doc = self.mutate(rng, doc)
            if isinstance(doc, dict) and isinstance(doc.get("base"), str):
                doc["base"] = os.path.join(sweeps, doc["base"])
            path = os.path.join(WORK, "mutated-%d.json" % i)
            with open(path, "w") as f:
                f.write(json.dumps(doc) if rng.random() < 0.9 else json.dumps(doc)[:-3])
            try:
                sweep = roce_lab.Sweep(path, out=os.path.join(WORK, "mutated-out"))
                self.assertIsInstance(sweep.runs, list)
            except roce_lab.UsageError as e:
                # names the sweep file first (and the base configuration it could not read)
                self.assertTrue(str(e).startswith(path), str(e))


if __name__ == "__main__":
    unittest.main(verbosity=2)
