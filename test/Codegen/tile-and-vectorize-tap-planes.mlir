// RUN: conv-opt %s --convert-conv-to-linalg="dw-tap-plane-lanes=16" --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=512 num-vector-registers=32 l1-cache-bytes=49152 l2-cache-bytes=2097152 num-threads=1" --mlir-print-local-scope --split-input-file | FileCheck %s

// Depthwise tap planes (docs/Lowering.md §2.9, kRoleDwDepthwisePlane), 3x3
// SAME over 10x12 with 64 channels: a register tile holds the 9 taps of 2
// vectors of channels (18 accumulators, within kMaxTapRowAccumulators).
// Over the interior (output rows [1, 9), columns [1, 11)) its channel
// blocks (step 32 of 64) run inside the loop over the rows, and it steps
// one output position at a time, the 9 taps unrolled: each reads
// out_backprop at (p, q) (one load once CSE'd) and the input window at
// (p + k0, q + k1), into the tap's accumulator. The position loop is marked
// for the prefetch of its rows 16 positions ahead.
// CHECK-LABEL: func.func @dw_plane
// CHECK:         scf.for %[[P:.*]] = %c0 to %c8 step %c1
// CHECK:           scf.for %[[C:.*]] = %c0 to %c64 step %c32
// CHECK:             scf.for %[[Q:.*]] = %c0 to %c10 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (tensor<3x3x32xf32>)
// CHECK:               %[[P1:.*]] = affine.apply affine_map<()[s0] -> (s0 + 1)>()[%[[P]]]
// CHECK:               %[[Q1:.*]] = affine.apply affine_map<()[s0] -> (s0 + 1)>()[%[[Q]]]
// CHECK:               vector.transfer_read %{{.*}}[%c0, %[[P1]], %[[Q1]], %[[C]]], %{{.*}} {in_bounds = [true]} : tensor<1x12x14x64xf32>, vector<32xf32>
// CHECK:               vector.transfer_read %arg1[%c0, %{{.*}}, %{{.*}}, %[[C]]], %{{.*}} {in_bounds = [true]} : tensor<1x10x12x64xf32>, vector<32xf32>
// CHECK:               vector.transfer_read %{{.*}}[%c0, %c0, %c0], %{{.*}} {in_bounds = [true]} : tensor<3x3x32xf32>, vector<32xf32>
// CHECK:               arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : vector<32xf32>
// CHECK:               %[[Q2:.*]] = affine.apply affine_map<(d0) -> (d0 + 2)>(%[[Q]])
// CHECK:               vector.transfer_read %{{.*}}[%c0, %{{.*}}, %[[Q2]], %[[C]]], %{{.*}} {in_bounds = [true]} : tensor<1x12x14x64xf32>, vector<32xf32>
// CHECK:               vector.transfer_read %{{.*}}[%c0, %c1, %c0]
// CHECK-COUNT-7:       vector.transfer_read %{{.*}}[%c{{[012]}}, %c{{[012]}}, %c0], %{{.*}} {in_bounds = [true]} : tensor<3x3x32xf32>, vector<32xf32>
// CHECK:             } {conv.prefetch_ahead = 16 : i64}
// The top strip (conv.plane_strip: output row 0, its input rows in a zero
// border) runs its taps one after the other, each over the row's 12
// positions (its accumulator, indexed by the tap loops, is loop-invariant
// there and hoisted by the subset hoisting after this pass).
// CHECK:         tensor.pad %{{.*}} low[0, 1, 1, 0] high[0, 0, 1, 0]
// CHECK:         scf.for %{{.*}} = %c0 to %c64 step %c32
// CHECK:           scf.for %[[K0:.*]] = %c0 to %c3 step %c1
// CHECK:             scf.for %[[K1:.*]] = %c0 to %c3 step %c1
// CHECK:               scf.for %{{.*}} = %c0 to %c12 step %c1
// CHECK:                 vector.transfer_read %{{.*}}[%[[K0]], %[[K1]], %c0]
// CHECK-NOT:     conv.unroll_taps_dims
// CHECK-NOT:     conv.plane_strip
// CHECK:         return
func.func @dw_plane(%x: tensor<1x10x12x64xf32>, %dy: tensor<1x10x12x64xf32>) -> tensor<3x3x1x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<1x10x12x64xf32>, tensor<1x10x12x64xf32> -> tensor<3x3x1x64xf32>
  return %dw : tensor<3x3x1x64xf32>
}

// -----

// 4x4 taps SAME (padding 1 before, 2 after: interior rows and columns
// [2, 15)), 16 accumulators: one vector of channels a tile.
// CHECK-LABEL: func.func @dw_plane_4x4
// CHECK:         scf.for %{{.*}} = %c0 to %c13 step %c1
// CHECK:         scf.for %{{.*}} = %c0 to %c48 step %c16
// CHECK:           scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<4x4x16xf32>)
// CHECK-COUNT-16:    arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : vector<16xf32>
// CHECK:           } {conv.prefetch_ahead = 16 : i64}
func.func @dw_plane_4x4(%x: tensor<1x16x16x48xf32>, %dy: tensor<1x16x16x48xf32>) -> tensor<4x4x1x48xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<1x16x16x48xf32>, tensor<1x16x16x48xf32> -> tensor<4x4x1x48xf32>
  return %dw : tensor<4x4x1x48xf32>
}
