// --repeat reports compile time, time per call and GFLOP/s; --seed makes
// the random inputs reproducible.

// RUN: conv-run %s --entry bf --repeat 3 --check | FileCheck %s
// RUN: conv-run %s --entry bf --seed 42 --print > %t.a
// RUN: conv-run %s --entry bf --seed 42 --print > %t.b
// RUN: diff %t.a %t.b

// CHECK: compile: {{[0-9.]+}} ms
// CHECK-NEXT: time: {{[0-9.]+}} ms per call (3 calls)
// CHECK-NEXT: GFLOP/s: {{[0-9.]+}} (73728 FLOP per call)
// CHECK-NEXT: check: {{.*}}: PASS

// 2 * Cout 16 * Cf 8 * 3x3 * batch 2 * 4x4 = 73728
func.func @bf(%x: tensor<2x8x8x8xf32>, %dy: tensor<2x4x4x16xf32>) -> tensor<3x3x8x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [2, 2] dilations = [1, 1]
          : tensor<2x8x8x8xf32>, tensor<2x4x4x16xf32> -> tensor<3x3x8x16xf32>
  return %dw : tensor<3x3x8x16xf32>
}
