"""Every error path of the spec's tables that applies at the Python API:
TF §1.1 (convert_padding), §1.4, Keras §2.1/§2.2/§2.5, and ConvGen's own
verifier rules (docs/Semantics.md §3). Each raises ValueError (never an
abort) and the message is checked."""

import re

import numpy as np
import pytest

import convgen

F32 = np.float32


def zeros(*shape, dtype=F32):
    return np.zeros(shape, dtype)


def raises(match, fn, *args, exc=ValueError, **kwargs):
    with pytest.raises(exc, match=re.escape(match)) as info:
        fn(*args, **kwargs)
    return str(info.value)


# --------------------------------------------------------------------------
# conv2d_backprop_filter: TF's Python API (spec §1.1) and op (§1.4)
# --------------------------------------------------------------------------

X = zeros(1, 4, 4, 2)
DY = zeros(1, 3, 3, 3)
FS = [2, 2, 2, 3]


def bf2d(padding="VALID", x=X, fs=FS, dy=DY, strides=(1, 1, 1, 1), **kwargs):
    return convgen.conv2d_backprop_filter(x, fs, dy, list(strides), padding, **kwargs)


class TestConvertPadding:
    def test_explicit_string(self):
        raises("'EXPLICIT' is not a valid value for `padding`. To use explicit padding, "
               "`padding` must be a list.", bf2d, "EXPLICIT")

    def test_element_not_a_list(self):
        p = [[0, 0], 1, [0, 0], [0, 0]]
        raises("When `padding` is a list, each element of `padding` must be a list/tuple "
               f"of size 2. Received: padding={p} with element at index 1 of type "
               "<class 'int'>", bf2d, p)

    def test_element_of_wrong_size(self):
        p = [[0, 0], [1, 1, 1], [0, 0], [0, 0]]
        raises("When `padding` is a list, each element of `padding` must be a list/tuple "
               f"of size 2. Received: padding={p} with element at index 1 of size 3", bf2d, p)

    def test_list_of_wrong_size(self):
        p = [[0, 0], [0, 0], [0, 0]]
        raises(f"When padding is a list, it must be of size 4. Received: padding={p} of size 3",
               bf2d, p)

    def test_helper(self):
        assert convgen.convert_padding("SAME") == ("SAME", [])
        assert convgen.convert_padding(((0, 0), (1, 2), (3, 4), (0, 0))) == \
            ("EXPLICIT", [0, 0, 1, 2, 3, 4, 0, 0])


