"""Runs keras' JAX-backend conv_transpose on a list of invalid.py cases in
child processes, because XLA aborts the whole process (a CHECK failure in
its algebraic simplifier, docs/Parity.md) on some output_padding >= stride
configurations. A case whose child dies is recorded as "abort" and the
next child continues after it.

    outcomes = jax_outcomes(cases)   # [("accept" | "reject" | "abort", message), ...]
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def jax_outcomes(cases, timeout=600, kind="invalid"):
    """kind "invalid": invalid.py cases (operands of test_parity_errors);
    kind "valid": cases.py cases, run in their dtype and in float64."""
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "cases.json")
        with open(src, "w") as f:
            json.dump(cases, f)
        start = 0
        while start < len(cases):
            dst = os.path.join(tmp, f"out-{start}.jsonl")
            env = dict(os.environ, KERAS_BACKEND="jax", TF_CPP_MIN_LOG_LEVEL="3")
            env["PYTHONPATH"] = os.pathsep.join([HERE, env.get("PYTHONPATH", "")])
            proc = subprocess.run([sys.executable, os.path.abspath(__file__), src, dst,
                                   str(start), kind], env=env, capture_output=True, text=True,
                                  timeout=timeout)
            done = []
            if os.path.exists(dst):
                with open(dst) as f:
                    done = [json.loads(line) for line in f if line.strip()]
            for d in done:
                results[d["index"]] = (d["outcome"], d["message"])
            nxt = start + len(done)
            if nxt < len(cases):  # the child died on case `nxt`
                tail = [ln for ln in proc.stderr.splitlines() if ln.startswith("F")][:1]
                results[nxt] = ("abort", f"rc {proc.returncode}: " + (tail[0][:300] if tail
                                                                      else ""))
                nxt += 1
            start = nxt
    return [results[i] for i in range(len(cases))]


def aborting_cases(cases):
    """Ids (cases.case_id) of the valid cases.py cases XLA aborts on."""
    import cases as C
    res = jax_outcomes(cases, kind="valid")
    return {C.case_id(c): msg for c, (side, msg) in zip(cases, res) if side == "abort"}


def _child(src, dst, start, kind):
    import numpy as np
    from keras.src.backend.jax import nn as jnn

    import cases as C
    import oracles as O
    import test_parity_errors as E
    O.jax()
    with open(src) as f:
        cases = json.load(f)
    with open(dst, "a") as out:
        for i in range(start, len(cases)):
            case = cases[i]
            if kind == "valid":
                x, k = C.make_inputs(case)

                def run():
                    for a, b in ((x, k), (x.astype(np.float64), k.astype(np.float64))):
                        np.asarray(jnn.conv_transpose(a, b, **O._ct_args(case)))
                side, val = E.outcome(run)
            else:
                x, k = E.ct_operands(case)
                side, val = E.outcome(lambda: np.asarray(jnn.conv_transpose(
                    x, k, **E.ct_kwargs(case))))
            out.write(json.dumps({"index": i, "outcome": side,
                                  "message": E.first_line(val) if side == "reject" else None})
                      + "\n")
            out.flush()


if __name__ == "__main__":
    _child(sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4])
