"""Invalid (and TF-refused) argument sets of the parity suite.

Each case is a JSON-serializable dict with the arguments of one call and
the expected outcome of each side: "reject" (raises) or "accept".

* backprop_filter, api "conv2d": the same arguments go to
  tf.compat.v1.nn.conv2d_backprop_filter and
  convgen.conv2d_backprop_filter (identical signatures). Rows of spec §1.4
  and seeded random perturbations of valid configurations (out_backprop
  size, batch, channels, filter sizes).
* backprop_filter, api "conv3d": tf.raw_ops.Conv3DBackpropFilterV2 and
  convgen.backprop_filter (spatial strides/dilations).
* conv_transpose: keras' TF-backend and JAX-backend conv_transpose and
  convgen.conv_transpose (same arguments), Keras §2.5 ops-level rules, the
  §2.6 inconsistencies and random op >= stride / channel mismatches.
* keras_layer: the Conv{1,2,3}DTranspose constructor (layer-level rules,
  spec §2.5) against convgen.conv_transpose with the same geometry.

"tf_cpu" marks a TF refusal that is a CPU restriction ConvGen does not
have (docs/Semantics.md §4.1); there ConvGen must accept and equal JAX.
"""

from __future__ import annotations

import random
from typing import Dict, List

import cases as C

R, A = "reject", "accept"


def bf2d(name, row, x=(1, 4, 4, 2), fs=(2, 2, 2, 3), dy=(1, 3, 3, 3), strides=(1, 1, 1, 1),
         padding="VALID", data_format="NHWC", dilations=(1, 1, 1, 1), dtype="float32",
         dy_dtype=None, tf=R, convgen=R, note=""):
    return {"op": "backprop_filter", "api": "conv2d", "name": name, "row": row,
            "x_shape": list(x), "filter_sizes": fs if not isinstance(fs, tuple) else list(fs),
            "dy_shape": list(dy), "strides": list(strides), "padding": padding,
            "data_format": data_format, "dilations": list(dilations), "dtype": dtype,
            "dy_dtype": dy_dtype or dtype, "expect": {"tf": tf, "convgen": convgen},
            "note": note}


def bf3d(name, row, x=(1, 3, 4, 4, 2), fs=(2, 2, 2, 2, 3), dy=(1, 2, 3, 3, 3),
         strides=(1, 1, 1), padding="VALID", data_format="NDHWC", dilations=(1, 1, 1),
         tf=R, convgen=R, note=""):
    return {"op": "backprop_filter", "api": "conv3d", "name": name, "row": row,
            "x_shape": list(x), "filter_sizes": list(fs), "dy_shape": list(dy),
            "strides": list(strides), "padding": padding, "data_format": data_format,
            "dilations": list(dilations), "dtype": "float32", "dy_dtype": "float32",
            "expect": {"tf": tf, "convgen": convgen}, "note": note}


