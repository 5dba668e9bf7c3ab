"""The case generator of the whole-simulation fuzzer (simfuzz.py, ./roce-lab fuzz --sim):
random small experiments, each a pure function of its seed: (config, files, meta).

config is the experiment (JSON), files the files it names relative to its folder (an
HPCC-format topology and flow file, NIC profiles, a flow-size CDF), meta what the checks
expect of it (fuzz.json): may it deadlock, must every flow finish, must it lose nothing,
which hosts each flow joins, which refusal is allowed, and its features (the generator's
words for what it drew, which KNOWN_DEFECTS match).
"""

import json
import math
import os
import random

# Recorded in each case's description and fuzz.json: which generator made it. Changes keep
# a seed's case what it was (parts added later draw from streams of their own), so it stays
# 1. Drawing faults inside a huge collective's 100 us stop time changed only those cases
# with timed faults (40 of 32,002 seeds checked: 24 were refused before for a fault after
# stop_time, 16 drew their fault times anew; none of test/sim-fuzz/cases).
GENERATOR_VERSION = 1

# Defects known on main and being fixed: `--skip-known` leaves out the cases
# whose features can meet them, so that a CI run is red only for something new. Remove an
# entry when its fix is merged (and move its cases from test/sim-fuzz/known/ to cases/).
KNOWN_DEFECTS = []


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
# Congestion controls by feature name: the DCQCN NIC generations are attribute sets of
# ns3::RdmaDcqcn (configs/nic-profiles/gen1.json and gen2-gen3.json, the values that differ
# from the TypeId's defaults).
CCS = {
    "dcqcn": {"type": "ns3::RdmaDcqcn"},
    "dcqcngen1": {"type": "ns3::RdmaDcqcn", "BurstBytes": 16384, "FirmwareCnpTime": "5us",
                  "FirmwareCnpQueue": 16},
    "dcqcnfirmware": {"type": "ns3::RdmaDcqcn", "AlphaUpdate": "ActivePeriods",
                      "AlphaUpdatePeriod": "1us", "InitialAlpha": 0.9990234375,
                      "RateIncreaseTimer": "300us", "ByteCounter": 32767, "FastRecoveryTimes": 1,
                      "RateAI": "5Mbps", "RateHAI": "50Mbps", "MinRate": "1Mbps",
                      "CnpInterval": "0us", "RateDecreaseInterval": "4us",
                      "RateDecreaseTiming": "SinceLastCut"},
    "dctcp": {"type": "ns3::RdmaDctcp"},
    "timely": {"type": "ns3::RdmaTimely"},
    "swift": {"type": "ns3::RdmaSwift"},
    "hpcc": {"type": "ns3::RdmaHpcc"},
    "nocongestioncontrol": {"type": "ns3::RdmaNoCongestionControl"},
}
LOSS_RECOVERY = {"gbn": "ns3::RdmaGoBackN", "sr": "ns3::RdmaSelectiveRepeat",
                 "srnic": "ns3::RdmaSrnicSelectiveRepeat"}
PRESETS = ["Cx6", "Irn", "Srnic"]
PATH_ENTROPIES = {"oblivious": "ns3::ObliviousPathEntropy", "reps": "ns3::RepsPathEntropy"}
LOAD_BALANCERS = {"spray": "ns3::SprayLoadBalancer", "round_robin": "ns3::RoundRobinLoadBalancer",
                  "flowlet": "ns3::FlowletLoadBalancer", "adaptive": "ns3::AdaptiveLoadBalancer"}
SWITCH_ROLES = {"leaf_spine": ["leaf", "spine"], "fat_tree": ["tor", "agg", "core"]}
# Outages (link or NIC down) stay below what every transport survives: 7 timeouts in a
# row fail a QP, and the shortest timeout generated is 100 us (selective repeat's RtoLow).
MAX_OUTAGE_US = 300


def rate_bps(text):
    units = {"Gbps": 1e9, "Mbps": 1e6, "Kbps": 1e3, "bps": 1}
    for u, m in units.items():
        if text.endswith(u):
            return float(text[: -len(u)]) * m
    raise ValueError(text)


