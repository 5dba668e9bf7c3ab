#!/bin/sh
# The HPCC simulator's files run as they are: a mix/ folder (config.txt, topology.txt,
# flow.txt, trace.txt in that simulator's shape, test/dc-experiment/data/hpcc-mix) is
# copied unedited and run from its parent directory with "roce-run mix/config.txt".
#   hpcc-mix-folder-test.sh ROCE_RUN SOURCE_FOLDER WORK_DIR
. "$(dirname "$0")/hpcc-mix-run.sh"
# Paths: read from the working directory, as the HPCC simulator does, and said so.
for key in TOPOLOGY_FILE FLOW_FILE TRACE_FILE; do
    test "$(grep -c "config.txt:[0-9]*: $key mix/[a-z]*.txt: .* read from the working directory" stderr.txt)" -eq 1 ||
        fail "one line saying where $key was read from"
done
# What follows the announced links and flows is ignored, with one warning each.
test "$(grep -c 'topology.txt:7: 6 non-blank lines after the 4 links announced on line 1' stderr.txt)" -eq 1 ||
    fail "one warning for the lines after the topology's links"
test "$(grep -c 'flow.txt:5: 5 non-blank lines after the 3 flows announced on line 1' stderr.txt)" -eq 1 ||
    fail "one warning for the lines after the flows"
# The flow after the stop time is not started: on stderr and in summary.json.
grep -q '1 of the 3 flows of .*flow.txt (the first on .*flow.txt:4) starts at or after stop_time' stderr.txt ||
    fail "the flow after the stop time named on stderr"
grep -q '"not_started": {' out/summary.json || fail "summary.json not_started"
python3 -c 'import json,sys; s=json.load(open("out/summary.json")); sys.exit(0 if s["not_started"]["flows"] == 1 and s["flows"] == 2 else 1)' ||
    fail "summary.json: 2 flows run, 1 not started"
# Switch 0 comes first: the flows run between HPCC nodes 2 -> 1 and 3 -> 1 (hosts h2, h3, h1).
python3 - <<'PY' || fail "flows.csv: the flows run between the hosts the flow file names"
import csv, sys
rows = list(csv.DictReader(open("out/flows.csv")))
pairs = sorted((r["src"], r["dst"]) for r in rows)
sys.exit(0 if pairs == [("h2", "h1"), ("h3", "h1")] else print(pairs) or 1)
PY
# fct.txt labels the same nodes: 0b000201 (node 2) and 0b000301 (node 3) to 0b000101 (node 1).
test "$(cut -d' ' -f1,2 out/fct.txt | sort | tr '\n' ' ')" = "0b000201 0b000101 0b000301 0b000101 " ||
    fail "fct.txt names nodes 2 and 3 to node 1"
# ENABLE_TRACE 1: a pcap of the traced nodes 0 (the switch) and 4; node 9 is skipped.
grep -q 'ENABLE_TRACE 1: TRACE_FILE lists node ids that the topology does not have (9)' stderr.txt ||
    fail "node 9 skipped with a warning"
test -s out/pcap/s0-0.pcap || fail "pcap of switch 0"
test -f out/pcap/h4-0.pcap || fail "pcap of host 4"
# QLEN_MON_*: the queue monitor over that window (2 s to 2.0001 s).
python3 - <<'PY' || fail "queues.csv samples within the QLEN_MON window"
import csv, sys
t = [float(r["time_us"]) for r in csv.DictReader(open("out/queues.csv"))]
sys.exit(0 if t and min(t) > 2000000 and max(t) <= 2000100 else print(t[:3], t[-3:]) or 1)
PY
# Keys with no effect: named once on stderr.
test "$(grep -c 'no effect: .*TRACE_OUTPUT_FILE' stderr.txt)" -eq 1 || fail "TRACE_OUTPUT_FILE named once"
test "$(grep -o 'DCTCP_RATE_AI' stderr.txt | wc -l)" -eq 1 || fail "DCTCP_RATE_AI named once"
# A stop time shortened for a quick look, before every flow: the run ends there, each flow
# reported as not started.
sed 's/^SIMULATOR_STOP_TIME .*/SIMULATOR_STOP_TIME 0.02/' mix/config.txt > mix/short.txt
"$roce_run" mix/short.txt --out short > short-stdout.txt 2> short-stderr.txt ||
    fail "a stop time before every flow's start is allowed"
grep -q '^0 of 0 flows finished' short-stdout.txt || fail "no flow runs"
grep -q '3 of the 3 flows of .*flow.txt (the first on .*flow.txt:2) start at or after stop_time 20ms' short-stderr.txt ||
    fail "the flows after the stop time named on stderr"
python3 -c 'import json,sys; s=json.load(open("short/summary.json")); sys.exit(0 if s["not_started"]["flows"] == 3 else 1)' ||
    fail "summary.json: 3 flows not started"
echo "PASS"
