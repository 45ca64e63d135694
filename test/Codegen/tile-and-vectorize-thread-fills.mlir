// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=256 num-vector-registers=16 l1-cache-bytes=32768 l2-cache-bytes=524288 num-threads=2" --mlir-print-local-scope --split-input-file | FileCheck %s
// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=256 num-vector-registers=16 l1-cache-bytes=32768 l2-cache-bytes=524288 num-threads=1" --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=ONE

// A zero fill left outside every scf.forall once the contractions are
// tiled, with at least 64 Ki elements, runs over the threads along its
// first dimension with at least as many elements as threads. A Keras-style
// 3x3 stride-2 dilation-2 transposed convolution (64 channels: a kernel
// small enough to keep the generic copy and the phase over the whole
// batch): its phase writes a quarter of the 8 x 32 x 32 x 64 output (every
// tap lands on the even rows and columns), so the whole output is zeroed
// first: 4 batch items a thread, then the phase's own scf.forall over the
// batch.
// CHECK-LABEL: func.func @dilated_transpose
// CHECK:         %[[Z:.*]] = scf.forall ({{.*}}) = (0) to (8) step (4) shared_outs(%[[O:[^ ]*]] = %{{.*}}) -> (tensor<8x32x32x64xf32>) {
// CHECK:           %[[S:.*]] = tensor.extract_slice %[[O]]{{.*}} to tensor<4x32x32x64xf32>
// CHECK:           linalg.fill {{.*}} outs(%[[S]] : tensor<4x32x32x64xf32>)
// CHECK:         tensor.extract_slice %[[Z]][0, 1, 1, 0] [8, 16, 16, 64] [1, 2, 2, 1]
// CHECK:         scf.forall ({{.*}}) = (0) to (8) step (4)
// CHECK:           vector.transfer_write {{.*}} : vector<6x16xf32>, tensor<1x16x16x64xf32>
// With one thread the fill stays whole.
// ONE-LABEL: func.func @dilated_transpose
// ONE:         linalg.fill {{.*}} -> tensor<8x32x32x64xf32>
// ONE-NOT:     scf.forall
func.func @dilated_transpose(%x: tensor<8x16x16x64xf32>, %k: tensor<3x3x64x64xf32>) -> tensor<8x32x32x64xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [2, 2] : tensor<8x16x16x64xf32>, tensor<3x3x64x64xf32> -> tensor<8x32x32x64xf32>
  return %y : tensor<8x32x32x64xf32>
}

// -----

// A 1x1 filter gradient's dW (2048 x 512, accumulated over the batch
// items) is not zeroed at all: the register tiles of its first reduction
// block start from zero (zeroStartFirstBlocks). (Until stop 68 it was
// zeroed over the threads along its third dimension.)
// CHECK-LABEL: func.func @dw_1x1
// CHECK-NOT:     linalg.fill
// CHECK:         vector.transfer_write %cst{{.*}} : vector<6x16xf32>, tensor<6x16xf32>
// CHECK-NOT:     linalg.fill
// CHECK:         return
func.func @dw_1x1(%x: tensor<8x7x7x2048xf32>, %dy: tensor<8x7x7x512xf32>) -> tensor<1x1x2048x512xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<8x7x7x2048xf32>, tensor<8x7x7x512xf32> -> tensor<1x1x2048x512xf32>
  return %dw : tensor<1x1x2048x512xf32>
}

// -----

// Below 64 Ki elements (8 x 16 x 16 x 8 = 16 Ki) the fill stays whole.
// CHECK-LABEL: func.func @small_fill
// CHECK:         linalg.fill {{.*}} -> tensor<2x16x16x8xf32>
func.func @small_fill(%x: tensor<2x8x8x8xf32>, %k: tensor<3x3x8x8xf32>) -> tensor<2x16x16x8xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [2, 2] : tensor<2x8x8x8xf32>, tensor<3x3x8x8xf32> -> tensor<2x16x16x8xf32>
  return %y : tensor<2x16x16x8xf32>
}
