// RUN: conv-opt %s --convert-conv-to-linalg --mlir-print-local-scope | FileCheck %s
// RUN: conv-opt %s --convert-conv-to-linalg="transpose-per-tap=never" | FileCheck %s --check-prefix=PHASES

// Columns lowering of a transposed convolution with few output channels
// (docs/Lowering.md §3.6): 4 output channels x 4 taps = 16 columns.
//   1. KT[1, ci, (m, co)] = K[m, co, ci] (a permuting copy, reshaped).
//   2. Per batch item (an scf.forall: the items write disjoint outputs),
//      Y[1, j, (m, co)] = sum_ci x[j, ci] * KT[ci, (m, co)]:
//      a 1x1 correlation with 16 output channels (role transpose_phase).
//   3. Tap by tap, out[j*2 + m - 1, co] += Y[j, m, co] over the input rows j
//      that land in the output (crop 1): tap 0 rows 1..5, taps 1-2 rows 0..5
//      (one scf.for over them), tap 3 rows 0..4.
// CHECK-LABEL: func.func @columns_1d
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2, d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]{{.*}} ins(%{{.*}} : tensor<4x4x4xf32>) outs(%{{.*}} : tensor<4x4x4xf32>)
// CHECK:         tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2]] : tensor<4x4x4xf32> into tensor<4x16xf32>
// CHECK:         %[[KT:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2]] output_shape [1, 4, 16] : tensor<4x16xf32> into tensor<1x4x16xf32>
// CHECK:         scf.forall (%[[B:.*]]) in (2) shared_outs(%[[SH:.*]] = %{{.*}}) -> (tensor<2x12x4xf32>)
// CHECK:           %[[OUT:.*]] = tensor.extract_slice %[[SH]][%[[B]], 0, 0] [1, 12, 4] [1, 1, 1] : tensor<2x12x4xf32> to tensor<1x12x4xf32>
// CHECK:           %[[X:.*]] = tensor.extract_slice %{{.*}}[%[[B]], 0, 0] [1, 6, 4] [1, 1, 1] : tensor<2x6x4xf32> to tensor<1x6x4xf32>
// CHECK:           %[[Y0:.*]] = linalg.fill {{.*}} -> tensor<1x6x16xf32>
// CHECK:           %[[Y:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[KT]] : tensor<1x6x4xf32>, tensor<1x4x16xf32>) outs(%[[Y0]] : tensor<1x6x16xf32>) attrs = {conv.role = "transpose_phase"}
// CHECK:           %[[YS:.*]] = tensor.expand_shape %[[Y]] {{\[}}[0], [1], [2, 3]] output_shape [1, 6, 4, 4]
// Tap 0: input rows 1..5 land on outputs 1, 3, ..., 9.
// CHECK:           tensor.extract_slice %[[YS]][0, 1, 0, 0] [1, 5, 1, 4] [1, 1, 1, 1] : tensor<1x6x4x4xf32> to tensor<1x5x4xf32>
// CHECK:           tensor.extract_slice %[[OUT]][0, 1, 0] [1, 5, 4] [1, 2, 1]
// CHECK:           arith.addf
// Taps 1 and 2: all 6 rows, outputs m - 1, m + 1, ...
// CHECK:           scf.for %[[M:[^ ]*]] = %c1{{.*}} to %c3{{.*}} step %c1
// CHECK:             tensor.extract_slice %[[YS]][0, 0, %[[M]], 0] [1, 6, 1, 4] [1, 1, 1, 1] : tensor<1x6x4x4xf32> to tensor<1x6x4xf32>
// CHECK:             %[[O:.*]] = affine.apply affine_map<(d0) -> (d0 - 1)>(%[[M]])
// CHECK:             tensor.extract_slice %{{.*}}[0, %[[O]], 0] [1, 6, 4] [1, 2, 1]
// Tap 3: rows 0..4, outputs 2, 4, ..., 10.
// CHECK:           tensor.extract_slice %[[YS]][0, 0, 3, 0] [1, 5, 1, 4] [1, 1, 1, 1] : tensor<1x6x4x4xf32> to tensor<1x5x4xf32>
// CHECK:           tensor.extract_slice %{{.*}}[0, 2, 0] [1, 5, 4] [1, 2, 1]
// CHECK:         tensor.parallel_insert_slice %{{.*}} into %[[SH]][%[[B]], 0, 0] [1, 12, 4] [1, 1, 1]
// PHASES-LABEL: func.func @columns_1d
// PHASES-NOT:     tensor.expand_shape
// PHASES:         conv.role = "transpose_phase"
func.func @columns_1d(%x: tensor<2x6x4xf32>, %k: tensor<4x4x4xf32>) -> tensor<2x12x4xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2] dilation_rate = [1] : tensor<2x6x4xf32>, tensor<4x4x4xf32> -> tensor<2x12x4xf32>
  return %y : tensor<2x12x4xf32>
}

// 8 output channels: phases, not columns.
// CHECK-LABEL: func.func @many_channels
// CHECK-NOT:     tensor.expand_shape
// CHECK:         return
func.func @many_channels(%x: tensor<2x6x4xf32>, %k: tensor<4x8x4xf32>) -> tensor<2x12x8xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2] dilation_rate = [1] : tensor<2x6x4xf32>, tensor<4x8x4xf32> -> tensor<2x12x8xf32>
  return %y : tensor<2x12x8xf32>
}

// A KT row of 32 columns x 4 bytes (a multiple of 128 bytes; ISTFT has
// 1024): the kernel is padded with 16 taps (64 bytes per KT row) before the
// copy, and the GEMM reads the [ci, 0:32) view of the padded KT, so that a
// column tile's panel does not sit on one cache set.
// CHECK-LABEL: func.func @padded_rows
// CHECK:         %[[KP:.*]] = tensor.pad %{{.*}} low[0, 0, 0] high[16, 0, 0]
// CHECK:           tensor<32x1x4xf32> to tensor<48x1x4xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[KP]] : tensor<48x1x4xf32>) outs(%{{.*}} : tensor<4x48x1xf32>)
// CHECK:         tensor.collapse_shape %{{.*}} : tensor<4x48x1xf32> into tensor<4x48xf32>
// CHECK:         tensor.extract_slice %{{.*}}[0, 0] [4, 32] [1, 1] : tensor<4x48xf32> to tensor<4x32xf32>
// CHECK:         tensor.expand_shape %{{.*}} output_shape [1, 4, 32] : tensor<4x32xf32> into tensor<1x4x32xf32>
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x6x4xf32>, tensor<1x4x32xf32>) outs(%{{.*}} : tensor<1x6x32xf32>) attrs = {conv.role = "transpose_phase"}
func.func @padded_rows(%x: tensor<1x6x4xf32>, %k: tensor<32x1x4xf32>) -> tensor<1x72x1xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [8] dilation_rate = [1] : tensor<1x6x4xf32>, tensor<32x1x4xf32> -> tensor<1x72x1xf32>
  return %y : tensor<1x72x1xf32>
}
