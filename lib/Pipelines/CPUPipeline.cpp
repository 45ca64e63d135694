//===- CPUPipeline.cpp - conv-lower-to-llvm-cpu ----------------------------===//

#include "conv/Codegen/Passes.h"
#include "conv/Conversion/Passes.h"
#include "conv/Pipelines/Pipelines.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

bool mlir::conv::resolveBF16Dot(const ConvCPUPipelineOptions &options) {
  switch (options.bf16Dot) {
  case BF16Dot::On:
    return true;
  case BF16Dot::Auto:
    return HostVectorInfo::detect().bf16DotFast;
  case BF16Dot::Off:
    return false;
  }
  return false;
}

/// The canonicalizer of these pipelines, without region simplification
/// (structuredRewriteConfig, conv/Codegen/Passes.h).
static std::unique_ptr<Pass> createCanonicalizer() {
  return createCanonicalizerPass(conv::structuredRewriteConfig());
}

/// The most of the host's L3 that the filter gradients' reduction blocks
/// assume (buildConvToLinalgPipeline).
static constexpr int64_t kMaxHostL3Bytes = 32 * 1024 * 1024;

/// The smallest result whose register tiles conv-cpu-streaming-stores
/// writes with non-temporal stores, by default: a multiple of the L2
/// (docs/Codegen.md, "Streaming stores").
static constexpr int64_t kStreamingStoresL2Multiple = 4;

static int64_t
streamingStoresMinBytes(const conv::ConvCPUPipelineOptions &options) {
  if (options.streamingStoresMinBytes >= 0)
    return options.streamingStoresMinBytes;
  int64_t l2 = options.l2CacheBytes > 0
                   ? int64_t(options.l2CacheBytes)
                   : conv::HostVectorInfo::detect().l2Bytes;
  return kStreamingStoresL2Multiple * l2;
}

