#!/usr/bin/env python3
"""Peer benchmark: ConvGen vs TensorFlow, JAX/XLA and IREE on the CPU.

Runs the conv-bench shape suite (`conv-bench --list-json`, spec
benchmarks.md section 3) through

* ConvGen   `convgen.backprop_filter` / `convgen.conv_transpose` (JIT, C API)
* TF        dW: `tf.raw_ops.Conv2DBackpropFilter` (1-D via a unit H
            dimension, as tf.nn.conv1d's gradient) / `Conv3DBackpropFilterV2`
            under `tf.function(jit_compile=False)` (TF's own CPU kernels);
            transpose: `keras.ops.conv_transpose` (KERAS_BACKEND=tensorflow)
            under tf.function. Where the TF CPU kernel refuses the shape
            (dilation > 1, groups) the same function runs with
            `jit_compile=True` and the result is labelled "xla" (`*`).
* JAX       `jax.jit` of the vjp of `lax.conv_general_dilated` w.r.t. the
            filter; transpose: `jax.jit(keras.ops.conv_transpose)` with
            KERAS_BACKEND=jax (lax.conv_transpose).
* IREE      the StableHLO of exactly those JAX functions
            (`jax.jit(f).lower(...).as_text()`), compiled by iree-base-compiler
            for llvm-cpu (host CPU) and run by iree-base-runtime (local-task).

Every (framework, thread count) is its own worker process, started with
its thread limit set before the framework is imported (and, unless
--no-pin, pinned to that many CPUs). The parent drives all workers shape by
shape, one worker at a time, so that the frameworks see the same machine
state: for each shape ConvGen runs first and writes its result, every peer
compares its result with it (max |a - b| / max |ConvGen| <= --rtol) before
timing, then the frameworks are timed in rounds whose order alternates.
Times are wall clock, best (and median) of batches of calls, each batch at
least --min-batch-ms long; compile and the first call are reported apart.

Writes, under --out (default <repo>/build-peer/): peer-bench.csv (one row
per shape, thread count and framework), peer-bench-wide.csv (one row per
shape and thread count), peer-bench.md (tables, geomeans, versions),
peer-bench.png (GFLOP/s and ConvGen's ratio per shape), logs/ (worker
stderr) and iree/ (the StableHLO given to IREE). See docs/Benchmarks.md
("Peer benchmark") and scripts/peer-bench.sh, which installs the pinned
packages and builds what this needs.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import selectors
import shutil
import signal
import statistics
import subprocess
import sys
import time
import zlib
from typing import Any, Dict, List, Optional

FRAMEWORKS = ["convgen", "tf", "jax", "iree"]
LABELS = {"convgen": "ConvGen", "tf": "TF", "jax": "JAX", "iree": "IREE"}
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, os.pardir, os.pardir))

# ==========================================================================
# Worker side
# ==========================================================================


def _inputs(shape: Dict[str, Any]):
    """The two operands of a shape, the same in every worker (seeded by id)."""
    import numpy as np
    rng = np.random.default_rng(zlib.crc32(shape["id"].encode()))
    if shape["op"] == "dw":
        a = shape["input_shape"]
        b = shape["out_backprop_shape"]
    else:
        a = shape["input_shape"]
        b = shape["kernel_shape"]
    x = rng.uniform(-1.0, 1.0, size=a).astype(np.float32)
    y = rng.uniform(-1.0, 1.0, size=b).astype(np.float32)
    return x, y


def _first_line(e: BaseException) -> str:
    """The line of an exception's text that says what went wrong (TF's
    graph errors put it after a traceback of the Python definition)."""
    import re
    lines = [ln.strip() for ln in str(e).strip().splitlines()]
    for ln in lines:
        if ln.startswith("{{function_node"):
            return re.sub(r"^\{\{function_node [^}]*\}\}\s*", "", ln)[:300]
    skip = ("Graph execution error", "Detected at node", "File ", "[[")
    for ln in lines:
        if ln and not ln.startswith(skip) and not ln.endswith(":"):
            return ln[:300]
    return (lines[0] if lines else type(e).__name__)[:300]


def _tf_same_pads(in_size, k, s, d):
    out = -(-in_size // s)
    total = max((out - 1) * s + (k - 1) * d + 1 - in_size, 0)
    return [total // 2, total - total // 2]


class ConvGenImpl:
    """convgen.backprop_filter / convgen.conv_transpose (numThreads 0: the
    OpenMP default team, i.e. OMP_NUM_THREADS)."""

    def __init__(self, threads: int):
        import convgen
        self.cg = convgen

    def prepare(self, s, x, y):
        cg = self.cg
        if s["op"] == "dw":
            fn = lambda: cg.backprop_filter(  # noqa: E731
                x, s["filter_shape"], y, s["strides"], "EXPLICIT",
                s["data_format"], s["dilations"], s["explicit_paddings"])
        else:
            fn = lambda: cg.conv_transpose(  # noqa: E731
                x, y, s["strides"], s["padding"], s["output_padding"],
                "channels_last", s["dilations"])
        return {"run": fn, "block": lambda r: None, "host": lambda r: r,
                "path": "jit", "compile_s": None}


class TFImpl:
    def __init__(self, threads: int):
        import tensorflow as tf
        tf.config.threading.set_intra_op_parallelism_threads(threads)
        tf.config.threading.set_inter_op_parallelism_threads(1)
        import keras
        self.tf, self.keras = tf, keras

    def _dw_fn(self, s):
        tf = self.tf
        rank = s["spatial_rank"]
        st, di, k = s["strides"], s["dilations"], s["kernel"]
        fs = s["filter_shape"]
        pads = s["explicit_paddings"]
        if rank <= 2:
            if rank == 1:  # tf.nn.conv1d's gradient: conv2d with H = 1
                st, di, k, pads = [1] + st, [1] + di, [1] + k, [[0, 0]] + pads
                fs = [1] + fs
            explicit = [0, 0] + [p for pair in pads for p in pair] + [0, 0]

            def f(x, dy):
                if rank == 1:
                    x, dy = tf.expand_dims(x, 1), tf.expand_dims(dy, 1)
                r = tf.raw_ops.Conv2DBackpropFilter(
                    input=x, filter_sizes=fs, out_backprop=dy,
                    strides=[1] + st + [1], padding="EXPLICIT",
                    explicit_paddings=explicit, dilations=[1] + di + [1],
                    data_format="NHWC")
                return tf.squeeze(r, 0) if rank == 1 else r
            return f
        # 3-D: Conv3DBackpropFilterV2 has SAME / VALID only.
        same = all(list(p) == _tf_same_pads(i, kk, ss, dd) for p, i, kk, ss, dd
                   in zip(pads, s["in_spatial"], k, st, di))
        zero = all(p == [0, 0] for p in pads)
        padding = "VALID" if zero else "SAME" if same else "VALID"
        prepad = None if (zero or same) else [[0, 0]] + pads + [[0, 0]]

        def f3(x, dy):
            if prepad is not None:
                x = tf.pad(x, prepad)
            return tf.raw_ops.Conv3DBackpropFilterV2(
                input=x, filter_sizes=fs, out_backprop=dy,
                strides=[1] + st + [1], padding=padding,
                dilations=[1] + di + [1], data_format="NDHWC")
        return f3

    def prepare(self, s, x, y):
        tf, keras = self.tf, self.keras
        if s["op"] == "dw":
            fn = self._dw_fn(s)
        else:
            def fn(a, b):
                return keras.ops.conv_transpose(
                    a, b, s["strides"], s["padding"], s["output_padding"],
                    "channels_last", s["dilations"])
        xt, yt = tf.constant(x), tf.constant(y)
        errors = []
        for jit in (False, True):
            g = tf.function(fn, jit_compile=jit)
            try:
                t0 = time.perf_counter()
                r = g(xt, yt)
                r.numpy()
                first = time.perf_counter() - t0
            except Exception as e:  # noqa: BLE001 - TF raises many types
                errors.append(("native: " if not jit else "xla: ")
                              + _first_line(e))
                continue
            return {"run": lambda g=g: g(xt, yt), "block": lambda r: r.numpy(),
                    "host": lambda r: r.numpy(), "path": "xla" if jit else "native",
                    "compile_s": None, "first_result": r, "first_s": first,
                    "note": errors[0] if errors else ""}
        raise RuntimeError("; ".join(errors))


def _jax_fn(s):
    """The JAX function of the shape (also what IREE compiles)."""
    import jax
    import jax.numpy as jnp
    from jax import lax
    if s["op"] == "dw":
        rank = s["spatial_rank"]
        specs = {1: ("NWC", "WIO", "NWC"), 2: ("NHWC", "HWIO", "NHWC"),
                 3: ("NDHWC", "DHWIO", "NDHWC")}[rank]
        pads = [tuple(p) for p in s["explicit_paddings"]]

        def f(x, dy):
            def fwd(w):
                return lax.conv_general_dilated(
                    x, w, s["strides"], pads, rhs_dilation=s["dilations"],
                    dimension_numbers=specs, feature_group_count=s["groups"])
            _, vjp = jax.vjp(fwd, jnp.zeros(s["filter_shape"], jnp.float32))
            return vjp(dy)[0]
        return f
    import keras

    def t(a, b):
        return keras.ops.conv_transpose(a, b, s["strides"], s["padding"],
                                        s["output_padding"], "channels_last",
                                        s["dilations"])
    return t


class JaxImpl:
    def __init__(self, threads: int):
        import jax
        self.jax = jax
        import keras  # noqa: F401  (KERAS_BACKEND=jax, set by the parent)

    def prepare(self, s, x, y):
        jax = self.jax
        f = jax.jit(_jax_fn(s))
        xd, yd = jax.device_put(x), jax.device_put(y)
        t0 = time.perf_counter()
        compiled = f.lower(xd, yd).compile()
        compile_s = time.perf_counter() - t0
        return {"run": lambda: compiled(xd, yd),
                "block": lambda r: r.block_until_ready(),
                "host": lambda r: __import__("numpy").asarray(r),
                "path": "xla", "compile_s": compile_s}


class IreeImpl:
    def __init__(self, threads: int):
        import jax
        import iree.compiler as ic
        import iree.runtime as ir
        import keras  # noqa: F401
        self.jax, self.ic, self.ir = jax, ic, ir
        ir.flags.parse_flags(f"--task_topology_group_count={threads}")
        self.config = ir.Config("local-task")
        self.extra = [a for a in os.environ.get("PEER_IREE_FLAGS", "").split() if a]
        self.dump = os.environ.get("PEER_IREE_DUMP")

    def prepare(self, s, x, y):
        jax, ic, ir = self.jax, self.ic, self.ir
        import numpy as np
        structs = [jax.ShapeDtypeStruct(a.shape, np.float32) for a in (x, y)]
        text = jax.jit(_jax_fn(s)).lower(*structs).as_text()
        if self.dump:
            os.makedirs(self.dump, exist_ok=True)
            with open(os.path.join(self.dump, s["id"] + ".mlir"), "w") as fh:
                fh.write(text)
        t0 = time.perf_counter()
        vmfb = ic.compile_str(
            text, target_backends=["llvm-cpu"], input_type="stablehlo",
            extra_args=["--iree-llvmcpu-target-cpu=host"] + self.extra)
        compile_s = time.perf_counter() - t0
        ctx = ir.SystemContext(config=self.config)
        vm = ir.VmModule.copy_buffer(ctx.instance, vmfb)
        ctx.add_vm_module(vm)
        fn = ctx.modules[vm.name]["main"]
        xd = ir.asdevicearray(self.config.device, x)
        yd = ir.asdevicearray(self.config.device, y)
        return {"run": lambda: fn(xd, yd), "block": lambda r: r.to_host(),
                "host": lambda r: r.to_host(), "path": "llvm-cpu",
                "compile_s": compile_s, "keep": (ctx, vm)}


IMPLS = {"convgen": ConvGenImpl, "tf": TFImpl, "jax": JaxImpl, "iree": IreeImpl}


def _cpu_seconds() -> float:
    import resource
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


class Worker:
    def __init__(self, framework: str, threads: int):
        self.framework, self.threads = framework, threads
        self.impl = IMPLS[framework](threads)
        self.cur: Optional[Dict[str, Any]] = None

    def prepare(self, msg):
        import numpy as np
        s = msg["shape"]
        self.cur = None
        x, y = _inputs(s)
        p = self.impl.prepare(s, x, y)
        if "first_result" in p:
            first, first_s = p.pop("first_result"), p.pop("first_s")
        else:
            t0 = time.perf_counter()
            first = p["run"]()
            p["block"](first)
            first_s = time.perf_counter() - t0
        out = np.asarray(p["host"](first), dtype=np.float32)
        reply = {"status": "ok", "path": p["path"], "compile_s": p["compile_s"],
                 "first_s": first_s, "note": p.get("note", ""),
                 "shape_out": list(out.shape)}
        if msg.get("save_ref"):
            np.save(msg["save_ref"], out)
        if msg.get("ref"):
            ref = np.load(msg["ref"])
            if ref.shape != out.shape:
                reply.update(status="mismatch", rel_err=None,
                             note=f"shape {out.shape} != ConvGen {ref.shape}")
            else:
                scale = float(np.max(np.abs(ref))) or 1.0
                err = float(np.max(np.abs(out.astype(np.float64) - ref))) / scale
                reply["rel_err"] = err
                if not math.isfinite(err) or err > msg["rtol"]:
                    reply["status"] = "mismatch"
        # Warm-up, and the call time that sizes the batches.
        t_call = first_s
        warmup = msg["warmup"]
        if p["compile_s"] is not None and first_s > 1.0:
            warmup = 0  # compiled beforehand: this slow first call warmed up
            if first_s > msg["max_seconds"]:
                # Slower than the whole timing budget: the first call is
                # the measurement.
                p["single"] = first_s
                reply["note"] = (reply["note"] + "; " if reply["note"] else "") + \
                    "timed by its first call only (slower than --max-seconds)"
        for _ in range(warmup):
            t0 = time.perf_counter()
            p["block"](p["run"]())
            t_call = time.perf_counter() - t0
        p["t_call"] = max(t_call, 1e-7)
        self.cur = p
        del x, y, out
        return reply

    def time(self, msg):
        p = self.cur
        if p is None:
            return {"status": "error", "note": "not prepared"}
        if p.get("single"):
            return {"status": "ok", "times": [p["single"]], "calls": 1, "cpu": None}
        run, block = p["run"], p["block"]
        calls = max(1, int(math.ceil(msg["min_batch_s"] / p["t_call"])))
        batch_s = calls * p["t_call"]
        reps = max(1, min(msg["reps"], int(msg["budget_s"] // batch_s)))
        times = []
        c0, w0 = _cpu_seconds(), time.perf_counter()
        for _ in range(reps):
            t0 = time.perf_counter()
            r = None
            for _ in range(calls):
                r = run()
            block(r)
            times.append((time.perf_counter() - t0) / calls)
            del r
        wall = time.perf_counter() - w0
        cpu = (_cpu_seconds() - c0) / wall if wall > 0 else None
        return {"status": "ok", "times": times, "calls": calls, "cpu": cpu}

    def release(self, msg):
        self.cur = None
        import gc
        gc.collect()
        return {"status": "ok"}


def worker_main(framework: str, threads: int) -> int:
    # The protocol goes over the original stdout; everything else that
    # writes to fd 1 (TF, XLA, IREE) lands in the worker's log (fd 2).
    proto = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr

    def send(obj):
        proto.write(json.dumps(obj) + "\n")
        proto.flush()

    try:
        w = Worker(framework, threads)
        send({"status": "ready", "versions": versions(framework),
              "affinity": sorted(os.sched_getaffinity(0))})
    except Exception as e:  # noqa: BLE001
        import traceback
        traceback.print_exc()
        send({"status": "error", "note": f"startup: {type(e).__name__}: {e}"})
        return 1
    for line in sys.stdin:
        msg = json.loads(line)
        cmd = msg["cmd"]
        if cmd == "quit":
            break
        try:
            reply = getattr(w, cmd)(msg)
        except Exception as e:  # noqa: BLE001
            import traceback
            traceback.print_exc()
            reply = {"status": "error", "note": f"{type(e).__name__}: {_first_line(e)}"}
        send(reply)
    return 0


def versions(framework: str) -> Dict[str, str]:
    from importlib.metadata import version, PackageNotFoundError
    names = {"convgen": ["numpy"], "tf": ["tensorflow-cpu", "keras", "numpy"],
             "jax": ["jax", "jaxlib", "keras"],
             "iree": ["iree-base-compiler", "iree-base-runtime", "jax"]}[framework]
    out = {}
    for n in names:
        try:
            out[n] = version(n)
        except PackageNotFoundError:
            out[n] = "?"
    if framework == "convgen":
        import convgen
        out["convgen"] = convgen.__version__
        out["libConvGenC"] = convgen.library_path
    return out


# ==========================================================================
# Parent side
# ==========================================================================


def log(*a):
    print(*a, flush=True)


class Proc:
    """One worker process (framework, threads) and its request channel."""

    def __init__(self, fw: str, threads: int, args, cpus: List[int]):
        self.fw, self.threads, self.args, self.cpus = fw, threads, args, cpus
        self.p: Optional[subprocess.Popen] = None
        self.buf = b""
        self.info: Dict[str, Any] = {}
        self.dead_note = ""

    def env(self) -> Dict[str, str]:
        e = dict(os.environ)
        n = str(self.threads)
        e["PYTHONPATH"] = os.pathsep.join(
            [os.path.join(ROOT, "python")] +
            ([e["PYTHONPATH"]] if e.get("PYTHONPATH") else []))
        e["TF_CPP_MIN_LOG_LEVEL"] = "2"
        e["OMP_NUM_THREADS"] = n
        # libomp's idle workers spin 200 ms by default and would take the
        # cores from the next framework; conv-bench uses 5 ms too.
        e.setdefault("KMP_BLOCKTIME", "5")
        if self.fw == "tf":
            e["KERAS_BACKEND"] = "tensorflow"
        if self.fw in ("jax", "iree"):
            e["KERAS_BACKEND"] = "jax"
            e["JAX_PLATFORMS"] = "cpu"
            flags = e.get("XLA_FLAGS", "")
            if self.threads == 1:
                flags += " --xla_cpu_multi_thread_eigen=false"
            e["XLA_FLAGS"] = flags.strip()
        if self.fw == "iree":
            e["PEER_IREE_FLAGS"] = self.args.iree_flags
            e["PEER_IREE_DUMP"] = os.path.join(self.args.out, "iree")
        return e

    def start(self):
        logdir = os.path.join(self.args.out, "logs")
        os.makedirs(logdir, exist_ok=True)
        logf = open(os.path.join(logdir, f"{self.fw}-t{self.threads}.log"), "ab")
        cpus = self.cpus

        def pre():
            if cpus:
                os.sched_setaffinity(0, cpus)
        self.p = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), "--worker", self.fw,
             "--threads", str(self.threads)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=logf,
            env=self.env(), preexec_fn=pre, cwd=ROOT)
        logf.close()
        self.buf = b""

    def wait_ready(self, timeout: float) -> bool:
        r = self._read(timeout)
        if r is None or r.get("status") != "ready":
            self.dead_note = (r or {}).get("note", "worker did not start")
            self.kill()
            return False
        self.info = r
        return True

    def alive(self) -> bool:
        return self.p is not None and self.p.poll() is None

    def kill(self):
        if self.p is not None:
            if self.p.poll() is None:
                self.p.kill()
            self.p.wait()
        self.p = None

    def _read(self, timeout: float) -> Optional[Dict[str, Any]]:
        assert self.p is not None
        fd = self.p.stdout.fileno()
        deadline = time.monotonic() + timeout
        sel = selectors.DefaultSelector()
        sel.register(fd, selectors.EVENT_READ)
        try:
            while b"\n" not in self.buf:
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    return None
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    return None
                self.buf += chunk
        finally:
            sel.close()
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def request(self, msg: Dict[str, Any], timeout: float) -> Dict[str, Any]:
        if not self.alive():
            self.start()
            if not self.wait_ready(self.args.start_timeout):
                return {"status": "error", "note": "worker restart failed: "
                        + self.dead_note}
        try:
            self.p.stdin.write((json.dumps(msg) + "\n").encode())
            self.p.stdin.flush()
        except BrokenPipeError:
            self.kill()
            return {"status": "crash", "note": "worker died"}
        r = self._read(timeout)
        if r is None:
            code = self.p.poll()
            self.kill()
            if code is None:
                return {"status": "timeout", "note": f"no answer in {timeout:.0f} s"}
            return {"status": "crash", "note": f"worker exited ({code})"}
        return r

    def quit(self):
        if self.alive():
            try:
                self.p.stdin.write(b'{"cmd": "quit"}\n')
                self.p.stdin.flush()
                self.p.wait(timeout=30)
            except Exception:  # noqa: BLE001
                pass
        self.kill()


def load_shapes(args) -> List[Dict[str, Any]]:
    cmd = [args.conv_bench, "--list-json"]
    if args.quick:
        cmd.append("--quick")
    elif not args.big:
        cmd.append("--skip-big")
    if args.filter:
        cmd.append("--filter=" + args.filter)
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"peer-bench: {' '.join(cmd)} failed:\n{r.stderr}")
    return json.loads(r.stdout)["shapes"]


def default_conv_bench() -> str:
    for d in ("build-bench", "build"):
        p = os.path.join(ROOT, d, "bin", "conv-bench")
        if os.path.exists(p):
            return p
    return "conv-bench"


def fmt_g(v: Optional[float]) -> str:
    if v is None:
        return "-"
    return f"{v:.1f}" if v >= 1 else f"{v:.3f}"


def geomean(vals: List[float]) -> Optional[float]:
    vals = [v for v in vals if v and v > 0 and math.isfinite(v)]
    if not vals:
        return None
    return math.exp(sum(math.log(v) for v in vals) / len(vals))


def cell(rec: Optional[Dict[str, Any]]) -> str:
    """A table cell: GFLOP/s with marks (* TF's XLA path, ! mismatch)."""
    if rec is None:
        return "-"
    st = rec["status"]
    if st in ("ok", "mismatch") and rec.get("gflops"):
        s = fmt_g(rec["gflops"])
        if rec.get("path") == "xla" and rec["framework"] == "tf":
            s += "*"
        if st == "mismatch":
            s += "!"
        return s
    return {"error": "n/a", "timeout": "timeout", "crash": "crash",
            "skipped": "-"}.get(st, st)


def ratio(cg: Optional[Dict[str, Any]], peer: Optional[Dict[str, Any]]) -> Optional[float]:
    if not cg or not peer or cg["status"] != "ok" or peer["status"] != "ok":
        return None
    if not cg.get("gflops") or not peer.get("gflops"):
        return None
    return cg["gflops"] / peer["gflops"]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        description="ConvGen vs TF / JAX / IREE on the conv-bench shape suite "
        "(CPU); see docs/Benchmarks.md, 'Peer benchmark'.")
    ap.add_argument("--quick", action="store_true",
                    help="conv-bench's quick subset (no big shapes)")
    ap.add_argument("--big", action="store_true",
                    help="also the shapes conv-bench marks [big] (skipped by default)")
    ap.add_argument("--filter", default="",
                    help="conv-bench --filter syntax: ids, families, dw, "
                    "transpose, prefixes with '*' (comma-separated)")
    ap.add_argument("--threads", default="1,2",
                    help="comma-separated thread counts (default 1,2)")
    ap.add_argument("--frameworks", default=",".join(FRAMEWORKS),
                    help="subset of convgen,tf,jax,iree (ConvGen is the "
                    "reference of the result check)")
    ap.add_argument("--reps", type=int, default=5,
                    help="timed batches per framework and round (fewer for "
                    "slow shapes, see --max-seconds)")
    ap.add_argument("--rounds", type=int, default=2,
                    help="rounds over the frameworks per shape, the order "
                    "reversed every other round (default 2)")
    ap.add_argument("--warmup", type=int, default=1,
                    help="untimed calls after the first call (default 1)")
    ap.add_argument("--min-batch-ms", type=float, default=20.0,
                    help="each batch loops the call for at least this long")
    ap.add_argument("--max-seconds", type=float, default=6.0,
                    help="timing budget per framework, shape and thread count "
                    "(at least one batch per round)")
    ap.add_argument("--compile-timeout", type=float, default=180.0,
                    help="seconds a worker may take to compile, run and check "
                    "a shape once; then it is killed and restarted, and that "
                    "framework skips the shape at the other thread counts")
    ap.add_argument("--timeout", type=float, default=600.0,
                    help="seconds a worker may take for one timing round")
    ap.add_argument("--start-timeout", type=float, default=300.0)
    ap.add_argument("--rtol", type=float, default=1e-3,
                    help="max |result - ConvGen| / max |ConvGen| allowed")
    ap.add_argument("--gap-ms", type=float, default=50.0,
                    help="pause between two frameworks' turns")
    ap.add_argument("--no-pin", action="store_true",
                    help="do not pin a worker with N threads to N CPUs")
    ap.add_argument("--iree-flags", default="",
                    help="extra iree-compile flags (space-separated)")
    ap.add_argument("--conv-bench", default=os.environ.get("CONV_BENCH") or default_conv_bench(),
                    help="conv-bench binary with --list-json")
    ap.add_argument("--out", default=os.path.join(ROOT, "build-peer"))
    ap.add_argument("--no-plot", action="store_true")
    ap.add_argument("--note", default="",
                    help="a line for the report header (e.g. what was built)")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    if args.worker:
        return worker_main(args.worker, int(args.threads))

    fws = [f.strip() for f in args.frameworks.split(",") if f.strip()]
    for f in fws:
        if f not in FRAMEWORKS:
            ap.error(f"--frameworks: unknown framework {f!r}")
    fws = [f for f in FRAMEWORKS if f in fws]  # ConvGen first
    threads = [int(t) for t in args.threads.split(",") if t.strip()]
    if not threads or min(threads) < 1:
        ap.error("--threads: expected positive integers")
    args.out = os.path.abspath(args.out)
    os.makedirs(args.out, exist_ok=True)
    refdir = os.path.join(args.out, "ref")
    os.makedirs(refdir, exist_ok=True)

    shapes = load_shapes(args)
    if not shapes:
        sys.exit("peer-bench: no shape selected")
    allowed = sorted(os.sched_getaffinity(0))
    ncpu = len(allowed)
    if max(threads) > ncpu:
        log(f"peer-bench: WARNING: {max(threads)} threads on {ncpu} CPUs")
    load0 = os.getloadavg()
    log(f"peer-bench: {len(shapes)} shape(s), threads {threads}, frameworks "
        f"{', '.join(LABELS[f] for f in fws)}; {ncpu} CPUs; load average "
        f"{load0[0]:.2f} {load0[1]:.2f} {load0[2]:.2f}")
    log(f"peer-bench: shapes from {args.conv_bench}; output in {args.out}")

    # Start every worker (they import their framework in parallel).
    procs: Dict[tuple, Proc] = {}
    for t in threads:
        cpus = [] if args.no_pin or t >= ncpu else allowed[:t]
        for f in fws:
            procs[(f, t)] = Proc(f, t, args, cpus)
            procs[(f, t)].start()
    failed_start = {}
    for key, pr in procs.items():
        if not pr.wait_ready(args.start_timeout):
            failed_start[key] = pr.dead_note
            log(f"peer-bench: WARNING: {LABELS[key[0]]} with {key[1]} thread(s) "
                f"did not start: {pr.dead_note} (see {args.out}/logs)")
    vers: Dict[str, str] = {}
    for pr in procs.values():
        vers.update(pr.info.get("versions", {}))
    log("peer-bench: versions: " + ", ".join(f"{k} {v}" for k, v in sorted(vers.items())
                                            if k != "libConvGenC"))

    records: List[Dict[str, Any]] = []
    mismatches: List[str] = []
    ref_owner: Dict[str, str] = {}
    t_start = time.time()

    def gap():
        time.sleep(args.gap_ms / 1000.0)

    try:
        for si, s in enumerate(shapes):
            ref_path = os.path.join(refdir, s["id"] + ".npy")
            if os.path.exists(ref_path):
                os.remove(ref_path)
            given_up: Dict[str, str] = {}  # framework -> why (timeout, crash)
            for t in threads:
                recs: Dict[str, Dict[str, Any]] = {}
                for f in fws:
                    rec = {"id": s["id"], "family": s["family"], "op": s["op"],
                           "threads": t, "framework": f, "flops": s["flops"],
                           "description": s["description"], "status": "skipped",
                           "path": "", "note": "", "compile_s": None,
                           "first_s": None, "rel_err": None, "times": [],
                           "cpu": None, "load1": None}
                    recs[f] = rec
                    if (f, t) in failed_start:
                        rec.update(status="error", note="worker did not start")
                        continue
                    if f in given_up:
                        rec.update(status=given_up[f].split(":")[0],
                                   note="not retried: " + given_up[f])
                        continue
                    # ConvGen's result is the reference; when ConvGen has
                    # none, the first framework that has one provides it.
                    msg = {"cmd": "prepare", "shape": s, "rtol": args.rtol,
                           "warmup": args.warmup, "max_seconds": args.max_seconds}
                    saving = not os.path.exists(ref_path)
                    if saving:
                        msg["save_ref"] = ref_path
                    else:
                        msg["ref"] = ref_path
                    r = procs[(f, t)].request(msg, args.compile_timeout)
                    gap()
                    rec["status"] = r.get("status", "error")
                    for k in ("path", "note", "compile_s", "first_s", "rel_err"):
                        if r.get(k) is not None:
                            rec[k] = r[k]
                    if saving and os.path.exists(ref_path):
                        ref_owner[s["id"]] = f
                    elif rec["status"] in ("ok", "mismatch"):
                        if ref_owner.get(s["id"]) not in (None, "convgen"):
                            rec["note"] = (rec["note"] + "; " if rec["note"] else "") + \
                                f"checked against {LABELS[ref_owner[s['id']]]} (no ConvGen result)"
                    if rec["status"] in ("timeout", "crash"):
                        given_up[f] = f"{rec['status']}: {rec['note']} at {t} thread(s)"
                    if rec["status"] == "mismatch":
                        m = (f"{s['id']} ({s['op']}, {t} thread(s)): {LABELS[f]} "
                             f"differs from {LABELS[ref_owner.get(s['id'], 'convgen')]}: "
                             f"max rel err {rec['rel_err']} > {args.rtol} {rec['note']}")
                        mismatches.append(m)
                        log("\n" + "!" * 78 + "\n!! MISMATCH: " + m + "\n" + "!" * 78)
                    elif rec["status"] != "ok":
                        log(f"  {s['id']} {LABELS[f]} t{t}: {rec['status']}: {rec['note']}")
                # Timing rounds, alternating the order.
                live = [f for f in fws if recs[f]["status"] in ("ok", "mismatch")]
                done_early = set()  # one batch already took the whole budget
                for rnd in range(args.rounds):
                    order = live if rnd % 2 == 0 else list(reversed(live))
                    for f in order:
                        if recs[f]["status"] not in ("ok", "mismatch") or f in done_early:
                            continue
                        r = procs[(f, t)].request(
                            {"cmd": "time", "reps": args.reps,
                             "min_batch_s": args.min_batch_ms / 1000.0,
                             "budget_s": args.max_seconds / args.rounds},
                            args.timeout)
                        gap()
                        if r.get("status") != "ok":
                            recs[f].update(status=r.get("status", "error"),
                                           note=r.get("note", ""))
                            continue
                        recs[f]["times"] += r["times"]
                        if sum(r["times"]) * r["calls"] >= args.max_seconds:
                            done_early.add(f)
                        cpu = r.get("cpu")
                        if cpu is not None:
                            prev = recs[f]["cpu"]
                            recs[f]["cpu"] = cpu if prev is None else max(prev, cpu)
                load1 = os.getloadavg()[0]
                for f in fws:
                    if procs[(f, t)].alive():
                        procs[(f, t)].request({"cmd": "release"}, 60)
                    rec = recs[f]
                    rec["load1"] = load1
                    if rec["times"]:
                        best = min(rec["times"])
                        med = statistics.median(rec["times"])
                        rec.update(best_s=best, median_s=med,
                                   gflops=s["flops"] / best * 1e-9,
                                   gflops_median=s["flops"] / med * 1e-9)
                        if rec["cpu"] is not None and rec["cpu"] > t + 0.35:
                            rec["note"] = (rec["note"] + "; " if rec["note"] else "") + \
                                f"CPU use {rec['cpu']:.2f} > {t} threads"
                    records.append(rec)
                cg = recs.get("convgen")
                parts = [f"{LABELS[f]} {cell(recs[f])}" for f in fws]
                rats = [f"/{LABELS[f]} {ratio(cg, recs[f]):.2f}x" for f in fws
                        if f != "convgen" and ratio(cg, recs[f])]
                log(f"[{si + 1}/{len(shapes)}] {s['id']:<5} {s['op']:<9} t{t}  "
                    + "  ".join(parts) + ("   CG" + " ".join(rats) if rats else "")
                    + f"   (load {load1:.2f}, {time.time() - t_start:.0f} s)")
            if os.path.exists(ref_path):
                os.remove(ref_path)
    finally:
        for pr in procs.values():
            pr.quit()
        shutil.rmtree(refdir, ignore_errors=True)

    load1 = os.getloadavg()
    meta = {"versions": vers, "threads": threads, "frameworks": fws,
            "shapes": len(shapes), "cpus": ncpu, "cpu_model": cpu_model(),
            "cpu_flags": cpu_simd(), "load_start": load0, "load_end": load1,
            "seconds": time.time() - t_start, "args": vars(args),
            "pinned": not args.no_pin, "git": git_rev(), "note": args.note}
    write_outputs(args, shapes, records, fws, threads, meta, mismatches)
    if mismatches:
        log("\npeer-bench: RESULT MISMATCHES (%d):" % len(mismatches))
        for m in mismatches:
            log("  " + m)
        return 1
    return 0


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


