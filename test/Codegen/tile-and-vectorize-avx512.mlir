// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=512 num-vector-registers=32" --mlir-print-local-scope --split-input-file | FileCheck %s

// AVX-512-sized register tiles (8 rows x 2 zmm of 16 f32) on output-channel
// counts narrower than a tile (32) but wider than one vector: the column
// tile is the largest multiple of the vector width (16) plus a peeled
// 5-column remainder, never one 21-wide tile (odd-length vectors that LLVM
// lowers lane by lane, with spills: the 1-D masknet transpose ran at 5 %
// of peak).

// A filter gradient with 21 output channels.
// CHECK-LABEL: func.func @dw_cout21
// CHECK-NOT:     vector<{{[0-9x]*}}21xf32>
// CHECK:         vector.contract {{.*}} into vector<8x16xf32>
// CHECK-NOT:     vector<{{[0-9x]*}}21xf32>
// CHECK:         vector.contract {{.*}} into vector<8x5xf32>
// CHECK-NOT:     vector<{{[0-9x]*}}21xf32>
// CHECK:         return
func.func @dw_cout21(%x: tensor<2x12x12x8xf32>, %dy: tensor<2x10x10x21xf32>) -> tensor<3x3x8x21xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID
          strides = [1, 1] dilations = [1, 1]
          : tensor<2x12x12x8xf32>, tensor<2x10x10x21xf32> -> tensor<3x3x8x21xf32>
  return %dw : tensor<3x3x8x21xf32>
}

// -----

// A transposed convolution with 21 output channels (one tap per phase):
// rank-1 updates of 8 x 16 and 8 x 5 accumulator tiles.
// CHECK-LABEL: func.func @transpose_cout21
// CHECK-NOT:     vector<{{[0-9x]*}}21xf32>
// CHECK:         vector<8x16xf32>
// CHECK-NOT:     vector<{{[0-9x]*}}21xf32>
// CHECK:         vector<8x5xf32>
// CHECK-NOT:     vector<{{[0-9x]*}}21xf32>
// CHECK:         return
func.func @transpose_cout21(%x: tensor<1x40x16xf32>, %k: tensor<2x21x16xf32>) -> tensor<1x80x21xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [2] dilation_rate = [1]
         : tensor<1x40x16xf32>, tensor<2x21x16xf32> -> tensor<1x80x21xf32>
  return %y : tensor<1x80x21xf32>
}

// -----

// 53 output channels: full 32-column tiles and a 21-column remainder tile,
// which is split into 16 + 5 columns in the same loop nest (the two parts
// share the reduction loops and the broadcast input values).
// CHECK-LABEL: func.func @dw_cout53
// CHECK-NOT:     vector<{{[0-9x]*}}21xf32>
// CHECK:         vector.contract {{.*}} into vector<8x32xf32>
// CHECK-NOT:     vector<{{[0-9x]*}}21xf32>
// CHECK:         vector.contract {{.*}} into vector<8x16xf32>
// CHECK:         vector.contract {{.*}} into vector<8x5xf32>
// CHECK-NOT:     vector<{{[0-9x]*}}21xf32>
// CHECK:         return
func.func @dw_cout53(%x: tensor<2x12x12x8xf32>, %dy: tensor<2x10x10x53xf32>) -> tensor<3x3x8x53xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID
          strides = [1, 1] dilations = [1, 1]
          : tensor<2x12x12x8xf32>, tensor<2x10x10x53xf32> -> tensor<3x3x8x53xf32>
  return %dw : tensor<3x3x8x53xf32>
}