class TestTFOpChecks:
    # Row 0/1: attribute values.
    def test_padding_not_allowed(self):
        raises('Value for attr \'padding\' of "same" is not in the list of allowed values: '
               '"SAME", "VALID", "EXPLICIT"', bf2d, "same")

    def test_data_format_not_allowed(self):
        raises('Value for attr \'data_format\' of "NCDHW" is not in the list of allowed '
               'values: "NHWC", "NCHW"', bf2d, data_format="NCDHW")

    def test_dtype_not_allowed(self):
        msg = raises("has DataType int32 not in list of allowed values: float16, bfloat16, "
                     "float32, float64", bf2d, x=X.astype(np.int32), dy=DY.astype(np.int32),
                     exc=TypeError)
        assert "'input'" in msg

    def test_dtype_mismatch(self):
        with pytest.raises(convgen.ConvGenTypeError) as info:
            bf2d(dy=DY.astype(np.float64))
        assert isinstance(info.value, TypeError) and isinstance(info.value, ValueError)
        assert str(info.value) == ("Input 'out_backprop' of 'Conv2DBackpropFilter' Op has "
                                   "type float64 that does not match type float32 of "
                                   "argument 'input'.")

    # Rows 3-5: strides.
    def test_strides_length(self):
        raises("Sliding window strides field must specify 4 dimensions", bf2d,
               strides=(1, 1, 1))

    @pytest.mark.parametrize("strides", [(2, 1, 1, 1), (1, 1, 1, 2)])
    def test_strides_batch_depth(self, strides):
        raises("Current implementation does not yet support strides in the batch and depth "
               "dimensions.", bf2d, strides=strides)

    def test_strides_batch_depth_nchw(self):
        raises("Current implementation does not yet support strides in the batch and depth "
               "dimensions.", bf2d, x=zeros(1, 2, 4, 4), dy=zeros(1, 3, 3, 3),
               strides=(1, 2, 1, 1), data_format="NCHW")

    @pytest.mark.parametrize("strides", [(1, 0, 1, 1), (1, 1, -1, 1)])
    def test_strides_positive(self, strides):
        raises("Row and column strides should be larger than 0.", bf2d, strides=strides)

    def test_strides_not_a_list(self):
        raises("Expected list for 'strides' argument to 'Conv2DBackpropFilter' Op, not 1.",
               convgen.conv2d_backprop_filter, X, FS, DY, 1, "VALID", exc=TypeError)

    # Rows 7-8: explicit paddings (row 6, the length, cannot happen here:
    # convert_padding enforces 4 pairs).
    def test_negative_explicit_padding_edge_case(self):
        # testOpEdgeCases.
        raises("All elements of explicit_paddings must be nonnegative",
               convgen.conv2d_backprop_filter, np.ones((32, 20, 20, 3), F32), [18, 18, 3, 2],
               np.ones((32, 3, 2, 2), F32), [1, 1, 1, 1], [[0, 0], [-1, 0], [0, 0], [0, 0]])

    @pytest.mark.parametrize("data_format,padding", [
        ("NHWC", [[1, 0], [0, 0], [0, 0], [0, 0]]),
        ("NHWC", [[0, 0], [0, 0], [0, 0], [0, 1]]),
        ("NCHW", [[0, 0], [0, 2], [0, 0], [0, 0]]),
    ])
    def test_nonzero_batch_depth_padding(self, data_format, padding):
        x = X if data_format == "NHWC" else zeros(1, 2, 4, 4)
        dy = DY if data_format == "NHWC" else zeros(1, 3, 3, 3)
        raises("Nonzero explicit padding in the batch or depth dimensions is not supported",
               bf2d, padding, x=x, dy=dy, data_format=data_format)

    def test_negative_beats_batch_depth(self):
        # TF checks non-negativity first.
        raises("All elements of explicit_paddings must be nonnegative", bf2d,
               [[1, 0], [0, -1], [0, 0], [0, 0]])

    # Rows 10-12: dilations.
    def test_dilations_length(self):
        raises("Sliding window dilations field must specify 4 dimensions", bf2d,
               dilations=[1, 1, 1])

    @pytest.mark.parametrize("dilations", [[2, 1, 1, 1], [1, 1, 1, 2]])
    def test_dilations_batch_depth(self, dilations):
        raises("Current implementation does not yet support dilations in the batch and "
               "depth dimensions.", bf2d, dilations=dilations)

    def test_dilations_positive(self):
        raises("Dilated rates should be larger than 0.", bf2d, dilations=[1, 0, 1, 1])

    # Rows 14-15: filter_sizes.
    def test_filter_sizes_not_a_vector(self):
        raises("Conv2DBackpropFilter: filter_sizes input must be 1-dim, not 0", bf2d, fs=0)
        raises("Conv2DBackpropFilter: filter_sizes input must be 1-dim, not 2", bf2d,
               fs=[[2, 2], [2, 3]])

    def test_filter_sizes_negative(self):
        raises("Dimension -1 must be >= 0", bf2d, fs=[2, -1, 2, 3])

    # Rows 16-22: the verifier.
    def test_input_rank(self):
        raises("'conv.backprop_filter' op attribute 'data_format' NHWC requires rank-4 "
               "operands, but operand 'input' has rank 3", bf2d, x=zeros(4, 4, 2))

    def test_filter_rank(self):
        raises("result 'filter' must have rank 4 like operand 'input' (2 spatial dimensions), "
               "got rank 3", bf2d, fs=[2, 2, 2])

    def test_out_backprop_rank(self):
        raises("operand 'out_backprop' must have rank 4 like operand 'input'", bf2d,
               dy=zeros(1, 3, 3))

    def test_batch_mismatch(self):
        raises("operands 'input' and 'out_backprop' must have the same batch size, got input "
               "batch 1 and out_backprop batch 2", bf2d, dy=zeros(2, 3, 3, 3))

    def test_filter_depth_zero(self):
        raises("(filter depth must be strictly greater than zero)", bf2d, fs=[2, 2, 0, 3])

    def test_input_depth_not_divisible(self):
        raises("operand 'input' channels (dimension 3) = 2 must be evenly divisible by result "
               "'filter' in-channels (dimension 2) = 3", bf2d, fs=[2, 2, 3, 3])

    def test_out_depth_mismatch(self):
        raises("result 'filter' out-channels (dimension 3) = 3 and operand 'out_backprop' "
               "channels (dimension 3) = 4 must be equal", bf2d, dy=zeros(1, 3, 3, 4))

    def test_negative_output_size(self):
        raises("Computed output size would be negative: -1 [input_size: 4, "
               "effective_filter_size: 6, stride: 1]", bf2d, fs=[6, 2, 2, 3])

    def test_out_backprop_size_mismatch(self):
        raises("operand 'out_backprop' spatial dimension 0 (H) (dimension 1) has size 4 but "
               "the computed size is 3", bf2d, dy=zeros(1, 4, 3, 3))

    def test_convgen_group_rules(self):
        # ConvGen-only: 0 input channels (group count 0) and Cout % G != 0.
        raises("the group count (input channels / filter in-channels) must be >= 1", bf2d,
               x=zeros(1, 4, 4, 0), fs=[2, 2, 2, 3])
        raises("result 'filter' out-channels (dimension 3) = 3 must be divisible by the group "
               "count 2", bf2d, fs=[2, 2, 1, 3])

    def test_use_cudnn_must_be_bool(self):
        raises("Expected bool for argument 'use_cudnn_on_gpu' not 'yes'.", bf2d,
               use_cudnn_on_gpu="yes", exc=TypeError)

    def test_tf_cpu_restrictions_do_not_apply(self):
        # Rows 2, 13, 23: NCHW, dilation > 1 and groups all work.
        out = bf2d(x=zeros(1, 2, 5, 5), dy=zeros(1, 4, 3, 3), fs=[2, 2, 1, 4],
                   strides=(1, 1, 1, 1), data_format="NCHW", dilations=[1, 1, 2, 2])
        assert out.shape == (2, 2, 1, 4)


