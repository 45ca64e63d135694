// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=512 num-vector-registers=32 l1-cache-bytes=32768 l2-cache-bytes=1048576 num-threads=1" --mlir-print-local-scope --split-input-file | FileCheck %s
// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=256 num-vector-registers=16 l1-cache-bytes=32768 l2-cache-bytes=524288 num-threads=1" --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=AVX2

// Grouped filter gradients with few channels per group: the register tile's
// columns run over (group, output channel) of several groups, its rows over
// the input channels (conv-cpu-lower-vectors then broadcasts each input
// value over its group's lanes with a lane shuffle).

// ResNeXt-like: 16 groups of 4 -> 4 channels. One tile covers all groups:
// 4 rows x 16 groups x 4 columns (four 16-lane vectors a row), 8 positions
// a step; no loop over the groups. The tile of the first reduction block
// (the first image's first row) starts from zero (zeroStartFirstBlocks: no
// zero fill of the dW), then the rest of that image's rows and the second
// image follow, copies of the same tile.
// CHECK-LABEL: func.func @groups_4x4
// CHECK-NOT:     linalg.fill
// CHECK-NOT:     vector.contract {{.*}} into vector<4x4xf32>
// CHECK:         vector.transfer_write %cst{{.*}} : vector<4x16x4xf32>, tensor<4x16x4xf32>
// CHECK:         scf.for
// CHECK:           vector.transfer_read {{.*}} vector<8x16x4xf32>
// CHECK:           vector.transfer_read {{.*}} vector<8x16x4xf32>
// CHECK:           vector.contract {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d0, d2)>, affine_map<(d0, d1, d2, d3) -> (d1, d0, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"], kind = #vector.kind<add>} {{.*}} : vector<8x16x4xf32>, vector<8x16x4xf32> into vector<4x16x4xf32>
// CHECK-COUNT-2:   vector.contract {{.*}} : vector<8x16x4xf32>, vector<8x16x4xf32> into vector<4x16x4xf32>
// CHECK-NOT:     vector.contract
// CHECK:         return
// With 8-lane AVX2 vectors, 2 groups a vector: 4 rows x 2 vectors (8 of
// the 16 registers hold accumulators), a block loop over 4 groups at a
// time.
// AVX2-LABEL: func.func @groups_4x4
// AVX2:         scf.for {{.*}} step %c4
// AVX2:           vector.contract {{.*}} : vector<8x4x4xf32>, vector<8x4x4xf32> into vector<4x4x4xf32>
// AVX2-NOT:       into vector<4x4xf32>
// AVX2:         return
func.func @groups_4x4(%x: tensor<2x10x58x64xf32>, %dy: tensor<2x8x56x64xf32>) -> tensor<3x3x4x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID
          strides = [1, 1] dilations = [1, 1]
          : tensor<2x10x58x64xf32>, tensor<2x8x56x64xf32> -> tensor<3x3x4x64xf32>
  return %dw : tensor<3x3x4x64xf32>
}

// -----

// 16 groups of 8 -> 4 channels: 8 rows leave room for two vectors a row
// (8 groups); a block loop walks the two halves of the groups.
// CHECK-LABEL: func.func @groups_8x4
// CHECK:         scf.for {{.*}} step %c8
// CHECK:           vector.contract {{.*}} : vector<8x8x8xf32>, vector<8x8x4xf32> into vector<8x8x4xf32>
// CHECK:         return
func.func @groups_8x4(%x: tensor<2x10x58x128xf32>, %dy: tensor<2x8x56x64xf32>) -> tensor<3x3x8x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID
          strides = [1, 1] dilations = [1, 1]
          : tensor<2x10x58x128xf32>, tensor<2x8x56x64xf32> -> tensor<3x3x8x64xf32>
  return %dw : tensor<3x3x8x64xf32>
}

// -----

// 8 output channels per group keep the per-group tiles (half a vector wide,
// with broadcast input values).
// CHECK-LABEL: func.func @groups_4x8
// CHECK:         vector.contract {{.*}} into vector<4x8xf32>
// CHECK:         return
// AVX2-LABEL: func.func @groups_4x8
// AVX2:         vector.contract {{.*}} into vector<4x8xf32>
// AVX2:         return
func.func @groups_4x8(%x: tensor<2x10x58x64xf32>, %dy: tensor<2x8x56x128xf32>) -> tensor<3x3x4x128xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID
          strides = [1, 1] dilations = [1, 1]
          : tensor<2x10x58x64xf32>, tensor<2x8x56x128xf32> -> tensor<3x3x4x128xf32>
  return %dw : tensor<3x3x4x128xf32>
}
