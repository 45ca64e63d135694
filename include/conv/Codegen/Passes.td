//===- Passes.td - ConvGen CPU code generation passes ------*- tablegen -*-===//

#ifndef CONV_CODEGEN_PASSES_TD
#define CONV_CODEGEN_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvCPUChannelsLastPass
    : Pass<"conv-cpu-channels-last", "::mlir::func::FuncOp"> {
  let summary = "Run channels-first conv ops in the channels-last layout";
  let description = [{
    Rewrites every channels-first `conv.backprop_filter` (NCW/NCHW/NCDHW) and
    `conv.transpose` (`channels_first`) as the same op in the channels-last
    layout between `linalg.transpose` ops: the activations are transposed to
    [N, spatial..., C] before the op and a transposed convolution's result
    back to [N, C, spatial...] after it. Attributes (strides, dilations,
    paddings) are per spatial dimension and the filter/kernel layouts do not
    depend on `data_format`, so they carry over unchanged.

    The CPU register tiles vectorize along the channels (the contiguous
    dimension of a channels-last tensor); the relayout costs one pass over
    each activation tensor, against the prod(k) * C passes of the
    convolution over it. The transposes are tagged `conv.role = relayout`
    for conv-cpu-tile-and-vectorize.

    Example:

    ```mlir
    %dw = conv.backprop_filter %x, %dy data_format = NCHW padding = SAME
            strides = [1, 1] dilations = [1, 1]
            : tensor<2x3x8x8xf32>, tensor<2x4x8x8xf32> -> tensor<3x3x3x4xf32>
    // becomes
    %xt = linalg.transpose ins(%x : tensor<2x3x8x8xf32>)
            outs(%e0 : tensor<2x8x8x3xf32>) permutation = [0, 2, 3, 1]
    %dyt = linalg.transpose ins(%dy : tensor<2x4x8x8xf32>)
            outs(%e1 : tensor<2x8x8x4xf32>) permutation = [0, 2, 3, 1]
    %dw = conv.backprop_filter %xt, %dyt data_format = NHWC padding = SAME
            strides = [1, 1] dilations = [1, 1]
            : tensor<2x8x8x3xf32>, tensor<2x8x8x4xf32> -> tensor<3x3x3x4xf32>
    ```
  }];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def ConvCPUTileAndVectorizePass
    : Pass<"conv-cpu-tile-and-vectorize", "::mlir::func::FuncOp"> {
  let summary = "Tile the conv contractions to register tiles and vectorize";
  let description = [{
    Works on the `linalg.generic` ops that convert-conv-to-linalg tags with
    `conv.role` (on tensors, before bufferization):

    * `dw_tap` (loops [(g,) ci, co, b, o...]): (ci, co) cache blocks when a
      tap's dW exceeds a quarter of the L2 (block loops outermost), reduction
      blocking over b and the output dimensions (the last one blocked to
      fit the L1, several rows of the one before when whole rows fit; an
      eighth of the L2 for a single contraction, `conv.dw_contractions = 1`,
      with wide rows or a whole dW larger than the L1), then
      a register tile over (ci, co) and an inner reduction chunk over the
      last output dimension. A channel-blocked operand whose rows are a
      multiple of 1 KiB (they would share a few L1 sets) is given rows one
      cache line longer: its zero-padding `tensor.pad` is widened, or it is
      copied row by row into a `bufferization.alloc_tensor` (once, for all
      taps; a strided slice is gathered; only when the tap does >= 1024
      FLOPs per element). Channel-blocked multi-tap blocks of under four
      chunks and single-channel packed rows get blocks of L2/4 and L1/8.
      A tiny-Cin contraction whose rows come from a `row_gather` pack has
      each static block pack its own rows into a scratch tensor made once
      outside the block loops (transposed, [rows, b, o...], for a
      single-channel input at unit stride); the whole pack is erased.
      With `direct-rows` (the default) a block's pack is not copied:
      after vectorization, each register tile's vector read of it becomes
      one read of the input per row of the vector (untransposed: per
      position, its rows a contiguous piece of one input run, or whole
      runs; transposed: per tap row, a piece of its run of positions),
      inserted into the row vector; a pack another user reads is copied
      after all.
      Rows that fit one register tile are one tile; rows that are not a
      multiple of the tile's take the fewest more rows (up to 12) dividing
      them. Grouped channels-last f32-accumulator taps with 2-12 input and
      2 to lanes/4 output channels per group, whose (group, co) columns
      fill whole vectors, get lane-group tiles: all ci rows x the columns
      of several groups (accumulators in at most half the registers), the
      group block loop outermost (see conv-cpu-lower-vectors). A
      `conv.dw_pairs` tap (bf16 pairs of output positions, loops [ci, co,
      b, o..., e]) is tiled the same way with its pair loop `e` whole and
      one pair per step.
    * `dw_depthwise` (loops [c, b, o...], elementwise over the channels):
      register tiles of up to 4 vectors of channels (a remainder tile for
      the rest), the channel blocks outermost, one position a step.
    * `dw_tap_row` (tap rows, loops [g, ci, co, k, b, o..., q]; see
      convert-conv-to-linalg's `dw-tap-row-lanes`): register tiles of all
      k x ci rows and the most vectors of (group, co) columns within 24
      accumulators, the group blocks
      inside the loops over b and the leading output dimensions, one
      window position q a step with the taps innermost, their loop unrolled
      before vectorization (the taps' products of a step read the same
      input row); the position loop is marked `conv.prefetch_ahead = 16`.
    * `transpose_phase` (loops [b, o..., co, t..., ci]; `conv.phase_taps`
      gives the number of tap loops when it is not the number of output
      dimensions): a ci cache block
      (outermost) when the kernel panel of a column tile exceeds half the
      L2, blocking over b and all but the last output dimension, then a
      register tile over (last o or b, co) with every tap and a chunk of ci
      as inner reductions. With `conv.phase_window` (a zero-padded window),
      the tap loops along the output dimensions a register tile has one row
      of run over the taps that read input only (`affine.max` /
      `affine.min` of the row; no LLVM unrolling for those loops); when the
      taps along the last dimension read padding and the batch makes whole
      tiles of at least 4 rows on every thread, the rows run along b, so
      that every tap loop is clipped. With
      `bf16-dot`, a bf16 phase's ci chunk is 2
      (a pair for `vdpbf16ps`, see conv-cpu-lower-vectors), and no bf16
      relayout, conversion row or register-tile column remainder is a
      vector of 8k + 1 > 1 elements (shorter chunks, or 8 + 1 columns).
    * `transpose_lanes` (loops [b, o..., co, lane, t..., cio]): a register
      tile of output positions x one co x the lanes, every tap and one cio
      per step.
    * `cast` (the conversion of the f32 accumulators to a 16-bit result):
      rows in chunks of two f32 vectors, over threads along the first
      dimension when it has at least 64 Ki elements.
    * `pair_pack` (two tensors interleaved along a new innermost dimension
      of 2): over threads like `cast`, then one vector's worth of channels
      per step, read as two runs, interleaved (`vector.interleave` of the
      bits) and written as one contiguous vector.
    * `relayout` (a `linalg.transpose` from conv-cpu-channels-last): L x L
      tiles (L = vector lanes) over the dimensions contiguous in the output
      and in the input, each a transposed vector read and write; threads
      over the batch (or the first untiled dimension).

    Register tiles come from a heuristic on the host vector width and
    register count (rows x vector columns of accumulators, leaving registers
    for the operands); loops that do not divide are peeled so the main tiles
    are static. Unit dimensions are folded and the static tiles vectorized
    to `vector.contract`; run `loop-invariant-subset-hoisting` afterwards to
    keep the accumulators in registers across the reduction loops.
    Channels-first layouts keep the reduction in the contiguous dimension
    and are tiled but not vectorized yet.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "unsigned", /*default=*/"0",
           "SIMD register width in bits (0: the host's)">,
    Option<"numVectorRegisters", "num-vector-registers", "unsigned",
           /*default=*/"0", "SIMD registers (0: the host's)">,
    Option<"registerTileRows", "register-tile-rows", "unsigned",
           /*default=*/"0", "Rows of the accumulator tile (0: heuristic)">,
    Option<"registerTileVectors", "register-tile-vectors", "unsigned",
           /*default=*/"0",
           "Vector columns of the accumulator tile (0: heuristic)">,
    Option<"reductionChunk", "reduction-chunk", "unsigned", /*default=*/"0",
           "Inner reduction chunk (0: heuristic)">,
    Option<"numThreads", "num-threads", "unsigned", /*default=*/"1",
           "Threads the scf.forall loops will run on (1: no thread-level "
           "tiling; 0: all hardware threads)">,
    Option<"l1CacheBytes", "l1-cache-bytes", "int64_t", /*default=*/"0",
           "L1 data cache size the reduction blocking assumes (0: the "
           "host's)">,
    Option<"l2CacheBytes", "l2-cache-bytes", "int64_t", /*default=*/"0",
           "L2 cache size the channel blocking assumes (0: the host's)">,
    Option<"bf16Dot", "bf16-dot", "bool", /*default=*/"false",
           "bf16 transposed-convolution register tiles reduce input "
           "channels in pairs, for conv-cpu-lower-vectors' bf16-dot (bf16 "
           "filter gradients get pairs from the conversion instead)">,
    Option<"directRows", "direct-rows", "bool", /*default=*/"true",
           "Register tiles of a row-gather pack's cache blocks (tiny-Cin "
           "filter gradients with every tap fused, runs of k * Cin values "
           "at a stride) read the input's runs themselves instead of a "
           "scratch copy of them per block">,
    Option<"twoZmmFMAUnits", "two-zmm-fma-units", "bool",
           /*default=*/"false",
           "Tune for a core with two 512-bit FMA units (the Intel Xeons; "
           "the CPU pipeline sets it from the host): the whole-dW register "
           "tiles of 1x1 and 1-D filter gradients get no conv.prefetch_rows "
           "(the hardware prefetchers do better) except unstrided 1x1 ones "
           "whose block at most 16 tiles sweep, or whose whole dW takes at "
           "most an eighth of the L2, and 1-D ones other than a Winograd "
           "filter gradient's products (those prefetch the "
           "next block into the L2, each line by one tile), streaming "
           "filter-gradient "
           "tiles whose rows take several register tiles prefetch into the "
           "L2 only (conv.prefetch_l2), each line from one of those tiles "
           "(conv.prefetch_tiles), filter-gradient tiles "
           "of 2 vectors a row take up to 12 rows instead of 8, and the "
           "whole-dW tiles of such multi-tap filter gradients take reduction "
           "blocks of the rows whose out_backprop rows fit half the L1">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    // The loop annotations of dense tap-row tiles (#llvm.loop_annotation).
    "::mlir::LLVM::LLVMDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::ub::UBDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def ConvCPULowerVectorsPass
    : Pass<"conv-cpu-lower-vectors", "::mlir::func::FuncOp"> {
  let summary = "Lower vector contractions to FMAs, in separate pattern groups";
  let description = [{
    After bufferization: moves elementwise ops (the extensions of 16-bit
    tiles) before broadcasts and transposes and folds those into the
    contractions' indexing maps, drops leading unit vector dimensions, lowers
    `vector.contract` to outer products and those to `vector.fma`, then
    turns reads whose every use extracts a scalar (the broadcast operand of
    the outer products) into scalar loads, then lowers transfers (rank 1),
    shape casts and broadcasts, transposes the remaining 16-bit float
    vectors as i16 (LLVM 22 miscompiles some bf16 lane shuffles on x86) and
    lowers 2-D transposes to shuffles (the AVX-512 16 x 16 sequence for
    16 x 16 f32 tiles, one flat shuffle otherwise). The
    groups are applied one after the other (one combined greedy set
    ping-pongs).

    With `bf16-dot` (AVX512-BF16 hosts), a contraction of bf16 operands
    (widened to f32) into f32 accumulators over a reduction of 2, whose
    accumulator columns are whole 16-lane vectors, becomes
    `x86vector.avx512.dot` (`vdpbf16ps`): each accumulator row's bf16 pair
    is broadcast as one 32-bit value, and each 16-column piece of the two
    other rows is interleaved into pairs (an i16 shuffle). Per lane the
    instruction adds the second pair product, then the first, each rounded
    like an FMA (with denormal inputs and results flushed to zero). Not in a
    function that has a bf16 vector of 8k + 1 > 1 elements: LLVM 22 cannot
    generate code for those with AVX512-BF16 enabled (see docs/Codegen.md).
    The other operand may also be indexed (column, pair), as the pair
    operands of a bf16 filter gradient are: its pairs are then already
    interleaved (plain slices, no shuffle); such a read of a memref whose
    last dimension is the pair becomes one flat read, and a pair read whose
    rows are broadcast becomes one 2-element load per row.
    Last, f32 -> bf16 roundings become integer operations on the bits
    (round to nearest even), not a runtime call per element.

    With `prefetch` (the default), first, a contraction in the body of an
    `scf.for` of static range R marked `conv.prefetch_rhs`
    (conv-cpu-tile-and-vectorize: the reduction loop of the register tiles
    of a filter gradient that streams out_backprop once), whose right-hand
    operand is a 2-D minor-identity
    `vector.transfer_read` of a memref with rows of at least one cache line
    running along the contraction's reduction, gets one `memref.prefetch`
    (read, locality 3; locality 2, into the L2 only, when the loop is also
    marked `conv.prefetch_l2`) per 64-byte line of each row r of that read,
    at row index + R + r: the rows the loop's next range reads. Inside an
    `scf.for` marked `conv.prefetch_tiles` (T iterations: the tiles of rows
    that all read those rows), iteration t issues only the lines t, t + T,
    t + 2T, ... (modulo the N lines of a step, line l at row l / L and
    column l mod L of the read's L lines a row), so that each line is
    prefetched once, not T times. The hardware
    prefetchers leave the memory idle while a block is computed. Prefetches
    do not fault: those of the last block, past the end of the buffer, are
    hints the kernel never reads. In a loop marked `conv.prefetch_rows`
    instead (the whole-dW register tiles of 1x1 and 1-D filter gradients,
    which all sweep one block of both operands), the left-hand read's rows
    are prefetched too, at its own columns (one line per row when narrower
    than a line), and the right-hand read gets one line per row: line
    (c / w) mod L of its L lines, c the left-hand read's first column and w
    its width, so that the tiles of consecutive left-hand column blocks
    fetch different lines (every line when the left-hand memref has fewer
    column blocks than L). A loop marked `conv.prefetch_rows` and
    `conv.prefetch_l2` (the 1x1 layers few tiles sweep, on cores with two
    512-bit FMA units) spreads both reads' lines over the tiles of its
    `conv.prefetch_tiles` loop as above, the left-hand read's whole rows
    (the memref's last dimension from column 0) rather than its own
    columns; such a loop outside a `conv.prefetch_tiles` loop (a peeled
    remainder tile) prefetches nothing. The loops marked
    `conv.prefetch_tiles_inner` between the `conv.prefetch_tiles` loop and
    the contraction (the loop over column tiles) count as tiles too: the
    tile index runs over all of them (mixed radix, the innermost fastest),
    and the right-hand read's whole rows are spread as well. A loop marked
    `conv.prefetch_distance = D` prefetches at row index + D (the positions
    of a whole reduction block, so that its tiles fetch the next block)
    instead of + R. Where a read's whole rows are those of a contiguous
    memref (static shape, identity layout, whole cache lines) and the
    S steps of the (at most two) loops between the innermost tile loop and
    the contraction cover the D rows of a block (S x the read's rows = D;
    with two loops the inner one covers the memref's rows dimension), the
    lines go to the tiles in memory order instead: tile t at step s
    prefetches the k = ceil(D L / (T S)) consecutive lines (t S + s) k ...
    (at most the block's last line) of the next block, numbered from its
    first row (the step's row index - s x rows + D; line l at column l x
    the elements of a line), after the contraction. The strided order had
    each tile touch one line every few KiB, which the hardware's L2
    streamer likely does not follow (docs/Codegen.md). In a loop marked `conv.prefetch_ahead = D` (the
    position loop of a tap-row register tile, one position a step), each
    `vector.transfer_read` of a memref indexed by the induction variable
    (or it plus a constant) gets a `memref.prefetch` of the same indices D
    iterations ahead; of the reads of one row at several offsets (the
    out_backprop rows of the taps) only the furthest. A loop marked
    `conv.prefetch_ahead_nested = D` (a tiny-Cout transposed convolution's
    loop over phase rows) does the same for the reads anywhere in its body,
    in inner loops and branches too, whose index is the induction variable
    plus a constant through `affine.apply` or `arith.addi` (the furthest of
    the reads that differ only in that constant, per block).

    Grouped filter-gradient tiles acc[ci, g, co] += x[k, g, ci] *
    y[k, g, co] (lane groups, conv-cpu-tile-and-vectorize) run first: the
    loops carry them as rows of (g, co), their reads and writes of whole
    trailing (g, c) dimensions, or of some of their groups (a one-position
    step's operand row `vector<G x C>` at group offset g included), move
    such rows (`memref.collapse_shape`),
    one-position steps (elementwise multiply-add of broadcast rows) become
    contractions, and each contraction becomes, per step and row, a lane
    shuffle broadcasting x[k, g, ci] over group g's lanes and one FMA with
    the row y[k].

    Register tiles whose columns are a number of native vectors that is not
    a power of two (`vector<4x24xf32>` with 8-lane vectors) are first split
    into native-width column pieces: the loop-carried accumulators, the
    contractions and the reads. LLVM widens a `<24 x float>` to
    `<32 x float>` and assembles its broadcasts lane by lane.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "unsigned", /*default=*/"0",
           "Native vector width in bits for the column split (0: the host's)">,
    Option<"bf16Dot", "bf16-dot", "bool", /*default=*/"false",
           "Lower bf16 pair contractions to x86vector.avx512.dot "
           "(vdpbf16ps; needs AVX512-BF16 where the code runs)">,
    Option<"prefetch", "prefetch", "bool", /*default=*/"true",
           "Prefetch the next rows of the right-hand operand of contractions "
           "in loops marked conv.prefetch_rhs, of both operands in loops "
           "marked conv.prefetch_rows, and the rows read D positions ahead "
           "in loops marked conv.prefetch_ahead = D (or, anywhere in their "
           "body, conv.prefetch_ahead_nested = D)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::ub::UBDialect",
    "::mlir::vector::VectorDialect",
    "::mlir::x86vector::X86VectorDialect",
  ];
}

def ConvCPUDecomposePadsPass
    : Pass<"conv-cpu-decompose-pads", "::mlir::func::FuncOp"> {
  let summary = "Write static constant pads as border fills and one interior "
                "copy";
  let description = [{
    A static `tensor.pad` with a constant value bufferizes to an allocation
    filled whole with the value, then a copy of the source into its
    interior: the interior is written twice, and the fill of the whole
    padded tensor runs on one thread. This pass rewrites such a pad in
    destination-passing style, before bufferization:

    * a `tensor.empty` of the padded shape;
    * for each padded dimension d, a `linalg.fill` of the low and of the
      high pad slab (`extract_slice` / `insert_slice` of the destination),
      over the interior of the dimensions before d and the whole extent of
      the dimensions after it: disjoint slabs that cover the border once;
    * the source `insert_slice`d into the interior.

    One-shot bufferization keeps every slice in place: the fill writes only
    the border and the interior is a single `memref.copy`, which
    `conv-cpu-expand-strided-copies` turns into row copies over the
    threads. Pads with dynamic shapes, dynamic or negative padding, or a
    non-constant value are left alone.

    A pad marked `conv.interior_reads` (a filter gradient's window whose
    every tap slice the lowering cut to the input's interior: grouped, or
    any with `dw-cut-long-rows`, docs/Lowering.md §2.5) whose users are all
    `extract_slice`s or in-bounds unmasked `vector.transfer_read`s is not
    copied at all: each reads the source at its offsets minus the low
    padding. A slice statically outside the source keeps the pad.

    An unmarked pad is folded the same way when the bounds of its users'
    positions prove it (`ValueBoundsConstraintSet`, at most 64 users):
    along every padded dimension, the first position read is at least the
    low padding and the last (offset + (size - 1) * stride for a slice,
    index + vector extent - 1 for a read) at most the low padding plus the
    source's extent minus one. The transposed convolutions whose register
    tiles run along the batch have their tap loops clipped to the input
    rows along every spatial dimension (`conv.phase_window`,
    docs/Lowering.md §3.2), so their padded window is read that way.

    A pad that is copied, and whose users are all `extract_slice`s taking
    static blocks of its unpadded dimensions (e.g. one image) at offsets
    computed (pure, region-free ops) from the induction variables of
    `scf.for` / `scf.forall` loops nested below the pad, is copied one block
    at a time: at the top of the innermost of those loops' bodies the block
    is sliced from the source and padded on its own (then decomposed as
    above), and each slice reads its block's padded copy at the same
    offsets along the padded dimensions (0 along the others). Slices with
    the same loop and block offsets share one copy. Only when that copies
    no element more often than the whole pad: the static trip counts of the
    loops around each block's pad times the block's size, summed over the
    distinct blocks, at most the source's size.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def ConvCPUStreamingStoresPass
    : Pass<"conv-cpu-streaming-stores", "::mlir::func::FuncOp"> {
  let summary = "Non-temporal stores for a large result the kernel only writes";
  let description = [{
    Runs after `conv-cpu-lower-vectors`, on AVX-512 hosts (512-bit vectors).
    A memref argument of the function that is only ever written (every use,
    through `memref.subview`, `memref.expand_shape`, `memref.collapse_shape`
    and `memref.cast` views, is the destination of a `vector.transfer_write`,
    `vector.store`, `memref.store` or `memref.copy`: the out-param of a
    result the kernel writes once, tile by tile, and never reads back) and
    that holds at least
    `min-bytes` bytes gets its tiles' writes as non-temporal stores: a
    minor-identity, unmasked, in-bounds `vector.transfer_write` of rank 1 or
    2, or a `vector.store` (rank 1, not already non-temporal), whose rows
    are whole 64-byte cache lines (the vector's last dimension, and for
    rank 2 the memref's row pitch, a multiple of 64 bytes; static strides,
    the last one 1), of a value that is not a constant, becomes

        scf.if (address of the first row) % 64 == 0 {
          vector.store row r {nontemporal = true, alignment = 64}, ...
        } else {
          the original write
        }

    (LLVM's `vmovntps` needs the alignment; an unaligned non-temporal
    store would become 8-byte `movnti`s, and the caller's result buffer may
    be unaligned). Such stores write whole lines to memory without first
    reading them into the caches (the read-for-ownership of an ordinary
    store) and without evicting the operands the kernel still reads. They
    are weakly ordered: after the outermost loop nest that holds them, in
    the body of the enclosing `scf.forall` (each thread's share) or of the
    function, an `sfence` (`llvm.x86.sse.sfence`) makes them visible before
    the thread finishes. With `min-bytes=0` every such argument qualifies.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "unsigned", /*default=*/"0",
           "SIMD register width in bits (0: the host's); only 512 streams">,
    Option<"minBytes", "min-bytes", "int64_t", /*default=*/"0",
           "Smallest result (bytes) whose writes become non-temporal">,
  ];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def ConvCPUExpandStridedCopiesPass
    : Pass<"conv-cpu-expand-strided-copies", "::mlir::func::FuncOp"> {
  let summary = "Turn strided memref.copy into row copies or linalg.copy loops";
  let description = [{
    After bufferization, a `memref.copy` between non-contiguous memrefs (the
    interior of a padded input, a strided output slice) lowers to a call of
    the generic `memrefCopy` runtime function, which moves one element per
    iteration through an indirect loop. This pass rewrites such copies:

    * The trailing dimensions contiguous in both memrefs form rows. With
      rows of at least 16 elements, the copy becomes a loop nest over the
      other dimensions with one contiguous 1-D `memref.copy` (a memcpy) per
      row. A copy of at least 256 KiB outside any parallel loop, with
      `num-threads` other than 1, takes its threads: the first outer
      dimension with at least as many iterations as threads is an
      `scf.forall`.
    * Otherwise the copy becomes a `linalg.copy` loop nest.

    Contiguous copies are left alone (they become a memcpy).
  }];
  let options = [
    Option<"numThreads", "num-threads", "unsigned", /*default=*/"1",
           "Threads of the kernel (0: all hardware threads; 1: no thread "
           "split of large copies)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def ConvCPUFoldAccumulatorSlicesPass
    : Pass<"conv-cpu-fold-accumulator-slices", "::mlir::func::FuncOp"> {
  let summary = "Fold the slices of hoisted accumulator tiles into their "
                "vector transfers";
  let description = [{
    Runs after `loop-invariant-subset-hoisting`, which takes a register
    tile's accumulator read and write out of its reduction loops: the tile
    is then read once from a `tensor.extract_slice` of the tile block before
    the loops and written once into a slice re-inserted with
    `tensor.insert_slice` after them. The slices fold into the transfers
    (`tensor::populateFoldTensorSubsetIntoVectorTransferPatterns`), which
    then read and write the block itself. (The patterns fold any
    `vector.transfer_read` of a slice and `tensor.insert_slice` of a
    `vector.transfer_write` that overwrites the whole slice, not only
    accumulators: docs/Codegen.md, "Accumulator slices", measures the 16
    suite layers whose code changed.)

    Without it, one-shot bufferization gave some of these slices buffers of
    their own: the unrolled taps of a dense tap-row tile (each tap's
    accumulator a slice of the block, the block re-assembled from the
    slices after the loops) were copied into a heap buffer per tap and back
    for every register tile (GoogLeNet's 5x5 192 -> 32 filter gradient:
    38400 allocations and 76800 copies a call).
  }];
  let dependentDialects = [
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def ConvReturnReshapedAllocsPass
    : Pass<"conv-return-reshaped-allocs", "::mlir::func::FuncOp"> {
  let summary = "Allocate a result returned through a reshape in its returned "
                "shape";
  let description = [{
    After bufferization, a function that returns a `memref.expand_shape` or
    `memref.collapse_shape` of a static, identity-layout `memref.alloc`
    (e.g. a transposed convolution of few output channels computed in a
    flattened [N, OW * Cout] view) gets that allocation in the returned
    shape instead, the computation's view being the inverse reshape of it,
    and returns the allocation itself. `buffer-results-to-out-params` with
    `hoist-static-allocs` then replaces it with the out-param: the kernel
    writes its result in place instead of copying it there at the end.

    Runs between bufferization and `buffer-results-to-out-params`.
  }];
  let dependentDialects = [
    "::mlir::memref::MemRefDialect",
  ];
}

def ConvCPUAnnotateLoopUnrollingPass
    : Pass<"conv-cpu-annotate-loop-unrolling", "::mlir::func::FuncOp"> {
  let summary = "Tell LLVM's loop unroller which scf.for loops to leave alone";
  let description = [{
    Runs before `convert-scf-to-cf`. Every `scf.for` gets
    `llvm.loop_annotation = #llvm.loop_annotation<unroll = <disable =
    true>>` (which `convert-scf-to-cf` moves to the loop's back edge, and
    `conv-llvm-loop-annotations` into the `llvm.br`), except loops with the
    `conv.llvm_unroll` marker (which is removed), innermost loops of at most
    16 iterations and `max-small-loop-ops` operations (cheap to analyse;
    `convert-vector-to-scf`'s gathers of a stride-2 phase's input rows must
    be unrolled), and loops that already
    have an `llvm.loop_annotation`. A loop with `conv.llvm_unroll_count = N`
    (removed) gets `unroll = <count = N>` instead: LLVM unrolls it N times,
    with a remainder loop when its trip count is dynamic (the position loop
    of a strided filter gradient's cut rows, docs/Lowering.md §2.5).

    `conv-cpu-tile-and-vectorize` marks the tap loops of the transposed
    convolution's register tiles, which LLVM's unroller must still see (the
    multi-tap phases ran at half speed without it on the Intel host; within
    +-2 % on the Zen 4, where the tap loops clipped to the input rows stay
    rolled). LLVM's loop unroll
    passes otherwise analysed every other loop of a kernel (most of their
    time, about half of the `-O2` pipeline's) to unroll nothing of
    measurable worth: the MLIR pipeline has unrolled the register tiles
    already. Best of 3 compiles, LLVM optimization stage: ResNet 1x1
    1024 -> 256 121 -> 66 ms, DCGAN 4x4 stride 2 115 -> 56 and 140 -> 59 ms,
    ResNet 3x3 91 -> 43 ms; the kernels' speed is unchanged (paired
    `conv-run --compare` runs within +-5 %).

    The operation bound keeps out the reduction loops around a register
    tile: innermost and of 2-16 iterations too, but of 120-550 operations,
    which LLVM analysed at length and never unrolled. With it the loops
    LLVM unrolls (2-40 operations) and the optimized LLVM IR of all 48
    benchmark kernels are unchanged. LLVM stage of the JIT (which also sets
    `-unroll-max-iteration-count-to-analyze=0`), best of 5 compiles, 1
    thread: ResNet 1x1 64 -> 64 115 -> 85 ms, WaveNet k2 112 -> 94, DCGAN
    64 -> 3 147 -> 122, ResNet 1x1 2048 -> 512 57 -> 45; whole compiles,
    best of 3, geomean of the 48 kernels 116 -> 111 ms with 1 thread and
    125 -> 119 with 2.
  }];
  let options = [
    Option<"maxSmallLoopOps", "max-small-loop-ops", "int64_t",
           /*default=*/"64",
           "Most operations (nested ones and the terminator included) in "
           "the body of an innermost loop left to LLVM's unroller">,
  ];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def ConvLLVMLoopAnnotationsPass
    : Pass<"conv-llvm-loop-annotations"> {
  let summary = "Turn branches' llvm.loop_annotation attributes into their "
                "loop_annotation property";
  let description = [{
    `convert-scf-to-cf` puts an `scf.for`'s `llvm.loop_annotation` on the
    loop's back-edge `cf.br`, and `convert-cf-to-llvm` keeps it there as a
    discardable attribute of the `llvm.br`, which the LLVM IR translation
    ignores: it reads the branch's `loop_annotation` property (inherent
    attribute). This pass, run after `convert-cf-to-llvm`, moves the
    attribute of every `llvm.br` and `llvm.cond_br` into that property, so
    that the loop gets its `!llvm.loop` metadata.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def ConvFinishLLVMLoweringPass
    : Pass<"conv-finish-llvm-lowering", "::mlir::ModuleOp"> {
  let summary = "Convert the memref, OpenMP, ub, index and func operations "
                "left after the vector conversion to the LLVM dialect in one "
                "dialect conversion";
  let description = [{
    One `applyPartialConversion` with the patterns of upstream's
    `finalize-memref-to-llvm`, `convert-openmp-to-llvm`,
    `convert-ub-to-llvm`, `convert-index-to-llvm` and
    `convert-func-to-llvm` (and, for what an earlier conversion left, those
    of `convert-arith-to-llvm`, `convert-math-to-llvm` and
    `convert-cf-to-llvm`), one type converter (the data layout's index
    width), and the OpenMP conversion's legality: the same LLVM dialect
    as those five passes in sequence, in one walk over the module instead
    of five (`convert-openmp-to-llvm` already bundles most of these
    patterns). The five took 2-6 ms each of a kernel's compile; in the
    CPU pipeline (`conv-opt --mlir-timing --mlir-disable-threading`, best
    of 3) 13.8 ms against this pass's 4.9 for DCGAN's 16x16x128 -> 64
    transposed convolution, 14.7 against 6.1 for the dilated 38x57x512
    filter gradient, 31.1 against 12.9 for WaveNet's k2 layer. Unrealized
    casts are left for `reconcile-unrealized-casts`.
  }];
  let options = [
    Option<"useGenericFunctions", "use-generic-functions", "bool",
           /*default=*/"false",
           "memref.alloc / dealloc call _mlir_memref_to_llvm_alloc / free "
           "instead of malloc / free (finalize-memref-to-llvm's option)">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def ConvOmpThreadLoopsPass
    : Pass<"conv-omp-thread-loops", "::mlir::ModuleOp"> {
  let summary = "Split an omp.parallel's worksharing loop over the team by "
                "thread number, without the runtime's loop scheduling";
  let description = [{
    Runs after `convert-scf-to-openmp`, which turns each parallel loop into
    `omp.parallel { omp.wsloop { omp.loop_nest ... } }`. An `omp.wsloop`
    that is the only operation of its `omp.parallel` region and has no
    clauses (no reductions, private copies, schedule, ordering, `nowait`
    or linear variables) becomes a plain loop over the calling thread's
    iterations:

    ```
    %gtid = func.call @__kmpc_global_thread_num(%null) : (!llvm.ptr) -> i32
    %tid = func.call @__kmpc_bound_thread_num(%null, %gtid)
             : (!llvm.ptr, i32) -> i32
    %nth = func.call @__kmpc_bound_num_threads(%null, %gtid)
             : (!llvm.ptr, i32) -> i32
    // the loop nest's trip count T, linearized: thread t runs
    // [t * (T / nth) + min(t, T % nth), + T / nth + (t < T % nth ? 1 : 0))
    scf.for %i = %begin to %end step %c1 {
      // %i delinearized into the nest's induction variables, row-major
      ...
    }
    ```

    (libomp's entry points, not `omp_get_thread_num`: in a process that
    also loads GNU libgomp, e.g. through oneDNN, the JIT bound that name to
    libgomp's.) That is the runtime's default static schedule (the
    balanced split of `schedule(static)`), so every thread runs the same
    iterations as before, and the `omp.parallel`'s join barrier ends the
    loop as the worksharing loop's implied barrier did.

    What goes away is `__kmpc_for_static_init` / `__kmpc_for_static_fini`
    and that barrier. Debian's libomp 19 formats its debug-trace strings
    (`vsnprintf`, `malloc`) in every `__kmpc_for_static_init` call: a
    2-thread `parallel for` of a clang-compiled C loop took 0.8 us a
    region against 0.45 us for a bare `parallel` on the Zen 4 host.
    conv-run --compare (alternating calls, medians, 2 threads) measured
    the 1-D MaskNet layer mk1 (10 us) 9 % faster with this pass, and a
    3 us kernel 25 % faster.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::scf::SCFDialect",
  ];
}

#endif // CONV_CODEGEN_PASSES_TD