# --------------------------------------------------------------------------
# backprop_filter (N-D): the verifier's messages
# --------------------------------------------------------------------------

def bfnd(padding="VALID", x=X, fs=FS, dy=DY, strides=1, **kwargs):
    return convgen.backprop_filter(x, fs, dy, strides, padding, **kwargs)


class TestBackpropFilterND:
    def test_data_format_unknown(self):
        raises("data_format 'NHWD' is not one of NWC, NHWC, NDHWC, NCW, NCHW, NCDHW", bfnd,
               data_format="NHWD")

    def test_data_format_rank(self):
        raises("attribute 'data_format' NCDHW requires rank-5 operands, but operand 'input' "
               "has rank 4", bfnd, data_format="NCDHW")

    def test_default_format_needs_rank_3_to_5(self):
        raises("operand 'input' must have rank 3, 4 or 5 (1 to 3 spatial dimensions), got "
               "rank 6", bfnd, x=zeros(1, 1, 1, 1, 1, 1))

    def test_padding_spelling(self):
        raises("padding 'same' is not one of SAME, VALID, EXPLICIT", bfnd, "same")

    def test_strides_length(self):
        raises("attribute 'strides' must have 2 entries (one per spatial dimension), got 3: "
               "[1, 1, 1]", bfnd, strides=[1, 1, 1])

    def test_strides_positive(self):
        raises("attribute 'strides' spatial dimension 0 (H) must be >= 1, got 0", bfnd,
               strides=0)

    def test_dilations(self):
        raises("attribute 'dilations' must have 2 entries", bfnd, dilations=[1])
        raises("attribute 'dilations' spatial dimension 1 (W) must be >= 1, got -1", bfnd,
               dilations=[1, -1])

    def test_explicit_paddings_length(self):
        raises("attribute 'explicit_paddings' must have 4 entries (before, after per spatial "
               "dimension) with padding EXPLICIT, got 0: []", bfnd, "EXPLICIT")

    def test_explicit_paddings_negative(self):
        raises("entry 1 (spatial dimension 0 (H), after) must be >= 0, got -1 (All elements "
               "of explicit_paddings must be nonnegative)", bfnd, [(0, -1), (0, 0)])

    def test_explicit_paddings_without_explicit(self):
        raises("attribute 'explicit_paddings' must be empty if padding is not EXPLICIT "
               "(padding is VALID, got [0, 0, 0, 0])", bfnd,
               explicit_paddings=[(0, 0), (0, 0)])

    def test_padding_list_of_wrong_length(self):
        raises("When padding is a list, it must be of size 4 (data-format order, as in TF) "
               "or 2 (spatial dimensions only). Received: padding=[[0, 0]] of size 1",
               bfnd, [[0, 0]])

    def test_padding_list_batch_channel(self):
        raises("Nonzero explicit padding in the batch or depth dimensions is not supported",
               bfnd, [[0, 0], [0, 0], [0, 0], [1, 0]])

    def test_padding_list_and_explicit_paddings(self):
        raises("explicit_paddings must be None when `padding` is a list", bfnd,
               [[0, 0], [0, 0]], explicit_paddings=[0, 0, 0, 0])

    def test_filter_sizes_scalar(self):
        # conv3d_backprop_filter_v2_grad_test testBadFilterShape.
        raises("must be rank 1", convgen.backprop_filter, zeros(2, 2, 2, 2, 1), 0,
               zeros(2, 2, 2, 2, 1), 1, "VALID")

    def test_stride_not_int(self):
        raises("The `strides` argument must be an int or a list of ints", bfnd, strides=1.5,
               exc=TypeError)


