// RUN: conv-opt %s --convert-conv-to-linalg=transpose-per-tap=always --canonicalize --mlir-print-local-scope | FileCheck %s

// The per-tap lowering when one run of taps per dimension partitions the
// output (4 taps, stride 2, SAME: taps 1 and 2 write the even and the odd
// output rows, every one of them). That box of taps goes first, each tap
// starting from a zero fill of its own output slice; the output itself is
// a tensor.empty with no fill. The other taps (0 and 3, three rows each)
// accumulate into the output.
// CHECK-LABEL: func.func @covered
// CHECK:         %[[EMPTY:.+]] = tensor.empty() : tensor<1x8x5xf32>
// CHECK-NOT:     linalg.fill
// CHECK:         %[[FIRST:.+]] = scf.for %[[T:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ACC:.+]] = %[[EMPTY]])
// CHECK:           %[[SLICE:.+]] = tensor.extract_slice %[[ACC]][0, %[[T]], 0] [1, 4, 5] [1, 2, 1]
// CHECK:           %[[ZERO:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[SLICE]] : tensor<1x4x5xf32>)
// CHECK:           linalg.generic {{.+}} outs(%[[ZERO]] : tensor<1x4x5xf32>) attrs = {conv.role = "transpose_phase"}
// CHECK:         scf.for %{{.+}} iter_args(%[[ACC2:.+]] = %[[FIRST]])
// CHECK:           %[[SLICE2:.+]] = tensor.extract_slice %[[ACC2]][0, %{{.+}}, 0] [1, 3, 5] [1, 2, 1]
// CHECK-NOT:       linalg.fill
// CHECK:           linalg.generic {{.+}} outs(%[[SLICE2]] : tensor<1x3x5xf32>) attrs = {conv.role = "transpose_phase"}
func.func @covered(%x: tensor<1x4x3xf32>, %k: tensor<4x5x3xf32>) -> tensor<1x8x5xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2] dilation_rate = [1] : tensor<1x4x3xf32>, tensor<4x5x3xf32> -> tensor<1x8x5xf32>
  return %y : tensor<1x8x5xf32>
}

// Stride 3 with 2 taps: output rows 2 and 5 get no tap, so the output keeps
// its zero fill and every tap accumulates into it.
// CHECK-LABEL: func.func @uncovered
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<1x6x5xf32>
// CHECK:         %[[Z:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[E]] : tensor<1x6x5xf32>)
// CHECK:         scf.for %{{.+}} iter_args(%[[A:.+]] = %[[Z]])
// CHECK:           %[[S:.+]] = tensor.extract_slice %[[A]]
// CHECK-NOT:       linalg.fill
// CHECK:           linalg.generic {{.+}} outs(%[[S]] : tensor<1x2x5xf32>)
func.func @uncovered(%x: tensor<1x2x3xf32>, %k: tensor<2x5x3xf32>) -> tensor<1x6x5xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [3] dilation_rate = [1] : tensor<1x2x3xf32>, tensor<2x5x3xf32> -> tensor<1x6x5xf32>
  return %y : tensor<1x6x5xf32>
}

// 2-D, 4x4 stride 2 SAME (DCGAN's geometry): taps 1 and 2 of each dimension
// cover the output, so their box (a 2x2 scf.for nest) goes first, zero
// filling its slices; the three other boxes accumulate.
// CHECK-LABEL: func.func @covered_2d
// CHECK:         %[[E2:.+]] = tensor.empty() : tensor<2x8x8x16xf32>
// CHECK-NOT:     linalg.fill
// CHECK:         scf.for %{{.+}} iter_args(%[[A0:.+]] = %[[E2]])
// CHECK:           scf.for %{{.+}} iter_args(%[[A1:.+]] = %[[A0]])
// CHECK:             %[[S2:.+]] = tensor.extract_slice %[[A1]][0, %{{.+}}, %{{.+}}, 0] [2, 4, 4, 16] [1, 2, 2, 1]
// CHECK:             %[[Z2:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[S2]] : tensor<2x4x4x16xf32>)
// CHECK:             linalg.generic {{.+}} outs(%[[Z2]] : tensor<2x4x4x16xf32>)
// CHECK-COUNT-3: conv.role = "transpose_phase"
// CHECK-NOT:     linalg.fill
// CHECK:         return
func.func @covered_2d(%x: tensor<2x4x4x8xf32>, %k: tensor<4x4x16x8xf32>) -> tensor<2x8x8x16xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [1, 1] : tensor<2x4x4x8xf32>, tensor<4x4x16x8xf32> -> tensor<2x8x8x16xf32>
  return %y : tensor<2x8x8x16xf32>
}
