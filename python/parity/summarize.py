"""Merges the JSON reports of scripts/parity.sh into Markdown tables (the
numbers of docs/Parity.md).

    python python/parity/summarize.py build-parity/parity/tensorflow.json \
        build-parity/parity/jax.json
"""

from __future__ import annotations

import collections
import json
import os
import sys

DTYPES = ["float16", "bfloat16", "float32", "float64"]


def load(paths):
    results, metas = [], []
    for p in paths:
        if not os.path.exists(p):
            print(f"(missing report {p})")
            continue
        with open(p) as f:
            d = json.load(f)
        metas.append(d["meta"])
        results.extend(d["results"])
    return metas, results


def fmt(v):
    return "–" if v is None else f"{v:.2e}"


def main(paths):
    metas, results = load(paths)
    out = []
    if metas:
        v = metas[0]["versions"]
        out.append("Versions: " + ", ".join(f"{k} {val}" for k, val in v.items()))
        out.append("")
        out.append("pytest exit status: " + ", ".join(
            f"{m['keras_backend']}={m['exitstatus']}" for m in metas))
        out.append("")

    values = [r for r in results if r.get("kind") is None and r.get("err") is not None]
    out.append("### Value comparisons (max normalized error |a - b| / scale)")
    out.append("")
    out.append("| op | compared with | " + " | ".join(DTYPES) + " | comparisons |")
    out.append("|---|---|" + "---|" * len(DTYPES) + "---|")
    groups = collections.defaultdict(list)
    for r in values:
        groups[(r["op"], r["oracle"])].append(r)
    for (op, oracle), rs in sorted(groups.items()):
        cells = []
        for dt in DTYPES:
            e = [r["err"] for r in rs if r["dtype"] == dt]
            cells.append(f"{fmt(max(e))} ({len(e)})" if e else "–")
        out.append(f"| {op} | {oracle} | " + " | ".join(cells) + f" | {len(rs)} |")
    out.append("")
    out.append("Oracle's own error against the float64 result (same operands):")
    out.append("")
    out.append("| op | oracle | " + " | ".join(DTYPES) + " |")
    out.append("|---|---|" + "---|" * len(DTYPES))
    for (op, oracle), rs in sorted(groups.items()):
        if not any("oracle_err" in r for r in rs):
            continue
        cells = []
        for dt in DTYPES:
            e = [r["oracle_err"] for r in rs if r["dtype"] == dt and "oracle_err" in r]
            cells.append(fmt(max(e)) if e else "–")
        out.append(f"| {op} | {oracle} | " + " | ".join(cells) + " |")
    out.append("")

    cases = collections.defaultdict(set)
    for r in values:
        cases[(r["op"], r["dtype"])].add(r["case"])
    out.append("Distinct cases with values compared: " + ", ".join(
        f"{op} {dt} {len(s)}" for (op, dt), s in sorted(cases.items())))
    out.append("")

    refused = [r for r in results if r.get("oracle") in ("tf-refuses", "keras-tf-refuses")]
    out.append("### Cases TF's CPU kernels refuse (ConvGen computes them; compared with JAX)")
    out.append("")
    out.append("| op | reason | cases |")
    out.append("|---|---|---|")
    cnt = collections.Counter((r["op"], r["reason"].split(" (")[0]) for r in refused)
    for (op, reason), n in sorted(cnt.items()):
        out.append(f"| {op} | {reason} | {n} |")
    out.append("")
    zero = [r for r in results if r.get("oracle") == "tf-zero-size-out"
            or r.get("kind") == "tf-zero-size-out"]
    if zero:
        out.append(f"Zero-size out_backprop spatial dimension: {len(zero)} cases, TF returned "
                   f"non-zero (uninitialized) values in {sum(r['tf_nonzero'] for r in zero)}; "
                   "ConvGen returned zeros in all.")
        out.append("")

    inv = [r for r in results if r.get("kind") == "invalid"]
    if inv:
        out.append("### Invalid and refused argument sets")
        out.append("")
        out.append("| op | cases | as expected | both reject | TF rejects, ConvGen accepts "
                   "| TF accepts, ConvGen rejects | both accept |")
        out.append("|---|---|---|---|---|---|---|")
        for op in ("backprop_filter", "conv_transpose"):
            rs = [r for r in inv if r["op"] == op]
            if not rs:
                continue
            ok = sum(all(r[k] == v for k, v in r["expect"].items()) for r in rs)
            c = collections.Counter((r["tf"], r["convgen"]) for r in rs)
            out.append(f"| {op} | {len(rs)} | {ok} | {c[('reject', 'reject')]} | "
                       f"{c[('reject', 'accept')]} | {c[('accept', 'reject')]} | "
                       f"{c[('accept', 'accept')]} |")
        out.append("")
        ct = [r for r in inv if r["op"] == "conv_transpose"]
        if ct:
            c = collections.Counter((r["tf"], r["jax"], r["convgen"]) for r in ct)
            out.append("conv_transpose outcomes (TF backend, JAX backend, ConvGen): " + ", ".join(
                f"{k}: {n}" for k, n in sorted(c.items())))
            out.append("")
        out.append("Cases whose outcomes differ between TF and ConvGen:")
        out.append("")
        for r in inv:
            if r["tf"] != r["convgen"]:
                extra = f", JAX {r['jax']}" if "jax" in r else ""
                out.append(f"- {r['op']} `{r['case']}` ({r['row']}): TF {r['tf']}{extra}, "
                           f"ConvGen {r['convgen']}" + (f" — TF: {r['tf_message']}"
                                                        if r.get("tf_message") else ""))
        out.append("")
    aborts = [r for r in results if r.get("kind") == "jax-abort"]
    for valid, what in ((False, "invalid (output_padding >= stride)"), (True, "valid")):
        rs = [r for r in aborts if bool(r.get("valid")) == valid]
        if rs:
            out.append(f"JAX backend (XLA) aborted the process on {len(rs)} {what} cases "
                       "(found in child processes): "
                       + "; ".join(f"`{r['case']}`" + (f" {r['dtype']}" if r.get("dtype") else "")
                                   for r in rs[:8]) + (" ..." if len(rs) > 8 else ""))
            out.append("")
    bugs = [r for r in results if r.get("kind") == "convgen-bug"]
    if bugs:
        out.append(f"ConvGen failures (xfail, known bugs): {len(bugs)}: " + "; ".join(
            f"`{r['case']}` {r['dtype']}: {r['message'][:80]}" for r in bugs))
        out.append("")
    lay = [r for r in results if r.get("kind") == "keras_layer"]
    if lay:
        ok = sum(r["keras_layer"] == r["expect"]["keras_layer"]
                 and r["convgen"] == r["expect"]["convgen"] for r in lay)
        agree = sum(r["keras_layer"] == r["convgen"] for r in lay)
        out.append(f"Keras layer rules: {len(lay)} cases, {ok} as expected, {agree} where the "
                   "layer and ConvGen agree; differing:")
        out.append("")
        for r in lay:
            if r["keras_layer"] != r["convgen"]:
                out.append(f"- `{r['case']}`: layer {r['keras_layer']}, ConvGen {r['convgen']}")
        out.append("")
    print("\n".join(out))


if __name__ == "__main__":
    main(sys.argv[1:])
