//===- Passes.td - ConvGen conversion passes ---------------*- tablegen -*-===//

#ifndef CONV_CONVERSION_PASSES_TD
#define CONV_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertConvToLinalgPass : Pass<"convert-conv-to-linalg"> {
  let summary = "Lower conv.backprop_filter and conv.transpose to linalg";
  let description = [{
    * `conv.backprop_filter` becomes, for every filter tap, a contraction over
      (batch, output spatial) of a strided window of the zero-padded (or
      cropped) input with `out_backprop` (a `linalg.generic` whose indexing
      maps are projected permutations), written into that tap's slice of the
      result. Groups split the channel dimensions with `tensor.expand_shape`.
    * `conv.transpose` becomes its phase (sub-pixel) decomposition: with
      stride s the output splits into prod(s) phases, each a dense stride-1
      dilated correlation (`linalg.conv_*`) of a window of the input with the
      sub-kernel of the taps that land on that phase, inserted into a strided
      slice of the output. No multiplication by inserted zeros. With
      `zero-insertion-transpose` it instead lowers to a convolution
      over the zero-inserted input (a second oracle for tests). Small inputs
      (where the phases would mostly multiply padding) are lowered one
      kernel tap at a time instead (`transpose-per-tap`). With few output
      channels (<= 4, channels last) the columns lowering is used instead:
      one GEMM per batch item with every (tap, output channel) pair as a
      column, then per-tap adds into the output. A kernel equal to its
      stride (no crop, channels last) with a large input and a small kernel
      becomes one depth-to-space contraction over the output viewed as
      [N, I_0, s_0, ..., I_{n-1}, s_{n-1} * Cout]; with a kernel too large
      for that (relaid out tap by tap) and an input that the phases would
      re-read from memory once per tap, it runs every tap on one block of
      rows of the first spatial dimension (an scf.forall over batch items
      and blocks, the thread loop) before the next block. The phases of a
      layer with a large input in items of at most 128 KiB and a kernel
      relaid out tap by tap run on blocks of 2 batch items at a time (an
      scf.forall over the blocks), the kernel relaid out once for all of
      them. With
      `transpose-threads` > 1, the columns lowering of a single 1-D batch
      item whose input rows all land in the output whole runs in that many
      row parts (one scf.forall), each adding only the GEMM rows it
      computed into its own output positions, in the same order as one
      thread.
    * With `dw-reduction-block-bytes`, a filter gradient whose input window
      and out_backprop exceed that size runs all its taps over one block of
      batch items (or of rows of the first spatial dimension) at a time, so
      that the taps re-read the block from the cache; with
      `dw-small-filter-block-bytes`, a multi-tap one whose dW is at most
      twice that size uses blocks of that size (the L2). With
      `dw-split-max-bytes`, a filter gradient that is a single contraction
      (one tap, or tiny-Cin taps all fused into its rows) with a small dW
      sums each half of its batch separately (split-K) and adds them;
      with `dw-split-taps-max-bytes`, so does a multi-tap one whose
      partial dW (each half's) fits that size (on up to 2 `dw-threads`, each part then
      runs all its blocks and taps on one thread).
      With `dw-threads`, a filter gradient whose taps are not a multiple of
      that thread count splits each tap's output channels into parts (one
      more dimension of its scf.forall), so that the threads get equal work;
      one whose dW exceeds twice `dw-small-filter-block-bytes` gives each
      thread a part of its channels for all of its blocks and taps instead
      (an scf.forall around the blocks).
    * f16/bf16 accumulate in f32 and are rounded once. With
      `widen-16-bit-operands`, the op is first rewritten as the f32 op
      between elementwise conversions (`conv.role = "cast"`) of its
      operands and result (bf16 transposes excepted with `bf16-dot`).
  }];
  let options = [
    Option<"zeroInsertionTranspose", "zero-insertion-transpose", "bool",
           /*default=*/"false",
           "Lower conv.transpose by zero insertion (test oracle) instead of "
           "the phase decomposition">,
    Option<"transposePerTap", "transpose-per-tap", "std::string",
           /*default=*/"\"auto\"",
           "Lower conv.transpose one kernel tap at a time: auto (when the "
           "phases would mostly multiply padding; also picks depth-to-space "
           "and columns), always, never; columns: "
           "one GEMM over all (tap, output channel) columns, then per-tap "
           "adds (channels last; auto picks it for <= 4 output channels)">,
    Option<"transposeTapsOverhead", "transpose-taps-overhead", "double",
           /*default=*/"1.10",
           "With transpose-per-tap=auto: lower conv.transpose tap by tap when "
           "the phases would compute more than this many times the useful "
           "products along the last spatial dimension (the rest multiply "
           "padding; the code generator skips it along the others) and the "
           "kernel has at most 64 taps">,
    Option<"widen16BitOperands", "widen-16-bit-operands", "bool",
           /*default=*/"false",
           "f16 / bf16 ops become the f32 op between elementwise conversions "
           "of the operands and the result (the tiled contractions then read "
           "f32 elements; same results)">,
    Option<"bf16Dot", "bf16-dot", "bool", /*default=*/"false",
           "bf16 conv.transpose, and bf16 conv.backprop_filter of pair "
           "operands (channels last, no groups, an even last output "
           "dimension, compute-bound), stay bf16 under "
           "widen-16-bit-operands; the filter gradients contract pairs of "
           "output positions (their register tiles use vdpbf16ps)">,
    Option<"dwReductionBlockBytes", "dw-reduction-block-bytes", "int64_t",
           /*default=*/"0",
           "Filter gradients whose input window and out_backprop exceed this "
           "many bytes run all their taps over one block of batch items "
           "(or of rows) of this size at a time (0: no blocks)">,
    Option<"dwSmallFilterBlockBytes", "dw-small-filter-block-bytes",
           "int64_t", /*default=*/"0",
           "Multi-tap filter gradients whose dW is at most twice this many "
           "bytes use reduction blocks of this size instead (when smaller; "
           "the L2: the taps re-read each block from there; 0: no such "
           "blocks)">,
    Option<"dwWideRowBlockBytes", "dw-wide-row-block-bytes", "int64_t",
           /*default=*/"0",
           "Those of them that are 2-D, ungrouped and have output rows of at "
           "least 48 positions use reduction blocks of this many bytes "
           "instead (when smaller; half the L1: the taps re-read a block's "
           "out_backprop from there; blocks of one row when a row is "
           "larger; 0: no such blocks)">,
    Option<"dwSplitMaxBytes", "dw-split-max-bytes", "int64_t",
           /*default=*/"0",
           "Split-K: a single-contraction filter gradient (one tap, or "
           "tiny-Cin taps all fused) with a long reduction, an "
           "even batch and at most this many bytes of dW for two parts sums "
           "each half of the batch separately (one scf.forall) and adds them "
           "in order (0: never)">,
    Option<"dwSplitTapsMaxBytes", "dw-split-taps-max-bytes", "int64_t",
           /*default=*/"0",
           "Split-K of multi-tap filter gradients with a long reduction, an "
           "even batch and a dW of at most this many bytes: each half of "
           "the batch summed into its own dW (on up to 2 dw-threads an "
           "scf.forall over the parts, else the first dimension of the "
           "taps' scf.forall), added in order (0: never)">,
    Option<"dwCutLongRows", "dw-cut-long-rows", "bool", /*default=*/"false",
           "Ungrouped channels-last filter gradients cut the zero-padding "
           "positions of a last spatial dimension longer than 16 too (the "
           "AVX-512 code generator reduces such a dynamic range a position "
           "a step), and read their input without a zero-padded copy when "
           "no tap then reads padding">,
    Option<"dwTapRowLanes", "dw-tap-row-lanes", "int64_t", /*default=*/"0",
           "Grouped channels-last f32 filter gradients with 2-4 output "
           "channels per group, whose lane-group register tiles have this "
           "many f32 lanes a vector (0: none), contract the taps of a "
           "stride-1 last kernel dimension together (conv.role = "
           "dw_tap_row): one lane shuffle of an input row serves all of "
           "them">,
    Option<"dwTapPlaneLanes", "dw-tap-plane-lanes", "int64_t",
           /*default=*/"0",
           "Depthwise channels-last f32 filter gradients whose channels are "
           "whole vectors of this many f32 lanes (0: none) contract all the "
           "taps of the last two kernel dimensions together (conv.role = "
           "dw_depthwise_plane) where those have at most 24 taps and an "
           "interior of output positions at which every tap reads the input "
           "of three quarters of them: each out_backprop vector is loaded "
           "once for all of them">,
    Option<"dwThreads", "dw-threads", "int64_t", /*default=*/"1",
           "The threads a filter gradient's tap scf.forall is spread over: "
           "when the taps are not a multiple of it, each tap's output "
           "channels are split into threads / gcd(taps, threads) parts of "
           "at least 32 channels (a multiple of 16), another dimension of "
           "the forall (tiny-Cin fused taps: the leading taps, parts of at "
           "least 16 channels); a single tap with more input than output "
           "channels splits its input channels instead (1: never)">,
    Option<"transposeThreads", "transpose-threads", "int64_t",
           /*default=*/"1",
           "The threads a transposed convolution runs on: with more than 1, "
           "the columns lowering of a single 1-D batch item splits its input "
           "rows into that many parts (an scf.forall), each computing its "
           "GEMM rows and the overlapping rows before them and adding into "
           "its own output positions, in the same order as one thread "
           "(1: no parts); the input- and batch-block lowerings take their "
           "blocks only when they split evenly over that many threads or are "
           "at least 4 a thread">,
    Option<"transposeColumnsLanes", "transpose-columns-lanes", "int64_t",
           /*default=*/"0",
           "The f32 lanes of the code generator's vectors (0: unknown): the "
           "columns lowering pads the transposed kernel's (tap, co) columns "
           "with zeros to whole vectors, runs its GEMM over them and cuts "
           "the result back, so that the register tiles span all the "
           "columns">,
    Option<"transposeDotLanes", "transpose-dot-lanes", "int64_t",
           /*default=*/"0",
           "The f32 lanes of the dot lowering (0: off): 1-D and 2-D "
           "channels-last f32 transposed convolutions with dilation 1, input "
           "channels a multiple of the lanes and at most 8 outputs per phase "
           "row of the last dimension (its stride x output channels) "
           "compute each output as a dot product "
           "along the input channels, in vectors of lane partial sums that a "
           "tree of lane shuffles reduces">,
    Option<"transposeColumnsBandBytes", "transpose-columns-band-bytes",
           "int64_t", /*default=*/"0",
           "The columns lowering of a batch item (several items, at least 2 "
           "spatial dimensions, K transposed) whose GEMM result Y is larger "
           "than this many bytes (0: never), and whose taps along the first "
           "spatial dimension all read every input row, computes and adds Y "
           "a band of those input rows at a time (the most rows whose Y "
           "fits, dividing the rows), so that each band's Y stays in the "
           "cache for its adds">,
    Option<"transposeBatchRows", "transpose-batch-rows", "bool",
           /*default=*/"false",
           "The code generator runs the register-tile rows of phases that "
           "multiply padding along the last spatial dimension along the "
           "batch (conv-cpu-tile-and-vectorize with AVX-512): such f32 ops "
           "with at least 64 output channels, when their batch makes 4 rows "
           "a thread, keep the phases over the whole batch instead of batch "
           "blocks of 2 items">,
    Option<"transposeWinograd", "transpose-winograd", "std::string",
           /*default=*/"\"off\"",
           "Phases with 2 or 3 taps along their last spatial dimension (no "
           "dilation there) and at least 4 outputs along it, channels last, "
           "f32, at least 16 input and output channels: each pair of "
           "outputs along that dimension by Winograd's F(2, 2) / F(2, 3), "
           "3 / 4 products instead of 4 / 6 (T + 1 one-tap correlations "
           "between elementwise transforms), when that saves at least a "
           "fifth of the op's products: 'off', 'auto' (ops with at most 2 "
           "such phases, or up to 4 with at least 128 output channels) or "
           "'on'">,
    Option<"transposeWinogradManyPhaseOutChannels",
           "transpose-winograd-many-phase-out-channels", "int64_t",
           /*default=*/"128",
           "transpose-winograd=auto: the fewest output channels of ops with "
           "3 or 4 Winograd phases (the CPU pipeline uses 64 on cores with "
           "two 512-bit FMA units)">,
    Option<"dwWinograd", "dw-winograd", "std::string",
           /*default=*/"\"off\"",
           "Filter gradients with 3 taps (1-D to 3-D) or 5 taps (1-D and "
           "2-D) and stride 1 along every spatial dimension, channels last, "
           "f32, no groups, by Winograd's F(3, 2) or F(5, 2): elementwise "
           "transforms around 4^n or 6^n 1x1 filter gradients, 2.25x or "
           "2.8x fewer products in 2-D: 'off', 'auto' (2-D, at least 32 "
           "input and output channels, at most 0.6x the direct products, a "
           "reduction of at least 192 batch x pair positions; the channel "
           "and product thresholds of 3-tap layers are the two options "
           "below; 5-tap layers: 32 channels, at most 0.4x the products) or "
           "'on'">,
    Option<"dwWinogradMinChannels", "dw-winograd-min-channels", "int64_t",
           /*default=*/"32",
           "dw-winograd=auto: the fewest input and output channels (the CPU "
           "pipeline uses 128 on cores with two 512-bit FMA units)">,
    Option<"dwWinogradMaxProducts", "dw-winograd-max-products", "double",
           /*default=*/"0.6",
           "dw-winograd=auto: the most products of the Winograd form, as a "
           "fraction of the direct form's (the CPU pipeline uses 0.55 on "
           "cores with two 512-bit FMA units)">,
    Option<"dwWinogradBlockBytes", "dw-winograd-block-bytes", "int64_t",
           /*default=*/"0",
           "Winograd filter gradients of 2-D and 3-D layers: reduce each "
           "point's product over blocks of batch items (or of pair rows of "
           "the first dimension) whose transformed operands take at most "
           "this many bytes, the first dimensions' transforms of a block "
           "computed once for the 4 points of the last dimension (0: the "
           "whole-batch transforms; the CPU pipeline uses a sixteenth of "
           "the L2)">,
    Option<"dwWinogradL1BlockBytes", "dw-winograd-l1-block-bytes",
           "int64_t", /*default=*/"0",
           "With dw-winograd-block-bytes: F(3, 2) blocks of at most this "
           "many bytes of one point's transformed operands, so that its "
           "contraction re-reads them from the L1 (0: "
           "dw-winograd-block-bytes; the CPU pipeline uses three quarters "
           "of the L1)">,
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect",
  ];
}

#endif // CONV_CONVERSION_PASSES_TD
