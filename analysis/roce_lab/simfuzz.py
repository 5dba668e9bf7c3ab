"""Whole-simulation invariant fuzzing: `./roce-lab fuzz --sim [SECONDS] [--seed N]`.

Generates random small experiments (topologies, transports and NIC profiles, congestion
controls, PFC on or off, faults, flows, collectives, host models), runs each with
roce-run and checks the invariants that must hold for every run (INVARIANTS below;
contrib/dc-experiment/doc/dc-experiment.md, "Reliability: invariant fuzzing").

Each case is a folder: config.json (the experiment), fuzz.json (what the generator
expects of it: may it deadlock, must every flow finish, must it lose nothing, which hosts
each flow joins) and the files the config names (an HPCC-format topology, a flow file,
a flow-size CDF, NIC profiles), all relative to it, so that a case can be copied into
test/sim-fuzz/cases/ and replayed anywhere with `--replay`. A case that breaks an
invariant is kept with its outputs and printed with the one command that reproduces it.
"""

import json
import math
import os
import random
import shutil
import subprocess
import sys
import time

GENERATOR_VERSION = 1

# name: what must hold. The doc's list is this one.
INVARIANTS = {
    "runs": "roce-run exits 0 within the time limit (no crash, abort or hang); a "
            "configuration error (exit 2) only where the generator said the case may be "
            "refused",
    "exactly_once": "every byte of every flow placed exactly once (summary.json "
                    "exactly_once.violation_count is 0)",
    "no_stall": "every flow ends (finished or failed) and every collective iteration "
                "finishes when the faults have ended and time is ample",
    "completes": "no flow fails (error completion: retries exceeded) unless a rate fault "
                 "slowed a link or PCIe, or flows of several classes share the fabric (a "
                 "class starved by a higher one may outlast the retry budget)",
    "lossless": "no packet dropped (summary.json drops, buffer and switch) with PFC on for "
                "every class in use and no loss, link-down or NIC-down fault",
    "no_deadlock": "no PFC deadlock reported on a topology without cycles in its "
                   "up-down routes (all but rings)",
    "rate_bound": "a flow into a host whose link (host_rate) or PCIe (pcie_rate) a fault "
                  "cut to R before the flow started takes at least half of bytes x 8 / R "
                  "(the fault acted)",
    "endpoints": "each flow of flows.csv joins the hosts the experiment named "
                 "(explicit flows and HPCC flow files)",
    "deterministic": "the same configuration and seed give byte-identical output files "
                     "on a rerun",
    "mpi_ranks": "1 and 2 MPI ranks give identical flows.csv, pfc.csv and summary.json "
                 "(only with an MPI build: ./roce-lab setup --mpi)",
}

# Defects known on main and being fixed (issue 33): `--skip-known` leaves out the cases
# whose features can meet them, so that a CI run is red only for something new. Remove an
# entry when its fix is merged (and move its cases from test/sim-fuzz/known/ to cases/).
KNOWN_DEFECTS = [
    ("hpcc-node-ids (issue 33, 1): HPCC flow files on topologies that number switches "
     "before hosts map flows to the wrong hosts, or refuse host ids",
     lambda f: "hpcc_flows" in f and ("hpcc_switches_first" in f or "hpcc_interleaved" in f)),
    ("selective-repeat-stall (issue 33, 2): IRN/SRNIC selective repeat can stall when the "
     "last ACKs are lost",
     lambda f: bool({"sr", "srnic", "profile_irn", "profile_srnic"} & f)
     and bool({"loss", "gilbert_elliott", "link_down", "nic_down", "pfc_off", "link_rate",
               "host_rate", "pcie_rate"} & f)),
    ("pcie-rate-ignored (issue 33, 4): pcie_rate on a host with a host model is recorded "
     "and has no effect", lambda f: "pcie_rate_on_host_model" in f),
    ("collective-psn-window (issue 33, 5): a collective over qps whose step passes the PSN "
     "window aborts", lambda f: "huge_collective" in f),
]


def known_defect(meta):
    """The first known defect a case's features can meet, or None."""
    f = set(meta.get("features", []))
    for name, can_meet in KNOWN_DEFECTS:
        if can_meet(f):
            return name
    return None


HOST_RATES = ["10Gbps", "25Gbps", "40Gbps", "100Gbps"]
FABRIC_RATES = ["40Gbps", "100Gbps", "200Gbps", "400Gbps"]
DELAYS = ["500ns", "1us", "2us"]
CCS = ["ns3::RdmaDcqcn", "ns3::RdmaDcqcnGen1", "ns3::RdmaDcqcnFirmware", "ns3::RdmaDctcp",
       "ns3::RdmaTimely", "ns3::RdmaSwift", "ns3::RdmaHpcc", "ns3::RdmaNoCongestionControl"]
LOSS_RECOVERY = {"gbn": "ns3::RdmaGoBackN", "sr": "ns3::RdmaSelectiveRepeat",
                 "srnic": "ns3::RdmaSrnicSelectiveRepeat"}
PRESETS = ["Cx6", "Irn", "Srnic"]
# Outages (link or NIC down) stay below what every transport survives: 7 timeouts in a
# row fail a QP, and the shortest timeout generated is 100 us (selective repeat's RtoLow).
MAX_OUTAGE_US = 300


def rate_bps(text):
    units = {"Gbps": 1e9, "Mbps": 1e6, "Kbps": 1e3, "bps": 1}
    for u, m in units.items():
        if text.endswith(u):
            return float(text[: -len(u)]) * m
    raise ValueError(text)


def us(value):
    """A duration string in microseconds (integers, or up to 3 decimals: whole ns)."""
    return ("%.3f" % value).rstrip("0").rstrip(".") + "us"


# ----------------------------------------------------------------------------- topologies


