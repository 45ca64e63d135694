// RUN: conv-opt %s --convert-conv-to-linalg="dw-tap-row-lanes=16 dw-split-taps-max-bytes=2097152" --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=512 num-vector-registers=32 l1-cache-bytes=49152 l2-cache-bytes=2097152 num-threads=1" --mlir-print-local-scope | FileCheck %s

// Dense tap rows (docs/Codegen.md, "Tap rows"): GoogLeNet's 5x5
// 28x28x192 -> 32, in split-K parts
// (backprop-filter-dense-tap-rows.mlir pins the contraction).

// The register tiles: 4 input channels x 5 taps x 16 output channels, the
// blocks outermost, the 5 taps' [4, 16] accumulators carried by the loops
// over the rows and positions, the taps unrolled in the positions loop,
// which LLVM unrolls 8 times.
// CHECK-LABEL: func.func @dense_5x5
// CHECK:         scf.for %{{.*}} = %c0 to %c192 step %c4
// CHECK:           scf.for %{{.*}} = %c0 to %c32 step %c16
// CHECK:             scf.for {{.*}} -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>)
// CHECK:               scf.for %{{.*}} = %c0 to %c24 step %c1
// CHECK-COUNT-5:         vector.transfer_write
// CHECK:               } {conv.prefetch_ahead = 16 : i64, llvm.loop_annotation = #llvm.loop_annotation<unroll = <count = 8 : i32>>}
func.func @dense_5x5(%x: tensor<16x28x28x192xf32>, %dy: tensor<16x28x28x32xf32>) -> tensor<5x5x192x32xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = EXPLICIT explicit_paddings = [2, 2, 2, 2]
          strides = [1, 1] dilations = [1, 1]
          : tensor<16x28x28x192xf32>, tensor<16x28x28x32xf32> -> tensor<5x5x192x32xf32>
  return %dw : tensor<5x5x192x32xf32>
}
