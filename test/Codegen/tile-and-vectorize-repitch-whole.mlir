// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=256 num-vector-registers=16 l1-cache-bytes=32768 l2-cache-bytes=524288" --mlir-print-local-scope | FileCheck %s

// A 3x3 filter gradient whose tap dW (128 x 64 f32, 32 KiB) is not
// channel-blocked: its register tiles still read the input in narrow
// column blocks (6 channels of every row), so the input's 512-byte rows
// (128 f32, 8 of the L1's 64 sets) get one more cache line of pitch, from
// the zero padding the op already needs: high padding 16 on the channels.
// out_backprop (256-byte rows) is read in place.
// CHECK-LABEL: func.func @dw_whole_repitch_512
// CHECK:         %[[PAD:.*]] = tensor.pad %arg0 low[0, 1, 1, 0] high[0, 1, 1, 16]
// CHECK:         } : tensor<2x8x8x128xf32> to tensor<2x10x10x144xf32>
// CHECK-NOT:     bufferization.alloc_tensor
// CHECK:         scf.forall
// CHECK:           vector.transfer_read %[[PAD]]{{.*}} : tensor<2x10x10x144xf32>, vector<6xf32>
// CHECK:           vector.transfer_read %arg1{{.*}} : tensor<2x8x8x64xf32>, vector<16xf32>
func.func @dw_whole_repitch_512(%x: tensor<2x8x8x128xf32>, %dy: tensor<2x8x8x64xf32>) -> tensor<3x3x128x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<2x8x8x128xf32>, tensor<2x8x8x64xf32> -> tensor<3x3x128x64xf32>
  return %dw : tensor<3x3x128x64xf32>
}

// 256-byte input rows (64 f32) use 16 sets: left as they are.
// CHECK-LABEL: func.func @dw_whole_no_repitch_256
// CHECK:         tensor.pad %arg0 low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK-NOT:     bufferization.alloc_tensor
// CHECK:         return
func.func @dw_whole_no_repitch_256(%x: tensor<2x8x8x64xf32>, %dy: tensor<2x8x8x64xf32>) -> tensor<3x3x64x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<2x8x8x64xf32>, tensor<2x8x8x64xf32> -> tensor<3x3x64x64xf32>
  return %dw : tensor<3x3x64x64xf32>
}
