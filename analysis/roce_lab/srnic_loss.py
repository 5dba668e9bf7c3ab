"""Plot SRNIC Fig. 11 (goodput against random loss) from a srnic-scalability run.

usage: analysis/srnic_loss.py OUTDIR [-o fig11.png]

OUTDIR is the --out directory of `srnic-scalability --figure=fig11`; its fig11.csv is read
by column name (profile, loss, goodput_gbps, sr_analytic_gbps, gbn_analytic_gbps,
sr_rto_analytic_gbps). Each profile's measured goodput is drawn with its analytic curves:
line x (1 - p) for selective repeat, and the same with each lost resend (p^2 per packet)
left to RtoHigh where the profile waits for the timeout; (1 - p) / (1 - p + K p) with the
measured go-back distance K for go-back-N.
The paper's readings at 1 % loss (SRNIC ~75, CX-6 ~25 Gb/s) are marked for reference.
"""
import argparse
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from .csvfile import parse, read_rows  # noqa: E402
from . import labels as run_labels  # noqa: E402

COLUMNS = ("profile", "loss", "goodput_gbps", "sr_analytic_gbps", "gbn_analytic_gbps",
           "sr_rto_analytic_gbps")
PAPER_AT_1PCT = {"Srnic": 75.0, "Cx6": 25.0}


def load(outdir):
    path, lines = read_rows(
        outdir, "fig11.csv", COLUMNS, "srnic-scalability --figure=fig11")
    rows = defaultdict(list)
    for line, row in lines:
        rows[row["profile"]].append(
            parse(path, line, lambda: tuple(float(row[c]) for c in COLUMNS[1:])))
    return rows


def main(argv=None, prog=None):
    ap = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    ap.add_argument("outdir")
    ap.add_argument("-o", "--output", default="fig11.png")
    args = ap.parse_args(argv)
    rows = load(args.outdir)
    fig, ax = plt.subplots(figsize=(5.5, 3.5))
    for i, (profile, values) in enumerate(sorted(rows.items())):
        values.sort()
        color = f"C{i}"
        loss = [v[0] * 100 for v in values]
        ax.plot(loss, [v[1] for v in values], "o-", color=color, label=f"{profile} (model)")
        analytic = 2 if profile.lower() in ("srnic", "irn") else 3
        name = "line x (1-p)" if analytic == 2 else "go-back-N, measured K"
        ax.plot(loss, [v[analytic] for v in values], "--", color=color, label=f"{profile}: {name}")
        if analytic == 2 and any(v[4] < v[2] for v in values):
            ax.plot(loss, [v[4] for v in values], ":", color=color,
                    label=f"{profile}: lost resends wait for RtoHigh")
        if profile in PAPER_AT_1PCT:
            ax.plot([1.0], [PAPER_AT_1PCT[profile]], "x", color=color, ms=9,
                    label=f"{profile}: paper at 1 %")
    ax.set_xlabel("loss rate (%)")
    ax.set_ylabel("goodput (Gb/s)")
    ax.set_ylim(0, 100)
    ax.grid(alpha=0.3)
    run_labels.legend_below(ax)
    fig.savefig(args.output, dpi=120, bbox_inches="tight")
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
