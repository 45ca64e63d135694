// RUN: conv-opt %s --conv-lower-to-llvm-cpu="generic-alloc-functions=1" | FileCheck %s --check-prefix=GENERIC
// RUN: conv-opt %s --conv-lower-to-llvm-cpu="generic-alloc-functions=1 num-threads=2" | FileCheck %s --check-prefix=GENERIC
// RUN: conv-opt %s --conv-lower-to-llvm-cpu | FileCheck %s --check-prefix=MALLOC

// With generic-alloc-functions (the JIT's setting) the temporaries (here the
// channels-last copies of a channels-first filter gradient's activations)
// come from _mlir_memref_to_llvm_alloc and go back through
// _mlir_memref_to_llvm_free, also when the OpenMP conversion runs; by
// default from malloc/free.
// GENERIC-LABEL: llvm.func @dw(
// GENERIC-NOT:     @malloc
// GENERIC:         llvm.call @_mlir_memref_to_llvm_alloc
// GENERIC-NOT:     @malloc
// GENERIC:         llvm.call @_mlir_memref_to_llvm_free
// GENERIC-NOT:     @free
// GENERIC:         llvm.return
// MALLOC-LABEL: llvm.func @dw(
// MALLOC-NOT:     @_mlir_memref_to_llvm
// MALLOC:         llvm.call @malloc
// MALLOC:         llvm.call @free
// MALLOC-NOT:     @_mlir_memref_to_llvm
// MALLOC:         llvm.return
func.func @dw(%x: tensor<2x16x12x12xf32>, %dy: tensor<2x8x12x12xf32>) -> tensor<3x3x16x8xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NCHW padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<2x16x12x12xf32>, tensor<2x8x12x12xf32> -> tensor<3x3x16x8xf32>
  return %dw : tensor<3x3x16x8xf32>
}