void mlir::conv::buildConvToLinalgPipeline(
    OpPassManager &pm, const ConvCPUPipelineOptions &options) {
  ConvertConvToLinalgPassOptions convOptions;
  convOptions.zeroInsertionTranspose = options.zeroInsertionTranspose;
  convOptions.transposePerTap = options.transposePerTap;
  // Reduction blocks of a quarter of the last-level cache (the tiled,
  // vectorized kernels only; plain loops stay the unblocked oracle).
  if (options.optimize) {
    HostVectorInfo host = HostVectorInfo::detect();
    // A host's own L3 counts up to 32 MiB (the L3 of the Zen 4 hosts the
    // blocks were measured on): a virtual machine on a server socket
    // reports the whole socket's L3, shared by all its cores (300 MiB on
    // the Emerald Rapids VM, whose 75 MiB blocks left WaveNet's 1-D
    // 84350x32 k2 layer unblocked: 32 MiB measured +13-14 % with 1
    // thread, +0-8 % with 2; ResNet, DeepBench, dilated and 3-D U-Net
    // filter gradients within -2 / +2 %, conv-run --compare, 8-12 call
    // pairs).
    int64_t l3 = options.l3CacheBytes > 0
                     ? int64_t(options.l3CacheBytes)
                     : std::min<int64_t>(host.l3Bytes, kMaxHostL3Bytes);
    convOptions.dwReductionBlockBytes = l3 / 4;
    // Split-K (2 parts, a fixed count, so results do not depend on the
    // thread count) when the two partial dWs fit a quarter of the L2.
    int64_t l2 = options.l2CacheBytes > 0 ? int64_t(options.l2CacheBytes)
                                          : host.l2Bytes;
    convOptions.dwSplitMaxBytes = l2 / 4;
    // Multi-tap filter gradients too, when the two partial dWs fit the L2
    // (each thread's own L2 holds one; Lowering.md §2.3).
    convOptions.dwSplitTapsMaxBytes = l2;
    // Multi-tap filter gradients with a dW of at most one L2: blocks of
    // half the L2 (the taps then re-read each block from the L2, which also
    // holds the dW that every block re-reads and re-writes: with blocks of
    // a whole L2, a 3x3x128x128 layer's 576 KiB dW and its blocks did not
    // fit together). conv-run --compare, 1 thread, median speed ratio of
    // 30-40 alternating call pairs against whole-L2 blocks: ResNet's 7x7
    // stem +5 %, 3x3 layers +1-5 %, GoogLeNet's 5x5 192 -> 32 +9 %, dilated
    // 3x3 +5 %; with 2 threads -2 to +3 %.
    convOptions.dwSmallFilterBlockBytes = l2 / 2;
    // Those with wide 2-D rows: blocks of half the L1 (BackpropFilter.cpp,
    // kMinWideRowPositions).
    int64_t l1 =
        options.l1CacheBytes > 0 ? int64_t(options.l1CacheBytes) : host.l1Bytes;
    convOptions.dwWideRowBlockBytes = l1 / 2;
    // Taps not a multiple of the threads: split their output channels so
    // that every thread gets the same work.
    convOptions.dwThreads = resolveNumThreads(options.numThreads);
    // Single 1-D items of the columns lowering: one row part per thread.
    convOptions.transposeThreads = convOptions.dwThreads;
    // With AVX-512 the phases that multiply padding along their last
    // dimension run their register-tile rows along the batch (4-vector
    // tiles, conv-cpu-tile-and-vectorize), which batch blocks would cut
    // short.
    convOptions.transposeBatchRows = host.vectorBits >= 512;
    // The columns lowering pads its GEMM's columns to whole vectors of
    // these lanes.
    convOptions.transposeColumnsLanes = host.vectorBits / 32;
    // 1-D and 2-D transposed convolutions with few outputs per phase row as dot
    // products along the input channels (docs/Lowering.md §3.11).
    convOptions.transposeDotLanes = host.vectorBits / 32;
    // Batched columns lowerings whose Y item outgrows a quarter of the L2
    // run in bands of input rows that fit it (the band's Y, the output rows
    // its adds touch and the input rows share the L2).
    convOptions.transposeColumnsBandBytes = l2 / 4;
    convOptions.transposeWinograd = options.winograd;
    convOptions.dwWinograd = options.winograd;
    // Winograd filter gradients in reduction blocks whose transformed
    // operands stay in the L2 (docs/Lowering.md §2.7).
    convOptions.dwWinogradBlockBytes = l2 / 16;
    // F(3, 2) blocks whose point operands stay in the L1 (ResNet's
    // 56x56x64 3x3 layer +8-12 % on Ice Lake, 48 KiB L1).
    convOptions.dwWinogradL1BlockBytes = l1 * 3 / 4;
    // Cores with two 512-bit FMA units: Winograd filter gradients with at
    // least 64 channels each side and at most 0.55x the direct products.
    // Their direct kernels reach twice Zen 4's FLOPs a cycle, and the
    // transforms' traffic costs more against them. conv-run
    // --compare=winograd=off (10 call pairs, Emerald Rapids, 1 / 2
    // threads, before the reduction blocks): 56x56x64 0.74 / 0.98x
    // (Winograd slower), 28x28x128 1.07 / 1.14x, 14x14x256 1.38 / 1.36x,
    // 28x28x128 d2 1.02 / 1.08x, 38x57x512 d3 (0.52x the products) 1.24 /
    // 1.17x, 7x7x512 N16 (0.58x) 0.98 / 0.95x. In reduction blocks (the
    // Xeon model 167, 10-15 pairs): 56x56x64 1.21 / 1.17x, 28x28x64 1.33 /
    // 1.33x, 56x56x32 -> 64 1.07 / 1.02x, 56x56x32 0.90 / 0.85x, hence 64.
    // And transposed convolutions with 4 Winograd phases from 64 output
    // channels (DCGAN's 16x16x128 -> 32x32x64 4x4 s2, against the direct
    // phases: +23 / +24 % with 1 thread, +8 / +11 % with 2, 12 call pairs;
    // its first compile 196 -> 255 ms with 2 threads).
    if (host.twoZmmFMAUnits) {
      convOptions.dwWinogradMinChannels = 64;
      convOptions.dwWinogradMaxProducts = 0.55;
      convOptions.transposeWinogradManyPhaseOutChannels = 64;
    }
    // With AVX-512 a filter gradient's tap reduces a cut (dynamic) long row
    // a position a step at full speed, and its window then needs no
    // zero-padded copy (docs/Lowering.md §2.5).
    convOptions.dwCutLongRows = host.vectorBits >= 512;
    // Grouped layers' tap rows (docs/Lowering.md §2.8); auto: on the cores
    // with two 512-bit FMA units, whose lane shuffles issue on the second
    // FMA unit's port (where it was measured).
    if (options.dwTapRows == TapRows::On ||
        (options.dwTapRows == TapRows::Auto && host.twoZmmFMAUnits))
      convOptions.dwTapRowLanes = host.vectorBits / 32;
    // Depthwise tap planes (docs/Lowering.md §2.9).
    if (options.dwTapPlanes)
      convOptions.dwTapPlaneLanes = host.vectorBits / 32;
    // 16-bit ops as f32 ops between conversions (bf16 transposes stay
    // bf16 for vdpbf16ps).
    convOptions.widen16BitOperands = true;
    convOptions.bf16Dot = resolveBF16Dot(options);
    // The register tiles vectorize along the channels: run channels-first
    // ops in the channels-last layout, between relayouts.
    pm.addNestedPass<func::FuncOp>(createConvCPUChannelsLastPass());
  }
  pm.addNestedPass<func::FuncOp>(createConvertConvToLinalgPass(convOptions));
  pm.addPass(createCanonicalizer());
  pm.addPass(createCSEPass());
}

