// RUN: conv-opt %s --convert-conv-to-linalg="dw-tap-row-lanes=16" --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=512 num-vector-registers=32 l1-cache-bytes=49152 l2-cache-bytes=2097152 num-threads=1" --mlir-print-local-scope --split-input-file | FileCheck %s

// Tap rows (docs/Lowering.md §2.8, kRoleDwTapRow), 16 groups of 4 -> 4,
// 3x3 SAME on a 6x20 image: a register tile holds the 3 taps x 4 input
// channels of 8 groups (two 16-lane vectors each: 24 accumulators, the
// most vectors within kMaxTapRowAccumulators). Its group blocks (step 8 of
// 16) run inside the loop over the rows, and it
// steps one window position at a time over the 18 that all taps read, the
// taps unrolled: each step reads the window at q (the same row for every
// tap) and out_backprop at q, q + 1 and q + 2, into the tap's accumulators
// (the tile's tap dimension is reversed: out_backprop row q + k' for k').
// The position loop carries the three accumulator tiles and is marked for
// the prefetch of its rows 16 positions ahead.
// CHECK-LABEL: func.func @resnext_rows
// CHECK:         scf.forall (%{{.*}}) in (3)
// CHECK:           scf.for %{{.*}} = %c0 to %{{.*}} step %c1
// CHECK:             scf.for %[[G:.*]] = %c0 to %c16 step %c8
// CHECK:               scf.for %[[Q:.*]] = %c0 to %c18 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (tensor<3x4x8x4xf32>)
// CHECK:                 vector.transfer_read %[[X:.*]][%c0, %{{.*}}, %[[Q]], %[[G]], %c0], %{{.*}} {in_bounds = [true, true]} : tensor<1x?x18x16x4xf32>, vector<8x4xf32>
// CHECK:                 vector.transfer_read %[[DY:.*]][%c0, %{{.*}}, %[[Q]], %[[G]], %c0], %{{.*}} {in_bounds = [true, true]} : tensor<1x?x20x16x4xf32>, vector<8x4xf32>
// CHECK:                 vector.transfer_read %{{.*}}[%c0, %c0, %c0, %c0]
// CHECK:                 vector.transfer_read %[[X]][%c0, %{{.*}}, %[[Q]], %[[G]], %c0]
// CHECK:                 %[[Q1:.*]] = affine.apply affine_map<(d0) -> (d0 + 1)>(%[[Q]])
// CHECK:                 vector.transfer_read %[[DY]][%c0, %{{.*}}, %[[Q1]], %[[G]], %c0]
// CHECK:                 vector.transfer_read %{{.*}}[%c1, %c0, %c0, %c0]
// CHECK:                 vector.transfer_read %[[X]][%c0, %{{.*}}, %[[Q]], %[[G]], %c0]
// CHECK:                 %[[Q2:.*]] = affine.apply affine_map<(d0) -> (d0 + 2)>(%[[Q]])
// CHECK:                 vector.transfer_read %[[DY]][%c0, %{{.*}}, %[[Q2]], %[[G]], %c0]
// CHECK:                 vector.transfer_read %{{.*}}[%c2, %c0, %c0, %c0]
// CHECK-NOT:             vector.transfer_read
// CHECK:               } {conv.prefetch_ahead = 16 : i64}
// CHECK-NOT:     conv.unroll_taps_dim
// CHECK:         return
func.func @resnext_rows(%x: tensor<1x6x20x64xf32>, %dy: tensor<1x6x20x64xf32>) -> tensor<3x3x4x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<1x6x20x64xf32>, tensor<1x6x20x64xf32> -> tensor<3x3x4x64xf32>
  return %dw : tensor<3x3x4x64xf32>
}

// -----

// 32 groups of 2 -> 2, 3 taps: 6 accumulator rows, so 4 vectors of 8 groups
// (24 accumulators): all 32 groups in one tile, no group-block loop.
// CHECK-LABEL: func.func @pairs_rows
// CHECK:         scf.forall (%{{.*}}) in (3)
// CHECK-NOT:       step %c8
// CHECK:           scf.for %[[Q:.*]] = %c0 to %c18 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (tensor<3x2x32x2xf32>)
// CHECK:             vector.transfer_read %{{.*}}[%c0, %{{.*}}, %[[Q]], %c0, %c0], %{{.*}} {in_bounds = [true, true]} : tensor<1x?x18x32x2xf32>, vector<32x2xf32>
// CHECK:           } {conv.prefetch_ahead = 16 : i64}
// CHECK:         return
func.func @pairs_rows(%x: tensor<1x6x20x64xf32>, %dy: tensor<1x6x20x64xf32>) -> tensor<3x3x2x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<1x6x20x64xf32>, tensor<1x6x20x64xf32> -> tensor<3x3x2x64xf32>
  return %dw : tensor<3x3x2x64xf32>
}
