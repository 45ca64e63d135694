// RUN: conv-opt %s --convert-conv-to-linalg=dw-cut-long-rows=true --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=512 num-vector-registers=32 l1-cache-bytes=32768 l2-cache-bytes=1048576" --mlir-print-local-scope | FileCheck %s
// RUN: conv-opt %s --convert-conv-to-linalg=dw-cut-long-rows=true --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=256 num-vector-registers=16 l1-cache-bytes=32768 l2-cache-bytes=524288" --mlir-print-local-scope | FileCheck %s --check-prefix=AVX2

// A filter gradient whose 28-position rows are cut to each tap's columns
// that read the input (dw-cut-long-rows, docs/Lowering.md §2.5): a dynamic
// range of up to 28 positions. With AVX-512 its register tiles (8 rows x 2
// vectors) reduce it one position a step in a single loop, the
// accumulators carried through it (a loop of 8-position chunks would leave
// a dynamic remainder loop and the accumulators stored and reloaded between
// the two: -8 % with 1 thread on a 5x5 28x28x192 -> 32 layer). Without
// AVX-512 the 8-position chunks and their peeled remainder stay (AVX2 hosts
// do not cut such rows: the pipeline sets the option on AVX-512 only).
// The first image's tiles start from zero (zeroStartFirstBlocks), the
// second image's from what the first left.
// CHECK-LABEL: func.func @cut_long_rows
// CHECK:         scf.forall (%{{.+}}, %{{.+}}) in (5, 5)
// CHECK:           scf.for %{{.+}} = %c0 to %c64 step %c8
// CHECK:             vector.transfer_write %cst{{.*}} : vector<8x32xf32>, tensor<8x32xf32>
// CHECK:             scf.for %{{.+}} = %c0 to %{{.+}} step %c1
// CHECK:               scf.for %{{.+}} = %c0 to %{{.+}} step %c1
// CHECK:                 vector.transfer_read {{.*}} : tensor<2x12x32x64xf32>, vector<8xf32>
// CHECK-NOT:         step %c8
// CHECK:           scf.for %{{.+}} = %c0 to %c64 step %c8
// CHECK:             scf.for %{{.+}} = %c0 to %{{.+}} step %c1
// CHECK:               scf.for %{{.+}} = %c0 to %{{.+}} step %c1
// CHECK:                 vector.transfer_read {{.*}} : tensor<2x12x32x64xf32>, vector<8xf32>
// CHECK-NOT:         step %c8
// CHECK-NOT:         conv.llvm_unroll_count
// CHECK:           scf.forall.in_parallel
// AVX2-LABEL: func.func @cut_long_rows
// AVX2:         scf.for %{{.+}} = %c0 to %{{.+}} step %c8
// AVX2:         scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c8
func.func @cut_long_rows(%x: tensor<2x8x28x64xf32>, %dy: tensor<2x8x28x32xf32>) -> tensor<5x5x64x32xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<2x8x28x64xf32>, tensor<2x8x28x32xf32> -> tensor<5x5x64x32xf32>
  return %dw : tensor<5x5x64x32xf32>
}

// The same cut rows of a stride-2 layer (its input positions two apart):
// the position loop is marked for LLVM to unroll twice
// (conv.llvm_unroll_count = 2, a remainder position for odd counts); the
// stride-1 layer above keeps its loop rolled.
// CHECK-LABEL: func.func @cut_rows_stride2
// CHECK:         scf.forall (%{{.+}}, %{{.+}}) in (3, 3)
// CHECK:           scf.for %{{.+}} = %c0 to %c64 step %c8
// CHECK:             scf.for %{{.+}} = %c0 to %{{.+}} step %c1
// CHECK:               scf.for %{{.+}} = %c0 to %{{.+}} step %c1
// CHECK:               } {conv.llvm_unroll_count = 2 : i64}
// AVX2-LABEL: func.func @cut_rows_stride2
// AVX2-NOT:     conv.llvm_unroll_count
func.func @cut_rows_stride2(%x: tensor<2x16x56x64xf32>, %dy: tensor<2x8x28x32xf32>) -> tensor<3x3x64x32xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [2, 2] dilations = [1, 1] : tensor<2x16x56x64xf32>, tensor<2x8x28x32xf32> -> tensor<3x3x64x32xf32>
  return %dw : tensor<3x3x64x32xf32>
}