def backprop_filter_invalid() -> List[Dict]:
    L = [
        bf2d("padding 'same' (lowercase)", "§1.4 #0", padding="same"),
        bf2d("padding 'FULL'", "§1.4 #0", padding="FULL"),
        bf2d("data_format NCDHW", "§1.4 #0", data_format="NCDHW"),
        bf2d("data_format NHCW", "§1.4 #0/#1", data_format="NHCW"),
        bf2d("dtype int32", "§1.4 #0 (T)", dtype="int32"),
        bf2d("dtype float32/float64 mix", "§1.4 #0 (single T)", dy_dtype="float64"),
        bf2d("padding 'EXPLICIT' string", "§1.1 convert_padding", padding="EXPLICIT"),
        bf2d("padding list element not a pair", "§1.1 convert_padding",
             padding=[[0, 0], 1, [0, 0], [0, 0]]),
        bf2d("padding list element of size 3", "§1.1 convert_padding",
             padding=[[0, 0], [1, 1, 1], [0, 0], [0, 0]]),
        bf2d("padding list of 3 pairs", "§1.1 convert_padding",
             padding=[[0, 0], [0, 0], [0, 0]]),
        bf2d("strides of length 3", "§1.4 #3", strides=(1, 1, 1)),
        bf2d("strides of length 5", "§1.4 #3", strides=(1, 1, 1, 1, 1)),
        bf2d("stride in batch", "§1.4 #4", strides=(2, 1, 1, 1)),
        bf2d("stride in depth", "§1.4 #4", strides=(1, 1, 1, 2)),
        bf2d("stride 0", "§1.4 #5", strides=(1, 0, 1, 1)),
        bf2d("stride -1", "§1.4 #5", strides=(1, 1, -1, 1)),
        bf2d("explicit pad < 0 (testOpEdgeCases)", "§1.4 #7", x=(32, 20, 20, 3),
             fs=(18, 18, 3, 2), dy=(32, 3, 2, 2), padding=[[0, 0], [-1, 0], [0, 0], [0, 0]]),
        bf2d("explicit pad on batch", "§1.4 #8", padding=[[1, 0], [0, 0], [0, 0], [0, 0]]),
        bf2d("explicit pad on depth", "§1.4 #8", padding=[[0, 0], [0, 0], [0, 0], [0, 1]]),
        bf2d("dilations of length 3", "§1.4 #10", dilations=(1, 1, 1)),
        bf2d("dilation in batch", "§1.4 #11", dilations=(2, 1, 1, 1)),
        bf2d("dilation in depth", "§1.4 #11", dilations=(1, 1, 1, 2)),
        bf2d("dilation 0", "§1.4 #12/#13", dilations=(1, 0, 1, 1)),
        bf2d("filter_sizes 2-D", "§1.4 #14", fs=[[2, 2], [2, 3]]),
        bf2d("filter_sizes negative", "§1.4 #15", fs=(2, -2, 2, 3)),
        bf2d("filter_sizes of length 3", "§1.4 #16", fs=(2, 2, 2)),
        bf2d("filter_sizes of length 5", "§1.4 #16", fs=(2, 2, 2, 3, 1)),
        bf2d("input of rank 3", "§1.4 #16", x=(4, 4, 2)),
        bf2d("out_backprop of rank 5", "§1.4 #16", dy=(1, 3, 3, 3, 1)),
        bf2d("batch mismatch", "§1.4 #17", dy=(2, 3, 3, 3)),
        bf2d("filter depth 0", "§1.4 #18", fs=(2, 2, 0, 3)),
        bf2d("input depth not divisible", "§1.4 #19", x=(1, 4, 4, 3)),
        bf2d("out depth mismatch", "§1.4 #20", dy=(1, 3, 3, 4)),
        bf2d("input channels 0 (group count 0)", "§1.4 #19/#23; Semantics §3.1 17b",
             x=(1, 4, 4, 0)),
        bf2d("negative output size", "§1.4 #21", x=(1, 1, 1, 2), fs=(3, 3, 2, 3),
             dy=(1, 1, 1, 3)),
        bf2d("out_backprop size mismatch (VALID)", "§1.4 #22", dy=(1, 3, 2, 3)),
        bf2d("out_backprop size mismatch (SAME s2)", "§1.4 #22", strides=(1, 2, 2, 1),
             padding="SAME", dy=(1, 3, 2, 3)),
        bf2d("out_backprop size mismatch (EXPLICIT)", "§1.4 #22",
             padding=[[0, 0], [1, 1], [0, 0], [0, 0]], dy=(1, 3, 3, 3)),
        # TF CPU restrictions ConvGen does not have (TF rejects, ConvGen = JAX).
        bf2d("NCHW", "§1.4 #2", x=(1, 2, 4, 4), dy=(1, 3, 3, 3), data_format="NCHW",
             tf=R, convgen=A, note="tf_cpu"),
        bf2d("dilation 2", "§1.4 #13", x=(1, 5, 5, 2), dilations=(1, 2, 2, 1),
             tf=R, convgen=A, note="tf_cpu"),
        bf2d("groups 2", "§1.4 #23", x=(1, 4, 4, 4), fs=(2, 2, 2, 4), dy=(1, 3, 3, 4),
             tf=R, convgen=A, note="tf_cpu"),
        # Accepted by both: edge sizes.
        bf2d("out_backprop 0 wide (VALID truncation)", "§1.3 truncating division",
             x=(1, 1, 4, 2), fs=(3, 2, 2, 3), dy=(1, 0, 3, 3), strides=(1, 2, 1, 1),
             tf=A, convgen=A, note="zero_size_out"),
        bf2d("batch 0", "§1.4 early exit", x=(0, 4, 4, 2), dy=(0, 3, 3, 3), tf=A, convgen=A),
        bf2d("Cout 0", "§1.4 early exit", fs=(2, 2, 2, 0), dy=(1, 3, 3, 0), tf=A, convgen=A),
        # 3-D (Conv3DBackpropFilterV2).
        bf3d("3-D channel mismatch", "§1.7 Conv3D", x=(1, 3, 4, 4, 3)),
        bf3d("3-D out channel mismatch", "§1.7 Conv3D", dy=(1, 2, 3, 3, 4)),
        bf3d("3-D size mismatch", "§1.7 Conv3D", dy=(1, 2, 3, 2, 3)),
        bf3d("3-D batch mismatch", "§1.7 Conv3D", dy=(2, 2, 3, 3, 3)),
        bf3d("3-D filter_sizes of length 4", "§1.7 Conv3D", fs=(2, 2, 2, 3)),
        bf3d("3-D input rank 4", "§1.7 Conv3D", x=(1, 3, 4, 4)),
        bf3d("3-D negative output size", "§1.7 Conv3D", x=(1, 1, 4, 4, 2),
             dy=(1, 0, 3, 3, 3), fs=(3, 2, 2, 2, 3)),
        bf3d("3-D NCDHW", "§1.7 Conv3D CPU", x=(1, 2, 3, 4, 4), dy=(1, 3, 2, 3, 3),
             data_format="NCDHW", tf=R, convgen=A, note="tf_cpu"),
        bf3d("3-D dilation 2", "§1.7 Conv3D CPU", x=(1, 3, 5, 5, 2), dy=(1, 2, 3, 3, 3),
             dilations=(1, 2, 2), tf=R, convgen=A, note="tf_cpu"),
        bf3d("3-D groups 2", "§1.7 Conv3D CPU (strict channel equality)",
             x=(1, 3, 4, 4, 4), fs=(2, 2, 2, 2, 4), dy=(1, 2, 3, 3, 4),
             tf=R, convgen=A, note="tf_cpu"),
    ]
    return L + random_backprop_filter_invalid()


