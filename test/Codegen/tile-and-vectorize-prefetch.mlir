// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=512 num-vector-registers=32 l1-cache-bytes=49152 l2-cache-bytes=2097152" --mlir-print-local-scope --split-input-file | FileCheck %s
// RUN: conv-opt %s --conv-lower-to-llvm-cpu --split-input-file | FileCheck %s --check-prefix=LLVM
// RUN: conv-opt %s --conv-lower-to-llvm-cpu="prefetch=false" --split-input-file | FileCheck %s --check-prefix=OFF

// Three input channels and a 3x3 kernel: every kernel dimension fuses into
// the 27 rows of one contraction (conv.dw_stream), which reads each
// out_backprop position once. Its register tiles (9 rows x 2 vectors) run
// over a block of 2 image rows in chunks of 8 positions; the chunk loop
// around their vector.contract is marked conv.prefetch_rhs, and the
// lowered code prefetches the out_backprop rows of the next 32 positions
// (the LLVM lines use the host's tiles).
// CHECK-LABEL: func.func @stream
// CHECK:         scf.for %{{.*}} = %c0 to %c27 step %c9
// CHECK:           scf.for %{{.*}} = %c0 to %c64 step %c32
// CHECK:             scf.for %{{.*}} = %c0 to %c2 step %c1
// CHECK:               scf.for %{{.*}} = %c0 to %c32 step %c8
// CHECK:                 vector.contract {{.*}} : vector<8x9xf32>, vector<8x32xf32> into vector<9x32xf32>
// CHECK:               } {conv.prefetch_rhs}
// LLVM-LABEL: llvm.func @stream
// LLVM:        llvm.intr.prefetch
// LLVM:        llvm.return
// OFF-LABEL: llvm.func @stream
// OFF-NOT:     llvm.intr.prefetch
// OFF:         llvm.return
func.func @stream(%x: tensor<2x18x34x3xf32>, %dy: tensor<2x16x32x64xf32>) -> tensor<3x3x3x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<2x18x34x3xf32>, tensor<2x16x32x64xf32> -> tensor<3x3x3x64xf32>
  return %dw : tensor<3x3x3x64xf32>
}

// -----

// A 7x7 kernel: only the last kernel dimension fuses (21 rows), the 7
// leading taps are an scf.forall, and every one of them re-reads
// out_backprop: no mark, no prefetch (prefetching the next block evicted
// the block the other taps' register tiles re-read: -15 % on ResNet's stem).
// The 21 rows run as 7 tiles of 3 rows x 4 vectors.
// CHECK-LABEL: func.func @leading_taps
// CHECK:         scf.forall (%{{.*}}) in (7)
// CHECK:           vector.contract {{.*}} : vector<8x3xf32>, vector<8x64xf32> into vector<3x64xf32>
// CHECK-NOT:       vector<5x32xf32>
// CHECK-NOT:     conv.prefetch_rhs
// CHECK:         return
// LLVM-LABEL: llvm.func @leading_taps
// LLVM-NOT:     llvm.intr.prefetch
// LLVM:         llvm.return
func.func @leading_taps(%x: tensor<2x22x38x3xf32>, %dy: tensor<2x16x32x64xf32>) -> tensor<7x7x3x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<2x22x38x3xf32>, tensor<2x16x32x64xf32> -> tensor<7x7x3x64xf32>
  return %dw : tensor<7x7x3x64xf32>
}
