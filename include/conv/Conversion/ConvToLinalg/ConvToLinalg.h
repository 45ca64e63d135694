//===- ConvToLinalg.h - conv to linalg patterns -----------------*- C++ -*-===//

#ifndef CONV_CONVERSION_CONVTOLINALG_CONVTOLINALG_H
#define CONV_CONVERSION_CONVTOLINALG_CONVTOLINALG_H

#include "conv/Geometry/Geometry.h"

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace mlir {
class RewritePatternSet;
class Type;
} // namespace mlir

namespace mlir::conv {

/// Discardable attribute on the linalg.generic ops the lowering creates,
/// telling the CPU code generator what they compute and how their loops are
/// ordered.
constexpr llvm::StringLiteral kRoleAttrName = "conv.role";
/// One filter tap of conv.backprop_filter: loops [(g,) ci, co, b, o...],
/// reduction over b and o.
constexpr llvm::StringLiteral kRoleDwTap = "dw_tap";
/// On a dw_tap contraction: how many independent contractions (taps, or
/// leading taps of the tiny-Cin lowering) the filter gradient has; 1 when
/// it is a single contraction over the whole reduction (1x1 filters, all
/// taps fused).
constexpr llvm::StringLiteral kDwContractionsAttrName = "conv.dw_contractions";
/// One tap of a depthwise filter gradient (one input and one output channel
/// a group, channels last): loops [c, b, o...], elementwise over the
/// channels c, reduction over b and o (docs/Lowering.md §2, step 7).
constexpr llvm::StringLiteral kRoleDwDepthwise = "dw_depthwise";
/// The taps of a grouped filter gradient's last kernel dimension in one
/// contraction (tap rows, docs/Lowering.md §2.8): loops
/// [g, ci, co, k, b, o_0..o_{n-2}, q], reduction over b, the leading output
/// positions and q, the window positions along the last spatial dimension;
/// the window is read at q, out_backprop at q + k*dil, and the result's tap
/// dimension k runs over the taps in reverse order (tap K-1-k).
constexpr llvm::StringLiteral kRoleDwTapRow = "dw_tap_row";
/// All the taps of a depthwise filter gradient's last two kernel
/// dimensions in one contraction (tap planes, docs/Lowering.md §2.9): loops
/// [c, k0, k1, b, o_0..o_{n-3}, p, q], elementwise over the channels c,
/// reduction over b and the output positions; the input window (or a
/// zero-bordered copy of some of its rows) is read at
/// (p*s0 + k0*dil0, q*s1 + k1*dil1).
constexpr llvm::StringLiteral kRoleDwDepthwisePlane = "dw_depthwise_plane";
/// On a dw_depthwise_plane contraction over an edge strip of the plane (not
/// its interior): the code generator runs its taps one after the other
/// instead of unrolled together (a strip is a row or two: see
/// docs/Codegen.md, "Depthwise tap planes").
constexpr llvm::StringLiteral kPlaneStripAttrName = "conv.plane_strip";
/// The tensor.pad that puts the input rows of a tap plane's edge strip into
/// a zero border.
constexpr llvm::StringLiteral kRoleWindowBorder = "window_border";
/// On a dw_tap contraction of the tiny-Cin lowering with every kernel
/// dimension fused into its rows (no leading taps): the whole filter
/// gradient is this one contraction, which reads each out_backprop position
/// once, in the order of its reduction (conv-cpu-tile-and-vectorize marks
/// its register tiles' reduction loops for software prefetch).
constexpr llvm::StringLiteral kDwStreamAttrName = "conv.dw_stream";
/// On the dw_tap contractions of a Winograd filter gradient (the products
/// of the transformed input and out_backprop; WinogradFilterGradient.cpp):
/// their blocks follow rules of their own (conv-cpu-tile-and-vectorize
/// gives them no row prefetches into the L2).
constexpr llvm::StringLiteral kDwWinogradAttrName = "conv.dw_winograd";
/// On an scf.for: the distance, in iterations, at which conv-cpu-lower-
/// vectors (`prefetch`) prefetches the rows that the reads anywhere in its
/// body (inner loops and branches too) read at its induction variable plus
/// a constant. Set on the loop over phase rows of tiny-Cout transposed
/// convolutions (TransposeDot.cpp), whose tiles read each input row from
/// memory when its loop first reaches it.
constexpr llvm::StringLiteral kPrefetchAheadNestedAttrName =
    "conv.prefetch_ahead_nested";
/// On a dw_tap contraction of bf16 pair operands (docs/Lowering.md §2.6):
/// its last loop `e` (extent 2) is the pair of consecutive output positions
/// along the last spatial dimension, innermost in both operands (loops
/// [ci, co, b, o..., e], o_{n-1} counting pairs), so that vdpbf16ps
/// multiplies each pair in one instruction.
constexpr llvm::StringLiteral kDwPairsAttrName = "conv.dw_pairs";
/// On the zero-padding tensor.pad of a filter gradient's input window: the
/// lowering cut every read of it to the input's interior (docs/Lowering.md
/// §2.5: every tap's padding positions cut along every dimension), so its
/// extract_slice users (and the vector reads the tiling folds them into) may
/// read the input itself (conv-cpu-decompose-pads folds the pad away). Set
/// on grouped filter gradients, and on ungrouped ones with cutLongRows.
constexpr llvm::StringLiteral kInteriorReadsAttrName = "conv.interior_reads";
/// Set on such a tensor.pad while lowering when a tap's slice still reads
/// padding (not every dimension cut); removed at the end.
constexpr llvm::StringLiteral kReadsPaddingAttrName = "conv.reads_padding";
/// One stride phase of conv.transpose (a stride-1 dilated correlation): loops
/// [b, o..., co, t..., ci], reduction over the taps t and ci.
constexpr llvm::StringLiteral kRoleTransposePhase = "transpose_phase";
/// On a transpose_phase contraction: the number of tap loops t when it is
/// not the number of output dimensions (the depth-to-space contraction of
/// a kernel that equals its stride has none: loops [b, o..., co, ci]).
constexpr llvm::StringLiteral kPhaseTapsAttrName = "conv.phase_taps";
/// On a transpose_phase contraction whose input window is zero padded
/// where its taps read it: per spatial dimension d, the triple
/// [lo_d, hi_d, dilation_d] with [lo_d, hi_d) the window rows that hold
/// input (the rest is padding) and dilation_d the window step between taps.
/// Output row o reads window row o + t * dilation_d with tap t, so only the
/// taps t with lo_d <= o + t * dilation_d < hi_d multiply input; the CPU
/// code generator clips its tap loops to them (docs/Lowering.md §3.2).
constexpr llvm::StringLiteral kPhaseWindowAttrName = "conv.phase_window";
/// On a transpose_phase contraction: its register-tile rows run along the
/// batch when the batch makes whole tiles of at least 4 rows on every
/// thread (a Winograd phase's products, whose last dimension has half the
/// phase's outputs: docs/Lowering.md §3.10).
constexpr llvm::StringLiteral kPhaseBatchRowsAttrName = "conv.phase_batch_rows";
/// A correlation with few output channels whose input-channel reduction is
/// split into (ci / L, L) with the L lanes kept apart (a vector of partial
/// sums per output): loops [b, o..., co, lane, t..., cio], reduction over the
/// taps and cio; a plain linalg.generic then sums the lanes.
constexpr llvm::StringLiteral kRoleTransposeLanes = "transpose_lanes";
/// A linalg.transpose between layouts: channels first and channels last
/// (conv-cpu-channels-last), or a transposed convolution's kernel matrix
/// [(taps, co), ci] -> [ci, (taps, co)] (the columns lowering).
constexpr llvm::StringLiteral kRoleRelayout = "relayout";
/// An elementwise accumulation `out += y` on contiguous rows (all loops
/// parallel, identity maps): the columns lowering's adds of a whole row of
/// (tap, co) values of its GEMM into the output.
constexpr llvm::StringLiteral kRoleRowAdd = "row_add";
/// A zero fill (a linalg.generic yielding its scalar input) of a
/// contiguous row (a batch item's output slice in the columns lowering),
/// vectorized like the row adds.
constexpr llvm::StringLiteral kRoleRowFill = "row_fill";
/// An elementwise sum of strided slices of a Winograd phase (its input, tap
/// and output transforms: docs/Lowering.md §3.10): rows of channels.
constexpr llvm::StringLiteral kRoleWinogradTransform = "winograd_transform";
/// A copy whose innermost loop reads a contiguous run of its input (input
/// map `(..., o, j) -> (..., o * c + j)`, output map the identity): the
/// tiny-Cin filter gradient's pack of k*Cin-long input runs, copied one run
/// at a time as vectors.
constexpr llvm::StringLiteral kRoleRowGather = "row_gather";
/// The elementwise conversion of the f32 accumulators to the op's 16-bit
/// element type (identity maps): vectorized in row chunks, over threads
/// when large.
constexpr llvm::StringLiteral kRoleCast = "cast";
/// A pair pack (bf16 filter gradients, docs/Lowering.md §2.6):
/// out[..., c, e] = e == 0 ? a[..., c] : b[..., c], two tensors of one shape
/// interleaved along a new innermost dimension of 2 (loops [..., c, e], all
/// parallel): vectorized in channel chunks, over threads when large.
constexpr llvm::StringLiteral kRolePairPack = "pair_pack";

/// Winograd forms: F(2, T) phases of conv.transpose
/// (TransposeLoweringOptions::winograd) and F(3, 2) / F(5, 2) filter
/// gradients (populateBackpropFilterWinogradPatterns).
enum class WinogradMode {
  Off,
  /// Where the measured rule says it pays: transposed convolutions with at
  /// most 2 Winograd phases, or up to 4 with at least 128 output channels
  /// (each adds about 25-90 ms to a first-call compile); 2-D filter
  /// gradients as backpropFilterWinogradApplies says.
  Auto,
  /// Every eligible op.
  On,
};
using TransposeWinograd = WinogradMode;

/// How conv.backprop_filter is split up for the cache (all 0: one
/// contraction per tap over the whole reduction).
struct BackpropFilterLoweringOptions {
  /// An op whose input window and out_backprop exceed this many bytes runs
  /// its taps over blocks of batch items (or of rows) of about that size,
  /// in an scf.for accumulating into dW (docs/Lowering.md §2.2); 0: never.
  int64_t reductionBlockBytes = 0;
  /// Smaller blocks for multi-tap ops with a small dW: blocks of this many
  /// bytes (the L2) when dW is at most twice that, so that the taps re-read
  /// the block from the L2 rather than the L3, at the price of re-reading dW
  /// once per block; 0: no such blocks.
  int64_t smallFilterBlockBytes = 0;
  /// Blocks of this many bytes (half the L1) instead for those of them that
  /// are 2-D, ungrouped and have output rows of at least
  /// kMinWideRowPositions positions (one row when a row is larger): the
  /// taps and register tiles then re-read a block's out_backprop rows from
  /// the L1 rather than the L2 (docs/Lowering.md §2.2); 0: no such blocks.
  int64_t wideRowBlockBytes = 0;
  /// Split-K: a single-tap op with a long reduction, an even batch and at
  /// most this many bytes of dW for two parts splits its batch into 2
  /// halves summed separately (an scf.forall) and added in order
  /// (docs/Lowering.md §2.3); 0: never.
  int64_t splitMaxBytes = 0;
  /// Split-K of multi-tap ops (the same reduction and batch conditions)
  /// whose two partial dWs together are at most this many bytes (the L2:
  /// each thread then holds its own dW there); 0: never. On up to 2
  /// `threads` the parts lead (an scf.forall over them, each running all of
  /// its blocks and taps); on more they are the first dimension of the
  /// taps' forall.
  int64_t splitTapsMaxBytes = 0;
  /// The threads the taps' scf.forall will be spread over: when the taps
  /// are not a multiple of it, each tap's output channels are split into
  /// `threads / gcd(taps, threads)` equal parts (another dimension of the
  /// forall, docs/Lowering.md §2.4), so that every thread gets the same
  /// share of the work; 1: never. A multi-tap op whose dW exceeds twice
  /// `smallFilterBlockBytes` instead gives each thread a part of its input
  /// (or output) channels for all of its reduction blocks and taps (an
  /// scf.forall around the blocks, docs/Lowering.md §2.4). Every part is
  /// owned by one iteration, so the result does not depend on the thread
  /// count.
  int64_t threads = 1;
  /// bf16 filter gradients that dwUsesBF16Pairs accepts contract pairs of
  /// output positions (kDwPairsAttrName) for vdpbf16ps instead of single
  /// positions.
  bool bf16Pairs = false;
  /// Ungrouped channels-last ops cut the zero-padding positions of a long
  /// last spatial dimension too (more than 16 positions; always for grouped
  /// ones), and when no tap slice then reads padding their window reads
  /// the input itself, without the zero-padded copy (docs/Lowering.md
  /// §2.5). For the AVX-512 code generator, whose register tiles reduce
  /// such a dynamic range one position a step.
  bool cutLongRows = false;
  /// Grouped channels-last f32 filter gradients whose lane-group register
  /// tiles (conv-cpu-tile-and-vectorize) have this many f32 lanes a vector
  /// (0: none) contract the taps of their last kernel dimension together
  /// (kRoleDwTapRow) where it has stride 1 (docs/Lowering.md §2.8), so that
  /// each lane shuffle of an input row serves every one of those taps.
  int64_t tapRowLanes = 0;
  /// Depthwise channels-last f32 filter gradients whose channels are whole
  /// vectors of this many f32 lanes (0: none) contract all the taps of
  /// their last two kernel dimensions together (kRoleDwDepthwisePlane,
  /// docs/Lowering.md §2.9) where those have at most 24 taps and an interior
  /// of three quarters of the output positions, so that each out_backprop
  /// vector is loaded once for all of them.
  int64_t tapPlaneLanes = 0;
};

/// conv.backprop_filter -> per-tap linalg contractions (docs/Lowering.md §2).
void populateBackpropFilterToLinalgPatterns(
    RewritePatternSet &patterns,
    const BackpropFilterLoweringOptions &options = {});

/// The thresholds of the `auto` rule for Winograd filter gradients
/// (backpropFilterWinogradApplies). The defaults were measured on AMD Zen 4
/// (AVX-512 on 256-bit FMA units); the CPU pipeline raises them on cores
/// with two 512-bit FMA units (the Intel Xeons), whose direct kernels run
/// twice the FLOPs a cycle against similar cache bandwidth, so that the
/// transforms' memory traffic must be spread over more products.
struct WinogradFilterGradientRule {
  /// The fewest input and output channels (each product's [Cin, Cout] work
  /// per transformed element grows with Cin Cout / (Cin + Cout)).
  int64_t minChannels = 32;
  /// The most products of the Winograd form, as a fraction of the direct
  /// form's (the pairs' padding counted).
  double maxProductRatio = 0.6;
  /// The shortest reduction (batch x pair positions) of each 1x1 product.
  int64_t minReduction = 192;
  /// 5-tap (F(5, 2)) layers: the fewest input and output channels, and the
  /// most products against the direct form's. With 0.36x the direct
  /// products their transforms pay off at fewer channels; at 0.47x (7 x 7
  /// outputs, the pairs' padding counted) they did not. conv-run
  /// --compare=winograd=off, 10 pairs, Ice Lake, 1 / 2 threads: GoogLeNet's
  /// 28x28x192 -> 32 1.06-1.12 / 1.10-1.13x, 56x56x32 -> 32 (N8) 1.36 /
  /// 1.27x, 14x14x256 (N8) 1.30 / 1.57x, 28x28x32 -> 192 (N16) 1.37 /
  /// 1.61x; 7x7x128 (N16) 0.90 / 1.01x.
  int64_t minChannels5 = 32;
  double maxProductRatio5 = 0.4;
};

/// Whether a filter gradient with `g`'s geometry and element type is
/// lowered by Winograd's F(3, 2) or F(5, 2)
/// (populateBackpropFilterWinogradPatterns): f32, channels last, no groups,
/// stride 1 and 3 taps along every spatial dimension (1-3 dimensions) or 5
/// (1 or 2 dimensions), any dilation. With `autoRule`, only where that
/// measured faster: 2-D, with `rule`'s channels, product ratio and
/// reduction.
bool backpropFilterWinogradApplies(
    const convgen::BackpropFilterGeometry &g, Type elementType, bool autoRule,
    const WinogradFilterGradientRule &rule = {});

/// conv.backprop_filter -> Winograd F(3, 2) or F(5, 2) (docs/Lowering.md
/// §2.7): the elementwise input / out_backprop transforms, one 1x1
/// conv.backprop_filter per transform point (4^n or 6^n of them, in an
/// scf.forall), and the output transform; ahead of
/// populateBackpropFilterToLinalgPatterns (benefit 2), which lowers the 1x1
/// ops whose operands exceed `blockBytes` (its reduction blocks); smaller
/// ones are emitted as their dw_tap contraction directly, written into the
/// products' stack in place (0: always). With `pointBlockBytes` > 0, 2-D
/// and 3-D layers whose last dimension's 4 (F(5, 2): 6) products take at
/// most 8 x pointBlockBytes instead reduce each group of those points over
/// blocks of the reduction whose transformed operands take at most
/// `pointBlockBytes` (F(3, 2): and at most `pointBlockL1Bytes`, if > 0;
/// the first dimensions' transforms inside the points' forall, once per
/// block), J points an iteration so that the forall keeps `threads`
/// threads busy. Nothing with WinogradMode::Off; WinogradMode::Auto
/// follows `rule`.
void populateBackpropFilterWinogradPatterns(
    RewritePatternSet &patterns, WinogradMode mode, int64_t blockBytes = 0,
    const WinogradFilterGradientRule &rule = {}, int64_t pointBlockBytes = 0,
    int64_t threads = 1, int64_t pointBlockL1Bytes = 0);

/// How conv.transpose is lowered.
enum class TransposeLowering {
  /// prod(strides) dense stride-1 phase correlations (the default).
  Phase,
  /// One correlation over the zero-inserted input (test oracle only).
  ZeroInsertion,
};

/// When the phase lowering handles an op tap by tap instead (one dense
/// contraction per kernel tap over the input rows that land in the output;
/// docs/Lowering.md §3.3).
enum class TransposeTaps {
  /// When the phases would compute >1.25x the useful products (small
  /// inputs) and the kernel has at most 64 taps.
  Auto,
  Always,
  Never,
  /// The columns lowering (channels last; other layouts use the phases):
  /// one GEMM of the input pixels with all (tap, output channel) pairs as
  /// its columns, then per-tap adds into the output. Auto picks it for few
  /// output channels.
  Columns,
};

/// Parses "off", "auto" or "on".
std::optional<TransposeWinograd> parseTransposeWinograd(llvm::StringRef value);

/// Parses "auto", "always", "never" or "columns".
std::optional<TransposeTaps> parseTransposeTaps(llvm::StringRef value);

/// How conv.transpose is lowered (the CPU pipeline sets these from the
/// host and its own options).
struct TransposeLoweringOptions {
  TransposeLowering lowering = TransposeLowering::Phase;
  TransposeTaps taps = TransposeTaps::Auto;
  /// With TransposeTaps::Auto, the ratio of the phases' products to the
  /// useful ones above which the op is lowered tap by tap.
  double tapsOverhead = 1.10;
  /// The threads the kernel runs on; with more than 1, the columns lowering
  /// of a single 1-D batch item runs in that many row parts
  /// (docs/Lowering.md §3.6), and the input- and batch-block lowerings take
  /// their blocks only when they split evenly over the threads.
  int64_t threads = 1;
  /// The code generator runs the register-tile rows of phases whose window
  /// is padded along the last dimension along the batch (AVX-512 hosts,
  /// conv-cpu-tile-and-vectorize: f32, at least 64 output channels), when
  /// the batch makes tiles of 4 rows on every thread: such ops keep the phases
  /// over the whole batch instead of batch blocks (docs/Lowering.md §3.9),
  /// whose 2 items would leave too few rows.
  bool batchRows = false;
  /// The f32 lanes of the code generator's vectors (0: unknown). The
  /// columns lowering pads the transposed kernel's (tap, co) columns with
  /// zeros to whole vectors and runs its GEMM over them (docs/Lowering.md
  /// §3.6, "Columns padded to whole vectors").
  int64_t columnsLanes = 0;
  /// The columns lowering of several batch items (at least 2 spatial
  /// dimensions, K transposed), whose taps along the first spatial dimension
  /// all read every input row, computes and adds an item's GEMM result Y a
  /// band of those rows at a time when Y is larger than this many bytes (0:
  /// never): the most rows whose Y fits, dividing the rows. Each band's Y
  /// then stays in the cache for its adds (docs/Lowering.md §3.6).
  int64_t columnsBandBytes = 0;
  /// Phases with 2 or 3 taps along their last spatial dimension (no
  /// dilation there), channels last, f32, at least 16 input and output
  /// channels and 4 outputs along that dimension, compute each pair of
  /// outputs with Winograd's F(2, 2) / F(2, 3): 3 / 4 products for 4 / 6
  /// (docs/Lowering.md §3.10), when they save at least a fifth of the op's
  /// products.
  TransposeWinograd winograd = TransposeWinograd::Off;
  /// TransposeWinograd::Auto: ops with 3 or 4 Winograd phases need this
  /// many output channels (ops with 1 or 2 need none). 128 was measured on
  /// Zen 4; the CPU pipeline uses 64 on cores with two 512-bit FMA units.
  int64_t winogradManyPhaseOutChannels = 128;
  /// The f32 lanes of the dot lowering (0: off): with TransposeTaps::Auto,
  /// 1-D and 2-D channels-last f32 ops with dilation 1, input channels a
  /// multiple of the lanes and at most 8 outputs per phase row (stride x Cout)
  /// compute each output as a dot product along the input channels, in
  /// lane partial sums reduced by a shuffle tree (docs/Lowering.md §3.11).
  int64_t dotLanes = 0;
};

/// How the dot lowering tiles one op.
struct TransposeDotPlan {
  int64_t lanes = 0;    // L: f32 lanes of a vector
  // Along the last spatial dimension:
  int64_t windowRows;   // R = ceil(k / s): input rows per output
  int64_t sums;         // S = s * Cout: outputs per phase row m
  int64_t rows;         // M = ceil(out / s): phase rows covering the output
  int64_t tileRows;     // Tm: phase rows per tile (Tm * S a multiple of L)
  int64_t registerRows; // Rm: phase rows per register tile (Rm * S sums)
  int64_t parts;        // P: tile ranges per batch item (one per thread)
  int64_t tilesPerPart;
};

/// The plan for `g` when the dot lowering applies: channels last, one or
/// two spatial dimensions, f32, dilation 1, input channels a multiple of
/// `lanes`, and at most 8 outputs per phase row of the last dimension
/// (s * Cout <= 8) in tiles of at most 8 vectors of sums and 512 unrolled
/// FMAs a tile body; else none. `threads` (>= 1) tile ranges per item.
std::optional<TransposeDotPlan>
planTransposeDot(const convgen::TransposeGeometry &g, Type elementType,
                 int64_t lanes, int64_t threads);

/// conv.transpose -> linalg (docs/Lowering.md §3).
void populateTransposeToLinalgPatterns(
    RewritePatternSet &patterns, const TransposeLoweringOptions &options = {});

/// The number of row parts (one scf.forall iteration, on one thread, each)
/// the conv.transpose lowering runs `g` in on `threads` threads, or 0: the
/// columns lowering of a single 1-D batch item whose every input row lands
/// in the output whole (docs/Lowering.md §3.6). Such a kernel forks its
/// threads once per call and each thread adds only the rows it computed.
int64_t transposeRowParts(const convgen::TransposeGeometry &g, int64_t threads,
                          TransposeLowering lowering = TransposeLowering::Phase,
                          TransposeTaps taps = TransposeTaps::Auto);

/// f16 / bf16 conv ops become the same op on f32 operands between
/// elementwise conversions (Widen.cpp), taking precedence over the
/// lowerings above; with `keepBF16`, bf16 conv.transpose and the bf16
/// conv.backprop_filter ops of the pair lowering stay bf16 (their tiles
/// then use vdpbf16ps).
void populateWidenSixteenBitConvPatterns(RewritePatternSet &patterns,
                                         bool keepBF16);

} // namespace mlir::conv

#endif // CONV_CONVERSION_CONVTOLINALG_CONVTOLINALG_H