class Topology:
    """What the generator needs to know of a topology: the JSON, hosts (names), the ToR
    of each host, switch-switch links, files to write, and whether its routes can form
    a cyclic buffer dependency (rings)."""

    def __init__(self, shape, json_obj, hosts, tor_of, fabric_links, cyclic=False,
                 files=None, host_ids=None, switch_ids=None):
        self.shape = shape
        self.json = json_obj
        self.hosts = hosts
        self.tor_of = tor_of
        self.fabric_links = fabric_links
        self.cyclic = cyclic
        self.files = files or {}
        self.host_ids = host_ids  # HPCC files: host name -> node id
        self.switch_ids = switch_ids


def rates(r, obj):
    obj["host_link_rate"] = r.choice(HOST_RATES)
    obj["fabric_link_rate"] = r.choice(FABRIC_RATES)
    obj["link_delay"] = r.choice(DELAYS)
    return obj


def gen_dumbbell(r):
    n = r.randint(1, 8)
    hosts = ["h%d" % i for i in range(2 * n)]
    tor_of = {h: "s%d" % (i // n) for i, h in enumerate(hosts)}
    obj = rates(r, {"type": "dumbbell", "hosts_per_side": n})
    return Topology("dumbbell", obj, hosts, tor_of, [("s0", "s1")])


def gen_leaf_spine(r):
    leaves, spines = r.randint(2, 4), r.randint(1, 3)
    k = r.randint(1, 32 // leaves)
    hosts = ["h%d" % i for i in range(leaves * k)]
    tor_of = {h: "s%d" % (i // k) for i, h in enumerate(hosts)}
    links = [("s%d" % l, "s%d" % (leaves + s)) for l in range(leaves) for s in range(spines)]
    obj = rates(r, {"type": "leaf_spine", "leaves": leaves, "spines": spines,
                    "hosts_per_leaf": k})
    return Topology("leaf_spine", obj, hosts, tor_of, links)


def gen_fat_tree(r):
    # k = 4 (Al-Fares): 4 pods x (2 ToRs + 2 Aggs), 2 hosts per ToR, 4 cores, 16 hosts.
    hosts = ["h%d" % i for i in range(16)]
    tor_of = {h: "tor%d" % (i // 2) for i, h in enumerate(hosts)}
    links = []
    for t in range(8):
        p = t // 2
        links += [("tor%d" % t, "agg%d" % (2 * p + j)) for j in range(2)]
    for a in range(8):
        j = a % 2
        links += [("agg%d" % a, "core%d" % (2 * j + c)) for c in range(2)]
    obj = rates(r, {"type": "fat_tree", "k": 4})
    return Topology("fat_tree", obj, hosts, tor_of, links)


def gen_ring(r):
    n, m = r.randint(3, 6), r.randint(1, 3)
    switches = ["s%d" % i for i in range(n)]
    hosts = ["h%d" % i for i in range(n * m)]
    tor_of = {h: switches[i % n] for i, h in enumerate(hosts)}
    fabric = [(switches[i], switches[(i + 1) % n]) for i in range(n)]
    links = [{"a": h, "b": tor_of[h]} for h in hosts] + [{"a": a, "b": b} for a, b in fabric]
    obj = {"type": "custom", "link_rate": r.choice(HOST_RATES), "link_delay": r.choice(DELAYS),
           "switches": switches, "hosts": hosts, "links": links}
    return Topology("ring", obj, hosts, tor_of, fabric, cyclic=True)


def gen_hpcc_file(r):
    """An HPCC-format topology (one switch, or a leaf-spine) whose node ids are numbered
    hosts first, switches first, or interleaved at random (the HPCC simulator's own
    mix/topology.txt numbers its switch 0)."""
    leaves = r.choice([1, 2, 3])
    spines = 0 if leaves == 1 else r.randint(1, 2)
    k = r.randint(1 if leaves > 1 else 2, 6)
    nh, ns = leaves * k, leaves + spines
    numbering = r.choice(["hosts_first", "switches_first", "interleaved"])
    order = ["H%d" % i for i in range(nh)] + ["S%d" % i for i in range(ns)]
    if numbering == "switches_first":
        order = order[nh:] + order[:nh]
    elif numbering == "interleaved":
        r.shuffle(order)
    node_id = {node: i for i, node in enumerate(order)}
    host_rate, fabric_rate = r.choice(HOST_RATES), r.choice(FABRIC_RATES)
    delay = r.choice(["1000ns", "0.001ms", "500ns"])
    links = []
    for i in range(nh):
        links.append((node_id["H%d" % i], node_id["S%d" % (i // k)], host_rate))
    for l in range(leaves):
        for s in range(spines):
            links.append((node_id["S%d" % l], node_id["S%d" % (leaves + s)], fabric_rate))
    r.shuffle(links)
    switch_ids = sorted(node_id["S%d" % i] for i in range(ns))
    text = "%d %d %d\n%s\n" % (nh + ns, ns, len(links), " ".join(map(str, switch_ids)))
    text += "".join("%d %d %s %s 0\n" % (a, b, rate, delay) for a, b, rate in links)
    host_ids = {"h%d" % node_id["H%d" % i]: node_id["H%d" % i] for i in range(nh)}
    # Hosts are named h<id> and numbered in id order.
    hosts = sorted(host_ids, key=lambda h: host_ids[h])
    tor_of = {"h%d" % node_id["H%d" % i]: "s%d" % node_id["S%d" % (i // k)] for i in range(nh)}
    fabric = [("s%d" % node_id["S%d" % l], "s%d" % node_id["S%d" % (leaves + s)])
              for l in range(leaves) for s in range(spines)]
    obj = {"type": "file", "format": "hpcc", "path": "topology.txt"}
    t = Topology("hpcc_" + numbering, obj, hosts, tor_of, fabric,
                 files={"topology.txt": text}, host_ids=host_ids, switch_ids=switch_ids)
    return t


TOPOLOGIES = [(gen_dumbbell, 3), (gen_leaf_spine, 4), (gen_fat_tree, 2), (gen_ring, 2),
              (gen_hpcc_file, 3)]


def weighted(r, items):
    total = sum(w for _, w in items)
    x = r.uniform(0, total)
    for item, w in items:
        x -= w
        if x <= 0:
            return item
    return items[-1][0]


# ----------------------------------------------------------------------------- cases


def log_uniform_int(r, lo, hi):
    return int(round(math.exp(r.uniform(math.log(lo), math.log(hi)))))


class Generator:
    """One random case from one seed: Generator(seed).case() is a pure function of seed."""

    def __init__(self, seed):
        self.seed = seed
        self.r = random.Random(seed)
        self.features = []

    def case(self):
        r = self.r
        topo = weighted(r, TOPOLOGIES)(r)
        self.features.append(topo.shape)
        config = {"description": "sim-fuzz case, generator %d, seed %d (%s)"
                  % (GENERATOR_VERSION, self.seed, topo.shape),
                  "seed": r.randint(1, 1000), "progress": False, "topology": topo.json}
        files = dict(topo.files)
        expect = {"complete": True, "lossless": True, "deadlock_free": not topo.cyclic,
                  "may_refuse": None, "endpoints": []}

        # PFC on or off (off: no lossless class anywhere, full buffers drop).
        pfc = r.random() < 0.65
        if not pfc:
            config["buffer"] = {"LosslessClasses": 0}
            self.features.append("pfc_off")
            expect["lossless"] = False

        groups = self.transport(config, files, topo, expect)
        self.host_models(config, topo, groups)
        hosts_in = [g["hosts"] for g in groups]

        # Flows: explicit flows between hosts of one transport group; flow sets and
        # generated workloads only with one group.
        classes = set()
        flows = []
        for _ in range(r.randint(0 if len(hosts_in[0]) > 1 else 1, 8)):
            g = r.choice([h for h in hosts_in if len(h) >= 2])
            src, dst = r.sample(g, 2)
            f = {"src": src, "dst": dst, "bytes": log_uniform_int(r, 1, 2000000)}
            if r.random() < 0.5:
                f["start"] = us(r.uniform(0, 50))
            verb = r.choice(["write", "write", "send", "read"])
            if verb != "write":
                f["verb"] = verb
            if r.random() < 0.2:
                f["priority"] = r.choice([1, 4])
            if r.random() < 0.15 and f["bytes"] >= 2:
                f["message_bytes"] = r.randint(1, f["bytes"])
                f["outstanding"] = r.randint(1, 4)
                self.features.append("stream")
            classes.add(f.get("priority", 3))
            flows.append(f)
            expect["endpoints"].append([src, dst])
        if flows:
            config["flows"] = flows
        if len(groups) == 1 and len(topo.hosts) <= 16 and r.random() < 0.25:
            config["flow_sets"] = [self.flow_set(topo, expect)]
            classes.add(config["flow_sets"][0].get("priority", 3))
        if topo.host_ids and r.random() < 0.6 and len(groups) == 1:
            self.hpcc_flows(config, files, topo, expect)
            classes.add(3)
        if len(groups) == 1 and r.random() < 0.12:
            files["sizes.cdf"] = "# sim-fuzz flow sizes\n1000 0\n10000 50\n100000 90\n400000 100\n"
            config["workload"] = {"type": "poisson", "cdf": "sizes.cdf",
                                  "load": round(r.uniform(0.05, 0.5), 3),
                                  "duration": us(r.uniform(2, 20))}
            self.features.append("workload")
            classes.add(3)
        if r.random() < 0.3:
            self.collective(config, groups, expect)
            classes.add(3)
        # (a short workload may draw no flow at all)
        if not flows and "flow_sets" not in config and "flows_file" not in config \
                and "collectives" not in config:
            src, dst = r.sample(hosts_in[0], 2)
            config["flows"] = [{"src": src, "dst": dst, "bytes": r.randint(1, 100000)}]
            expect["endpoints"].append([src, dst])
            classes.add(3)
        if classes - {3, 4}:
            expect["lossless"] = False

        self.faults(config, topo, groups, expect)
        config["monitors"] = {"deadlock": {"CheckInterval": "50us", "StopOnDeadlock": True}}
        # Ample time: the IBTA timeout of the cx6 profile is 67 ms a try.
        slow = any(g.get("slow_timeout") for g in groups)
        config["stop_time"] = "2s" if slow else "300ms"
        if expect.get("short_stop"):
            config["stop_time"] = expect.pop("short_stop")
        features = list(dict.fromkeys(self.features))  # once each, in order
        meta = {"generator": GENERATOR_VERSION, "seed": self.seed, "features": features,
                "expect": expect}
        return config, files, meta

    def transport(self, config, files, topo, expect):
        """Top-level sections (loss recovery, congestion control) or NIC profiles in
        `nodes` (one profile for all hosts, or two profiles on two sets of hosts with
        flows only inside each)."""
        r = self.r
        if r.random() < 0.5:
            lr = r.choice(list(LOSS_RECOVERY))
            config["loss_recovery"] = {"type": LOSS_RECOVERY[lr]}
            if lr == "gbn":
                config["loss_recovery"]["AckTimeoutExponent"] = r.randint(6, 10)
            if lr == "srnic":
                config["qp"] = {"SrnicHeaderExtensions": True}
            config["cc"] = {"type": r.choice(CCS)}
            self.features += [lr, config["cc"]["type"].replace("ns3::Rdma", "").lower()]
            return [{"hosts": list(topo.hosts)}]
        presets = [r.choice(PRESETS)]
        if len(topo.hosts) >= 4 and r.random() < 0.3:
            presets.append(r.choice([p for p in PRESETS if p != presets[0]]))
        hosts = list(topo.hosts)
        if len(presets) == 2:
            r.shuffle(hosts)
            cut = r.randint(2, len(hosts) - 2)
            parts = [sorted(hosts[:cut], key=topo.hosts.index),
                     sorted(hosts[cut:], key=topo.hosts.index)]
        else:
            parts = [hosts]
        groups, nodes = [], []
        for preset, part in zip(presets, parts):
            profile = {"description": "sim-fuzz profile: the %s preset" % preset,
                       "preset": preset}
            slow = False
            if preset == "Cx6":
                profile["loss_recovery"] = {"AdaptiveRetransmission": False}
                if r.random() < 0.6:
                    profile["loss_recovery"]["AckTimeoutExponent"] = r.randint(6, 10)
                else:
                    slow = True  # the IBTA default, 67 ms
            name = "profile-%s.json" % preset.lower()
            files[name] = json.dumps(profile, indent=1) + "\n"
            sel = "all" if len(presets) == 1 else part
            nodes.append({"hosts": sel, "nic_profile": name})
            groups.append({"hosts": part, "preset": preset, "slow_timeout": slow})
            self.features.append("profile_" + preset.lower())
        config["nodes"] = nodes
        return groups

    def host_models(self, config, topo, groups):
        r = self.r
        if r.random() > 0.2:
            return
        chosen = r.sample(topo.hosts, r.randint(1, min(4, len(topo.hosts))))
        entry = {"hosts": chosen, "host_model": "plain"}
        if r.random() < 0.5:
            entry["host_model"] = {"preset": "plain",
                                   "resources": {"pcie-rnic0": {"Lanes": r.choice([4, 8])}}}
        config.setdefault("nodes", []).append(entry)
        self.features.append("host_model")
        if r.random() < 0.3:
            config["nodes"].append({"hosts": r.sample(topo.hosts, 1),
                                    "nic_cache": r.choice(["cx6", "srnic"])})
            self.features.append("nic_cache")
        self.model_hosts = set(chosen)

    def flow_set(self, topo, expect):
        r = self.r
        nbytes = log_uniform_int(r, 1, 300000)
        if r.random() < 0.5:
            dst = r.choice(topo.hosts)
            fs = {"type": "incast", "dst": dst, "bytes": nbytes}
            others = [h for h in topo.hosts if h != dst]
            if r.random() < 0.5:
                fs["senders"] = r.sample(others, r.randint(1, len(others)))
            count = len(fs.get("senders", others))
            expect["endpoints"] += [[s, dst] for s in fs.get("senders", others)]
            self.features.append("incast")
        else:
            fs = {"type": "permutation_background", "bytes": nbytes}
            count = len(topo.hosts)
            expect["endpoints"] += [None] * count
            self.features.append("permutation")
        del count
        return fs

    def hpcc_flows(self, config, files, topo, expect):
        """An HPCC-format flow file: src and dst are the topology file's node ids."""
        r = self.r
        lines = []
        for _ in range(r.randint(1, 6)):
            src, dst = r.sample(topo.hosts, 2)
            start = 2.0 + r.randint(0, 50) * 1e-6
            lines.append("%d %d 3 100 %d %.6f" % (topo.host_ids[src], topo.host_ids[dst],
                                                   log_uniform_int(r, 1, 500000), start))
            expect["endpoints"].append([src, dst])
        files["flows.txt"] = "%d\n%s\n" % (len(lines), "\n".join(lines))
        config["flows_file"] = {"path": "flows.txt", "format": "hpcc", "time_origin": "2s"}
        self.features.append("hpcc_flows")

    def collective(self, config, groups, expect):
        r = self.r
        g = r.choice([g for g in groups if len(g["hosts"]) >= 2])
        ranks = r.sample(g["hosts"], r.randint(2, min(4, len(g["hosts"]))))
        kind = r.choice(["ring_allreduce", "allgather", "token_ring"])
        c = {"type": kind, "hosts": ranks, "over": r.choice(["qps", "maestro"])}
        if kind == "token_ring":
            c["bytes"] = r.randint(1, 4096)
            c["iterations"] = r.randint(1, 5)
        else:
            c["bytes"] = log_uniform_int(r, 1, 1000000)
            c["iterations"] = r.randint(1, 2)
        if r.random() < 0.5:
            c["start"] = us(r.uniform(0, 30))
        if c["over"] == "qps" and kind != "token_ring" and r.random() < 0.04:
            # A legal size whose step passes the 24-bit PSN window: must be split or
            # refused, never abort. A short run: it cannot finish.
            c["bytes"] = r.randint(len(ranks) * (1 << 33), 1 << 40)
            expect["may_refuse"] = ["/collectives/0", "a collective step beyond the PSN "
                                    "window may be refused"]
            expect["complete"] = False
            expect["short_stop"] = "100us"
            self.features.append("huge_collective")
        config["collectives"] = [c]
        self.features.append("collective_" + c["over"])

    def faults(self, config, topo, groups, expect):
        r = self.r
        if r.random() > 0.45:
            return
        faults = {}
        if r.random() < 0.6:
            entry = {"links": r.choice(["fabric", "hosts", "all"] if topo.fabric_links
                                       else ["hosts", "all"])}
            if r.random() < 0.5:
                entry["rate"] = r.choice([1e-4, 1e-3, 3e-3, 1e-2])
                self.features.append("loss")
            else:
                entry["gilbert_elliott"] = {"p": r.choice([1e-4, 1e-3, 1e-2]),
                                            "r": r.choice([0.2, 0.5, 0.9])}
                self.features.append("gilbert_elliott")
            if r.random() < 0.3:
                entry["classes"] = [3]
            faults["loss"] = [entry]
            expect["lossless"] = False
        events = []
        outage = 0.0
        for _ in range(r.randint(0 if faults else 1, 3)):
            kind = r.choice(["link_down", "link_rate", "host_rate", "pcie_rate", "nic_down"])
            t = 0.0 if kind in ("host_rate", "pcie_rate") and r.random() < 0.4 \
                else r.uniform(0, 100)
            if kind == "link_down" and topo.fabric_links:
                d = r.uniform(5, MAX_OUTAGE_US - outage)
                if d < 5:
                    continue
                outage += d
                link = list(r.choice(topo.fabric_links))
                events.append({"time": us(t), "kind": "link_down", "link": link})
                events.append({"time": us(t + d), "kind": "link_up", "link": link})
                expect["lossless"] = False
                self.features.append("link_down")
            elif kind == "link_rate" and topo.fabric_links:
                link = list(r.choice(topo.fabric_links))
                events.append({"time": us(t), "kind": "link_rate", "link": link,
                               "rate": r.choice(["1Gbps", "10Gbps", "50Gbps"])})
                self.features.append("link_rate")
            elif kind == "host_rate":
                events.append({"time": us(t), "kind": "host_rate",
                               "host": r.choice(topo.hosts),
                               "rate": r.choice(["1Gbps", "5Gbps", "20Gbps"])})
                self.features.append("host_rate")
            elif kind == "pcie_rate":
                host = r.choice(topo.hosts)
                events.append({"time": us(t), "kind": "pcie_rate", "host": host,
                               "rate": r.choice(["2Gbps", "10Gbps", "40Gbps"])})
                if host in getattr(self, "model_hosts", ()):
                    expect["may_refuse"] = ["/faults/events/", "pcie_rate on a host with a "
                                            "host model is refused"]
                    self.features.append("pcie_rate_on_host_model")
                self.features.append("pcie_rate")
            elif kind == "nic_down":
                d = r.uniform(5, MAX_OUTAGE_US - outage)
                if d < 5:
                    continue
                outage += d
                host = r.choice(topo.hosts)
                events.append({"time": us(t), "kind": "nic_down", "host": host})
                events.append({"time": us(t + d), "kind": "nic_up", "host": host})
                expect["lossless"] = False
                self.features.append("nic_down")
        if events:
            faults["events"] = events
        if faults:
            config["faults"] = faults


def generate(seed):
    """(config, files, meta) of the case of this seed."""
    return Generator(seed).case()


def case_seed(seed, index):
    """The generator seed of case INDEX of a campaign started with --seed SEED."""
    return seed * 1000003 + index


def write_case(folder, config, files, meta):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(config, f, indent=1)
        f.write("\n")
    with open(os.path.join(folder, "fuzz.json"), "w") as f:
        json.dump(meta, f, indent=1)
        f.write("\n")
    for name, text in files.items():
        with open(os.path.join(folder, name), "w") as f:
            f.write(text)


# ----------------------------------------------------------------------------- checks


def read_csv(path):
    import csv
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def duration_us(text):
    for unit, scale in (("ps", 1e-6), ("ns", 1e-3), ("us", 1.0), ("ms", 1e3), ("s", 1e6)):
        if text.endswith(unit) and text[: -len(unit)].replace(".", "", 1).isdigit():
            value = float(text[: -len(unit)]) * scale
    return value


def rate_bound(config, flows):
    """The rate_bound invariant on the explicit flows (flows.csv's first rows)."""
    events = (config.get("faults") or {}).get("events", [])
    v = []
    for i, f in enumerate(config.get("flows", [])):
        if i >= len(flows) or not flows[i].get("fct_us") or f["bytes"] < 50000:
            continue
        start = duration_us(f.get("start", "0us"))
        for kind in ("host_rate", "pcie_rate"):
            hits = [e for e in events if e["kind"] == kind
                    and (e["host"] == f["dst"] or (kind == "host_rate" and e["host"] == f["src"]))]
            if len(hits) != 1 or duration_us(hits[0]["time"]) > start:
                continue
            bound = f["bytes"] * 8 / rate_bps(hits[0]["rate"]) * 1e6
            if float(flows[i]["fct_us"]) < 0.5 * bound:
                v.append(("rate_bound", "flow %d (%s->%s, %d B) took %s us; %s %s of %s at %s "
                          "before its start allows no less than %.1f us"
                          % (i, f["src"], f["dst"], f["bytes"], flows[i]["fct_us"], kind,
                             hits[0]["rate"], hits[0]["host"], hits[0]["time"], bound)))
    return v


def output_files(d):
    out = {}
    for root, _, names in os.walk(d):
        for n in names:
            p = os.path.join(root, n)
            with open(p, "rb") as f:
                out[os.path.relpath(p, d)] = f.read()
    return out


class Runner:
    """Runs roce-run on a case folder and checks the invariants."""

    def __init__(self, roce_run, time_limit=60.0, mpi_run=None, inject=None):
        self.roce_run = roce_run
        self.time_limit = time_limit
        self.mpi_run = mpi_run
        self.inject = inject or set()

    def run(self, folder, out_name, program=None, np=None):
        out = os.path.join(folder, out_name)
        if os.path.isdir(out):
            shutil.rmtree(out)
        cmd = [program or self.roce_run, "config.json", "--out", out_name]
        if np:
            cmd = ["mpirun", "-np", str(np), "--oversubscribe"] + (
                ["--allow-run-as-root"] if os.geteuid() == 0 else []) + cmd
        start = time.monotonic()
        try:
            p = subprocess.run(cmd, cwd=folder, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, timeout=self.time_limit)
            rc, text = p.returncode, p.stdout.decode(errors="replace")
        except subprocess.TimeoutExpired as e:
            rc, text = None, (e.stdout or b"").decode(errors="replace")
        return rc, text, time.monotonic() - start

    def check(self, folder, determinism=False):
        """The invariants' verdicts on one case folder: (violations, notes, seconds)."""
        with open(os.path.join(folder, "fuzz.json")) as f:
            meta = json.load(f)
        expect = meta["expect"]
        violations, notes = [], []
        rc, text, seconds = self.run(folder, "run")
        with open(os.path.join(folder, "run.log"), "w") as f:
            f.write(text)
        tail = " | ".join(text.strip().splitlines()[-3:])[:400]
        if rc is None:
            return [("runs", "no exit within %.0f s (hang)" % self.time_limit)], notes, seconds
        refusable = expect.get("may_refuse")  # [pointer the error names, why]
        if rc == 2 and refusable and refusable[0] in text:
            notes.append("refused (%s): %s" % (refusable[1], tail))
            return violations, notes, seconds
        if rc != 0:
            what = "exit status %d" % rc if rc > 0 else "killed by signal %d" % -rc
            violations.append(("runs", "%s: %s" % (what, tail)))
        out = os.path.join(folder, "run")
        summary_path = os.path.join(out, "summary.json")
        if not os.path.isfile(summary_path):
            if rc == 0:
                violations.append(("runs", "exit 0 but no summary.json"))
            return violations, notes, seconds
        with open(summary_path) as f:
            summary = json.load(f)
        flows = read_csv(os.path.join(out, "flows.csv"))
        if "exactly_once" in self.inject:
            summary["exactly_once"] = {"checked": 1, "violation_count": 1,
                                       "violations": [{"flow": 0, "finished": True,
                                                       "reason": "injected"}]}
        with open(os.path.join(folder, "config.json")) as f:
            config = json.load(f)
        violations += self.invariants(summary, flows, expect, config)
        violations += rate_bound(config, flows)
        if determinism and rc == 0:
            first = output_files(out)
            moved = out + "-first"
            if os.path.isdir(moved):
                shutil.rmtree(moved)
            os.rename(out, moved)
            rc2, text2, s2 = self.run(folder, "run")
            seconds += s2
            second = output_files(out)
            if "deterministic" in self.inject:
                second["flows.csv"] = b"injected"
            if rc2 != rc:
                violations.append(("deterministic", "rerun exit status %s, first 0" % rc2))
            else:
                differ = sorted(n for n in set(first) | set(second)
                                if first.get(n) != second.get(n))
                if differ:
                    violations.append(("deterministic", "rerun differs in %s"
                                       % ", ".join(differ[:6])))
            shutil.rmtree(moved)
        return violations, notes, seconds

    def invariants(self, summary, flows, expect, config):
        v = []
        eo = summary.get("exactly_once", {})
        if eo.get("violation_count", 0):
            first = (eo.get("violations") or [{}])[0]
            v.append(("exactly_once", "%d flows violate it (first: flow %s, %s)"
                      % (eo["violation_count"], first.get("flow"), first.get("reason"))))
        deadlocks = (summary.get("deadlocks") or {}).get("count", 0)
        if deadlocks and expect.get("deadlock_free", True):
            v.append(("no_deadlock", "%d deadlocks reported" % deadlocks))
        if expect.get("complete") and not (deadlocks and not expect.get("deadlock_free")):
            # summary.json's "unfinished" counts the failed flows too.
            stalled = (summary.get("unfinished") or 0) - (summary.get("failed") or 0)
            if stalled > 0:
                unended = [f for f in flows if not f.get("finish_us")]
                first = unended[0] if unended else {}
                v.append(("no_stall", "%s of %s flows never ended (first without a finish: "
                          "flow %s %s->%s, %s "
                          "of %s bytes placed); run ended at %s us"
                          % (stalled, summary.get("flows"), first.get("id"),
                             first.get("src"), first.get("dst"),
                             first.get("delivered_bytes"), first.get("bytes"),
                             summary.get("end_time_us"))))
            for c in summary.get("collectives", []):
                if c.get("finished_iterations") != c.get("iterations"):
                    v.append(("no_stall", "collective %s: %s of %s iterations finished, %s "
                              "failed messages" % (c.get("name"), c.get("finished_iterations"),
                                                   c.get("iterations"),
                                                   c.get("failed_messages"))))
            rate_cut = any(e["kind"] in ("link_rate", "host_rate", "pcie_rate")
                           for e in (config.get("faults") or {}).get("events", []))
            classes = {f.get("priority", 3) for key in ("flows", "flow_sets")
                       for f in config.get(key, [])}
            classes |= {config["workload"].get("priority", 3)} if "workload" in config else set()
            classes |= {3} if config.get("collectives") or config.get("flows_file") else set()
            if summary.get("failed") and not rate_cut and len(classes) == 1:
                v.append(("completes", "%s of %s flows failed (error completion) with one "
                          "class, no rate cut and outages below the retry budget"
                          % (summary.get("failed"), summary.get("flows"))))
        if expect.get("lossless"):
            drops = summary.get("drops", {})
            n = sum(sum(d.values()) for d in drops.values() if isinstance(d, dict))
            if n:
                what = ", ".join("%s %s %d" % (k, r, c) for k, d in drops.items()
                                 if isinstance(d, dict) for r, c in d.items() if c)
                v.append(("lossless", "%d drops with PFC on and no loss fault (%s)"
                          % (n, what)))
        ends = expect.get("endpoints") or []
        for i, pair in enumerate(ends):
            if pair is None or i >= len(flows):
                continue
            got = [flows[i]["src"], flows[i]["dst"]]
            if got != pair:
                v.append(("endpoints", "flow %d runs %s->%s, the experiment named %s->%s"
                          % (i, got[0], got[1], pair[0], pair[1])))
                break
        if len(flows) < len([p for p in ends]):
            v.append(("endpoints", "%d flows in flows.csv, the experiment has %d"
                      % (len(flows), len(ends))))
        return v

    def check_mpi(self, folder):
        """1 and 2 ranks of the MPI build: identical flows.csv, pfc.csv, summary.json.
        None when the case cannot run distributed (a configuration error at np 1)."""
        rc1, _, s1 = self.run(folder, "mpi-1", self.mpi_run, 1)
        if rc1 != 0:
            return None, s1
        rc2, text, s2 = self.run(folder, "mpi-2", self.mpi_run, 2)
        if rc2 != 0:
            return [("mpi_ranks", "2 ranks: exit %s: %s" % (rc2, text.strip()[-200:]))], s1 + s2
        v = []
        for n in ("flows.csv", "pfc.csv", "summary.json"):
            a = open(os.path.join(folder, "mpi-1", n), "rb").read()
            b = open(os.path.join(folder, "mpi-2", n), "rb").read()
            if a != b:
                v.append(("mpi_ranks", "%s differs between 1 and 2 ranks" % n))
        return v, s1 + s2


# ----------------------------------------------------------------------------- shrinking


def _pairs(events):
    """Timed faults grouped so that an outage's down and up go together."""
    groups, open_ = [], {}
    for i, e in enumerate(events):
        key = (e["kind"].split("_")[0], json.dumps(e.get("link", e.get("host"))))
        if e["kind"] in ("link_down", "nic_down"):
            open_[key] = len(groups)
            groups.append([i])
        elif e["kind"] in ("link_up", "nic_up") and key in open_:
            groups[open_.pop(key)].append(i)
        else:
            groups.append([i])
    return groups


def _candidates(config, meta, keep_flows):
    """Smaller variants of a case: (what was removed, config, meta)."""
    import copy
    for key in ("workload", "flow_sets", "flows_file", "collectives", "nodes", "buffer", "cc"):
        if key in config and not (keep_flows and key in ("flow_sets", "flows_file")):
            c = copy.deepcopy(config)
            del c[key]
            yield key, c, meta
    lists = [("faults", "loss"), (None, "nodes"), (None, "collectives")]
    if not keep_flows:
        lists.append((None, "flows"))
    for parent, key in lists:
        holder = config.get(parent, {}) if parent else config
        items = holder.get(key) or []
        for i in range(len(items)):
            c = copy.deepcopy(config)
            h = c[parent] if parent else c
            del h[key][i]
            if not h[key]:
                del h[key]
            m = meta
            if key == "flows":
                m = copy.deepcopy(meta)
                del m["expect"]["endpoints"][i]
            yield "%s/%s/%d" % (parent or "", key, i), c, m
    events = config.get("faults", {}).get("events", [])
    for group in _pairs(events):
        c = copy.deepcopy(config)
        c["faults"]["events"] = [e for i, e in enumerate(events) if i not in group]
        if not c["faults"]["events"]:
            del c["faults"]["events"]
        yield "faults/events/%s" % ",".join(map(str, group)), c, meta
    if "faults" in config and not config["faults"]:
        c = copy.deepcopy(config)
        del c["faults"]
        yield "faults", c, meta
    for i, f in enumerate(config.get("flows", [])):
        for k in ("message_bytes", "start", "verb", "priority"):
            if k in f:
                c = copy.deepcopy(config)
                del c["flows"][i][k]
                if k == "message_bytes":
                    c["flows"][i].pop("outstanding", None)
                yield "flows/%d/%s" % (i, k), c, meta


def shrink(runner, folder, files, violations, budget=90.0):
    """Greedily remove parts of a failing case while the same invariant still fails;
    the smallest one is written to FOLDER-min. Returns that folder, or None."""
    with open(os.path.join(folder, "config.json")) as f:
        config = json.load(f)
    with open(os.path.join(folder, "fuzz.json")) as f:
        meta = json.load(f)
    target = violations[0][0]
    keep_flows = target == "endpoints"
    small = folder + "-min"
    start, changed, best = time.monotonic(), True, None
    while changed and time.monotonic() - start < budget:
        changed = False
        for what, c, m in _candidates(config, meta, keep_flows):
            if time.monotonic() - start > budget:
                break
            if not (c.get("flows") or c.get("flow_sets") or c.get("flows_file")
                    or c.get("workload") or c.get("collectives")):
                continue
            if os.path.isdir(small):
                shutil.rmtree(small)
            write_case(small, c, files, m)
            v, _, _ = runner.check(small)
            if any(name == target for name, _ in v):
                config, meta, changed, best = c, m, True, v
                break
    if best is None:
        if os.path.isdir(small):
            shutil.rmtree(small)
        return None, None
    if os.path.isdir(small):
        shutil.rmtree(small)
    write_case(small, config, files, meta)
    runner.check(small)
    return small, best


# ----------------------------------------------------------------------------- campaigns


def shown(path):
    """PATH relative to the working directory when inside it, else absolute."""
    rel = os.path.relpath(path)
    return os.path.abspath(path) if rel.startswith("..") else rel


def reproduce_command(folder):
    return "./roce-lab fuzz --sim --replay %s" % shown(folder)


def print_failure(folder, meta, violations, stream=None):
    stream = stream or sys.stdout
    print("FAIL %s (seed %s; %s)" % (shown(folder), meta.get("seed"),
                                     " ".join(meta.get("features", []))), file=stream)
    for name, text in violations:
        print("  %s: %s" % (name, text), file=stream)
    print("  reproduce: %s" % reproduce_command(folder), file=stream)
    print("  (or: build/bin/roce-run %s/config.json --out %s/run)"
          % (shown(folder), shown(folder)), file=stream, flush=True)


def campaign(roce_run, seconds, seed, out, keep=False, mpi_run=None, inject=None,
             determinism_every=3, max_cases=None, quiet=False, shrink_budget=20.0,
             skip_known=False):
    """Fuzz for SECONDS of wall time (a case started before the deadline finishes).
    Returns (cases, failures)."""
    runner = Runner(roce_run, mpi_run=mpi_run, inject=inject)
    os.makedirs(out, exist_ok=True)
    if mpi_run is None:
        print("sim-fuzz: MPI ranks check skipped: no MPI build of roce-run "
              "(./roce-lab setup --mpi)", flush=True)
    start = time.monotonic()
    cases, failures, refused, cpu, skipped, shrinking = 0, [], 0, 0.0, {}, 0.0
    counts = {}
    index = 0
    while time.monotonic() - start < seconds and (max_cases is None or index < max_cases):
        s = case_seed(seed, index)
        folder = os.path.join(out, "case-%d-%04d" % (seed, index))
        if os.path.isdir(folder):
            shutil.rmtree(folder)
        config, files, meta = generate(s)
        known = known_defect(meta) if skip_known else None
        if known:
            skipped[known] = skipped.get(known, 0) + 1
            index += 1
            continue
        write_case(folder, config, files, meta)
        violations, notes, secs = runner.check(folder, determinism=(index % determinism_every
                                                                   == 0))
        if mpi_run and not violations and index % 4 == 1:
            mv, s2 = runner.check_mpi(folder)
            secs += s2
            violations += mv or []
        cpu += secs
        cases += 1
        for f in meta["features"]:
            counts[f] = counts.get(f, 0) + 1
        if notes:
            refused += 1
            if not quiet:
                print("note %s: %s" % (shown(folder), "; ".join(notes)), flush=True)
        if violations:
            failures.append((folder, violations))
            print_failure(folder, meta, violations)
            refusal = violations[0][0] == "runs" and "exit status 2" in violations[0][1]
            if shrink_budget > 0 and not refusal and shrinking < seconds / 4:
                t0 = time.monotonic()
                small, sv = shrink(runner, folder, files, violations,
                                   min(shrink_budget, seconds / 4 - shrinking))
                shrinking += time.monotonic() - t0
                if small:
                    print("  smaller case with the same failure (%s):" % sv[0][0])
                    print("  reproduce: %s" % reproduce_command(small), flush=True)
        elif not keep:
            shutil.rmtree(folder)
        index += 1
    elapsed = time.monotonic() - start
    print("sim-fuzz: %d cases in %.1f s (%.1f cases/min; seed %d), %d failed, %d refused "
          "as allowed" % (cases, elapsed, 60.0 * cases / max(elapsed, 1e-9), seed,
                          len(failures), refused))
    if not quiet:
        print("sim-fuzz: features: " + ", ".join("%s %d" % kv for kv in sorted(counts.items())))
    for name, n in skipped.items():
        print("sim-fuzz: skipped %d cases that can meet a known defect: %s" % (n, name))
    if failures:
        print("sim-fuzz: failing cases kept in %s (each line 'reproduce:' reruns one)" % out)
    return cases, failures


def case_folders(path):
    """A case folder, or a folder of case folders (test/sim-fuzz/cases)."""
    if os.path.isfile(os.path.join(path, "fuzz.json")):
        return [path]
    return sorted(os.path.join(path, d) for d in os.listdir(path)
                  if os.path.isfile(os.path.join(path, d, "fuzz.json")))


def replay(roce_run, paths, work=None, mpi_run=None, inject=None):
    """Rerun cases and check them (determinism included). Case folders given are run in
    place; with WORK, copies are run there (test/sim-fuzz/cases is left untouched).
    Returns the number of failing cases."""
    runner = Runner(roce_run, mpi_run=mpi_run, inject=inject)
    failed = 0
    folders = [f for p in paths for f in case_folders(p)]
    if not folders:
        print("sim-fuzz: no case folder (with fuzz.json) in %s" % " ".join(paths))
        return 1
    for folder in folders:
        run_in = folder
        if work:
            run_in = os.path.join(work, os.path.basename(os.path.normpath(folder)))
            if os.path.isdir(run_in):
                shutil.rmtree(run_in)
            shutil.copytree(folder, run_in, ignore=shutil.ignore_patterns(
                "run", "run-first", "mpi-*", "run.log"))
        with open(os.path.join(run_in, "fuzz.json")) as f:
            meta = json.load(f)
        violations, notes, secs = runner.check(run_in, determinism=True)
        if violations:
            failed += 1
            print_failure(folder, meta, violations)
        else:
            print("ok   %s (%.1f s)%s" % (shown(folder), secs,
                                         "; " + "; ".join(notes) if notes else ""))
    print("sim-fuzz: replayed %d cases, %d failed" % (len(folders), failed))
    return failed


def main(args):
    inject = set(args.inject or [])
    mpi_run = args.mpi_run if args.mpi_run and os.access(args.mpi_run, os.X_OK) else None
    if mpi_run and not shutil.which("mpirun"):
        mpi_run = None
    if args.replay:
        return 1 if replay(args.roce_run, args.replay, args.work, mpi_run, inject) else 0
    if args.case is not None:
        folder = os.path.join(args.out, "case-%d-%04d" % (args.seed, args.case))
        config, files, meta = generate(case_seed(args.seed, args.case))
        write_case(folder, config, files, meta)
        return 1 if replay(args.roce_run, [folder], None, mpi_run, inject) else 0
    if args.shrink_case:
        runner = Runner(args.roce_run, inject=inject)
        violations, _, _ = runner.check(args.shrink_case)
        if not violations:
            print("sim-fuzz: %s passes; nothing to shrink" % shown(args.shrink_case))
            return 0
        files = {n: open(os.path.join(args.shrink_case, n)).read()
                 for n in os.listdir(args.shrink_case)
                 if os.path.isfile(os.path.join(args.shrink_case, n))
                 and n not in ("config.json", "fuzz.json", "run.log")}
        small, sv = shrink(runner, args.shrink_case, files, violations, args.shrink or 90)
        if small:
            print_failure(small, json.load(open(os.path.join(small, "fuzz.json"))), sv)
        else:
            print("sim-fuzz: no smaller case fails %s" % violations[0][0])
        return 1
    _, failures = campaign(args.roce_run, args.seconds, args.seed, args.out, args.keep,
                           mpi_run, inject, max_cases=args.max_cases,
                           shrink_budget=args.shrink, skip_known=args.skip_known)
    return 1 if failures else 0