def random_backprop_filter_invalid(count=200, seed=20240603) -> List[Dict]:
    """Seeded perturbations of valid channels-last 2-D / 3-D cases; each is
    checked against the spec formulas to be invalid for TF and ConvGen."""
    rng = random.Random(seed)
    base = C.random_backprop_filter(count=4 * count, seed=seed)
    base = [c for c in base if C.bf_tf_refusal(c) is None and c["nd"] in (2, 3)
            and c["input_shape"][0] > 0]
    out = []
    for c in base:
        if len(out) >= count:
            break
        n = c["nd"]
        x, fs, dy = list(c["input_shape"]), list(c["filter_sizes"]), list(c["out_backprop_shape"])
        kind = rng.choice(["dy_size", "dy_size", "batch", "cout", "cin", "kernel", "stride"])
        s, d = list(c["strides"]), list(c["dilations"])
        pads = c["explicit"]
        if kind == "dy_size":
            i = rng.randrange(n)
            dy[1 + i] += rng.choice([-1, 1]) if dy[1 + i] > 0 else 1
        elif kind == "batch":
            dy[0] += 1
        elif kind == "cout":
            dy[-1] += 1
        elif kind == "cin":
            if x[-1] < 2:
                x[-1] = 3
                fs[n] = 2
            else:
                fs[n] = x[-1] + 1
        elif kind in ("kernel", "stride"):
            i = rng.randrange(n)
            if kind == "kernel":
                fs[i] += 1
            else:
                s[i] += 1
            b, a = pads[i] if pads else (0, 0)
            new = C.tf_out_size(x[1 + i], fs[i], s[i], d[i], c["padding"], b, a)
            if new == dy[1 + i]:
                continue
        name = f"random-invalid-{len(out):03d} ({kind})"
        if n == 2:
            padding = ([[0, 0], *pads, [0, 0]] if c["padding"] == "EXPLICIT" else c["padding"])
            out.append(bf2d(name, "random " + kind, x, fs, dy, (1, *s, 1), padding,
                            dtype=C.DTYPES[len(out) % 4]))
        else:
            out.append(bf3d(name, "random " + kind, x, fs, dy, s, c["padding"]))
    return out


