// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=512 num-vector-registers=32 l1-cache-bytes=49152 l2-cache-bytes=2097152 num-threads=1" --mlir-print-local-scope | FileCheck %s
// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=256 num-vector-registers=16 l1-cache-bytes=32768 l2-cache-bytes=524288 num-threads=1" --mlir-print-local-scope | FileCheck %s --check-prefix=AVX2

// A depthwise tap (conv.role = "dw_depthwise", loops [c, b, o...]): register
// tiles of up to 4 vectors of channels, one position a step: per position
// one vector read of the window, one of out_backprop and an FMA into the
// loop-carried accumulator row. 72 channels with 16-lane vectors: a tile
// of 64 and one of the remaining 8.
// CHECK-LABEL: func.func @depthwise
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (3, 3)
// CHECK:           scf.for {{.*}} -> (tensor<64xf32>)
// CHECK:             vector.transfer_read {{.*}} : tensor<2x8x22x72xf32>, vector<64xf32>
// CHECK:             vector.transfer_read {{.*}} : tensor<2x6x20x72xf32>, vector<64xf32>
// CHECK:             arith.mulf {{.*}} : vector<64xf32>
// CHECK:             arith.addf {{.*}} : vector<64xf32>
// CHECK:           scf.for {{.*}} -> (tensor<8xf32>)
// CHECK:             vector.transfer_read {{.*}}, %c64], {{.*}} : tensor<2x8x22x72xf32>, vector<8xf32>
// CHECK-NOT:     linalg.generic {{.*}}dw_depthwise
// With 8-lane vectors: 4 vectors, 32 channels a tile (2 tiles and 8).
// AVX2-LABEL: func.func @depthwise
// AVX2:         scf.for {{.*}} step %c32
// AVX2:           vector.transfer_read {{.*}} : tensor<2x8x22x72xf32>, vector<32xf32>
// AVX2:         vector.transfer_read {{.*}} : tensor<2x8x22x72xf32>, vector<8xf32>
func.func @depthwise(%x: tensor<2x6x20x72xf32>, %dy: tensor<2x6x20x72xf32>) -> tensor<3x3x1x72xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<2x6x20x72xf32>, tensor<2x6x20x72xf32> -> tensor<3x3x1x72xf32>
  return %dw : tensor<3x3x1x72xf32>
}
