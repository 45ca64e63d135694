// RUN: conv-opt %s --convert-conv-to-linalg="dw-reduction-block-bytes=30000" --split-input-file --mlir-print-local-scope | FileCheck %s
// RUN: conv-opt %s --convert-conv-to-linalg --split-input-file | FileCheck %s --check-prefix=NOBLOCK

// Reduction blocks: when the input window and out_backprop exceed the block
// budget (30000 B here), the taps run over one block of the reduction at a
// time, accumulating into dW.

// 11 batch items of (10x10x8 + 8x8x16) x 4 B = 7296 B: 4 per block, and
// no block size in [2, 4] divides 11, so blocks of 4 in an scf.for over
// the first 8 items and a remainder block of 3; each block has the
// scf.forall over the 3x3 taps.
// CHECK-LABEL: func.func @batch_blocks
// CHECK:         %[[PAD:.*]] = tensor.pad
// CHECK:         %[[LOOP:.*]] = scf.for %[[B:.*]] = %c0 to %c8 step %c4 iter_args(%[[ACC:.*]] = %{{.*}})
// CHECK-DAG:       tensor.extract_slice %[[PAD]][%[[B]], 0, 0, 0] [4, 10, 10, 8] [1, 1, 1, 1]
// CHECK-DAG:       tensor.extract_slice %{{.*}}[%[[B]], 0, 0, 0] [4, 8, 8, 16] [1, 1, 1, 1]
// CHECK:           scf.forall (%{{.*}}, %{{.*}}) in (3, 3) shared_outs(%{{.*}} = %[[ACC]])
// CHECK:             linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x?x?x8xf32>, tensor<4x?x?x16xf32>)
// CHECK-DAG:     tensor.extract_slice %[[PAD]][8, 0, 0, 0] [3, 10, 10, 8] [1, 1, 1, 1]
// CHECK-DAG:     tensor.extract_slice %{{.*}}[8, 0, 0, 0] [3, 8, 8, 16] [1, 1, 1, 1]
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (3, 3) shared_outs(%{{.*}} = %[[LOOP]])
// CHECK:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<3x?x?x8xf32>, tensor<3x?x?x16xf32>)
// NOBLOCK-LABEL: func.func @batch_blocks
// NOBLOCK-NOT:     scf.for
// NOBLOCK:         scf.forall (%{{.*}}, %{{.*}}) in (3, 3)
// NOBLOCK:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<11x?x?x8xf32>, tensor<11x?x?x16xf32>)
func.func @batch_blocks(%x: tensor<11x8x8x8xf32>, %dy: tensor<11x8x8x16xf32>) -> tensor<3x3x8x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<11x8x8x8xf32>, tensor<11x8x8x16xf32> -> tensor<3x3x8x16xf32>
  return %dw : tensor<3x3x8x16xf32>
}

// -----

// One item larger than the budget (a 1-D layer, stride 2, dilation 2,
// 300 outputs, window (300 - 1) x 2 + 5 = 603 rows): row blocks. Per output
// row 2 x 16 x 4 + 32 x 4 = 256 B, 117 rows per block; the largest divisor
// of 300 in [59, 117] is 100: 3 blocks of 100 output rows, each reading
// (100 - 1) x 2 + 5 = 203 window rows from 2 x o.
// CHECK-LABEL: func.func @row_blocks
// CHECK:         scf.for %[[O:.*]] = %c0 to %c300 step %c100 iter_args(%[[ACC:.*]] = %{{.*}})
// CHECK-DAG:       %[[W:.*]] = arith.muli %[[O]], %c2
// CHECK-DAG:       tensor.extract_slice %{{.*}}[0, %[[O]], 0] [1, 100, 32] [1, 1, 1]
// CHECK-DAG:       tensor.extract_slice %{{.*}}[0, %[[W]], 0] [1, 203, 16] [1, 1, 1]
// CHECK:           scf.forall (%{{.*}}) in (3) shared_outs(%{{.*}} = %[[ACC]])
// CHECK:             tensor.extract_slice %{{.*}} [1, 100, 16] [1, 2, 1]
// CHECK:             linalg.generic
// CHECK-NOT:     scf.forall (
// CHECK:         return
func.func @row_blocks(%x: tensor<1x603x16xf32>, %dy: tensor<1x300x32xf32>) -> tensor<3x16x32xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NWC padding = VALID strides = [2] dilations = [2] : tensor<1x603x16xf32>, tensor<1x300x32xf32> -> tensor<3x16x32xf32>
  return %dw : tensor<3x16x32xf32>
}

// -----

// Items of (15x15x8 + 13x13x16) x 4 B = 18016 B: one fits, two do not;
// blocks of one item.
// CHECK-LABEL: func.func @item_blocks
// CHECK:         scf.for %{{.*}} = %c0 to %c2 step %c1
// CHECK:           scf.forall (%{{.*}}, %{{.*}}) in (3, 3)
// CHECK:             linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x?x?x8xf32>, tensor<1x?x?x16xf32>)
func.func @item_blocks(%x: tensor<2x13x13x8xf32>, %dy: tensor<2x13x13x16xf32>) -> tensor<3x3x8x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<2x13x13x8xf32>, tensor<2x13x13x16xf32> -> tensor<3x3x8x16xf32>
  return %dw : tensor<3x3x8x16xf32>
}

