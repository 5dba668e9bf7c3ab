"""Per-node effects of a roce-lab run: where PFC pauses originate and where they are
received, each NIC's on-chip cache miss rates, the collectives' times and the flows'
slowdown by destination.

usage: analysis/node_effects.py OUTDIR [--control DIR]

Reads OUTDIR's pfc.csv, ports.csv, flows.csv and, when the run wrote them, nodes.csv
(a "nodes" section) and collectives.csv (a "collectives" section), by column name, and
prints one table per effect:

* pauses: per node that sent PFC XOFF (hosts: their NIC; switches: the pause passed on
  upstream), the frames it sent on each class, and for each port that received them the
  receiving node and port and how long it was paused;
* caches: per nic_cache kind, the NICs and their QPC/MTT/WQE misses and miss rates
  (misses / lookups), and the NIC with the highest QPC miss rate;
* collectives: per collective and iteration, its communication time and its slowest step;
* flows: per destination group (hosts that sent XOFF, the others) the number of flows and
  their median and 99th-percentile slowdown.

With --control DIR (the same experiment without a cause, e.g. without the degraded hosts)
the tables of DIR follow, marked "control".
"""
import argparse
import pathlib

from . import csvfile
from .stats import ROUNDED_INDEX, percentile


def rows(outdir, name, required=True):
    path = pathlib.Path(outdir) / name
    return csvfile.table(path, missing=f"is {outdir} a roce-lab output directory?",
                         optional=not required)


def pauses(outdir):
    peer = {(r["node"], r["port"]): (r["peer_node"], r["peer_port"])
            for r in rows(outdir, "ports.csv")}
    sent = {}
    received = []
    for r in rows(outdir, "pfc.csv"):
        if int(r["xoff_sent"]) > 0:
            sent.setdefault(r["node"], {})[r["class"]] = int(r["xoff_sent"])
        if int(r["xoff_received"]) > 0:
            received.append(r)
    print("pauses (PFC XOFF): origin -> receiving port")
    if not sent:
        print("  none")
    for node in sorted(sent, key=lambda n: (n[0] != "h", n)):
        classes = ", ".join(f"class {c}: {n}" for c, n in sorted(sent[node].items()))
        print(f"  {node} sent {classes}")
        for r in received:
            if peer.get((r["node"], r["port"]), ("", ""))[0] == node:
                print(f"    received by {r['node']} port {r['port']} class {r['class']}: "
                      f"{r['xoff_received']} frames, paused {float(r['paused_us']):.1f} us")
    return set(n for n in sent if not n.startswith(("tor", "agg", "core", "s")))


def caches(outdir):
    nodes = rows(outdir, "nodes.csv", required=False)
    if not nodes:
        return
    print("NIC on-chip caches: misses / lookups")
    kinds = {}
    for r in nodes:
        if r["qpc_misses"] == "":
            continue
        kinds.setdefault(r["nic_cache"], []).append(r)
    if not kinds:
        print("  no NIC has a cache model")
    for kind, nics in sorted(kinds.items()):
        line = f"  {kind}: {len(nics)} NICs"
        for part in ("qpc", "mtt", "wqe"):
            hits = sum(int(r[part + "_hits"]) for r in nics)
            misses = sum(int(r[part + "_misses"]) for r in nics)
            rate = misses / (hits + misses) if hits + misses else 0.0
            line += f"; {part.upper()} {misses} misses of {hits + misses} ({rate:.2%})"
        fill = sum(int(r["cache_fill_bytes"]) for r in nics)
        print(line + f"; {fill} fill bytes")

        def qpc_rate(r):
            lookups = int(r["qpc_hits"]) + int(r["qpc_misses"])
            return int(r["qpc_misses"]) / lookups if lookups else 0.0
        # NICs with few lookups miss only on first touch: rank those with 100 or more.
        busy = [r for r in nics if int(r["qpc_hits"]) + int(r["qpc_misses"]) >= 100] or nics
        worst = max(busy, key=qpc_rate)
        print(f"    highest QPC miss rate (NICs with >= 100 lookups): {worst['node']} "
              f"{qpc_rate(worst):.2%} "
              f"({worst['qpc_misses']} of {int(worst['qpc_hits']) + int(worst['qpc_misses'])})")


def collectives(outdir):
    table = rows(outdir, "collectives.csv", required=False)
    if not table:
        return
    print("collectives: communication time per iteration")
    steps = {}
    for r in table:
        key = (r["collective"], r["iteration"])
        if r["kind"] == "step":
            steps.setdefault(key, []).append(r)
    for r in table:
        if r["kind"] != "iteration":
            continue
        key = (r["collective"], r["iteration"])
        if r["end_us"] == "":
            print(f"  {r['collective']} ({r['over']}, {r['ranks']} ranks) iteration "
                  f"{r['iteration']}: not finished")
            continue
        slow = max(steps.get(key, []), key=lambda s: float(s["duration_us"]), default=None)
        text = f", slowest step {slow['step']} {float(slow['duration_us']):.1f} us" if slow else ""
        print(f"  {r['collective']} ({r['over']}, {r['ranks']} ranks, {r['bytes']} B) "
              f"iteration {r['iteration']}: {float(r['duration_us']):.1f} us{text}")


def flows(outdir, slow_hosts):
    groups = {"to hosts that sent XOFF": [], "to the other hosts": []}
    unfinished = 0
    for r in rows(outdir, "flows.csv"):
        if r["slowdown"] == "":
            unfinished += 1
            continue
        group = "to hosts that sent XOFF" if r["dst"] in slow_hosts else "to the other hosts"
        groups[group].append(float(r["slowdown"]))
    print("flows: slowdown by destination" +
          (f" ({unfinished} unfinished left out)" if unfinished else ""))
    for name, values in groups.items():
        if values:
            median, p99 = (percentile(values, p, ROUNDED_INDEX) for p in (50, 99))
            print(f"  {name}: {len(values)} flows, median {median:.2f}, p99 {p99:.2f}")


def report(outdir, label):
    print(f"== {outdir}{label}")
    slow = pauses(outdir)
    caches(outdir)
    collectives(outdir)
    flows(outdir, slow)


def main(argv=None, prog=None):
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    parser.add_argument("outdir", help="a roce-lab output directory")
    parser.add_argument("--control", help="the control run's output directory")
    args = parser.parse_args(argv)
    report(args.outdir, "")
    if args.control:
        report(args.control, " (control)")


if __name__ == "__main__":
    main()
