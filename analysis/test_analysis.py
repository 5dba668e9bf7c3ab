#!/usr/bin/python3
"""Tests of the numbers and plots of the analysis scripts (that they give the right numbers):
dcqcn_regional.py's watermarks, dcqcn_sweep.py's ordering of values with units, and the
FCT plots on runs whose flows did not all finish (./roce-lab plot included). Run by
ctest (analysis-scripts) with ROCE_LAB_TEST_DIR set to a scratch directory and, where
scratch-dcqcn-regional-small has run, REGIONAL_SMALL_OUT to its output directory."""

import argparse
import json
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from roce_lab import dcqcn_regional  # noqa: E402
from roce_lab import dcqcn_stochastic  # noqa: E402
from roce_lab import dcqcn_sweep  # noqa: E402
from roce_lab import maestro_paths  # noqa: E402
from roce_lab import maestro_transport  # noqa: E402
from test_roce_lab import python_with_matplotlib, write_files  # noqa: E402

WORK = os.environ.get("ROCE_LAB_TEST_DIR", "/tmp/roce-lab-test-analysis")
REGIONAL_SMALL_OUT = os.environ.get("REGIONAL_SMALL_OUT", "")


def write_dir(name, files):
    return write_files(WORK, name, files)


GOODPUT = "host,qpn,from_us,to_us,goodput_gbps\n0,256,1000,4000,17.0\n"


def queues(rows):
    """queues.csv text from (time_us, node, port, bytes) rows; the other ports of the
    switch are sampled every 10 us so that the sample grid is known."""
    lines = ["time_us,node,port,class,bytes"]
    for t in range(0, 4100, 10):
        lines.append("%d,dc0-c0-t0-0,2,3,100" % t)
    for t, node, port, b in rows:
        lines.append("%s,%s,%s,3,%d" % (t, node, port, b))
    return "\n".join(lines) + "\n"