def duration_us_of(text):
    """A duration the generator wrote ("100us", "300ms", "2s") in microseconds."""
    for unit, scale in (("us", 1.0), ("ms", 1e3), ("s", 1e6)):
        if text.endswith(unit):
            return float(text[: -len(unit)]) * scale
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
        self.load_balancing(config, topo)
        self.path_entropy(config)
        self.job(config, groups)
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

    def load_balancing(self, config, topo):
        """Per-packet load balancing ("load_balancing") on the switches of some roles of a
        leaf-spine or fat tree, in one case in four. Drawn from a stream of its own, so that
        every other part of a case is what the seed gave before this existed."""
        r = random.Random("load_balancing %d" % self.seed)
        if topo.shape not in SWITCH_ROLES or r.random() >= 0.25:
            return
        roles = SWITCH_ROLES[topo.shape]
        name = r.choice(sorted(LOAD_BALANCERS))
        balancer = {"type": LOAD_BALANCERS[name]}
        if name == "flowlet":
            balancer["Gap"] = us(r.uniform(1, 100))
            balancer["NewFlowletPort"] = r.choice(["Random", "LeastQueued"])
        if name == "adaptive" and r.random() < 0.5:
            balancer["Queues"] = "OneClass"
        config["load_balancing"] = [{"roles": sorted(r.sample(roles, r.randint(1, len(roles)))),
                                     "balancer": balancer}]
        self.features.append("lb_" + name)

    def job(self, config, groups):
        """A hand-written job ("jobs" with "steps": compute, ring collectives, the tree
        all-reduce, all-to-all, sends, a pipeline) on 2-4 hosts of one transport group, in one case in six. Drawn
        from a stream of its own, so that every other part of a case is what the seed gave
        before this existed."""
        r = random.Random("job %d" % self.seed)
        if r.random() >= 1 / 6:
            return
        g = r.choice([g for g in groups if len(g["hosts"]) >= 2])
        ranks = r.sample(g["hosts"], r.randint(2, min(4, len(g["hosts"]))))
        n = len(ranks)
        steps = []
        for _ in range(r.randint(1, 4)):
            kind = r.choice(["compute", "allreduce", "reduce_scatter", "allgather", "alltoall",
                             "send", "pipeline"])
            if kind == "compute":
                steps.append({"compute": us(r.uniform(0.001, 20))})
            elif kind == "send":
                a, b = r.sample(range(n), 2)
                steps.append({"send": {"from": a, "to": b,
                                       "bytes": log_uniform_int(r, 1, 200000)}})
            elif kind == "pipeline":
                p = {"bytes": log_uniform_int(r, 1, 100000)}
                if r.random() < 0.5:
                    p["compute"] = us(r.uniform(0.001, 5))
                steps.append({"pipeline": p})
            else:
                s = {"collective": kind, "bytes": log_uniform_int(r, n, 500000)}
                if kind == "allreduce" and r.random() < 0.5:
                    s["algorithm"] = "tree"
                    if r.random() < 0.5:
                        s["chunks"] = r.randint(1, min(16, s["bytes"]))
                    self.features.append("job_tree")
                if kind in ("allreduce", "reduce_scatter") and r.random() < 0.5:
                    s["reduce"] = us(r.uniform(0.001, 2))
                steps.append(s)
        job = {"name": "fuzz", "hosts": ranks, "steps": steps, "iterations": r.randint(1, 2)}
        if r.random() < 0.5:
            job["start"] = us(r.uniform(0, 30))
        config["jobs"] = [job]
        self.features.append("job_steps")

    def path_entropy(self, config):
        """NIC-side entropy per packet ("load_balancing" entry {"hosts": "all", "entropy"}) in
        one case in five, from a stream of its own (every other part of a case stays what the
        seed gave before)."""
        r = random.Random("path_entropy %d" % self.seed)
        if r.random() >= 0.2:
            return
        name = r.choice(sorted(PATH_ENTROPIES))
        entropy = {"type": PATH_ENTROPIES[name]}
        if name == "reps":
            entropy["BufferSize"] = r.choice([1, 8, 32])
        config.setdefault("load_balancing", []).append({"hosts": "all", "entropy": entropy})
        self.features.append("entropy_" + name)

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
            cc = r.choice(list(CCS))
            config["cc"] = dict(CCS[cc])
            self.features += [lr, cc]
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
        # Down intervals per link and per NIC: a second outage overlapping one already drawn
        # for the same link or NIC would be a down event on a down link, which roce-run
        # refuses (every fault in faults.csv must act); such a draw is left out.
        down = {}

        def overlaps(key, start, end):
            return any(s < end and start < e for s, e in down.get(key, ()))

        # Every event must happen before stop_time (roce-run refuses one at or after it):
        # a case with a short stop time (a huge collective's 100 us) draws its event times
        # and outages inside it. The same number of draws, over the same ranges when the
        # stop time is the usual one, so that every other case is what its seed gave before.
        horizon = duration_us_of(expect["short_stop"]) if expect.get("short_stop") \
            else math.inf
        latest = min(100.0, horizon / 2)

        for _ in range(r.randint(0 if faults else 1, 3)):
            kind = r.choice(["link_down", "link_rate", "host_rate", "pcie_rate", "nic_down"])
            t = 0.0 if kind in ("host_rate", "pcie_rate") and r.random() < 0.4 \
                else r.uniform(0, latest)
            if kind == "link_down" and topo.fabric_links:
                d = r.uniform(5, min(MAX_OUTAGE_US - outage, horizon - 1 - t))
                if d < 5:
                    continue
                link = list(r.choice(topo.fabric_links))
                key = ("link",) + tuple(sorted(link))
                if overlaps(key, t, t + d):
                    continue
                outage += d
                down.setdefault(key, []).append((t, t + d))
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
                d = r.uniform(5, min(MAX_OUTAGE_US - outage, horizon - 1 - t))
                if d < 5:
                    continue
                host = r.choice(topo.hosts)
                if overlaps(("nic", host), t, t + d):
                    continue
                outage += d
                down.setdefault(("nic", host), []).append((t, t + d))
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
