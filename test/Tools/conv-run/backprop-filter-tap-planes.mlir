// Depthwise tap planes (docs/Lowering.md §2.9): all the taps of the last
// two kernel dimensions in one contraction over the interior of the output
// positions (every tap reads the input) and four edge strips with
// zero-bordered input rows, checked against the f64 reference with 1, 2
// (channel parts) and 3 threads, bit-identical across them.
// 48 channels (a 32-channel tile and a 16-channel one), SAME 3x3:
// RUN: conv-run %s --entry planes_same --check --seed 1 | FileCheck %s
// RUN: conv-run %s --entry planes_same --seed 2 --num-threads=1 --output %t.same1.npy
// RUN: conv-run %s --entry planes_same --seed 2 --num-threads=2 --min-parallel-flops=0 --output %t.same2.npy
// RUN: conv-run %s --entry planes_same --seed 2 --num-threads=3 --min-parallel-flops=0 --output %t.same3.npy
// RUN: cmp %t.same1.npy %t.same2.npy
// RUN: cmp %t.same1.npy %t.same3.npy
// VALID with dilation 2 along the columns (borders of 4), 2x3 taps:
// RUN: conv-run %s --entry planes_valid_dilated --check --seed 3 | FileCheck %s
// RUN: conv-run %s --entry planes_valid_dilated --check --seed 4 --num-threads=2 --min-parallel-flops=0 | FileCheck %s
// Explicit padding 2 / 1 along the rows, 0 / 2 along the columns:
// RUN: conv-run %s --entry planes_explicit --check --seed 5 | FileCheck %s
// 3-D: a plane per leading (depth) tap, 1 and 2 threads:
// RUN: conv-run %s --entry planes_3d --check --seed 6 | FileCheck %s
// RUN: conv-run %s --entry planes_3d --check --seed 7 --num-threads=2 --min-parallel-flops=0 | FileCheck %s
// RUN: conv-run %s --entry planes_3d --seed 8 --num-threads=1 --output %t.3d1.npy
// RUN: conv-run %s --entry planes_3d --seed 8 --num-threads=2 --min-parallel-flops=0 --output %t.3d2.npy
// RUN: cmp %t.3d1.npy %t.3d2.npy
// Stride 2 (MobileNet's downsampling layers), SAME 3x3:
// RUN: conv-run %s --entry planes_strided --check --seed 10 | FileCheck %s
// RUN: conv-run %s --entry planes_strided --seed 11 --num-threads=1 --output %t.s1.npy
// RUN: conv-run %s --entry planes_strided --seed 11 --num-threads=2 --min-parallel-flops=0 --output %t.s2.npy
// RUN: cmp %t.s1.npy %t.s2.npy
// Reduction blocks of one batch item:
// RUN: conv-run %s --entry planes_same --check --seed 9 --l3-cache-bytes=60000 | FileCheck %s

// CHECK: check: {{.*}} PASS

func.func @planes_same(%x: tensor<3x20x24x48xf32>, %dy: tensor<3x20x24x48xf32>) -> tensor<3x3x1x48xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<3x20x24x48xf32>, tensor<3x20x24x48xf32> -> tensor<3x3x1x48xf32>
  return %dw : tensor<3x3x1x48xf32>
}

func.func @planes_valid_dilated(%x: tensor<2x9x32x16xf32>, %dy: tensor<2x8x28x16xf32>) -> tensor<2x3x1x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID
          strides = [1, 1] dilations = [1, 2]
          : tensor<2x9x32x16xf32>, tensor<2x8x28x16xf32> -> tensor<2x3x1x16xf32>
  return %dw : tensor<2x3x1x16xf32>
}

func.func @planes_explicit(%x: tensor<2x16x18x32xf32>, %dy: tensor<2x17x18x32xf32>) -> tensor<3x3x1x32xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = EXPLICIT
          explicit_paddings = [2, 1, 0, 2]
          strides = [1, 1] dilations = [1, 1]
          : tensor<2x16x18x32xf32>, tensor<2x17x18x32xf32> -> tensor<3x3x1x32xf32>
  return %dw : tensor<3x3x1x32xf32>
}

func.func @planes_3d(%x: tensor<2x5x12x12x32xf32>, %dy: tensor<2x5x12x12x32xf32>) -> tensor<3x3x3x1x32xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NDHWC padding = SAME
          strides = [1, 1, 1] dilations = [1, 1, 1]
          : tensor<2x5x12x12x32xf32>, tensor<2x5x12x12x32xf32> -> tensor<3x3x3x1x32xf32>
  return %dw : tensor<3x3x3x1x32xf32>
}

func.func @planes_strided(%x: tensor<2x32x30x64xf32>, %dy: tensor<2x16x15x64xf32>) -> tensor<3x3x1x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [2, 2] dilations = [1, 1]
          : tensor<2x32x30x64xf32>, tensor<2x16x15x64xf32> -> tensor<3x3x1x64xf32>
  return %dw : tensor<3x3x1x64xf32>
}
