// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=512 num-vector-registers=32 l1-cache-bytes=49152 l2-cache-bytes=2097152 num-threads=2" --mlir-print-local-scope --split-input-file | FileCheck %s
// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=512 num-vector-registers=32 l1-cache-bytes=49152 l2-cache-bytes=2097152 num-threads=1" --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=ONE

// Thread blocks of a single-contraction filter gradient (one image, a
// single-channel input, every 3x3 tap fused with ci: 9 rows) whose threads
// split the output channels in whole 2-vector (32-column) blocks.
//
// 16 output channels: 2 threads would get one 32-column block, all of them,
// so there is no scf.forall of one iteration: the code is the one-thread
// code, whose register tiles read their rows from the padded input itself
// (direct rows), never from a copy of the gathered rows.
// CHECK-LABEL: func.func @one_block
// CHECK-NOT:     scf.forall
// CHECK-NOT:     tensor<1x8x64x3x3xf32>
// CHECK:         %[[IN:.+]] = tensor.collapse_shape %{{.*}} {{\[\[}}0], [1], [2, 3]] : tensor<1x10x66x1xf32> into tensor<1x10x66xf32>
// CHECK:         scf.for %[[OH:[a-z0-9]+]] = %c0 to %c8 step %c1
// CHECK:           scf.for %[[OW:[a-z0-9]+]] = %c0 to %c64 step %c4
// CHECK:             vector.transfer_read %[[IN]][%c0, %[[OH]], %[[OW]]], %{{.*}} {in_bounds = [true]} : tensor<1x10x66xf32>, vector<4xf32>
// CHECK:             %[[ROWS:.+]] = vector.from_elements {{.*}} : vector<9x4xf32>
// CHECK:             vector.contract {{.*}} %[[ROWS]], {{.*}} : vector<9x4xf32>, vector<4x16xf32> into vector<9x16xf32>
// CHECK-NOT:     scf.forall
// ONE-LABEL: func.func @one_block
// ONE-NOT:       scf.forall
// ONE-NOT:       tensor<1x8x64x3x3xf32>
// ONE:           vector.contract {{.*}} : vector<9x4xf32>, vector<4x16xf32> into vector<9x16xf32>
func.func @one_block(%x: tensor<1x8x64x1xf32>, %dy: tensor<1x8x64x16xf32>) -> tensor<3x3x1x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<1x8x64x1xf32>, tensor<1x8x64x16xf32> -> tensor<3x3x1x16xf32>
  return %dw : tensor<3x3x1x16xf32>
}

// -----

// 64 output channels: a 32-column block per thread. Each thread slices the
// row operand whole (a tensor.extract_slice of all of it); its register
// tiles still read the rows from the padded input directly, instead of the
// gathered rows of every position copied up front for both threads.
// CHECK-LABEL: func.func @two_blocks
// CHECK-NOT:     tensor<1x8x64x3x3xf32>
// CHECK:         %[[IN:.+]] = tensor.collapse_shape %{{.*}} {{\[\[}}0], [1], [2, 3]] : tensor<1x10x66x1xf32> into tensor<1x10x66xf32>
// CHECK:         scf.forall (%[[CO:[a-z0-9]+]]) = (0) to (64) step (32)
// CHECK:           scf.for %[[OH:[a-z0-9]+]] = %c0 to %c8 step %c1
// CHECK:             scf.for %[[OW:[a-z0-9]+]] = %c0 to %c64 step %c4
// CHECK:               vector.transfer_read %[[IN]][%c0, %[[OH]], %[[OW]]], %{{.*}} {in_bounds = [true]} : tensor<1x10x66xf32>, vector<4xf32>
// CHECK:               %[[ROWS:.+]] = vector.from_elements {{.*}} : vector<9x4xf32>
// CHECK:               vector.transfer_read %{{.*}}[%c0, %[[OH]], %[[OW]], %[[CO]]], %{{.*}} : tensor<1x8x64x64xf32>, vector<4x32xf32>
// CHECK:               vector.contract {{.*}} %[[ROWS]], {{.*}} : vector<9x4xf32>, vector<4x32xf32> into vector<9x32xf32>
// CHECK-NOT:     tensor<1x8x64x3x3xf32>
// ONE-LABEL: func.func @two_blocks
// ONE-NOT:       scf.forall
// ONE-NOT:       tensor<1x8x64x3x3xf32>
func.func @two_blocks(%x: tensor<1x8x64x1xf32>, %dy: tensor<1x8x64x64xf32>) -> tensor<3x3x1x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<1x8x64x1xf32>, tensor<1x8x64x64xf32> -> tensor<3x3x1x64xf32>
  return %dw : tensor<3x3x1x64xf32>
}

// -----

// A transposed convolution of one small image (DCGAN's 4x4 stride-2 `same`
// layer, tap by tap): each tap's kernel (128 x 512) is larger than its
// input (at most 16 positions), so the threads split the output channels,
// in whole register-tile column blocks (2 x 64), both in the tap's kernel
// relayout ([Cout, Cin] -> [Cin, Cout], the output's contiguous dimension)
// and in its contraction: each thread reads the kernel half that it wrote.
// CHECK-LABEL: func.func @one_image_transpose
// CHECK:         scf.forall (%[[R:[a-z0-9]+]]) = (0) to (128) step (64) shared_outs(%{{.*}}) -> (tensor<512x128xf32>)
// CHECK:           vector.transpose %{{.*}}, [1, 0] : vector<16x16xf32> to vector<16x16xf32>
// CHECK:         scf.forall (%[[C:[a-z0-9]+]]) = (0) to (128) step (64) shared_outs(%{{.*}}) -> (tensor<1x4x4x128xf32>)
// CHECK:           vector.contract
// ONE-LABEL: func.func @one_image_transpose
// ONE-NOT:       scf.forall
func.func @one_image_transpose(%x: tensor<1x4x4x512xf32>, %k: tensor<4x4x128x512xf32>) -> tensor<1x8x8x128xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [1, 1] : tensor<1x4x4x512xf32>, tensor<4x4x128x512xf32> -> tensor<1x8x8x128xf32>
  return %y : tensor<1x8x8x128xf32>
}