# --------------------------------------------------------------------------
# conv_transpose: Keras (spec §2.1, §2.2, §2.5) and the verifier
# --------------------------------------------------------------------------

XT = zeros(1, 3, 3)
KT = zeros(2, 2, 3)


def ct(x=XT, k=KT, strides=2, **kwargs):
    return convgen.conv_transpose(x, k, strides, **kwargs)


class TestConvTransposeKeras:
    def test_data_format(self):
        raises("The `data_format` argument must be one of {'channels_first', "
               "'channels_last'}. Received: data_format=nhwc", ct, data_format="NHWC")

    def test_padding_value(self):
        raises("The `padding` argument must be one of 'valid', 'same'. Received: "
               "padding=full", ct, padding="FULL")

    def test_padding_not_a_string(self):
        # Keras calls padding.lower() first: AttributeError, as in Keras.
        with pytest.raises(AttributeError, match="lower"):
            ct(padding=1)

    def test_input_channels(self):
        raises("The number of input channels must match the kernel's input channels. "
               "Received: input channels=3, kernel input channels=5, "
               "data_format='channels_last'.", ct, x=zeros(2, 4, 3), k=zeros(2, 4, 5))
        raises("input channels=4, kernel input channels=3, data_format='channels_first'.",
               ct, x=zeros(2, 4, 3), data_format="channels_first")

    def test_dtype_mismatch(self):
        raises("Input 'kernel' of 'conv_transpose' Op has type float16 that does not match "
               "type float32 of argument 'inputs'.", ct, k=KT.astype(np.float16),
               exc=convgen.ConvGenTypeError)

    def test_strides_not_int(self):
        raises("The `strides` argument must be an int or a tuple/list of ints. Received: "
               "strides='2'", ct, strides="2", exc=TypeError)