void mlir::conv::buildConvCPUCodegenPipeline(
    OpPassManager &pm, const ConvCPUPipelineOptions &options) {
  if (!options.optimize)
    return;
  ConvCPUTileAndVectorizePassOptions tileOptions;
  tileOptions.registerTileRows = options.registerTileRows;
  tileOptions.registerTileVectors = options.registerTileVectors;
  tileOptions.reductionChunk = options.reductionChunk;
  tileOptions.l1CacheBytes = options.l1CacheBytes;
  tileOptions.l2CacheBytes = options.l2CacheBytes;
  tileOptions.numThreads = options.numThreads;
  tileOptions.bf16Dot = resolveBF16Dot(options);
  tileOptions.directRows = options.directRows;
  // The rules measured on cores with two 512-bit FMA units (Intel Xeons;
  // conv-cpu-tile-and-vectorize's tileOne).
  tileOptions.twoZmmFMAUnits = HostVectorInfo::detect().twoZmmFMAUnits;
  OpPassManager &fpm = pm.nest<func::FuncOp>();
  fpm.addPass(createConvCPUTileAndVectorizePass(tileOptions));
  // Keeps the accumulator tiles in registers across the reduction loops.
  fpm.addPass(createLoopInvariantSubsetHoistingPass());
  // Their reads and writes then address the tile block itself, not slices
  // of it that bufferization could copy.
  fpm.addPass(createConvCPUFoldAccumulatorSlicesPass());
  fpm.addPass(createCanonicalizer());
  fpm.addPass(createCSEPass());
  // Last before bufferization (a canonicalization would fold the slabs'
  // slices of the tensor.empty into allocations of their own).
  fpm.addPass(createConvCPUDecomposePadsPass());
}

void mlir::conv::buildConvBufferizationPipeline(
    OpPassManager &pm, const ConvCPUPipelineOptions &) {
  bufferization::OneShotBufferizePassOptions bufferizeOptions;
  bufferizeOptions.bufferizeFunctionBoundaries = true;
  bufferizeOptions.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferizeOptions));
  // Fold the loop results that only forward their (in-place) init buffer,
  // so that a returned result is visibly the function's allocation and
  // becomes the out-param itself rather than being copied into it.
  pm.addPass(createCanonicalizer());
  // A result returned through a reshape of its allocation (a flattened
  // view) is allocated in the returned shape, so that it too becomes the
  // out-param.
  pm.addNestedPass<func::FuncOp>(createConvReturnReshapedAllocsPass());
  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.hoistStaticAllocs = true;
  outParams.modifyPublicFunctions = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  bufferization::buildBufferDeallocationPipeline(pm);
  // CSE merges the identical subviews bufferization creates for a tile's
  // extract_slice / insert_slice pair, so that the canonicalizer can erase
  // the resulting self-copies (each would be a memrefCopy call per tile).
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizer());
}

