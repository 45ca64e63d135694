// (transpose-taps-overhead=1.25: some of the small transposed convolutions
// below have phases that multiply 10-25 % padding; the default, 1.10,
// would lower those tap by tap instead of by the phases these tests pin.)
// RUN: conv-opt %s --convert-conv-to-linalg=transpose-taps-overhead=1.25 --canonicalize \
// RUN:   --conv-cpu-tile-and-vectorize="vector-bits=256 num-vector-registers=16 l1-cache-bytes=32768 l2-cache-bytes=1048576" \
// RUN:   --loop-invariant-subset-hoisting --canonicalize --cse \
// RUN:   --split-input-file | FileCheck %s

// A transposed convolution's phases partition the output, so every
// register tile starts from zero. The zero fill fused into the register
// tiles folds into the hoisted accumulators: the tap and channel loops
// carry a vector that starts as the zero constant, and no zero is ever
// written to the output (nor read back from it).
// CHECK-LABEL: func.func @zero_start
// CHECK-DAG:     %[[Z6:.*]] = arith.constant dense<0.000000e+00> : vector<6x16xf32>
// CHECK-NOT:     linalg.fill
// CHECK:         scf.for {{.*}} iter_args(%{{.*}} = %[[Z6]]) -> (vector<6x16xf32>)
// CHECK:           arith.addf {{.*}} : vector<6x16xf32>
// CHECK:         vector.transfer_write %{{.*}} : vector<6x16xf32>, tensor<1x1x6x16xf32>
// CHECK-NOT:     vector.transfer_write %[[Z6]]
// CHECK-NOT:     vector.transfer_read %{{.*}} : tensor<1x1x6x16xf32>, vector<6x16xf32>
// CHECK:         return
func.func @zero_start(%x: tensor<1x6x6x8xf32>, %k: tensor<4x4x16x8xf32>) -> tensor<1x12x12x16xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [1, 1] : tensor<1x6x6x8xf32>, tensor<4x4x16x8xf32> -> tensor<1x12x12x16xf32>
  return %y : tensor<1x12x12x16xf32>
}

// -----

// The peeled remainder tile (16 = 6 + 6 + 4 rows, k = s = 2: no tap loops)
// starts from its own zero tile too.
// CHECK-LABEL: func.func @zero_start_peeled
// CHECK-DAG:     %[[Z6:.*]] = arith.constant dense<0.000000e+00> : vector<6x16xf32>
// CHECK-DAG:     %[[Z4:.*]] = arith.constant dense<0.000000e+00> : vector<4x16xf32>
// CHECK:         scf.for %{{.*}} = %c0 to %c12 step %c6
// CHECK:           scf.for {{.*}} iter_args(%{{.*}} = %[[Z6]]) -> (vector<6x16xf32>)
// CHECK:         scf.for {{.*}} iter_args(%{{.*}} = %[[Z4]]) -> (vector<4x16xf32>)
// CHECK-NOT:     vector.transfer_write %[[Z6]]
// CHECK-NOT:     vector.transfer_write %[[Z4]]
// CHECK:         return
func.func @zero_start_peeled(%x: tensor<1x16x16x32xf32>, %k: tensor<2x2x16x32xf32>) -> tensor<1x32x32x16xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2, 2] dilation_rate = [1, 1] : tensor<1x16x16x32xf32>, tensor<2x2x16x32xf32> -> tensor<1x32x32x16xf32>
  return %y : tensor<1x32x32x16xf32>
}