// -----

// One item of (27x27x8 + 25x25x16) x 4 B = 63328 B: row blocks of
// 30000 / (27 x 8 x 4 + 25 x 16 x 4) = 12 rows, no divisor of 25 in
// [6, 12]: 2 blocks of 12 output rows (14 window rows) in an scf.for and a
// remainder of 1 row (3 window rows).
// CHECK-LABEL: func.func @row_remainder
// CHECK:         %[[LOOP:.*]] = scf.for %[[O:.*]] = %c0 to %c24 step %c12
// CHECK-DAG:       tensor.extract_slice %{{.*}}[0, %[[O]], 0, 0] [1, 12, 25, 16] [1, 1, 1, 1]
// CHECK-DAG:       tensor.extract_slice %{{.*}}[0, %[[O]], 0, 0] [1, 14, 27, 8] [1, 1, 1, 1]
// CHECK:           scf.forall (%{{.*}}, %{{.*}}) in (3, 3)
// The padding rows of the row blocks are not cut here: the last block's
// one output row (24) reads only padding with the last tap (input row 25),
// which would leave that tap an empty contraction. Nor are the padding
// columns of rows longer than 16.
// CHECK:             linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x12x25x8xf32>, tensor<1x12x25x16xf32>)
// CHECK-DAG:     tensor.extract_slice %{{.*}}[0, 24, 0, 0] [1, 1, 25, 16] [1, 1, 1, 1]
// CHECK-DAG:     tensor.extract_slice %{{.*}}[0, 24, 0, 0] [1, 3, 27, 8] [1, 1, 1, 1]
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (3, 3) shared_outs(%{{.*}} = %[[LOOP]])
func.func @row_remainder(%x: tensor<1x25x25x8xf32>, %dy: tensor<1x25x25x16xf32>) -> tensor<3x3x8x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<1x25x25x8xf32>, tensor<1x25x25x16xf32> -> tensor<3x3x8x16xf32>
  return %dw : tensor<3x3x8x16xf32>
}

// -----

// Row blocks in which every tap reads input rows: 30000 / (30 x 8 x 4 +
// 28 x 16 x 4) = 10 rows, 4 blocks of 7 (a divisor of 28). In the block
// that starts at output row O, tap kh (`SAME`: one padding row on each
// side) reads input at the block's rows [max(0, 1 - kh - O), min(7, 29 -
// kh - O)): the first block's first row with tap 0 and the last block's
// last row with tap 2 are cut (dynamic sizes of at most 7 rows), the
// padding columns are not (28 > 16).
// CHECK-LABEL: func.func @row_blocks_cut
// CHECK:         scf.for %[[O:.*]] = %c0 to %c28 step %c7
// CHECK:           scf.forall (%[[KH:.*]], %{{.*}}) in (3, 3)
// CHECK:             %[[LO0:.*]] = affine.max affine_map<(d0, d1) -> (0, -d0 - d1 + 1)>(%[[KH]], %[[O]])
// CHECK:             %[[LO:.*]] = affine.min affine_map<(d0) -> (7, d0)>(%[[LO0]])
// CHECK:             %[[HI:.*]] = affine.min affine_map<(d0, d1) -> (7, -d0 - d1 + 29)>(%[[KH]], %[[O]])
// CHECK:             %[[SIZE0:.*]] = affine.max affine_map<(d0, d1) -> (0, d0 - d1)>(%[[HI]], %[[LO]])
// CHECK:             %[[SIZE:.*]] = affine.min affine_map<(d0) -> (7, d0)>(%[[SIZE0]])
// CHECK:             tensor.extract_slice %{{.*}}[0, %[[LO]], 0, 0] [1, %[[SIZE]], 28, 8] [1, 1, 1, 1] : tensor<1x7x28x8xf32> to tensor<1x?x28x8xf32>
// CHECK:             tensor.extract_slice %{{.*}}[0, %[[LO]], 0, 0] [1, %[[SIZE]], 28, 16] [1, 1, 1, 1] : tensor<1x7x28x16xf32> to tensor<1x?x28x16xf32>
// CHECK:             linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x?x28x8xf32>, tensor<1x?x28x16xf32>)
func.func @row_blocks_cut(%x: tensor<1x28x28x8xf32>, %dy: tensor<1x28x28x16xf32>) -> tensor<3x3x8x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<1x28x28x8xf32>, tensor<1x28x28x16xf32> -> tensor<3x3x8x16xf32>
  return %dw : tensor<3x3x8x16xf32>
}

// -----