def cpu_simd() -> str:
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("flags"):
                    fl = line.split(":", 1)[1].split()
                    if "avx512f" in fl:
                        return "AVX-512"
                    if "avx2" in fl:
                        return "AVX2 (no AVX-512)"
                    return "no AVX2"
    except OSError:
        pass
    return "?"


def git_rev() -> str:
    try:
        r = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                           capture_output=True, text=True)
        return r.stdout.strip() or "?"
    except OSError:
        return "?"


# ==========================================================================
# Reports
# ==========================================================================


def write_outputs(args, shapes, records, fws, threads, meta, mismatches):
    out = args.out
    peers = [f for f in fws if f != "convgen"]
    by = {(r["id"], r["threads"], r["framework"]): r for r in records}

    # Long CSV.
    cols = ["id", "family", "op", "threads", "framework", "status", "path",
            "gflops", "gflops_median", "best_ms", "median_ms", "timed_batches",
            "compile_s", "first_call_s", "rel_err_vs_convgen", "cpu_util",
            "convgen_ratio", "flops", "load1", "description", "note"]
    with open(os.path.join(out, "peer-bench.csv"), "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(cols)
        for r in records:
            cg = by.get((r["id"], r["threads"], "convgen"))
            rt = ratio(cg, r) if r["framework"] != "convgen" else None
            w.writerow([r["id"], r["family"], r["op"], r["threads"], r["framework"],
                        r["status"], r["path"], _f(r.get("gflops")),
                        _f(r.get("gflops_median")), _f(_ms(r.get("best_s"))),
                        _f(_ms(r.get("median_s"))), len(r["times"]),
                        _f(r.get("compile_s")), _f(r.get("first_s")),
                        _f(r.get("rel_err"), "%.3g"), _f(r.get("cpu"), "%.2f"),
                        _f(rt, "%.3f"), "%.0f" % r["flops"], _f(r.get("load1"), "%.2f"),
                        r["description"], r["note"]])

    # Wide CSV and the text / markdown tables.
    head = ["id", "family", "op", "threads", "gflop"] + \
        [f"{f}_gflops" for f in fws] + [f"convgen_over_{p}" for p in peers] + \
        [f"{f}_first_call_s" for f in fws]
    rows = []
    for s in shapes:
        for t in threads:
            rec = {f: by.get((s["id"], t, f)) for f in fws}
            cg = rec.get("convgen")
            rows.append((s, t, rec, {p: ratio(cg, rec[p]) for p in peers}))
    with open(os.path.join(out, "peer-bench-wide.csv"), "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(head)
        for s, t, rec, rats in rows:
            w.writerow([s["id"], s["family"], s["op"], t, "%.4f" % (s["flops"] * 1e-9)]
                       + [cell(rec[f]) for f in fws]
                       + [_f(rats[p], "%.3f") for p in peers]
                       + [_f(_first(rec[f]), "%.3f") for f in fws])

    md = []
    md.append(f"Peer benchmark: {meta['shapes']} shapes, {meta['cpu_model']} "
              f"({meta['cpus']} CPUs, {meta['cpu_flags']}), git {meta['git']}, "
              f"threads {','.join(map(str, threads))}, "
              f"{'pinned to N CPUs' if meta['pinned'] else 'not pinned'}; "
              f"{meta['seconds'] / 60:.0f} min; load average "
              f"{meta['load_start'][0]:.2f} at the start, {meta['load_end'][0]:.2f} at the end.")
    if meta.get("note"):
        md.append("")
        md.append(meta["note"])
    md.append("")
    md.append("Versions: " + ", ".join(f"{k} {v}" for k, v in sorted(meta["versions"].items())
                                       if k != "libConvGenC") + ".")
    md.append("")
    md.append("GFLOP/s (best batch; spec FLOP conventions); ratio = ConvGen / peer "
              "(> 1: ConvGen faster). `*` TF's own CPU kernel refuses the shape "
              "(dilation or groups): TF via `jit_compile=True` (XLA). `!` result "
              "mismatch. n/a: the framework failed (see the CSV note).")
    for t in threads:
        md.append("")
        md.append(f"#### {t} thread{'s' if t > 1 else ''}")
        md.append("")
        hdr = ["id", "op", "GFLOP"] + [LABELS[f] for f in fws] + \
            [f"CG/{LABELS[p]}" for p in peers]
        md.append("| " + " | ".join(hdr) + " |")
        md.append("|" + "|".join(["---"] * 2 + ["--:"] * (len(hdr) - 2)) + "|")
        for s, tt, rec, rats in rows:
            if tt != t:
                continue
            md.append("| " + " | ".join(
                [s["id"], s["op"], "%.2f" % (s["flops"] * 1e-9)]
                + [cell(rec[f]) for f in fws]
                + [("%.2f" % rats[p]) if rats[p] else "-" for p in peers]) + " |")
    # Geomeans.
    md.append("")
    md.append("#### Geomeans")
    md.append("")
    md.append("GFLOP/s columns: geomean over the shapes where every framework ran "
              "and agreed (count in the first column); ratio columns: geomean of "
              "ConvGen / peer over the shapes where both ran and agreed (count in "
              "parentheses).")
    md.append("")
    hdr = ["group", "threads"] + [LABELS[f] for f in fws] + [f"CG/{LABELS[p]}" for p in peers]
    md.append("| " + " | ".join(hdr) + " |")
    md.append("|" + "|".join(["---"] * 2 + ["--:"] * (len(hdr) - 2)) + "|")
    groups = [("op dw", lambda s: s["op"] == "dw"),
              ("op transpose", lambda s: s["op"] == "transpose")]
    fams = []
    for s in shapes:
        if s["family"] not in fams:
            fams.append(s["family"])
    groups = [(f"{fam}", (lambda fam: lambda s: s["family"] == fam)(fam)) for fam in fams] \
        + groups + [("all", lambda s: True)]
    geo_rows = []
    for t in threads:
        for name, pred in groups:
            sel = [(s, rec, rats) for s, tt, rec, rats in rows if tt == t and pred(s)]
            if not sel:
                continue
            common = [rec for _, rec, _ in sel
                      if all(rec[f] and rec[f]["status"] == "ok" and rec[f].get("gflops")
                             for f in fws)]
            gfl = {f: (geomean([rec[f]["gflops"] for rec in common]), len(common))
                   for f in fws}
            grt = {}
            for p in peers:
                vals = [rats[p] for _, _, rats in sel if rats[p]]
                grt[p] = (geomean(vals), len(vals))
            geo_rows.append((name, t, gfl, grt))
            md.append("| " + " | ".join(
                [f"{name} ({gfl[fws[0]][1]})", str(t)]
                + [f"{fmt_g(gfl[f][0])}" for f in fws]
                + [(f"{grt[p][0]:.2f} ({grt[p][1]})" if grt[p][0] else "-") for p in peers])
                + " |")
    if mismatches:
        md.append("")
        md.append("**Result mismatches:**")
        md.append("")
        for m in mismatches:
            md.append(f"- {m}")
    notes = [r for r in records if r["note"] and r["status"] != "ok"
             or (r["note"] and r["framework"] == "tf" and r["path"] == "xla")]
    if notes:
        md.append("")
        md.append("Notes:")
        md.append("")
        seen = set()
        for r in notes:
            key = (r["id"], r["framework"], r["status"], r["note"][:80])
            if key in seen:
                continue
            seen.add(key)
            md.append(f"- {r['id']} {LABELS[r['framework']]} t{r['threads']} "
                      f"({r['status']}, {r['path'] or '-'}): {r['note']}")
    text = "\n".join(md) + "\n"
    with open(os.path.join(out, "peer-bench.md"), "w") as fh:
        fh.write(text)
    with open(os.path.join(out, "peer-bench.json"), "w") as fh:
        json.dump({"meta": meta, "records": records}, fh, indent=1, default=str)

    # Plain-text table on stdout.
    log("")
    for t in threads:
        log(f"== {t} thread(s): GFLOP/s and ConvGen/peer ratio ==")
        hdr = f"{'id':<5} {'op':<9} {'GFLOP':>7} " + " ".join(f"{LABELS[f]:>9}" for f in fws) \
            + " " + " ".join(f"{'CG/' + LABELS[p]:>9}" for p in peers) \
            + " " + " ".join(f"{'1st ' + LABELS[f]:>11}" for f in fws)
        log(hdr)
        for s, tt, rec, rats in rows:
            if tt != t:
                continue
            log(f"{s['id']:<5} {s['op']:<9} {s['flops'] * 1e-9:7.3f} "
                + " ".join(f"{cell(rec[f]):>9}" for f in fws) + " "
                + " ".join(f"{(('%.2fx' % rats[p]) if rats[p] else '-'):>9}" for p in peers)
                + " " + " ".join(f"{_f(_first(rec[f]), '%.2fs'):>11}" for f in fws))
        log("")
    log("== geomeans (GFLOP/s per framework over the shapes all ran (count); "
        "ConvGen/peer ratio (count)) ==")
    for name, t, gfl, grt in geo_rows:
        log(f"{name:<14} t{t}  ({gfl[fws[0]][1]:>2})  "
            + "  ".join(f"{LABELS[f]} {fmt_g(gfl[f][0])}" for f in fws)
            + "   " + "  ".join(f"CG/{LABELS[p]} " + (f"{grt[p][0]:.2f}x({grt[p][1]})"
                                                       if grt[p][0] else "-") for p in peers))
    log("")
    log("* TF via jit_compile=True (XLA): TF's CPU kernel refuses the shape; "
        "! result mismatch; first-call columns: compile + first call (s)")

    if not args.no_plot:
        try:
            plot(os.path.join(out, "peer-bench.png"), shapes, rows, fws, peers, threads, meta)
        except Exception as e:  # noqa: BLE001
            log(f"peer-bench: plot failed: {type(e).__name__}: {e}")
    log(f"peer-bench: wrote {out}/peer-bench.csv, peer-bench-wide.csv, "
        f"peer-bench.md, peer-bench.json{'' if args.no_plot else ', peer-bench.png'}")


def _ms(v):
    return None if v is None else v * 1e3


def _f(v, fmt="%.4g"):
    return "" if v is None else fmt % v


def _first(rec):
    if not rec or rec.get("first_s") is None:
        return None
    return (rec.get("compile_s") or 0.0) + rec["first_s"]


def plot(path, shapes, rows, fws, peers, threads, meta):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    colors = {"convgen": "#1f77b4", "tf": "#ff7f0e", "jax": "#2ca02c", "iree": "#9467bd"}
    ids = [s["id"] for s in shapes]
    n = len(ids)
    fig, axes = plt.subplots(2 * len(threads), 1, figsize=(max(12, 0.42 * n + 3),
                                                            4.2 * 2 * len(threads)),
                             squeeze=False)
    width = 0.8 / len(fws)
    pwidth = 0.8 / max(1, len(peers))
    for ti, t in enumerate(threads):
        sel = [(s, rec, rats) for s, tt, rec, rats in rows if tt == t]
        ax = axes[2 * ti][0]
        for fi, f in enumerate(fws):
            xs, ys = [], []
            for i, (s, rec, _) in enumerate(sel):
                r = rec[f]
                if r and r["status"] == "ok" and r.get("gflops"):
                    xs.append(i - 0.4 + (fi + 0.5) * width)
                    ys.append(r["gflops"])
            label = LABELS[f] + (" (* = XLA path)" if f == "tf" else "")
            bars = ax.bar(xs, ys, width, label=label, color=colors[f])
            if f == "tf":
                for b, (i, (s, rec, _)) in zip(bars, [(i, x) for i, x in enumerate(sel)
                                                      if x[1][f] and x[1][f]["status"] == "ok"
                                                      and x[1][f].get("gflops")]):
                    if rec[f]["path"] == "xla":
                        b.set_hatch("//")
        ax.set_yscale("log")
        ax.set_ylabel("GFLOP/s (log)")
        ax.set_xticks(range(len(sel)))
        ax.set_xticklabels([s["id"] for s, _, _ in sel], rotation=90, fontsize=8)
        ax.set_xlim(-0.6, len(sel) - 0.4)
        ax.grid(axis="y", which="both", alpha=0.3)
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.002, 1.0))
        ax.set_title(f"{t} thread{'s' if t > 1 else ''}: GFLOP/s per framework "
                     f"({meta['cpu_model']}, {meta['cpu_flags']})", fontsize=10)
        ax2 = axes[2 * ti + 1][0]
        for pi, p in enumerate(peers):
            xs, ys = [], []
            for i, (s, rec, rats) in enumerate(sel):
                if rats[p]:
                    xs.append(i - 0.4 + (pi + 0.5) * pwidth)
                    ys.append(rats[p])
            ax2.bar(xs, ys, pwidth, label=f"ConvGen / {LABELS[p]}", color=colors[p])
        ax2.axhline(1.0, color="k", lw=0.8)
        ax2.set_yscale("log")
        ax2.set_ylabel("ConvGen / peer (log; > 1: ConvGen faster)")
        ax2.set_xticks(range(len(sel)))
        ax2.set_xticklabels([s["id"] for s, _, _ in sel], rotation=90, fontsize=8)
        ax2.set_xlim(-0.6, len(sel) - 0.4)
        ax2.grid(axis="y", which="both", alpha=0.3)
        ax2.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.002, 1.0))
        ax2.set_title(f"{t} thread{'s' if t > 1 else ''}: ConvGen's speed ratio to each peer",
                      fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main())
