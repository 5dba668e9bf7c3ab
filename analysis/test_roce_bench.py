#!/usr/bin/python3
"""Tests of analysis/roce_bench.py (./roce-lab bench): suite resolution, the CSV it
writes, the A/B comparison of two builds and its output-identity check. Run by ctest
(scratch-bench) with ROCE_LAB_BUILD_DIR set to the build and ROCE_LAB_TEST_DIR to a
scratch directory. It checks the machinery, never a speed."""

import csv
import json
import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from roce_lab import bench as roce_bench  # noqa: E402

BUILD = os.environ.get("ROCE_LAB_BUILD_DIR", os.path.join(os.path.dirname(HERE), "build"))
WORK = os.environ.get("ROCE_LAB_TEST_DIR", os.path.join(tempfile.gettempdir(), "roce-bench"))


class SuiteTest(unittest.TestCase):
    def test_shipped_suite_resolves(self):
        suite = roce_bench.load_suite()
        names = roce_bench.resolve(["full", "default"], suite)
        self.assertEqual(len(names), len(set(names)))
        self.assertIn("hpcc-bench-320-10ms", names)
        for name in names:
            spec = suite["scenarios"][name]
            self.assertIn(spec["argv"][0], ("roce-run", "fat-tree-fct"))

    def test_shipped_scenarios_name_existing_files(self):
        suite = roce_bench.load_suite()
        for name, spec in suite["scenarios"].items():
            for arg in spec["argv"][1:]:
                path = arg.split("=", 1)[-1]
                if path.endswith(".json"):
                    self.assertTrue(os.path.exists(os.path.join(roce_bench.ROOT, path)),
                                    f"{name}: {path}")

    def test_unknown_name_is_an_error(self):
        suite = roce_bench.load_suite()
        with self.assertRaises(roce_bench.BenchError) as e:
            roce_bench.resolve(["no-such-scenario"], suite)
        self.assertIn("no-such-scenario", str(e.exception))
        self.assertEqual(roce_bench.main(["no-such-scenario", "--out", WORK]), 2)

    def test_counts_are_read_from_the_bench_lines(self):
        text = "frames serialized (all ports): 12\nevents: 34\nevents: 6\n"
        self.assertEqual(roce_bench.parse_counts(text), (40, 12))


class RunTest(unittest.TestCase):
    def setUp(self):
        shutil.rmtree(WORK, ignore_errors=True)

    def test_smoke_against_itself(self):
        csv_path = os.path.join(WORK, "bench.csv")
        status = roce_bench.main(["smoke", "--build", BUILD, "--vs", BUILD, "--repeat", "2",
                                  "--out", WORK, "--csv", csv_path])
        self.assertEqual(status, 0)
        with open(csv_path) as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(len(rows), 4)  # A B A B
        self.assertEqual(list(rows[0].keys()), roce_bench.COLUMNS)
        for r in rows:
            self.assertEqual(r["exit_status"], "0")
            self.assertGreater(int(r["events"]), 0)
            self.assertGreater(int(r["frames"]), 0)
            self.assertAlmostEqual(float(r["events_per_frame_hop"]),
                                   int(r["events"]) / int(r["frames"]), places=3)
            self.assertGreater(float(r["peak_rss_mb"]), 1.0)
        # The same build twice: byte-identical outputs.
        a = os.path.join(WORK, "smoke", "A0")
        b = os.path.join(WORK, "smoke", "B1")
        self.assertTrue(roce_bench.same_outputs(a, b))
        # A changed file is noticed.
        with open(os.path.join(b, "flows.csv"), "a") as f:
            f.write("x\n")
        self.assertFalse(roce_bench.same_outputs(a, b))


if __name__ == "__main__":
    unittest.main(verbosity=2)
