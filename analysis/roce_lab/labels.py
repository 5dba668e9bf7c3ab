"""The names of runs in figure legends, and the figure options the plot scripts share.

A run is named by its "description" (the run's config.json, else input.json), else by
its folder name. Runs that all share one description (the runs of a sweep) are named by
their folders (a sweep's folders are named by their parameter values), the description
going under the title; where only some share one, each of those names ends in its folder.
--labels A,B,... names them instead, one per directory.
"""
import json
import pathlib


def description(outdir):
    for name in ("config.json", "input.json"):
        path = pathlib.Path(outdir) / name
        try:
            with path.open(encoding="utf-8") as f:
                text = json.load(f).get("description", "")
        except (OSError, ValueError, AttributeError):
            continue
        if isinstance(text, str) and text.strip():
            return " ".join(text.split())
    return ""


def shorten(text, width=60):
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"


def labels(outdirs, explicit=None):
    """One legend name per directory: EXPLICIT if given, else the descriptions."""
    return named(outdirs, explicit)[0]


def named(outdirs, explicit=None):
    """(one legend name per directory, the description they all share or "")."""
    if explicit is not None:
        return list(explicit), ""
    folders = [pathlib.Path(d).resolve().name for d in outdirs]
    descriptions = [description(d) for d in outdirs]
    if len(outdirs) > 1 and descriptions[0] and len(set(descriptions)) == 1:
        return folders, descriptions[0]
    names = [shorten(d) or folder for d, folder in zip(descriptions, folders)]
    return [f"{n} [{folder}]" if names.count(n) > 1 and n != folder else n
            for n, folder in zip(names, folders)], ""


def title(ax, text, shared):
    """The axes' title, with the runs' shared description as a second, smaller line."""
    if shared:
        ax.set_title(f"{text}\n{shorten(shared, 90)}", fontsize="medium")
    else:
        ax.set_title(text)


def plain_ticks(axis):
    """Tick labels as plain numbers (20, 30, 1.5) on a log axis, not 2×10^1."""
    from matplotlib.ticker import FuncFormatter

    plain = FuncFormatter(lambda v, _: f"{v:g}")
    axis.set_major_formatter(plain)
    axis.set_minor_formatter(FuncFormatter(
        lambda v, _: f"{v:g}" if f"{v:g}"[0] in "1235" else ""))


def log_ticks(axis, least=3):
    """A log axis with plain tick labels (plain_ticks) and at least LEAST of them in view:
    where the data span less than a decade (slowdowns 1.0-1.6, say) and the decade's
    1, 2, 3, 5 marks would leave fewer, the ticks are evenly spaced values of the range.
    Call once the axis' limits are final."""
    from matplotlib.ticker import FixedLocator, MaxNLocator, NullFormatter

    plain_ticks(axis)
    low, high = sorted(axis.get_view_interval())
    if low <= 0:
        return
    shown = [t for t in axis.get_major_locator().tick_values(low, high) if low <= t <= high]
    shown += [t for t in axis.get_minor_locator().tick_values(low, high)
              if low <= t <= high and f"{t:g}"[0] in "1235"]
    if len(set(shown)) >= least:
        return
    ticks = [t for t in MaxNLocator(nbins=5).tick_values(low, high) if low <= t <= high and t > 0]
    axis.set_major_locator(FixedLocator(ticks))
    axis.set_minor_formatter(NullFormatter())


# Line styles that tell curves apart where they lie on each other: each curve its own
# dash pattern and marker (markers spread along it), so that one drawn over another still
# shows (a note in the legend says when two curves are the same).
STYLES = [("-", "o"), ("--", "s"), (":", "^"), ("-.", "D"), ((0, (5, 1, 1, 1)), "v"),
          ((0, (1, 1)), "P")]


