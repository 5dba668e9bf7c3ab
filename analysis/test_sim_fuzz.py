#!/usr/bin/python3
"""Tests of the whole-simulation fuzzer's own plumbing (analysis/roce_lab/simfuzz.py,
./roce-lab fuzz --sim): the generator is a pure function of its seed and keeps the
promises the invariants rely on; an injected invariant violation, a crashing program and a
hanging one are reported with the command that reproduces them; a passing case replays.
Run by ctest (sim-fuzz-plumbing) with ROCE_RUN set to the roce-run binary and
ROCE_LAB_TEST_DIR to a scratch directory."""

import io
import json
import os
import shutil
import stat
import sys
import unittest
from contextlib import redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from roce_lab import simfuzz  # noqa: E402
from roce_lab.cli import main as cli_main  # noqa: E402

ROCE_RUN = os.environ.get("ROCE_RUN", os.path.join(ROOT, "build", "bin", "roce-run"))
WORK = os.environ.get("ROCE_LAB_TEST_DIR", "/tmp/roce-lab-test-sim-fuzz")


def load(path):
    with open(path) as f:
        return json.load(f)


def stop_us(config):
    """The stop time of a generated case in microseconds ("100us", "300ms", "2s")."""
    text = config["stop_time"]
    for unit, scale in (("us", 1.0), ("ms", 1e3), ("s", 1e6)):
        if text.endswith(unit):
            return float(text[: -len(unit)]) * scale
    raise ValueError(text)


