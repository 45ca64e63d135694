// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=512 num-vector-registers=32 l1-cache-bytes=49152 l2-cache-bytes=2097152 num-threads=1" --mlir-print-local-scope --split-input-file | FileCheck %s
// RUN: conv-opt %s --convert-conv-to-linalg="dw-threads=2" --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=512 num-vector-registers=32 l1-cache-bytes=49152 l2-cache-bytes=2097152 num-threads=2" --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=THREADS
// RUN: conv-opt %s --convert-conv-to-linalg="dw-split-max-bytes=524288 dw-split-taps-max-bytes=2097152 dw-cut-long-rows=true dw-small-filter-block-bytes=1048576 dw-wide-row-block-bytes=24576" --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=512 num-vector-registers=32 l1-cache-bytes=49152 l2-cache-bytes=2097152 num-threads=1" --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=SPLIT

// Zero-started filter gradients (docs/Codegen.md, "Zero-started filter
// gradients"): the lowering fills the whole dW with zeros and lets each
// tap's contraction accumulate into its slice. The tiling gives each
// contraction its own zero fill instead (sinkZeroFills), drops the whole
// fill (every element of it is overwritten: the taps' forall writes all of
// the dW), and starts the register tiles of each contraction's first
// reduction block from zero in registers (zeroStartFirstBlocks): a 3x3
// 512 -> 512 layer no longer writes its 9 MiB dW with zeros and reads it
// back.

// 3x3, 256 -> 256 channels on 7x7 images, batch 8: each tap's blocks are 4
// whole images (2 blocks). The first block's tiles start from zero: their
// accumulators are a zero vector written to the tile (which the hoisted
// accumulator read folds to); the second block's tiles read what the
// first stored. (Each full tile of 6 ci first copies its row panel, the
// input rows being 1 KiB apart: tile-and-vectorize-dw-row-panels.mlir.)
// CHECK-LABEL: func.func @taps_image_blocks
// CHECK:         %[[EMPTY:.+]] = tensor.empty() : tensor<3x3x256x256xf32>
// CHECK-NOT:     linalg.fill
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (3, 3) shared_outs(%{{.*}} = %[[EMPTY]])
// CHECK:           scf.for %{{.*}} = %c0 to %c252 step %c6
// CHECK:               vector.transfer_read {{.*}} : tensor<8x9x9x256xf32>, vector<6xf32>
// CHECK:             scf.for %{{.*}} = %c0 to %c256 step %c64
// CHECK:               vector.transfer_write %cst{{.*}} : vector<6x64xf32>, tensor<6x64xf32>
// CHECK-NEXT:          scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK:             scf.for %{{.*}} = %c0 to %c256 step %c64
// CHECK:               vector.transfer_write %cst{{.*}} : vector<4x64xf32>, tensor<4x64xf32>
// CHECK:           scf.for %{{.*}} = %c0 to %c252 step %c6
// CHECK:               vector.transfer_read {{.*}} : tensor<8x9x9x256xf32>, vector<6xf32>
// CHECK:             scf.for %{{.*}} = %c0 to %c256 step %c64
// CHECK-NEXT:          scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK-NOT:       vector.transfer_write %cst
// CHECK:           scf.forall.in_parallel
// CHECK-NOT:     linalg.fill
// CHECK:         return
// With 2 threads each tap's output channels split in two (dw-threads): the
// fill follows into each thread's half, then into its first block.
// THREADS-LABEL: func.func @taps_image_blocks
// THREADS-NOT:     linalg.fill
// THREADS:         scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (3, 3, 2)
// THREADS:           vector.transfer_write %cst{{.*}} : vector<6x64xf32>, tensor<6x64xf32>
// THREADS-NOT:     linalg.fill
// THREADS:         return
func.func @taps_image_blocks(%x: tensor<8x7x7x256xf32>, %dy: tensor<8x7x7x256xf32>) -> tensor<3x3x256x256xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<8x7x7x256xf32>, tensor<8x7x7x256xf32> -> tensor<3x3x256x256xf32>
  return %dw : tensor<3x3x256x256xf32>
}

// -----

// ResNet's 56x56x64 3x3 layer. Lowered in split-K parts (SPLIT lines, the
// CPU pipeline's options): every tap accumulates over the image rows in a
// loop, from what the previous row left, not from a known zero, so it
// gets no fill of its own, and the zero fill of the parts stays whole
// (its values are read).
// SPLIT-LABEL: func.func @split_k_parts
// SPLIT:         linalg.fill {{.*}} -> tensor<2x3x3x64x64xf32>
// SPLIT:         scf.forall (%{{.*}}) in (2)
// SPLIT-NOT:       vector.transfer_write %cst
// SPLIT:         return
// Without the parts, each tap's contraction starts from its own zero fill
// and the whole fill of the dW goes; its block loop over the tap's cut
// rows has a dynamic trip count (scf::peelForLoopFirstIteration would take
// a whole step for the first block), so the tap's fill stays, inside the
// forall, on the tap's own slice.
// CHECK-LABEL: func.func @split_k_parts
// CHECK:         %[[EMPTY:.+]] = tensor.empty() : tensor<3x3x64x64xf32>
// CHECK-NOT:     linalg.fill {{.*}} -> tensor<3x3x64x64xf32>
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (3, 3) shared_outs(%{{.*}} = %[[EMPTY]])
// CHECK:           linalg.fill {{.*}} outs(%{{.*}} : tensor<64x64xf32>) -> tensor<64x64xf32>
// CHECK-NOT:       vector.transfer_write %cst
// CHECK:         return
func.func @split_k_parts(%x: tensor<8x56x56x64xf32>, %dy: tensor<8x56x56x64xf32>) -> tensor<3x3x64x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = EXPLICIT explicit_paddings = [1, 1, 1, 1] strides = [1, 1] dilations = [1, 1] : tensor<8x56x56x64xf32>, tensor<8x56x56x64xf32> -> tensor<3x3x64x64xf32>
  return %dw : tensor<3x3x64x64xf32>
}

// -----

// A 1x1 layer whose 64-position rows are each cut into reduction blocks (4
// images of 2 rows): the tiles of the first image's first block start from
// zero, then the rest of that row, that image's other row and the other 3
// images follow. (Each level of reduction blocks that the first block is
// peeled from is another copy of the register tiles.)
// CHECK-LABEL: func.func @row_blocks
// CHECK-NOT:     linalg.fill
// CHECK:         vector.transfer_write %cst{{.*}} : vector<6x64xf32>, tensor<6x64xf32>
// CHECK:         vector.contract
// CHECK:         scf.for %{{.*}} = %c1 to %c4 step %c1
// CHECK-NOT:       vector.transfer_write %cst
// CHECK:           vector.contract
// CHECK-NOT:     linalg.fill
// CHECK:         return
func.func @row_blocks(%x: tensor<4x2x64x192xf32>, %dy: tensor<4x2x64x64xf32>) -> tensor<1x1x192x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<4x2x64x192xf32>, tensor<4x2x64x64xf32> -> tensor<1x1x192x64xf32>
  return %dw : tensor<1x1x192x64xf32>
}
