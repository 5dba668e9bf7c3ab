#!/usr/bin/python3
"""Tests of roce_lab.by_size (python3 analysis/roce_lab by-size): the size buckets, the HPCC
simulator's slowdown (FCT / ideal, at least 1), nearest-rank percentiles, the peer's figures
and its provenance, and located errors. Run by ctest (analysis-by-size)."""

import io
import json
import os
import shutil
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from roce_lab import by_size, cli  # noqa: E402
from roce_lab.config import UsageError  # noqa: E402

COLUMNS = ("id,src,dst,bytes,start_us,finish_us,fct_us,ideal_fct_us,slowdown,"
           "retransmitted_packets,verb,priority,delivered_bytes")


class BySizeTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="by-size-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def write(self, rows):
        with open(os.path.join(self.dir, "flows.csv"), "w") as f:
            f.write(COLUMNS + "\n")
            for i, (size, fct, ideal) in enumerate(rows):
                cell = "" if fct is None else str(fct)
                f.write(f"{i},0,1,{size},0,{cell},{cell},{ideal},,0,write,3,{size}\n")

    def test_buckets_clamp_and_percentiles(self):
        # Bucket bounds are inclusive: 10000 B is <= 10KB, 10001 B is 10-100KB.
        rows = [(10000, 20.0, 10.0), (1000, 5.0, 10.0), (10001, 30.0, 10.0),
                (100000, 40.0, 10.0), (1000000, 100.0, 50.0), (1000001, None, 100.0)]
        rows += [(500, 10.0 + k, 10.0) for k in range(8)]  # 0-10KB: slowdowns 1.0 .. 1.7
        self.write(rows)
        r = by_size.load_flows(self.dir)
        self.assertEqual(r["all"]["flows"], 14)
        self.assertEqual(r["all"]["finished"], 13)
        small = r["0-10KB"]
        self.assertEqual(small["flows"], 10)
        # Slowdowns 2.0, 1.0 (0.5 clamped to 1), 1.0 .. 1.7: sorted 1.0, 1.0, 1.1, ..., 1.7, 2.0.
        self.assertAlmostEqual(small["slowdown"]["mean"], (2.0 + 1.0 + sum(1 + k / 10 for k in range(8))) / 10)
        self.assertAlmostEqual(small["slowdown"]["p50"], 1.3)  # rank 5 of 10
        self.assertAlmostEqual(small["slowdown"]["p99"], 2.0)  # rank 10
        self.assertAlmostEqual(small["fct_us"]["p50"], 13.0)
        self.assertEqual(r["10KB-100KB"]["flows"], 2)
        self.assertAlmostEqual(r["10KB-100KB"]["slowdown"]["p95"], 4.0)
        self.assertAlmostEqual(r["100KB-1MB"]["slowdown"]["mean"], 2.0)
        # The unfinished 1MB+ flow: counted, no statistics.
        self.assertEqual(r["1MB+"]["flows"], 1)
        self.assertEqual(r["1MB+"]["finished"], 0)
        self.assertIsNone(r["1MB+"]["slowdown"]["p99"])

    def test_peer_figures_and_report(self):
        peer, description = by_size.load_peer("hpcc")
        self.assertIn("reported to the project (2026-11)", description)
        self.assertIn("hpcc-websearch-320h-load0.3-10ms", description)
        self.assertEqual(peer["0-10KB"]["slowdown"]["p99"], 1.72)
        self.assertEqual(by_size.load_peer("dcqcn")[0]["all"]["fct_us"]["mean"], 334.0)
        with open(by_size.PEER_FILE) as f:
            data = json.load(f)
        for run in data["runs"].values():
            self.assertEqual(list(run), data["buckets"])
        self.write([(1000, 13.0, 10.0), (2000000, 400.0, 200.0)])
        out = io.StringIO()
        with redirect_stdout(out), redirect_stderr(io.StringIO()):
            # Not the peer's benchmark (no config.json, 2 flows): printed only when forced.
            self.assertEqual(cli.main(["by-size", self.dir, "--peer", "hpcc", "--force"]), 0)
        text = out.getvalue()
        self.assertTrue(text.startswith("WARNING: %s is not hpcc-bench-320-10ms" % self.dir))
        self.assertIn("0-10KB", text)
        self.assertIn("12.4/12.7/18.6", text)  # the peer's FCT mean/p50/p99 at <= 10 KB
        self.assertIn("1.30/1.30/1.30/1.30", text)  # ours: one flow at slowdown 1.3
        self.assertIn("1.23/1.27/1.05/0.76", text)  # ours / peer's slowdown, 0-10KB

    def config(self, flows_file):
        with open(os.path.join(self.dir, "config.json"), "w") as f:
            json.dump({"topology": {"type": "file", "format": "hpcc",
                                    "path": os.path.join(ROOT, "bench", "hpcc-fat-tree-320.txt")},
                       "flows_file": {"format": "hpcc", "path": os.path.join(ROOT, "bench",
                                                                             flows_file)}}, f)

    def by_size(self, *args):
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            rc = cli.main(["by-size", self.dir] + list(args))
        return rc, out.getvalue(), err.getvalue()

    def test_peer_only_for_its_benchmark(self):
        # Another run (here: no topology file, 2 flows) is refused, naming what differs.
        self.write([(1000, 13.0, 10.0), (2000000, 400.0, 200.0)])
        with open(os.path.join(self.dir, "config.json"), "w") as f:
            json.dump({"topology": {"type": "dumbbell"}}, f)
        rc, out, err = self.by_size("--peer", "dcqcn")
        self.assertEqual(rc, 2)
        self.assertEqual(out, "")
        self.assertIn("is not hpcc-bench-320-10ms", err)
        self.assertIn("it read no topology file (the benchmark's is bench/hpcc-fat-tree-320.txt)",
                      err)
        self.assertIn("it has 2 flows, the benchmark 6706", err)
        self.assertIn("--force", err)
        self.assertEqual(self.by_size()[0], 0)  # without --peer: any run
        # The benchmark's fabric with its 1 ms flow file: printed under a warning.
        self.config("hpcc-websearch-320h-load0.3-1ms.txt")
        rc, out, err = self.by_size("--peer", "dcqcn")
        self.assertEqual(rc, 0)
        self.assertIn("WARNING", err)
        self.assertIn("hpcc-websearch-320h-load0.3-1ms.txt is not the benchmark's", out)
        # The benchmark itself (its files, 6706 flows): no warning.
        self.write([(1000, 13.0, 10.0)] * 6706)
        self.config("hpcc-websearch-320h-load0.3-10ms.txt")
        rc, out, err = self.by_size("--peer", "dcqcn")
        self.assertEqual((rc, err), (0, ""))
        self.assertNotIn("WARNING", out)

    def test_peer_fct_file(self):
        # The peer's own fct.txt: slowdown = FCT / standalone FCT (ns), at least 1.
        fct = os.path.join(self.dir, "fct.txt")
        with open(fct, "w") as f:
            f.write("0b000101 0b000201 10000 100 1000 2000000000 13000 10000\n")
            f.write("0b000101 0b000201 10001 100 2000000 2000000000 400000 200000\n")
            f.write("0b000101 0b000201 10002 100 3000 2000000000 9000 10000\n")
        peer = by_size.load_peer_fct(fct)
        self.assertAlmostEqual(peer["0-10KB"]["slowdown"]["mean"], (1.3 + 1.0) / 2)
        self.assertAlmostEqual(peer["1MB+"]["fct_us"]["p50"], 400.0)
        self.assertAlmostEqual(peer["all"]["slowdown"]["p99"], 2.0)
        # The benchmark's peer file gives the figures of hpcc-peer-by-size.json's DCQCN run.
        bench = os.path.join(os.path.dirname(HERE), "bench",
                             "hpcc-sim-websearch-320h-load0.3-10ms-fct.txt")
        ws = by_size.load_peer_fct(bench)
        for bucket, figures in by_size.load_peer("dcqcn")[0].items():
            for stat, value in figures["slowdown"].items():
                self.assertAlmostEqual(ws[bucket]["slowdown"][stat], value, delta=0.005)
        self.write([(1000, 13.0, 10.0), (2000000, 400.0, 200.0)])
        out = io.StringIO()
        with redirect_stdout(out):
            self.assertEqual(cli.main(["by-size", self.dir, "--peer-fct", fct]), 0)
        self.assertIn("1.00/1.00/1.00/1.00", out.getvalue())  # ours / peer's, 1MB+
        with open(fct, "a") as f:
            f.write("0b000101 0b000201 10003 100 3000\n")
        with self.assertRaisesRegex(UsageError, r"fct.txt:4: expected 8 columns"):
            by_size.load_peer_fct(fct)

    def test_errors_name_file_and_line(self):
        self.write([(1000, 13.0, 10.0)])
        path = os.path.join(self.dir, "flows.csv")
        with open(path, "a") as f:
            f.write("9,0,1,many,0,1,1,1,,0,write,3,1\n")
        with self.assertRaisesRegex(UsageError, r"flows.csv:3: bytes, fct_us or ideal_fct_us"):
            by_size.load_flows(self.dir)
        with self.assertRaisesRegex(UsageError, "no run 'timely'"):
            by_size.load_peer("timely")
        with self.assertRaisesRegex(UsageError, "not found"):
            by_size.load_flows(os.path.join(self.dir, "nothing"))


if __name__ == "__main__":
    unittest.main()