void mlir::conv::buildConvLowerToLLVMPipeline(
    OpPassManager &pm, const ConvCPUPipelineOptions &options) {
  if (options.optimize) {
    ConvCPULowerVectorsPassOptions vectorOptions;
    vectorOptions.bf16Dot = resolveBF16Dot(options);
    vectorOptions.prefetch = options.prefetch;
    pm.addNestedPass<func::FuncOp>(
        createConvCPULowerVectorsPass(vectorOptions));
    if (options.streamingStores) {
      ConvCPUStreamingStoresPassOptions streamOptions;
      streamOptions.minBytes = streamingStoresMinBytes(options);
      pm.addNestedPass<func::FuncOp>(
          createConvCPUStreamingStoresPass(streamOptions));
    }
    ConvCPUExpandStridedCopiesPassOptions copyOptions;
    copyOptions.numThreads = options.numThreads;
    pm.addNestedPass<func::FuncOp>(
        createConvCPUExpandStridedCopiesPass(copyOptions));
  }
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  if (options.numThreads == 1) {
    pm.addPass(createForallToForLoopPass());
  } else {
    // Threads: the scf.forall loops (filter taps, batch items, channel
    // blocks) become OpenMP worksharing loops.
    pm.addPass(createForallToParallelLoopPass());
    ConvertSCFToOpenMPPassOptions ompOptions;
    ompOptions.numThreads = options.numThreads;
    pm.addPass(createConvertSCFToOpenMPPass(ompOptions));
    // Each thread runs its share of a worksharing loop found from its
    // thread number, without the runtime's loop scheduling calls.
    pm.addPass(createConvOmpThreadLoopsPass());
  }
  VectorTransferToSCFOptions vectorToSCF;
  vectorToSCF.enableFullUnroll();
  pm.addPass(createConvertVectorToSCFPass(vectorToSCF));
  pm.addPass(createCanonicalizer());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  // LLVM's loop unroller: only the loops conv-cpu-tile-and-vectorize marks.
  pm.addNestedPass<func::FuncOp>(createConvCPUAnnotateLoopUnrollingPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvLLVMLoopAnnotationsPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertMathToLLVMPass());
  ConvertVectorToLLVMPassOptions vectorToLLVM;
  // x86vector.avx512.dot (bf16-dot) to its LLVM intrinsic.
  vectorToLLVM.x86Vector = options.optimize && resolveBF16Dot(options);
  pm.addPass(createConvertVectorToLLVMPass(vectorToLLVM));
  // memref, OpenMP, ub, index and func in one conversion (five upstream
  // passes' patterns; docs/Pipelines.md).
  ConvFinishLLVMLoweringPassOptions finish;
  finish.useGenericFunctions = options.genericAllocFunctions;
  pm.addPass(createConvFinishLLVMLoweringPass(finish));
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizer());
}

void mlir::conv::buildConvCPUPipeline(OpPassManager &pm,
                                      const ConvCPUPipelineOptions &options) {
  buildConvToLinalgPipeline(pm, options);
  buildConvCPUCodegenPipeline(pm, options);
  buildConvBufferizationPipeline(pm, options);
  buildConvLowerToLLVMPipeline(pm, options);
}

void mlir::conv::registerConvPipelines() {
  PassPipelineRegistration<ConvCPUPipelineOptions>(
      "conv-lower-to-llvm-cpu",
      "Lower conv ops through linalg, bufferization and loops to the LLVM "
      "dialect for the host CPU",
      buildConvCPUPipeline);
}