class RegionalWatermarks(unittest.TestCase):
    def test_windows_without_samples_read_zero(self):
        # 3 whole windows of 1 ms from 1000 to 4000 us; the queue held data only in the
        # first (peak 900 KB). queues.csv leaves empty queues out, so the two empty
        # windows have no rows: their watermark is 0 and the mean is 0.3 MB, not 0.9.
        times = [1000.0, 1010.0, 1500.0]
        sizes = [100000, 900000, 400000]
        self.assertEqual(dcqcn_regional.watermarks(times, sizes, 1000.0, 4000.0, 1000.0),
                         [900000, 0, 0])

    def test_partial_last_window_left_out_like_the_program(self):
        # 3.5 windows: the partial one (its peak 2 MB) is left out, as DcqcnRunMonitor does.
        wm = dcqcn_regional.watermarks([1500.0, 4200.0], [5, 2000000], 1000.0, 4500.0, 1000.0)
        self.assertEqual(wm, [5, 0, 0])
        # A run shorter than one window still has one.
        self.assertEqual(dcqcn_regional.watermarks([1100.0], [7], 1000.0, 1500.0, 1000.0), [7])

    def test_last_window_is_drawn(self):
        xs, ys = dcqcn_regional.watermark_steps([3, 1, 2], 1000.0, 1000.0)
        # where="post" steps: the last window needs its end point to have a width.
        self.assertEqual(xs, [1000.0, 2000.0, 3000.0, 4000.0])
        self.assertEqual(ys, [3, 1, 2, 2])

    def test_queue_curve_drops_to_zero_between_samples(self):
        xs, ys = dcqcn_regional.zero_filled([10.0, 20.0, 100.0], [5, 6, 7], 10.0)
        self.assertEqual(list(zip(xs, ys)), [(10.0, 5), (20.0, 6), (30.0, 0), (90.0, 0),
                                             (100.0, 7)])

    def test_script_prints_the_mean_over_every_window(self):
        out = write_dir("regional-windows", {
            "goodput.csv": GOODPUT,
            "queues.csv": queues([(1000, "dc0-c0-t0-0", 1, 100000),
                                  (1010, "dc0-c0-t0-0", 1, 900000)])})
        r = subprocess.run([sys.executable, os.path.join(HERE, "dcqcn_regional.py"), out],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("mean 0.300 MB, min 0.000, max 0.900 (3 windows)", r.stdout)
        exe = python_with_matplotlib()
        if exe:
            png = os.path.join(out, "fig.png")
            r = subprocess.run([exe, os.path.join(HERE, "dcqcn_regional.py"), out, "-o", png],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertGreater(os.path.getsize(png), 0)

    def test_missing_files_are_a_message(self):
        out = write_dir("regional-missing", {"queues.csv": queues([])})
        r = subprocess.run([sys.executable, os.path.join(HERE, "dcqcn_regional.py"), out],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 1)
        self.assertIn("goodput.csv: not found (run dcqcn-regional --out=", r.stderr)
        self.assertNotIn("Traceback", r.stderr)

    @unittest.skipUnless(os.path.isfile(os.path.join(REGIONAL_SMALL_OUT, "summary.json")),
                         "no dcqcn-regional output (REGIONAL_SMALL_OUT)")
    def test_agrees_with_the_program(self):
        # The script's watermark of the congested port (C's T0 downlink) is the
        # program's: same windows, same samples (queues.csv and the monitor both
        # sample every 10 us).
        with open(os.path.join(REGIONAL_SMALL_OUT, "summary.json")) as f:
            dcqcn = json.load(f)["dcqcn"]
        r = subprocess.run([sys.executable, os.path.join(HERE, "dcqcn_regional.py"),
                            REGIONAL_SMALL_OUT], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        line = [x for x in r.stdout.splitlines() if "watermark per" in x][0]
        mean_mb = float(line.split(" mean ")[1].split(" MB")[0])
        max_mb = float(line.split(" max ")[1].split(" ")[0])
        windows = int(line.split("(")[1].split(" windows")[0])
        span = dcqcn["to_us"] - dcqcn["from_us"]
        self.assertEqual(windows, int(span // dcqcn["watermark_window_us"]))
        self.assertAlmostEqual(mean_mb, dcqcn["watermark_mean_bytes"] / 1e6, places=3)
        self.assertAlmostEqual(max_mb, dcqcn["watermark_peak_bytes"] / 1e6, places=3)


class SweepOrdering(unittest.TestCase):
    def test_times_sizes_rates_by_quantity(self):
        self.assertEqual(dcqcn_sweep.ordered(["300us", "55us", "1ms", "5us", "2.5us"]),
                         ["2.5us", "5us", "55us", "300us", "1ms"])
        self.assertEqual(dcqcn_sweep.ordered(["100KB", "50KB", "5KB", "1MB", "2KiB"]),
                         ["2KiB", "5KB", "50KB", "100KB", "1MB"])
        self.assertEqual(dcqcn_sweep.ordered(["40Gbps", "100Gbps", "10Gbps", "400Mbps"]),
                         ["400Mbps", "10Gbps", "40Gbps", "100Gbps"])
        # JSON-quoted cells (as a table may hold them) parse the same way.
        self.assertEqual(dcqcn_sweep.ordered(['"300us"', '"55us"']), ['"55us"', '"300us"'])
        # Numbers and lists of numbers stay numeric; other strings come last as text.
        self.assertEqual(dcqcn_sweep.ordered(["10", "9", "0.5"]), ["0.5", "9", "10"])
        self.assertEqual(dcqcn_sweep.ordered(["b", "a", "3"]), ["3", "a", "b"])

    def test_quantity(self):
        self.assertEqual(dcqcn_sweep.quantity("55us")[0], "time")
        self.assertAlmostEqual(dcqcn_sweep.quantity("55us")[1], 55e-6, delta=1e-15)
        self.assertEqual(dcqcn_sweep.quantity("2KiB"), ("size", 2048.0))
        self.assertEqual(dcqcn_sweep.quantity("40Gbps"), ("rate", 40e9))
        self.assertIsNone(dcqcn_sweep.quantity("fast"))
        self.assertIsNone(dcqcn_sweep.quantity("5 parsecs"))

    def test_line_table_in_quantity_order(self):
        out = write_dir("sweep-order", {
            "table.csv": "run,status,seed,/ecn/Kmin,dcqcn.jain\n"
                         "r0,done,1,100KB,0.9\nr1,done,1,50KB,0.8\nr2,done,1,5KB,0.7\n"})
        r = subprocess.run([sys.executable, os.path.join(HERE, "dcqcn_sweep.py"), "line",
                            os.path.join(out, "table.csv"), "--x", "/ecn/Kmin",
                            "--metric", "dcqcn.jain"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        header = r.stdout.splitlines()[0].split()
        self.assertEqual(header[1:], ["5KB", "50KB", "100KB"])
        values = r.stdout.splitlines()[1].split()
        self.assertEqual(values[1:], ["0.7", "0.8", "0.9"])


FLOWS_HEADER = ("id,src,dst,bytes,start_us,finish_us,fct_us,ideal_fct_us,slowdown,"
                "retransmitted_packets,verb,priority\n")


class FctPlots(unittest.TestCase):
    def setUp(self):
        self.exe = python_with_matplotlib()
        if self.exe is None:
            self.skipTest("matplotlib is not installed")

    def test_plot_of_a_run_with_no_finished_flow(self):
        # ./roce-lab plot on a run where nothing finished: plots that say so, no ValueError.
        out = write_dir("plot-nothing-finished", {
            "flows.csv": FLOWS_HEADER + "0,h0,h1,1000,10.0,,,1.5,,0,write,3\n"
                                        "1,h0,h1,200000,10.0,,,20.0,,0,write,3\n"})
        env = dict(os.environ, PATH="/usr/bin:" + os.environ.get("PATH", ""))
        r = subprocess.run([os.path.join(ROOT, "roce-lab"), "plot", out], capture_output=True,
                           text=True, env=env)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertNotIn("Traceback", r.stderr)
        for png in ("plot-fct-cdf.png", "plot-slowdown-cdf.png", "plot-slowdown-by-size.png"):
            self.assertGreater(os.path.getsize(os.path.join(out, png)), 0, png)

    def test_cdf_legend_counts_unfinished_flows(self):
        # The legend entry of a run with unfinished flows gives their count (the CDF
        # is over the finished ones): the legend text of the saved figure.
        out = write_dir("plot-some-unfinished", {
            "flows.csv": FLOWS_HEADER + "0,h0,h1,1000,10.0,12.0,2.0,1.5,1.33,0,write,3\n"
                                        "1,h0,h1,200000,10.0,,,20.0,,0,write,3\n"})
        code = ("import sys, matplotlib; matplotlib.use('Agg'); import matplotlib.pyplot as plt;"
                "sys.path.insert(0, %r); from roce_lab import fct_cdf;"
                "sys.argv = ['fct_cdf', %r, '-o', %r];"
                "saved = plt.Figure.savefig\n"
                "def grab(fig, *a, **k):\n"
                "    print('LEGEND:' + '|'.join(t.get_text() for t in fig.axes[0].get_legend()"
                ".get_texts()))\n"
                "    return saved(fig, *a, **k)\n"
                "plt.Figure.savefig = grab; fct_cdf.main()"
                % (HERE, out, os.path.join(out, "cdf.png")))
        r = subprocess.run([self.exe, "-c", code], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("LEGEND:plot-some-unfinished (1 of 2 flows unfinished, not shown)",
                      r.stdout)


    def test_coinciding_curves_ticks_and_zero_bars(self):
        # Two runs with the same flows: the second curve is dashed with other markers, and
        # its legend entry says it is the same curve. A log axis over less than a decade
        # keeps at least 3 labelled ticks. A zero-height bar of host_pushback is labelled.
        flows = {"flows.csv": FLOWS_HEADER + "".join(
            "%d,h0,h1,1000,10.0,%.1f,%.1f,1.5,%.2f,0,write,3\n" % (i, 11.6 + i / 10, 1.6 + i / 10,
                                                                   (1.6 + i / 10) / 1.5)
            for i in range(6))}
        a, b = write_dir("plot-same-a", flows), write_dir("plot-same-b", flows)
        code = ("import sys, matplotlib; matplotlib.use('Agg'); sys.path.insert(0, %r)\n"
                "from roce_lab import fct_cdf\n"
                "fig = fct_cdf.figure([%r, %r], slowdown=True)\n"
                "ax = fig.axes[0]\n"
                "print('LEGEND:' + '|'.join(t.get_text() for t in ax.get_legend().get_texts()))\n"
                "print('STYLES:', [(l.get_linestyle(), l.get_marker()) for l in ax.get_lines()])\n"
                "fig.canvas.draw()\n"
                "lo, hi = ax.get_xlim()\n"
                "labels = ax.get_xticklabels() + ax.get_xticklabels(minor=True)\n"
                "shown = [t.get_text() for t in labels"
                " if t.get_text() and lo <= t.get_position()[0] <= hi]\n"
                "print('TICKS:', len(set(shown)), shown)\n" % (HERE, a, b))
        r = subprocess.run([self.exe, "-c", code], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("|plot-same-b (6 flows), the same curve as plot-same-a", r.stdout)
        styles = eval(r.stdout.split("STYLES: ")[1].splitlines()[0])
        self.assertEqual(len(set(styles)), 2, styles)
        ticks = int(r.stdout.split("TICKS: ")[1].split()[0])
        self.assertGreaterEqual(ticks, 3, r.stdout)


class AxisWords(unittest.TestCase):
    def test_pointers_and_metrics_in_words_with_units(self):
        from roce_lab.labels import quantity
        self.assertEqual(quantity("/flows/0/bytes"), "flow 0 size (bytes)")
        self.assertEqual(quantity("/cc/G"), "congestion control G")
        self.assertEqual(quantity("fct_us.p99"), "99th-percentile flow completion time (µs)")
        self.assertEqual(quantity("by_size.0-10KB.fct_us.mean"),
                         "mean flow completion time of 0-10KB flows (µs)")
        self.assertEqual(quantity("slowdown.p50"), "median slowdown (FCT / ideal FCT)")
        self.assertEqual(quantity("goodput_gbps"), "goodput (Gb/s)")

    def test_no_us_in_plot_text(self):
        # Microseconds are "µs" in every label, title and annotation the scripts draw.
        import re
        pattern = re.compile(r"\(us\)|[ (]us\b")
        drawing = re.compile(r"set_xlabel|set_ylabel|label=|set_title|annotate|\.text\(")
        bad = []
        package = os.path.join(HERE, "roce_lab")
        for name in (sorted(os.listdir(HERE))
                     + sorted("roce_lab/" + n for n in os.listdir(package))):
            if name.endswith(".py") and not name.startswith("test_"):
                with open(os.path.join(HERE, name), encoding="utf-8") as f:
                    bad += ["%s:%d: %s" % (name, n, line.strip())
                            for n, line in enumerate(f, 1)
                            if drawing.search(line) and pattern.search(line)]
        self.assertEqual(bad, [])


class StochasticDcqcn(unittest.TestCase):
    """dcqcn_stochastic.py's reaction point follows ns3::RdmaDcqcn's rules (the reference
    test/rdma/dcqcn-fluid-test.cc checks the simulator against at N = 4 and 8)."""

    def params(self):
        ns = argparse.Namespace(
            mode="closed", flows=4, rate_gbps=40.0, wire_bytes=1110.0, payload_bytes=1024.0,
            kmin_kb=40.0, kmax_kb=400.0, pmax=0.01, base_delay_us=4.0, cnp_us=50.0,
            alpha_us=55.0, timer_us=55.0, byte_counter=10e6, fr=5, rai_mbps=40.0,
            hai_mbps=200.0, min_rate_mbps=100.0, g=1 / 256)
        return dcqcn_stochastic.Params(ns)

    def test_cut_recovery_and_additive_increase(self):
        m = self.params()
        rp = dcqcn_stochastic.ReactionPoint(m, 10e9, 0.2)
        rp.tc = 1  # an increase since the last cut: the cut clamps R_T to R_C
        rp.cut(0.0)
        self.assertAlmostEqual(rp.rc, 9e9)
        self.assertAlmostEqual(rp.rt, 10e9)
        self.assertAlmostEqual(rp.alpha, 0.2 * (1 - 1 / 256) + 1 / 256)
        for k in range(1, 5):  # fast recovery: R_T fixed, the gap halves
            rp.timer_event(k * 55e-6)
            self.assertAlmostEqual(rp.rt, 10e9)
            self.assertAlmostEqual(10e9 - rp.rc, 1e9 / 2 ** k)
        rp.timer_event(5 * 55e-6)  # the fifth event: additive increase
        self.assertAlmostEqual(rp.rt, 10e9 + 40e6)
        self.assertAlmostEqual(rp.rt - rp.rc, (10e9 + 40e6 - (10e9 - 1e9 / 16)) / 2)

    def test_closed_loop_is_deterministic_and_marks_in_the_red_slope(self):
        m = self.params()
        a = dcqcn_stochastic.closed_loop(m, 7, 0.012, 0.006)
        b = dcqcn_stochastic.closed_loop(m, 7, 0.012, 0.006)
        self.assertEqual(a, b)
        self.assertGreater(a["queue_kb"], 40.0)
        self.assertGreater(a["cnps_per_s"], 0)
        self.assertLessEqual(a["cnps_per_s"], 1 / 50e-6)


class NodeEffects(unittest.TestCase):
    """analysis/node_effects.py on a hand-made run: pause origins and where they were
    received, cache miss rates per kind, collective times, slowdown by destination."""

    FILES = {
        "ports.csv": "node,port,peer_node,peer_port,rate_bps,delay_ns\n"
                     "h0,0,tor0,0,1,1\nh1,0,tor0,1,1,1\ntor0,0,h0,0,1,1\ntor0,1,h1,0,1,1\n"
                     "tor0,2,agg0,0,1,1\nagg0,0,tor0,2,1,1\n",
        "pfc.csv": "node,port,class,xoff_sent,xon_sent,xoff_received,paused_us\n"
                   "h0,0,3,5,5,0,0.000000\ntor0,0,3,0,0,5,12.500000\n"
                   "tor0,2,3,2,2,0,0.000000\nagg0,0,3,0,0,2,3.000000\n",
        "flows.csv": "id,src,dst,bytes,start_us,finish_us,fct_us,ideal_fct_us,slowdown,"
                     "retransmitted_packets,verb,priority,delivered_bytes\n"
                     "0,h1,h0,1,0,4,4,1,4.000000,0,write,3,1\n"
                     "1,h0,h1,1,0,1,1,1,1.000000,0,write,3,1\n"
                     "2,h0,h1,1,0,,,1,,0,write,3,0\n",
        "nodes.csv": "node,nic_profile,host_model,nic_cache,qpc_hits,qpc_misses,mtt_hits,"
                     "mtt_misses,wqe_hits,wqe_misses,cache_fill_bytes,pcie_read_bytes,"
                     "pcie_write_bytes,wqe_read_bytes\n"
                     "h0,,,srnic,99,1,99,1,0,0,420,,,\nh1,,,,,,,,,,,,,\n",
        "collectives.csv": "collective,type,over,ranks,kind,iteration,step,bytes,start_us,"
                           "end_us,duration_us,failed_messages\n"
                           "ar,ring_allreduce,qps,2,step,0,0,5,0.000000,3.000000,3.000000,\n"
                           "ar,ring_allreduce,qps,2,step,0,1,5,3.000000,4.000000,1.000000,\n"
                           "ar,ring_allreduce,qps,2,iteration,0,,10,0.000000,4.000000,"
                           "4.000000,0\n"
                           "ar,ring_allreduce,qps,2,iteration,1,,10,4.000000,,,0\n",
    }

    def test_report(self):
        out = write_dir("node-effects", self.FILES)
        r = subprocess.run([sys.executable, os.path.join(HERE, "node_effects.py"), out],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        text = r.stdout
        self.assertIn("h0 sent class 3: 5\n    received by tor0 port 0 class 3: 5 frames, "
                      "paused 12.5 us", text)
        self.assertIn("tor0 sent class 3: 2\n    received by agg0 port 0 class 3: 2 frames",
                      text)
        self.assertIn("srnic: 1 NICs; QPC 1 misses of 100 (1.00%)", text)
        self.assertIn("WQE 0 misses of 0", text)
        self.assertIn("ar (qps, 2 ranks, 10 B) iteration 0: 4.0 us, slowest step 0 3.0 us", text)
        self.assertIn("iteration 1: not finished", text)
        self.assertIn("(1 unfinished left out)", text)
        self.assertIn("to hosts that sent XOFF: 1 flows, median 4.00", text)
        self.assertIn("to the other hosts: 1 flows, median 1.00", text)

    def test_missing_directory_is_a_message(self):
        r = subprocess.run([sys.executable, os.path.join(HERE, "node_effects.py"),
                            os.path.join(WORK, "no-such-run")], capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("not found", r.stderr)


class MaestroScripts(unittest.TestCase):
    """maestro_transport.py and maestro_paths.py on hand-made collectives.csv / paths.csv."""

    COLLECTIVES = ("collective,type,over,ranks,kind,iteration,step,bytes,start_us,end_us,"
                   "duration_us,failed_messages\n"
                   "a,token_ring,qps,4,iteration,0,,2,100.0,300.0,200.0,0\n"
                   "a,token_ring,qps,4,iteration,1,,2,300.0,400.0,100.0,0\n"
                   "b,token_ring,maestro,4,iteration,0,,2,500.0,550.0,50.0,0\n"
                   "b,token_ring,maestro,4,iteration,1,,2,550.0,,,0\n"
                   "s,message_stream,maestro,2,message,0,,9,0.0,1.0,1.0,\n")

    def test_mean_ratio_and_cut_over_finished_iterations(self):
        d = write_dir("maestro-transport", {"collectives.csv": self.COLLECTIVES})
        lines = maestro_transport.report(maestro_transport.load(d))
        self.assertIn("a (token_ring over qps): 2 iterations, mean 150.000 us, total 300.000 us",
                      lines)
        # b's unfinished iteration is left out: mean 50 -> 3x faster, total 50 of 300
        self.assertIn("b vs a: mean 3.000x faster, total cut 83.33 %", lines)
        self.assertIn("s (message_stream over maestro): no finished iteration", lines)

    def test_steps_average_the_samples_ending_in_each_step(self):
        rows = ["collective,hop,time_us,path,via,bytes,gbps"]
        for t, g0, g1 in [(1000, 8, 0), (2000, 10, 0), (3000, 0, 9), (4000, 0, 9)]:
            rows.append("s,0,%d,0,spine0,0,%d" % (t, g0))
            rows.append("s,0,%d,1,spine1,0,%d" % (t, g1))
        d = write_dir("maestro-paths", {"paths.csv": "\n".join(rows) + "\n"})
        lines = maestro_paths.steps(maestro_paths.load(d), 2000)
        self.assertEqual(lines, [
            "step 0 (0-2 ms): spine0 9.00, spine1 0.00; total 9.00 Gb/s",
            "step 1 (2-4 ms): spine0 0.00, spine1 9.00; total 9.00 Gb/s"])

    def test_missing_file_is_a_message(self):
        for script in ("maestro_transport.py", "maestro_paths.py"):
            r = subprocess.run([sys.executable, os.path.join(HERE, script),
                                os.path.join(WORK, "no-such-run")], capture_output=True,
                               text=True)
            self.assertNotEqual(r.returncode, 0, script)
            self.assertIn("not found", r.stderr, script)


class SharedDefinitions(unittest.TestCase):
    """roce_lab.stats (percentiles, flow-size buckets) and roce_lab.csvfile (the CSV reader)
    that the analyses share."""

    def test_buckets_have_inclusive_upper_bounds(self):
        from roce_lab import stats
        self.assertEqual(stats.BUCKET_NAMES, ["0-10KB", "10KB-100KB", "100KB-1MB", "1MB+"])
        self.assertEqual([stats.bucket_name(b) for b in (1, 10000, 10001, 100000, 100001,
                                                         1000000, 1000001)],
                         ["0-10KB", "0-10KB", "10KB-100KB", "10KB-100KB", "100KB-1MB",
                          "100KB-1MB", "1MB+"])

    def test_percentiles(self):
        from roce_lab import stats
        values = [4.0, 1.0, 3.0, 2.0]
        # nearest-rank (summary.json's): the ceil(p/100 n)-th smallest
        self.assertEqual(stats.percentile(values, 50), 2.0)
        self.assertEqual(stats.percentile(values, 99), 4.0)
        self.assertEqual(stats.percentile(values, 0), 1.0)
        # node_effects' rule: index round(q (n - 1)), half to even
        self.assertEqual(stats.percentile(values, 50, stats.ROUNDED_INDEX), 3.0)
        self.assertEqual(stats.percentile([1.0, 2.0], 50, stats.ROUNDED_INDEX), 1.0)
        self.assertTrue(stats.percentile([], 50) != stats.percentile([], 50))  # NaN
        self.assertEqual(stats.describe(values, ("mean", "p50", "p99.9")),
                         {"mean": 2.5, "p50": 2.0, "p99.9": 4.0})
        self.assertEqual(stats.describe([], ("mean",)), {"mean": None})

    def test_csv_reader_names_file_line_and_column(self):
        from roce_lab import csvfile
        d = write_dir("csvfile", {"a.csv": "x,y\n1,2\n3,4\n", "empty.csv": "x,y\n"})
        path = os.path.join(d, "a.csv")
        self.assertEqual(list(csvfile.rows(path, ("x",))),
                         [(2, {"x": "1", "y": "2"}), (3, {"x": "3", "y": "4"})])
        self.assertEqual(csvfile.table(path), [{"x": "1", "y": "2"}, {"x": "3", "y": "4"}])
        self.assertIsNone(csvfile.table(os.path.join(d, "no.csv"), optional=True))
        with self.assertRaises(SystemExit) as e:
            csvfile.rows(path, ("x", "z"))
        self.assertEqual(str(e.exception), "%s: no column 'z' (columns: ['x', 'y'])" % path)
        with self.assertRaises(ValueError) as e:
            csvfile.rows(os.path.join(d, "no.csv"), missing="run it", error=ValueError)
        self.assertEqual(str(e.exception), "%s: not found (run it)" % os.path.join(d, "no.csv"))
        with self.assertRaises(SystemExit) as e:
            csvfile.read_rows(d, "empty.csv", ("x",), "prog")
        self.assertEqual(str(e.exception), "%s: no rows" % os.path.join(d, "empty.csv"))
        with self.assertRaises(SystemExit) as e:
            csvfile.parse(path, 3, lambda: int("x"))
        self.assertTrue(str(e.exception).startswith(path + ":3: invalid literal"))


if __name__ == "__main__":
    os.makedirs(WORK, exist_ok=True)
    unittest.main()