# --------------------------------------------------------------------------
# conv_transpose
# --------------------------------------------------------------------------

def ct(name, rule, x=(1, 3, 3, 2), k=(3, 3, 4, 2), strides=2, padding="valid",
       output_padding=None, data_format="channels_last", dilation_rate=1, dtype="float32",
       k_dtype=None, tf=R, jax=R, convgen=R, note=""):
    return {"op": "conv_transpose", "name": name, "row": rule, "x_shape": list(x),
            "k_shape": list(k), "strides": strides if isinstance(strides, int) else list(strides),
            "padding": padding,
            "output_padding": (output_padding if output_padding is None or
                               isinstance(output_padding, int) else list(output_padding)),
            "data_format": data_format,
            "dilation_rate": (dilation_rate if isinstance(dilation_rate, int)
                              else list(dilation_rate)),
            "dtype": dtype, "k_dtype": k_dtype or dtype,
            "expect": {"tf": tf, "jax": jax, "convgen": convgen}, "note": note}


def conv_transpose_invalid() -> List[Dict]:
    L = [
        ct("input channels != kernel input channels", "§2.5 check_conv_transpose_input_channels",
           k=(3, 3, 4, 5)),
        ct("input channels != kernel (channels_first)", "§2.5", x=(1, 2, 3, 3),
           k=(3, 3, 4, 3), data_format="channels_first"),
        ct("padding 'full'", "§2.2 padding", padding="full"),
        ct("padding 'causal'", "§2.2 padding", padding="causal"),
        ct("data_format 'channels_middle'", "§2.1 standardize_data_format",
           data_format="channels_middle"),
        ct("input of rank 2", "§2.4 rank", x=(3, 2), k=(4, 2), tf=R, jax=A, convgen=R,
           note="rank"),
        ct("input of rank 6", "§2.4 rank", x=(1, 2, 2, 2, 2, 2), k=(2, 2, 2, 2, 4, 2), tf=R,
           jax=A, convgen=R, note="rank"),
        ct("kernel rank != input rank", "Semantics §3.2 #7", k=(3, 4, 2)),
        ct("dtype float32/float64 mix", "§2.1 no promotion", k_dtype="float64"),
        ct("stride 0", "§2.5 value > 0", strides=0),
        ct("dilation 0", "§2.5 value > 0", dilation_rate=0, strides=1),
        ct("strides of the wrong length", "§2.5 standardize_tuple", strides=(2, 2, 2)),
        # ConvGen follows the Keras layer rule op < stride (docs/Semantics.md §4.2).
        ct("output_padding == stride (valid)", "§2.6 item 3 / §2.7 item 3", output_padding=2,
           tf=R, jax=A, convgen=R, note="op_ge_stride"),
        ct("output_padding > stride (valid)", "§2.6 item 3", output_padding=3,
           tf=R, jax=A, convgen=R, note="op_ge_stride"),
        ct("output_padding == stride, same, odd kernel", "§2.6 item 3", padding="same",
           output_padding=2, tf=R, jax=A, convgen=R, note="op_ge_stride"),
        ct("output_padding == stride, same, even kernel (TF accepts)", "§2.6 item 2",
           k=(2, 2, 4, 2), padding="same", output_padding=2, tf=A, jax=A, convgen=R,
           note="op_ge_stride"),
        ct("keras#22428 op 1 >= stride 1", "§2.6 item 3", x=(1, 13, 13, 2), k=(3, 3, 4, 2),
           strides=1, padding="same", output_padding=1, tf=R, jax=A, convgen=R,
           note="op_ge_stride"),
        ct("negative output_padding", "§2.5 output_padding >= 0", output_padding=-1,
           tf=R, jax=A, convgen=R, note="negative_op"),
        ct("kernel spatial size 0", "§2.5 kernel_size > 0", k=(0, 3, 4, 2), tf=R, jax=R,
           convgen=R),
        # Accepted by ConvGen, refused by TF (CPU restriction or TF inconsistency).
        ct("same + output_padding 0 + even kernel", "§2.6 item 1", k=(2, 2, 4, 2),
           padding="same", output_padding=0, tf=R, jax=A, convgen=A, note="tf_inconsistent"),
        ct("channels_first", "§2.6 (TF CPU)", x=(1, 2, 3, 3), data_format="channels_first",
           tf=R, jax=A, convgen=A, note="tf_cpu"),
        ct("dilation 2", "§2.6 (TF CPU)", strides=1, dilation_rate=2, tf=R, jax=A,
           convgen=A, note="tf_cpu"),
        ct("dilation 2 with stride 2", "§2.5 layer rule / §2.6", dilation_rate=2, tf=R,
           jax=A, convgen=A, note="tf_cpu"),
        ct("dtype int32", "§2.1 float dtypes", dtype="int32", tf=A, jax=A, convgen=R,
           note="int_dtype"),
    ]
    return L + random_conv_transpose_invalid()