class TestConvTransposeVerifier:
    def test_input_rank(self):
        raises("'conv.transpose' op operand 'inputs' must have rank 3, 4 or 5 (1 to 3 spatial "
               "dimensions), got rank 2", ct, x=zeros(1, 3), k=zeros(3, 3))

    def test_kernel_rank(self):
        raises("operand 'kernel' must have rank 3 like operand 'inputs' (1 spatial "
               "dimensions), got rank 2", ct, k=zeros(5, 3))

    def test_kernel_spatial_zero(self):
        # Layer test_bad_init_args: kernel size 0.
        raises("operand 'kernel' spatial dimension 1 (W) (dimension 1) must be >= 1, got 0",
               ct, x=zeros(1, 3, 3, 3), k=zeros(1, 0, 2, 3))

    def test_strides(self):
        raises("attribute 'strides' must have 1 entry (one per spatial dimension), got 2: "
               "[1, 1]", ct, strides=[1, 1])
        raises("attribute 'strides' spatial dimension 1 (W) must be >= 1, got 0", ct,
               x=zeros(1, 3, 3, 3), k=zeros(1, 1, 2, 3), strides=(1, 0))

    def test_dilation_rate(self):
        raises("attribute 'dilation_rate' spatial dimension 0 (W) must be >= 1, got 0", ct,
               dilation_rate=0)

    def test_output_padding_length(self):
        raises("attribute 'output_padding' must have 1 entry (one per spatial dimension), got "
               "2: [1, 1]", ct, output_padding=[1, 1])

    def test_output_padding_negative(self):
        raises("attribute 'output_padding' spatial dimension 0 (W) must be >= 0, got -1", ct,
               output_padding=-1)

    @pytest.mark.parametrize("n,kernel,strides,output_padding,dim,op,s", [
        # Layer test_bad_init_args cases (output_padding >= strides).
        (1, 3, 2, 2, 0, 2, 2),
        (1, 3, 2, 3, 0, 3, 2),
        (2, 3, (2, 3), (1, 3), 1, 3, 3),
        (1, 2, 2, 2, 0, 2, 2),
        (2, 3, [1, 1], 1, 0, 1, 1),
        (3, 3, 1, 1, 0, 1, 1),
    ])
    def test_output_padding_not_below_strides(self, n, kernel, strides, output_padding, dim,
                                              op, s):
        x = zeros(1, *([4] * n), 2)
        k = zeros(*([kernel] * n), 3, 2)
        raises("attribute 'output_padding' must be strictly less than 'strides': at spatial "
               f"dimension {dim} ", ct, x=x, k=k, strides=strides,
               output_padding=output_padding)
        msg = raises(f"output_padding is {op} but strides is {s}", ct, x=x, k=k,
                     strides=strides, output_padding=output_padding, padding="same")
        assert msg.startswith("'conv.transpose' op ")

    def test_negative_output_size(self):
        raises("computed output size would be negative: -1", ct, x=zeros(1, 0, 3),
               k=zeros(2, 2, 3), strides=3, padding="same", output_padding=2)

    def test_shape_helper_errors(self):
        raises("must be strictly less than 'strides'", convgen.conv_transpose_output_shape,
               (1, 3, 3), (2, 2, 3), 2, "valid", 2)
        raises("Computed output size would be negative",
               convgen.backprop_filter_out_backprop_shape, (1, 1, 1, 1), (3, 3, 1, 1), 1,
               "VALID")


def test_errors_leave_the_library_usable():
    # After all those errors, a valid call still works (nothing aborted,
    # nothing cached from a failed compile).
    got = convgen.conv_transpose(np.ones((1, 2, 1), F32), np.ones((1, 1, 1), F32), 1)
    np.testing.assert_array_equal(got, np.ones((1, 2, 1), F32))