// Blocks of one row (30000 / (202 x 8 x 4 + 200 x 16 x 4) = 1), in a loop
// of 6: tap 0 reads only padding in the first block and tap 2 in the last,
// so their contractions there run over 0 rows, a dynamic size (at most 1)
// that the block loop's induction variable leaves unknown to the code
// generator; the other blocks' taps keep their row.
// CHECK-LABEL: func.func @row_blocks_cut_border
// CHECK:         scf.for %[[O:.*]] = %c0 to %c6 step %c1
// CHECK:           scf.forall (%[[KH:.*]], %{{.*}}) in (3, 3)
// CHECK:             %[[LO0:.*]] = affine.max affine_map<(d0, d1) -> (0, -d0 - d1 + 1)>(%[[KH]], %[[O]])
// CHECK:             %[[LO:.*]] = affine.min affine_map<(d0) -> (1, d0)>(%[[LO0]])
// CHECK:             %[[HI:.*]] = affine.min affine_map<(d0, d1) -> (1, -d0 - d1 + 7)>(%[[KH]], %[[O]])
// CHECK:             %[[SIZE0:.*]] = affine.max affine_map<(d0, d1) -> (0, d0 - d1)>(%[[HI]], %[[LO]])
// CHECK:             %[[SIZE:.*]] = affine.min affine_map<(d0) -> (1, d0)>(%[[SIZE0]])
// CHECK:             tensor.extract_slice %{{.*}}[0, %[[LO]], 0, 0] [1, %[[SIZE]], 200, 8] [1, 1, 1, 1] : tensor<1x1x200x8xf32> to tensor<1x?x200x8xf32>
// CHECK:             tensor.extract_slice %{{.*}}[0, %[[LO]], 0, 0] [1, %[[SIZE]], 200, 16] [1, 1, 1, 1] : tensor<1x1x200x16xf32> to tensor<1x?x200x16xf32>
// CHECK:             linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x?x200x8xf32>, tensor<1x?x200x16xf32>)
func.func @row_blocks_cut_border(%x: tensor<1x6x200x8xf32>, %dy: tensor<1x6x200x16xf32>) -> tensor<3x3x8x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<1x6x200x8xf32>, tensor<1x6x200x16xf32> -> tensor<3x3x8x16xf32>
  return %dw : tensor<3x3x8x16xf32>
}

// -----

// A 3-D layer whose one depth row (window 26x22x8 + out_backprop 24x20x16,
// x 4 B = 49024 B) exceeds the budget: blocks of rows of the second
// dimension, 30000 / (3 x 22 x 8 x 4 + 20 x 16 x 4) = 8 rows (the window has
// the tap's 3 depth rows), 3 of them, each over every depth row in turn
// (the next depth row re-reads 2 of the block's 3 window depth rows). Both
// block loops cut the taps' padding rows: the depth rows to the tap's 0 or
// 1 rows of the block, the rows to at most 8; not the 20 columns (> 16).
// CHECK-LABEL: func.func @nested_row_blocks
// CHECK:         scf.for %[[H:.*]] = %c0 to %c24 step %c8
// CHECK:           tensor.extract_slice %{{.*}}[0, 0, %[[H]], 0, 0] [1, 4, 8, 20, 16] [1, 1, 1, 1, 1]
// CHECK:           tensor.extract_slice %{{.*}}[0, 0, %[[H]], 0, 0] [1, 6, 10, 22, 8] [1, 1, 1, 1, 1]
// CHECK:           scf.for %[[D:.*]] = %{{.*}} to %c4 step %c1
// CHECK:             tensor.extract_slice %{{.*}}[0, %[[D]], 0, 0, 0] [1, 1, 8, 20, 16] [1, 1, 1, 1, 1]
// CHECK:             tensor.extract_slice %{{.*}}[0, %[[D]], 0, 0, 0] [1, 3, 10, 22, 8] [1, 1, 1, 1, 1]
// CHECK:             scf.forall (%[[KD:.*]], %[[KH:.*]], %{{.*}}) in (3, 3, 3)
// CHECK:               affine.max affine_map<(d0, d1) -> (0, -d0 - d1 + 1)>(%[[KD]], %[[D]])
// CHECK:               affine.min affine_map<(d0, d1) -> (1, -d0 - d1 + 5)>(%[[KD]], %[[D]])
// CHECK:               affine.max affine_map<(d0, d1) -> (0, -d0 - d1 + 1)>(%[[KH]], %[[H]])
// CHECK:               affine.min affine_map<(d0, d1) -> (8, -d0 - d1 + 25)>(%[[KH]], %[[H]])
// CHECK:               linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x?x?x20x8xf32>, tensor<1x?x?x20x16xf32>)
func.func @nested_row_blocks(%x: tensor<1x4x24x20x8xf32>, %dy: tensor<1x4x24x20x16xf32>) -> tensor<3x3x3x8x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NDHWC padding = SAME strides = [1, 1, 1] dilations = [1, 1, 1] : tensor<1x4x24x20x8xf32>, tensor<1x4x24x20x16xf32> -> tensor<3x3x3x8x16xf32>
  return %dw : tensor<3x3x3x8x16xf32>
}
