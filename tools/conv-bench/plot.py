#!/usr/bin/env python3
"""Roofline-style plot of a conv-bench CSV.

One panel per thread count: x = arithmetic intensity of the shape (FLOPs per
byte of its two operands and its result, i.e. the minimum traffic), y = % of
the fp32 FMA peak conv-bench measured for that thread count; ConvGen (o) and
oneDNN (x) for every shape, joined by a line, labelled with the shape id.
With --bandwidth GB/s the memory roof min(100 %, AI * BW / peak) is drawn.

    .venv/bin/python tools/conv-bench/plot.py --csv conv-bench.csv \
        --out conv-bench.png [--bandwidth 30]

conv-bench --plot=PATH runs this script itself.
"""

import argparse
import csv
import math
import sys


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return math.nan


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--csv", required=True, help="conv-bench CSV")
    parser.add_argument("--out", required=True, help="PNG to write")
    parser.add_argument("--bandwidth", type=float, default=0.0,
                        help="memory bandwidth in GB/s for the memory roof")
    parser.add_argument("--title", default="conv-bench: ConvGen vs oneDNN")
    args = parser.parse_args()

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot.py: matplotlib is not installed (scripts/setup.sh "
              "installs it into .venv)", file=sys.stderr)
        return 2

    with open(args.csv, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        print("plot.py: no rows in " + args.csv, file=sys.stderr)
        return 1

    threads = sorted({int(r["threads"]) for r in rows})
    fig, axes = plt.subplots(1, len(threads), figsize=(8 * len(threads), 6.5),
                             squeeze=False, sharey=True)
    colors = {"dw": "tab:blue", "transpose": "tab:orange"}
    ymax = 100.0
    for ax, t in zip(axes[0], threads):
        sel = [r for r in rows if int(r["threads"]) == t]
        peak = number(sel[0]["peak_gflops"])
        cg_threads = sel[0].get("convgen_threads", str(t))
        for r in sel:
            ai = number(r["flops"]) / number(r["bytes"])
            cg = number(r["convgen_pct_peak"])
            dn = number(r["onednn_pct_peak"])
            color = colors.get(r["op"], "gray")
            if not math.isnan(cg) and not math.isnan(dn):
                ax.plot([ai, ai], [cg, dn], color=color, alpha=0.35, lw=1)
            if not math.isnan(cg):
                ax.scatter([ai], [cg], marker="o", color=color, s=28,
                           zorder=3)
                ax.annotate(r["id"], (ai, cg), fontsize=7,
                            xytext=(3, 2), textcoords="offset points")
            if not math.isnan(dn):
                ax.scatter([ai], [dn], marker="x", color=color, s=28,
                           zorder=3)
            for v in (cg, dn):
                if not math.isnan(v):
                    ymax = max(ymax, v)
        ax.axhline(100, color="black", lw=1, ls="--")
        if args.bandwidth > 0 and peak > 0:
            ais = [number(r["flops"]) / number(r["bytes"]) for r in sel]
            lo, hi = min(ais) / 2, max(ais) * 2
            xs = [lo * (hi / lo) ** (i / 200) for i in range(201)]
            ax.plot(xs, [min(100.0, x * args.bandwidth / peak * 100)
                         for x in xs], color="gray", lw=1)
        ax.set_xscale("log")
        ax.set_xlabel("arithmetic intensity (FLOP / byte of operands + "
                      "result)")
        ax.set_title("%d thread(s): peak %.0f GFLOP/s (ConvGen %s thr.)"
                     % (t, peak, cg_threads))
        ax.grid(True, which="both", alpha=0.25)
    axes[0][0].set_ylabel("% of measured fp32 FMA peak")
    for ax in axes[0]:
        ax.set_ylim(0, ymax * 1.08)
    handles = [
        plt.Line2D([], [], marker="o", ls="", color="black",
                   label="ConvGen"),
        plt.Line2D([], [], marker="x", ls="", color="black", label="oneDNN"),
        plt.Line2D([], [], marker="s", ls="", color=colors["dw"],
                   label="dW (backprop_filter)"),
        plt.Line2D([], [], marker="s", ls="", color=colors["transpose"],
                   label="transpose"),
    ]
    fig.legend(handles=handles, loc="upper left", ncol=4, fontsize=9)
    fig.suptitle(args.title)
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    fig.savefig(args.out, dpi=120)
    return 0


if __name__ == "__main__":
    sys.exit(main())