def style(index, points):
    """Keyword arguments for the INDEX-th curve of POINTS points (ax.plot, ax.step)."""
    dash, marker = STYLES[index % len(STYLES)]
    every = max(1, points // 8)
    # every other curve's markers hollow and larger: around, not over, the other's
    hollow = {"markerfacecolor": "none", "markersize": 7} if index % 2 else {"markersize": 4}
    return {"linestyle": dash, "marker": marker, "color": f"C{index % 10}",
            "markevery": (index % every, every) if every > 1 else 1, **hollow}


# Summary metrics and grid pointers as axis labels: words with units, never a JSON pointer
# or a column name. Units follow the metric's suffix.
WORDS = {"fct": "flow completion time", "slowdown": "slowdown (FCT / ideal FCT)",
         "goodput": "goodput", "cc": "congestion control", "ecn": "ECN", "pfc": "PFC",
         "qp": "queue pair", "nic": "NIC", "buffer": "switch buffer", "link": "link",
         "flows": "flow", "bytes": "size (bytes)", "seed": "seed", "stop_time": "stop time",
         "workload": "workload", "load": "load", "retransmitted_packets":
         "retransmitted packets", "finished": "finished flows", "paused": "paused time"}
UNITS = [("_us", "µs"), ("_ms", "ms"), ("_ns", "ns"), ("_gbps", "Gb/s"), ("_bytes", "bytes"),
         ("_mb", "MB"), ("_kb", "KB")]
STATS = {"mean": "mean", "p50": "median", "p95": "95th-percentile", "p99": "99th-percentile",
         "p999": "99.9th-percentile", "max": "maximum", "min": "minimum"}


def _words(token):
    if token in WORDS:
        return WORDS[token]
    for suffix, unit in UNITS:
        if token.endswith(suffix):
            return "%s (%s)" % (_words(token[: -len(suffix)]), unit)
    return token.replace("_", " ")


def quantity(name):
    """NAME, a JSON pointer (/cc/G, /flows/0/bytes) or a summary metric (fct_us.p99,
    slowdown.mean, by_size.0-10KB.fct_us.p99, goodput_gbps), in words with its unit:
    "congestion control G", "flow 0 size (bytes)", "99th-percentile flow completion time
    (µs)"."""
    if name.startswith("/"):
        tokens = [t.replace("~1", "/").replace("~0", "~") for t in name[1:].split("/")]
        words = []
        for t in tokens:
            if t.isdigit() and words:
                words[-1] += " " + t
            else:
                words.append(_words(t))
        return " ".join(words)
    parts = name.split(".")
    stat = parts[-1] if len(parts) > 1 and parts[-1] in STATS else None
    if stat:
        parts = parts[:-1]
    bucket = ""
    if len(parts) >= 2 and parts[0] == "by_size":
        bucket, parts = " of %s flows" % parts[1], parts[2:]
    text = " ".join(_words(p) for p in parts)
    if stat:
        # the unit stays last: "99th-percentile flow completion time (µs)"
        text = STATS[stat] + " " + text
    if bucket:
        head, _, unit = text.partition(" (")
        text = head + bucket + (" (" + unit if unit else "")
    return text


def legend_below(ax, handles=None):
    """The legend under the axes, one entry a line, so long names cover no data (save
    with bbox_inches="tight")."""
    kwargs = {"handles": handles} if handles is not None else {}
    ax.legend(loc="upper left", bbox_to_anchor=(0, -0.16), fontsize="small", frameon=False,
              **kwargs)


def add_options(parser):
    parser.add_argument("--title", help="the figure's title (default: what it shows)")
    parser.add_argument("--labels", metavar="A,B,...",
                        help="legend names, one per directory (default: each run's "
                             "description, else its folder name)")
    parser.add_argument("--scale", choices=["log", "linear"], default="log",
                        help="the value axis (default: log)")


def split(text, outdirs, parser):
    """--labels A,B,... as a list with one name per directory (None if not given)."""
    if text is None:
        return None
    names = text.split(",")
    if len(names) != len(outdirs):
        parser.error(f"--labels gives {len(names)} names for {len(outdirs)} directories")
    return names
