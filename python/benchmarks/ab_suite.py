#!/usr/bin/env python3
"""Paired A/B runs of two ConvGen compile-option sets over the benchmark suite.

For every selected shape of `conv-bench` (its --list-json table), this writes
the conv op as a .mlir function and runs `conv-run --compare=CHANGES`: the
kernel compiled with the default options (A) and with CHANGES (B), timed
call by call in alternation. It prints each shape's median speed ratio
B / A with its quartiles, the two compile times and the largest difference
between the two results, then the geomean of the medians per op and overall.

On a noisy host this is the measurement to gate a heuristic change on:
unpaired best-of-N runs of one kernel move 15-30 % from one minute to the
next, the paired ratio of two identical kernels stays within a few percent
(docs/Benchmarks.md section 1).

  python/benchmarks/ab_suite.py --compare=register-tile-vectors=2 \
      --filter='rn*,db7' --threads=2 --repeat=20

A ratio above 1 means B is faster. To compare two builds or two versions of
a heuristic, make the new behaviour depend on an option (or measure the old
one with an option that reproduces it) so that one process holds both.
"""

import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def tensor(shape, dtype):
    return "tensor<" + "x".join(str(d) for d in shape) + "x" + dtype + ">"


def mlir_function(shape):
    """The shape's conv op as a func.func named after its id."""
    dtype = shape.get("dtype", "f32")
    name = shape["id"]
    if shape["op"] == "dw":
        x = tensor(shape["input_shape"], dtype)
        dy = tensor(shape["out_backprop_shape"], dtype)
        w = tensor(shape["filter_shape"], dtype)
        padding = shape["padding"]
        explicit = ""
        if padding == "EXPLICIT":
            values = [v for pair in shape["explicit_paddings"] for v in pair]
            explicit = " explicit_paddings = [" + ", ".join(map(str, values)) + "]"
        return (
            f"func.func @{name}(%x: {x}, %dy: {dy}) -> {w} {{\n"
            f"  %dw = conv.backprop_filter %x, %dy data_format = {shape['data_format']}"
            f" padding = {padding}{explicit}\n"
            f"          strides = {shape['strides']} dilations = {shape['dilations']}\n"
            f"          : {x}, {dy} -> {w}\n"
            f"  return %dw : {w}\n}}\n")
    x = tensor(shape["input_shape"], dtype)
    k = tensor(shape["kernel_shape"], dtype)
    y = tensor(shape["output_shape"], dtype)
    output_padding = ""
    if shape.get("output_padding") is not None:
        output_padding = f" output_padding = {shape['output_padding']}"
    return (
        f"func.func @{name}(%x: {x}, %k: {k}) -> {y} {{\n"
        f"  %y = conv.transpose %x, %k data_format = {shape['data_format']}"
        f" padding = {shape['padding']}\n"
        f"         strides = {shape['strides']} dilation_rate = {shape['dilations']}"
        f"{output_padding}\n"
        f"         : {x}, {k} -> {y}\n"
        f"  return %y : {y}\n}}\n")


RATIO = re.compile(r"B speed / A speed: median ([0-9.]+) of \d+ pairs "
                   r"\(quartiles ([0-9.]+), ([0-9.]+)\)")
COMPILE = re.compile(r"^(A|B \(.*\)): compile ([0-9.]+) ms", re.M)
DIFF = re.compile(r"B - A: max abs difference (\S+) \(max \|A\| (\S+)\)")


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--compare", required=True,
                        help="conv-run --compare changes (KEY=VALUE,...) for B")
    parser.add_argument("--filter", default="",
                        help="conv-bench --filter (ids, families, ops, 'rn*' prefixes)")
    parser.add_argument("--threads", type=int, default=1, help="--num-threads of both kernels")
    parser.add_argument("--repeat", type=int, default=15, help="call pairs per shape")
    parser.add_argument("--skip-big", action="store_true", help="leave out the big shapes")
    parser.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"),
                        help="directory with conv-bench and conv-run")
    args = parser.parse_args(argv)

    list_cmd = [os.path.join(args.bin, "conv-bench"), "--list-json"]
    if args.filter:
        list_cmd.append("--filter=" + args.filter)
    listing = subprocess.run(list_cmd, check=True, capture_output=True, text=True)
    shapes = json.loads(listing.stdout)["shapes"]
    if args.skip_big:
        shapes = [s for s in shapes if not s.get("big")]
    if not shapes:
        print("ab_suite: no shape selected", file=sys.stderr)
        return 1

    print(f"B = {args.compare}, {args.threads} thread(s), {args.repeat} call pairs per shape")
    print(f"{'id':6} {'op':9} {'B/A median':>10} {'quartiles':>13} "
          f"{'compile A ms':>12} {'compile B ms':>12} {'max |B-A|':>10}")
    ratios = {}
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for shape in shapes:
            path = os.path.join(tmp, shape["id"] + ".mlir")
            with open(path, "w") as f:
                f.write(mlir_function(shape))
            run = subprocess.run(
                [os.path.join(args.bin, "conv-run"), path, "--entry=" + shape["id"],
                 f"--num-threads={args.threads}", f"--repeat={args.repeat}",
                 "--compare=" + args.compare],
                capture_output=True, text=True)
            ratio = RATIO.search(run.stdout)
            if run.returncode != 0 or not ratio:
                failed += 1
                message = (run.stderr or run.stdout).strip().splitlines()
                print(f"{shape['id']:6} {shape['op']:9} FAILED: "
                      f"{message[-1] if message else 'no output'}")
                continue
            compiles = [float(m.group(2)) for m in COMPILE.finditer(run.stdout)]
            diff = DIFF.search(run.stdout)
            median = float(ratio.group(1))
            ratios.setdefault(shape["op"], []).append(median)
            print(f"{shape['id']:6} {shape['op']:9} {median:10.3f} "
                  f"{ratio.group(2):>6}-{ratio.group(3):<6} "
                  f"{compiles[0]:12.1f} {compiles[1]:12.1f} "
                  f"{diff.group(1) if diff else '?':>10}")
    for op, values in sorted(ratios.items()):
        print(f"geomean {op:9} {geomean(values):.3f} over {len(values)} shapes")
    every = [v for values in ratios.values() for v in values]
    print(f"geomean overall   {geomean(every):.3f} over {len(every)} shapes, "
          f"{failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