def random_conv_transpose_invalid(count=100, seed=20240604) -> List[Dict]:
    """Random op >= stride (TF and ConvGen reject, JAX accepts) and channel
    mismatches (everyone rejects)."""
    rng = random.Random(seed)
    out = []
    for c in C.random_conv_transpose(count=4 * count, seed=seed):
        if len(out) >= count:
            break
        if c["data_format"] != "channels_last" or any(d != 1 for d in c["dilation_rate"]):
            continue
        n = c["nd"]
        x, k = list(c["input_shape"]), list(c["kernel_shape"])
        if len(out) % 2 == 0:
            i = rng.randrange(n)
            ops = list(c["output_padding"] or [0] * n)
            ops[i] = c["strides"][i] + rng.randint(0, 1)
            probe = dict(c, output_padding=ops)
            tf = R if C.tf_backend_accepts_transpose(probe) else A
            out.append(ct(f"random-invalid-{len(out):03d} (op >= stride)", "random op >= s",
                          x, k, c["strides"], c["padding"], ops, dtype=C.DTYPES[len(out) % 4],
                          tf=tf, jax=A, convgen=R, note="op_ge_stride"))
        else:
            k[-1] = x[-1] + rng.randint(1, 2)
            out.append(ct(f"random-invalid-{len(out):03d} (channels)", "random channel mismatch",
                          x, k, c["strides"], c["padding"], c["output_padding"],
                          dtype=C.DTYPES[len(out) % 4]))
    return out


def keras_layer_invalid() -> List[Dict]:
    """Conv{N}DTranspose constructor rules (spec §2.5 layer table) vs
    convgen.conv_transpose with the same geometry (inputs (1, 3..., 2))."""
    def lay(name, nd, filters, kernel_size, strides=1, padding="valid", output_padding=None,
            dilation_rate=1, keras=R, convgen=R, note=""):
        return {"op": "keras_layer", "name": name, "nd": nd, "filters": filters,
                "kernel_size": kernel_size, "strides": strides, "padding": padding,
                "output_padding": output_padding, "dilation_rate": dilation_rate,
                "expect": {"keras_layer": keras, "convgen": convgen}, "note": note}
    return [
        lay("op 2 >= s 2 (k3)", 1, 2, 3, 2, output_padding=2),
        lay("op 3 >= s 2 (k3)", 1, 2, 3, 2, output_padding=3),
        lay("op (1,3) >= s (2,3)", 2, 2, 3, (2, 3), output_padding=(1, 3)),
        lay("op 2 >= s 2 (k2)", 1, 2, 2, 2, output_padding=2),
        lay("op 1 >= s [1,1]", 2, 2, 3, [1, 1], output_padding=1),
        lay("3-D op 1 >= s 1", 3, 2, 3, 1, output_padding=1),
        lay("kernel (1,0)", 2, 2, (1, 0)),
        lay("strides (1,0)", 2, 2, 2, (1, 0)),
        lay("negative output_padding", 2, 2, 3, 2, output_padding=-1),
        lay("padding 'full'", 2, 2, 3, 2, padding="full"),
        lay("strides 2 with dilation (2,1)", 2, 2, 3, 2, dilation_rate=(2, 1), keras=R,
            convgen=A, note="stride_and_dilation"),
        lay("filters 0", 2, 0, 3, 2, keras=R, convgen=A, note="filters_zero"),
        lay("valid op 1 < s 2 (control)", 2, 2, 3, 2, output_padding=1, keras=A, convgen=A),
        lay("same op 0 k2 s2 (control)", 1, 2, 2, 2, padding="same", output_padding=0,
            keras=A, convgen=A),
    ]
