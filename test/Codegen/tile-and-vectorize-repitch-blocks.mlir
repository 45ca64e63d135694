// RUN: conv-opt %s --convert-conv-to-linalg="dw-reduction-block-bytes=65536" --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=256 num-vector-registers=16 l1-cache-bytes=8192 l2-cache-bytes=65536" --mlir-print-local-scope | FileCheck %s

// A channel-blocked 1x1 filter gradient in reduction blocks (one 48 KiB
// batch item each): the tap's contraction runs once per block, and the
// copy of the input to a conflict-free row pitch (1 KiB rows: 256 f32,
// widened to 272) is weighed against the work of all 8 blocks, 1024 FLOPs
// per input element (the threshold), not against one block's 128.
// out_backprop (2 KiB rows, 512 FLOPs per element over all blocks) is
// read in place.
// CHECK-LABEL: func.func @dw_blocks_repitch_input
// CHECK:         %[[BUF:.*]] = bufferization.alloc_tensor() : tensor<8x4x4x272xf32>
// CHECK:         %[[DST:.*]] = tensor.extract_slice %[[BUF]][0, 0, 0, 0] [8, 4, 4, 256] [1, 1, 1, 1]
// CHECK:         %[[COPY:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[DST]])
// CHECK-NOT:     bufferization.alloc_tensor
// CHECK:         scf.for %[[ITEM:.*]] = %c0 to %c8 step %c1
// CHECK:           vector.transfer_read %[[COPY]][%[[ITEM]], {{.*}} : tensor<8x4x4x256xf32>, vector<4x6xf32>
// CHECK:           vector.transfer_read %arg1[%[[ITEM]], {{.*}} : tensor<8x4x4x512xf32>, vector<4x16xf32>
func.func @dw_blocks_repitch_input(%x: tensor<8x4x4x256xf32>, %dy: tensor<8x4x4x512xf32>) -> tensor<1x1x256x512xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<8x4x4x256xf32>, tensor<8x4x4x512xf32> -> tensor<1x1x256x512xf32>
  return %dw : tensor<1x1x256x512xf32>
}
