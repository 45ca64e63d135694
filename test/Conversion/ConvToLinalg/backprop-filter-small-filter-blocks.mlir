// RUN: conv-opt %s --convert-conv-to-linalg="dw-reduction-block-bytes=1000000 dw-small-filter-block-bytes=30000" --split-input-file | FileCheck %s

// Small-filter blocks: a multi-tap filter gradient whose dW is at most twice
// `dw-small-filter-block-bytes` runs its taps over blocks of that size (the
// L2) instead of `dw-reduction-block-bytes` (a quarter of the L3), so that
// the taps re-read each block from the L2.

// 3x3x8x16 dW (4608 B <= 60000): 12 items of (10x10x8 + 8x8x16) x 4 B =
// 7296 B, fitting the 1 MB budget whole, get 30000-byte blocks of 4 items.
// CHECK-LABEL: func.func @small_filter
// CHECK:         scf.for %{{.*}} = %c0 to %c12 step %c4
// CHECK:           scf.forall (%{{.*}}, %{{.*}}) in (3, 3)
// CHECK:             linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x?x?x8xf32>, tensor<4x?x?x16xf32>)
// CHECK-NOT:     scf.forall (
// CHECK:         return
func.func @small_filter(%x: tensor<12x8x8x8xf32>, %dy: tensor<12x8x8x16xf32>) -> tensor<3x3x8x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<12x8x8x8xf32>, tensor<12x8x8x16xf32> -> tensor<3x3x8x16xf32>
  return %dw : tensor<3x3x8x16xf32>
}

// -----

// The same with 11 items: blocks of 4 would leave a remainder block of 3 (a
// second copy of the body, which the 1 MB blocks do not need): one block.
// CHECK-LABEL: func.func @small_filter_remainder
// CHECK-NOT:     scf.for %
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (3, 3)
// CHECK:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<11x?x?x8xf32>, tensor<11x?x?x16xf32>)
// CHECK-NOT:     scf.forall (
// CHECK:         return
func.func @small_filter_remainder(%x: tensor<11x8x8x8xf32>, %dy: tensor<11x8x8x16xf32>) -> tensor<3x3x8x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<11x8x8x8xf32>, tensor<11x8x8x16xf32> -> tensor<3x3x8x16xf32>
  return %dw : tensor<3x3x8x16xf32>
}

// -----

// A 3x3x64x64 dW (147456 B > 60000): re-reading it once per small block
// would cost more than the L3 reads the blocks save; one block.
// CHECK-LABEL: func.func @large_filter
// CHECK-NOT:     scf.for %
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (3, 3)
// CHECK:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<11x?x?x64xf32>, tensor<11x?x?x64xf32>)
func.func @large_filter(%x: tensor<11x4x4x64xf32>, %dy: tensor<11x4x4x64xf32>) -> tensor<3x3x64x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<11x4x4x64xf32>, tensor<11x4x4x64xf32> -> tensor<3x3x64x64xf32>
  return %dw : tensor<3x3x64x64xf32>
}

// -----

// A single tap (1x1): the blocks would give no tap any reuse; one block.
// CHECK-LABEL: func.func @single_tap
// CHECK-NOT:     scf.for %
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<11x8x8x8xf32>, tensor<11x8x8x16xf32>)
func.func @single_tap(%x: tensor<11x8x8x8xf32>, %dy: tensor<11x8x8x16xf32>) -> tensor<1x1x8x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<11x8x8x8xf32>, tensor<11x8x8x16xf32> -> tensor<1x1x8x16xf32>
  return %dw : tensor<1x1x8x16xf32>
}