def fresh(name):
    d = os.path.join(WORK, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def cli(*args):
    """The roce_lab command line's exit status and stdout."""
    out = io.StringIO()
    with redirect_stdout(out):
        rc = cli_main(list(args))
    return rc, out.getvalue()


def fake_program(folder, body):
    """An executable Python script standing in for roce-run."""
    path = os.path.join(folder, "fake-roce-run")
    with open(path, "w") as f:
        f.write("#!/usr/bin/python3\nimport os, signal, sys, time\n" + body + "\n")
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    return path


# A seed whose first case is cheap and passes on the current build (checked by
# test_a_passing_case_replays): dumbbell, a few small flows.
def small_case(folder):
    config = {"description": "sim-fuzz plumbing", "seed": 1, "progress": False,
              "stop_time": "10ms",
              "topology": {"type": "dumbbell", "hosts_per_side": 1},
              "flows": [{"src": "h0", "dst": "h1", "bytes": 20000}],
              "monitors": {"deadlock": {"CheckInterval": "50us"}}}
    meta = {"generator": simfuzz.GENERATOR_VERSION, "seed": 0, "features": ["dumbbell"],
            "expect": {"complete": True, "lossless": True, "deadlock_free": True,
                       "may_refuse": None, "endpoints": [["h0", "h1"]]}}
    simfuzz.write_case(folder, config, {}, meta)
    return folder


class Generator(unittest.TestCase):
    def test_same_seed_same_case(self):
        for seed in (0, 1, 17, 123456):
            self.assertEqual(simfuzz.generate(seed), simfuzz.generate(seed))
        self.assertNotEqual(simfuzz.generate(1)[0], simfuzz.generate(2)[0])

    def test_promises(self):
        """Over many seeds: 2..32 hosts, both ends of every flow and collective on one
        NIC profile, outages below what a QP survives, files named by the config."""
        shapes = set()
        jobs = 0
        trees = 0
        for seed in range(400):
            config, files, meta = simfuzz.generate(seed)
            json.dumps(config)
            shapes.add(meta["features"][0])
            profile = {}
            for entry in config.get("nodes", []):
                if "nic_profile" in entry:
                    self.assertIn(entry["nic_profile"], files)
                    hosts = entry["hosts"]
                    for h in (hosts if isinstance(hosts, list) else ["*"]):
                        profile[h] = entry["nic_profile"]
            for f in config.get("flows", []):
                self.assertEqual(profile.get(f["src"], profile.get("*")),
                                 profile.get(f["dst"], profile.get("*")), (seed, f))
            for c in config.get("collectives", []):
                self.assertEqual(len({profile.get(h, profile.get("*")) for h in c["hosts"]}), 1)
            for j in config.get("jobs", []):
                self.assertEqual(len({profile.get(h, profile.get("*")) for h in j["hosts"]}), 1)
                jobs += 1
                for step in j["steps"]:
                    if step.get("algorithm") == "tree":
                        trees += 1
                        self.assertLessEqual(step.get("chunks", 1), step["bytes"], seed)  # default: min(8, bytes)
            down = {}
            outage = 0.0
            times = []
            for e in config.get("faults", {}).get("events", []):
                key = json.dumps(e.get("link", e.get("host")))
                t = float(e["time"][:-2])
                times.append(t)
                if e["kind"] in ("link_down", "nic_down"):
                    down[key] = t
                elif e["kind"] in ("link_up", "nic_up"):
                    outage += t - down.pop(key)
            self.assertEqual(down, {}, seed)  # every outage ends
            self.assertLess(max(times, default=0.0), stop_us(config), seed)
            self.assertLessEqual(outage, simfuzz.MAX_OUTAGE_US + 1e-6, seed)
            if config["topology"].get("path"):
                self.assertIn(config["topology"]["path"], files)
        self.assertTrue({"dumbbell", "leaf_spine", "fat_tree", "ring"} <= shapes, shapes)
        self.assertGreater(jobs, 20)  # hand-written jobs ("steps"), one case in six
        self.assertGreater(trees, 3)  # half of their all-reduces are trees
        self.assertTrue(any(s.startswith("hpcc_switches_first") for s in shapes), shapes)


    def test_faults_fall_before_a_short_stop_time(self):
        """A huge collective's case stops at 100 us: its faults are drawn inside that
        (roce-run refuses a fault at or after stop_time). Seed 777004519 drew a link down
        at 312 us before; every case that keeps the usual stop time is what it was."""
        huge = 0
        for seed in [777004519] + list(range(3000)):
            config, _, meta = simfuzz.generate(seed)
            if "huge_collective" not in meta["features"]:
                continue
            huge += 1
            self.assertEqual(config["stop_time"], "100us")
            for e in config.get("faults", {}).get("events", []):
                self.assertLess(float(e["time"][:-2]), 100.0, (seed, e))
        self.assertGreater(huge, 5)
        config, _, _ = simfuzz.generate(777004519)
        self.assertEqual([e["kind"] for e in config["faults"]["events"]],
                         ["link_down", "link_up"])


class KnownDefects(unittest.TestCase):
    def test_skip_known_leaves_out_what_can_meet_them(self):
        saved = list(simfuzz.KNOWN_DEFECTS)
        simfuzz.KNOWN_DEFECTS[:] = [("a-defect", lambda f: {"srnic", "gilbert_elliott"} <= f)]
        try:
            meta = {"features": ["srnic", "gilbert_elliott"]}
            self.assertIn("a-defect", simfuzz.known_defect(meta))
            self.assertIsNone(simfuzz.known_defect({"features": ["srnic"]}))
        finally:
            simfuzz.KNOWN_DEFECTS[:] = saved
        # Fixed defects leave the list: selective repeat, SRNIC and Maestro under loss are
        # drawn again.
        for features in (["srnic", "gilbert_elliott"], ["profile_irn", "link_rate"],
                         ["collective_maestro", "gilbert_elliott", "gbn"]):
            self.assertIsNone(simfuzz.known_defect({"features": features}), features)
        # Fixed defects leave the list: HPCC files numbered switches first are drawn again.
        meta = {"features": ["hpcc_switches_first", "hpcc_flows"]}
        self.assertIsNone(simfuzz.known_defect(meta))
        self.assertIsNone(simfuzz.known_defect({"features": ["dumbbell", "gbn"]}))


class Reports(unittest.TestCase):
    def test_injected_violation_is_reported_with_its_reproducer(self):
        out = fresh("inject")
        rc, text = cli("fuzz-sim", "--roce-run", ROCE_RUN, "--out", out, "--seed", "3",
                       "--max-cases", "1", "--inject", "exactly_once", "--shrink", "0", "600")
        self.assertEqual(rc, 1, text)
        self.assertIn("exactly_once: 1 flows violate it (first: flow 0, injected)", text)
        self.assertIn("reproduce: ./roce-lab fuzz --sim --replay ", text)
        self.assertIn("1 cases in", text)
        self.assertIn("1 failed", text)
        # The case is kept: its config, what the generator expected, the run's outputs.
        case = os.path.join(out, "case-3-0000")
        for name in ("config.json", "fuzz.json", "run.log", "run/summary.json"):
            self.assertTrue(os.path.isfile(os.path.join(case, name)), name)
        self.assertEqual(load(os.path.join(case, "fuzz.json"))["seed"],
                         simfuzz.case_seed(3, 0))

    def test_injected_nondeterminism_is_reported(self):
        case = small_case(os.path.join(fresh("nondet"), "case"))
        rc, text = cli("fuzz-sim", "--roce-run", ROCE_RUN, "--replay", case,
                       "--inject", "deterministic")
        self.assertEqual(rc, 1, text)
        self.assertIn("deterministic: rerun differs in flows.csv", text)

    def test_a_passing_case_replays(self):
        case = small_case(os.path.join(fresh("pass"), "case"))
        rc, text = cli("fuzz-sim", "--roce-run", ROCE_RUN, "--replay", case)
        self.assertEqual(rc, 0, text)
        self.assertIn("replayed 1 cases, 0 failed", text)

    def test_crash_and_refusal_are_reported(self):
        folder = fresh("crash")
        case = small_case(os.path.join(folder, "case"))
        abort = fake_program(folder, "os.kill(os.getpid(), signal.SIGABRT)")
        rc, text = cli("fuzz-sim", "--roce-run", abort, "--replay", case)
        self.assertEqual(rc, 1, text)
        self.assertIn("runs: killed by signal 6", text)
        refuse = fake_program(folder, "print('x.json: /flows/0: refused'); sys.exit(2)")
        rc, text = cli("fuzz-sim", "--roce-run", refuse, "--replay", case)
        self.assertIn("runs: exit status 2: x.json: /flows/0: refused", text)
        # ... unless the generator said that this case may be refused.
        meta = load(os.path.join(case, "fuzz.json"))
        meta["expect"]["may_refuse"] = ["/flows/0", "test"]
        simfuzz.write_case(case, load(os.path.join(case, "config.json")), {}, meta)
        rc, text = cli("fuzz-sim", "--roce-run", refuse, "--replay", case)
        self.assertEqual(rc, 0, text)
        self.assertIn("refused (test)", text)

    def test_a_stall_and_a_hang_are_reported(self):
        folder = fresh("stall")
        case = small_case(os.path.join(folder, "case"))
        summary = {"flows": 1, "finished": 0, "failed": 0, "unfinished": 1,
                   "end_time_us": "10000.000000",
                   "exactly_once": {"checked": 1, "violation_count": 0, "violations": []},
                   "drops": {"buffer": {}, "switch": {}}}
        stall = fake_program(folder, (
            "out = sys.argv[sys.argv.index('--out') + 1]\nos.makedirs(out, exist_ok=True)\n"
            "open(os.path.join(out, 'summary.json'), 'w').write(%r)\n"
            "open(os.path.join(out, 'flows.csv'), 'w').write('id,src,dst,bytes,finish_us,"
            "delivered_bytes\\n0,h0,h1,20000,,19000\\n')") % json.dumps(summary))
        rc, text = cli("fuzz-sim", "--roce-run", stall, "--replay", case)
        self.assertEqual(rc, 1, text)
        self.assertIn("no_stall: 1 of 1 flows never ended", text)
        self.assertIn("flow 0 h0->h1, 19000 of 20000 bytes placed", text)
        runner = simfuzz.Runner(fake_program(folder, "time.sleep(30)"), time_limit=1)
        violations, _, _ = runner.check(case)
        self.assertEqual(violations[0][0], "runs")
        self.assertIn("hang", violations[0][1])


if __name__ == "__main__":
    unittest.main()
