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
