// RUN: conv-opt %s --convert-conv-to-linalg="transpose-columns-band-bytes=1100" --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s
// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=OFF

// Columns lowering in bands of input rows (docs/Lowering.md §3.6): 2 items
// of 6 x 5 pixels, 3 x 3 taps x 3 channels = 27 columns, VALID (every tap
// along H reads all 6 input rows). An item's Y is 30 x 27 x 4 = 3240 bytes,
// over the 1100 of transpose-columns-band-bytes; a row of 5 pixels is 540
// bytes, so bands of 2 rows (the most that fit and divide the 6). Per band
// (an scf.for over the rows, inside the items' scf.forall): the GEMM of the
// band's 10 pixels, then its adds, each output slice shifted by 2 x the
// band's first row (stride 2).
// CHECK-LABEL: func.func @columns_bands
// CHECK:         scf.forall (%[[B:.*]]) in (2)
// CHECK:           linalg.generic {{.*}} attrs = {conv.role = "row_fill"}
// CHECK:           scf.for %[[R:.*]] = %c0 to %c6 step %c2
// CHECK:             %[[XI:.*]] = tensor.extract_slice %{{.*}}[%[[B]], 0, 0, 0] [1, 6, 5, 8]
// CHECK:             %[[XB:.*]] = tensor.extract_slice %[[XI]][0, %[[R]], 0, 0] [1, 2, 5, 8] [1, 1, 1, 1] : tensor<1x6x5x8xf32> to tensor<1x2x5x8xf32>
// CHECK:             %[[XC:.*]] = tensor.collapse_shape %[[XB]] {{\[}}[0], [1, 2], [3]] : tensor<1x2x5x8xf32> into tensor<1x10x8xf32>
// CHECK:             %[[Y:.*]] = linalg.generic {{.*}} ins(%[[XC]], %{{.*}} : tensor<1x10x8xf32>, tensor<1x8x27xf32>) outs(%{{.*}} : tensor<1x10x27xf32>) attrs = {conv.role = "transpose_phase"}
// CHECK:             tensor.expand_shape %[[Y]] {{\[}}[0], [1, 2], [3, 4]] output_shape [1, 2, 5, 3, 9]
// CHECK:             scf.for %[[KH:.*]] = %c0 to %c3 step %c1
// CHECK:               scf.for
// CHECK:                 %[[ROW:.*]] = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1)>(%[[R]], %[[KH]])
// CHECK:                 tensor.extract_slice %{{.*}}[0, %[[ROW]], %{{.*}}] [1, 2, 9] [1, 2, 1] : tensor<1x13x33xf32> to tensor<1x2x9xf32>
// CHECK:                 linalg.generic {{.*}} attrs = {conv.role = "row_add"}
// Without the option (the pass's default): one GEMM over the item's 30
// pixels.
// OFF-LABEL: func.func @columns_bands
// OFF-NOT:     scf.for %{{.*}} = %c0 to %c6
// OFF:         linalg.generic {{.*}} outs(%{{.*}} : tensor<1x30x27xf32>) attrs = {conv.role = "transpose_phase"}
func.func @columns_bands(%x: tensor<2x6x5x8xf32>, %k: tensor<3x3x3x8xf32>) -> tensor<2x13x11x3xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2, 2] dilation_rate = [1, 1] : tensor<2x6x5x8xf32>, tensor<3x3x3x8xf32> -> tensor<2x13x11x3xf32>
  return %y : tensor<2x13x11x3xf32>
}

// -----

// SAME crops the first output row: tap 0's first input row lands outside
// the output, so the taps along H read different rows; and a single item
// (the threads would only split a band's GEMM); and one dimension. No
// bands.
// CHECK-LABEL: func.func @columns_no_bands_same
// CHECK-NOT:     scf.for %{{.*}} = %c0 to %c6
// CHECK:         outs(%{{.*}} : tensor<1x30x27xf32>) attrs = {conv.role = "transpose_phase"}
// CHECK-LABEL: func.func @columns_no_bands_one_item
// CHECK-NOT:     scf.for %{{.*}} = %c0 to %c6
// CHECK:         outs(%{{.*}} : tensor<1x30x27xf32>) attrs = {conv.role = "transpose_phase"}
// CHECK-LABEL: func.func @columns_no_bands_1d
// CHECK:         outs(%{{.*}} : tensor<1x300x27xf32>) attrs = {conv.role = "transpose_phase"}
func.func @columns_no_bands_same(%x: tensor<2x6x5x8xf32>, %k: tensor<3x3x3x8xf32>) -> tensor<2x12x10x3xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [1, 1] : tensor<2x6x5x8xf32>, tensor<3x3x3x8xf32> -> tensor<2x12x10x3xf32>
  return %y : tensor<2x12x10x3xf32>
}
func.func @columns_no_bands_one_item(%x: tensor<1x6x5x8xf32>, %k: tensor<3x3x3x8xf32>) -> tensor<1x13x11x3xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2, 2] dilation_rate = [1, 1] : tensor<1x6x5x8xf32>, tensor<3x3x3x8xf32> -> tensor<1x13x11x3xf32>
  return %y : tensor<1x13x11x3xf32>
}
func.func @columns_no_bands_1d(%x: tensor<2x300x8xf32>, %k: tensor<9x3x8xf32>) -> tensor<2x607x3xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2] dilation_rate = [1] : tensor<2x300x8xf32>, tensor<9x3x8xf32> -> tensor<2x607x3xf32>
  return %y : tensor<2x607x3xf32>
}
