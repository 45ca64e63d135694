// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=256 num-vector-registers=16 l1-cache-bytes=32768 l2-cache-bytes=524288" --mlir-print-local-scope --split-input-file | FileCheck %s
// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=512 num-vector-registers=32 l1-cache-bytes=32768 l2-cache-bytes=1048576" --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=AVX512

// A 3x3 filter gradient whose tap dW (128 x 64 f32, 32 KiB) is not
// channel-blocked: its register tiles still read the input in narrow
// column blocks (6 channels of every row), so the input's 512-byte rows
// (128 f32, 8 of the L1's 64 sets) get one more cache line of pitch, from
// the zero padding the op already needs: high padding 16 on the channels.
// out_backprop (256-byte rows) is read in place.
// With AVX-512 (4-vector register tiles) no input is widened: the
// padding copy keeps its 128 channels.
// AVX512-LABEL: func.func @dw_whole_repitch_512
// AVX512:         tensor.pad %arg0 low[0, 1, 1, 0] high[0, 1, 1, 0]
// AVX512:         } : tensor<2x8x8x128xf32> to tensor<2x10x10x128xf32>
// AVX512-NOT:     bufferization.alloc_tensor
// AVX512:         return
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

// -----

// With AVX-512 no input is widened, not even channel-blocked ones whose
// rows are a multiple of 1 KiB: a 1x1 7x7x2048 -> 512 filter gradient's
// blocks of 256 ci and all 512 co (512 KiB, half the 1 MiB L2) read
// out_backprop in place, and each ci tile copies its column of the
// input, an image a reduction block, into a row panel (see
// tile-and-vectorize-dw-row-panels.mlir) that its co tiles read; the
// remainder tile of 4 ci reads the input in place.
// AVX512-LABEL: func.func @dw_blocked_repitch_1024
// AVX512-NOT:     bufferization.alloc_tensor
// AVX512:         tensor.empty() : tensor<1x7x7x6xf32>
// AVX512:         scf.for %{{.*}} = %c0 to %c2048 step %c256
// AVX512:           scf.for %{{.*}} = %c0 to %c252 step %c6
// AVX512:             scf.for {{.*}} -> (tensor<1x7x7x6xf32>)
// AVX512:               vector.transfer_read %arg0{{.*}} : tensor<2x7x7x2048xf32>, vector<6xf32>
// AVX512:             scf.for %{{.*}} = %c0 to %c512 step %c64
// AVX512:               vector.transfer_read %{{.*}} : tensor<1x7x7x6xf32>, vector<7x6xf32>
// AVX512:               vector.transfer_read %arg1{{.*}} : tensor<2x7x7x512xf32>, vector<7x64xf32>
// AVX512:           vector.transfer_read %arg0{{.*}} : tensor<2x7x7x2048xf32>, vector<7x4xf32>
func.func @dw_blocked_repitch_1024(%x: tensor<2x7x7x2048xf32>, %dy: tensor<2x7x7x512xf32>) -> tensor<1x1x2048x512xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<2x7x7x2048xf32>, tensor<2x7x7x512xf32> -> tensor<1x1x2048x512xf32>
  return %dw : tensor<1x1x2048x512xf32>
}
