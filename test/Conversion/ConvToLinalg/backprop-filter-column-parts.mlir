// RUN: conv-opt %s --convert-conv-to-linalg="dw-threads=2" --mlir-print-local-scope --split-input-file | FileCheck %s
// RUN: conv-opt %s --convert-conv-to-linalg="dw-threads=4" --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=FOUR
// RUN: conv-opt %s --convert-conv-to-linalg --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=ONE
// RUN: conv-opt %s --convert-conv-to-linalg="dw-threads=2 dw-split-max-bytes=100000" --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=SPLIT

// 9 taps on 2 threads: each tap's 64 output channels are split into 2 parts
// of 32, the innermost dimension of the taps' scf.forall (18 iterations, 9
// per thread). Part p reads out_backprop channels [32p, 32p + 32) and writes
// the same columns of its tap.
// CHECK-LABEL: func.func @parts
// CHECK:         scf.forall (%[[KH:.*]], %[[KW:.*]], %[[P:.*]]) in (3, 3, 2) shared_outs(%[[DW:.*]] = %{{.*}}) -> (tensor<3x3x8x64xf32>)
// CHECK:           %[[CO:.*]] = affine.apply affine_map<(d0) -> (d0 * 32)>(%[[P]])
// CHECK-DAG:       %[[DY:.*]] = tensor.extract_slice %{{.*}}[0, 0, 0, %[[CO]]] [2, 6, 6, 32] [1, 1, 1, 1] : tensor<2x6x6x64xf32> to tensor<2x6x6x32xf32>
// CHECK-DAG:       %[[X:.*]] = tensor.extract_slice %{{.*}}[0, %[[KH]], %[[KW]], 0] [2, 6, 6, 8] [1, 1, 1, 1]
// CHECK-DAG:       %[[TAP:.*]] = tensor.extract_slice %[[DW]][%[[KH]], %[[KW]], 0, %[[CO]]] [1, 1, 8, 32] [1, 1, 1, 1] : tensor<3x3x8x64xf32> to tensor<8x32xf32>
// CHECK:           %[[R:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[DY]] : tensor<2x6x6x8xf32>, tensor<2x6x6x32xf32>) outs(%[[TAP]] : tensor<8x32xf32>)
// CHECK:           tensor.parallel_insert_slice %[[R]] into %[[DW]][%[[KH]], %[[KW]], 0, %[[CO]]] [1, 1, 8, 32] [1, 1, 1, 1]
// 4 threads: 4 parts of 16 channels are too narrow.
// FOUR-LABEL: func.func @parts
// FOUR:         scf.forall (%{{.*}}, %{{.*}}) in (3, 3) shared_outs
// The sequential default never splits.
// ONE-LABEL: func.func @parts
// ONE:         scf.forall (%{{.*}}, %{{.*}}) in (3, 3) shared_outs
func.func @parts(%x: tensor<2x8x8x8xf32>, %dy: tensor<2x6x6x64xf32>) -> tensor<3x3x8x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<2x8x8x8xf32>, tensor<2x6x6x64xf32> -> tensor<3x3x8x64xf32>
  return %dw : tensor<3x3x8x64xf32>
}

// -----

// 9 taps on 4 threads: 4 / gcd(9, 4) = 4 parts of 32 channels.
// CHECK-LABEL: func.func @four_parts
// CHECK:         scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (3, 3, 2)
// FOUR-LABEL: func.func @four_parts
// FOUR:         scf.forall (%{{.*}}, %{{.*}}, %[[P:.*]]) in (3, 3, 4)
// FOUR:           affine.apply affine_map<(d0) -> (d0 * 32)>(%[[P]])
// FOUR:           linalg.generic {{.*}} outs(%{{.*}} : tensor<8x32xf32>)
func.func @four_parts(%x: tensor<2x8x8x8xf32>, %dy: tensor<2x6x6x128xf32>) -> tensor<3x3x8x128xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<2x8x8x8xf32>, tensor<2x6x6x128xf32> -> tensor<3x3x8x128xf32>
  return %dw : tensor<3x3x8x128xf32>
}

// -----

// Not split on 2 threads: 2x2 taps (a multiple of the threads), 40 output
// channels (parts of 20 are not whole 16-channel vectors), 48 (parts of 24
// neither) and groups.
// CHECK-LABEL: func.func @even_taps
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (2, 2) shared_outs
func.func @even_taps(%x: tensor<2x7x7x8xf32>, %dy: tensor<2x6x6x64xf32>) -> tensor<2x2x8x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<2x7x7x8xf32>, tensor<2x6x6x64xf32> -> tensor<2x2x8x64xf32>
  return %dw : tensor<2x2x8x64xf32>
}
// CHECK-LABEL: func.func @narrow
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (3, 3) shared_outs
func.func @narrow(%x: tensor<2x8x8x8xf32>, %dy: tensor<2x6x6x40xf32>) -> tensor<3x3x8x40xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<2x8x8x8xf32>, tensor<2x6x6x40xf32> -> tensor<3x3x8x40xf32>
  return %dw : tensor<3x3x8x40xf32>
}
// CHECK-LABEL: func.func @not_vectors
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (3, 3) shared_outs
func.func @not_vectors(%x: tensor<2x8x8x8xf32>, %dy: tensor<2x6x6x48xf32>) -> tensor<3x3x8x48xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<2x8x8x8xf32>, tensor<2x6x6x48xf32> -> tensor<3x3x8x48xf32>
  return %dw : tensor<3x3x8x48xf32>
}
// CHECK-LABEL: func.func @grouped
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (3, 3) shared_outs
func.func @grouped(%x: tensor<2x8x8x16xf32>, %dy: tensor<2x6x6x128xf32>) -> tensor<3x3x8x128xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<2x8x8x16xf32>, tensor<2x6x6x128xf32> -> tensor<3x3x8x128xf32>
  return %dw : tensor<3x3x8x128xf32>
}

// -----

// A 1x1 filter (one tap) is split into 2 column parts on 2 threads, unless
// split-K already spreads it (the taps' forall is then inside the parts'
// forall, where a nested one would not run in parallel).
// CHECK-LABEL: func.func @one_tap
// CHECK:         scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (1, 1, 2)
// SPLIT-LABEL: func.func @one_tap
// SPLIT:         scf.forall (%{{.*}}) in (2)
// SPLIT:           scf.forall (%{{.*}}, %{{.*}}) in (1, 1) shared_outs
// SPLIT-NOT:     scf.forall (
func.func @one_tap(%x: tensor<4x48x48x8xf32>, %dy: tensor<4x48x48x64xf32>) -> tensor<1x1x8x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<4x48x48x8xf32>, tensor<4x48x48x64xf32> -> tensor<1x1x8x64xf32>
  return %dw : tensor<1x1x8x64xf32>
}

// -----

// A 1x1 filter with more input than output channels (128 -> 32) splits its
// input channels instead (row parts): part p reads input channels
// [64p, 64p + 64) and writes those rows of dW; out_backprop is read whole.
// CHECK-LABEL: func.func @row_parts
// CHECK:         scf.forall (%{{.*}}, %{{.*}}, %[[P:.*]]) in (1, 1, 2) shared_outs(%[[DW:.*]] = %{{.*}})
// CHECK:           %[[CI:.*]] = affine.apply affine_map<(d0) -> (d0 * 64)>(%[[P]])
// CHECK:           %[[X:.*]] = tensor.extract_slice %{{.*}}[0, 0, 0, %[[CI]]] [2, 6, 6, 64] [1, 1, 1, 1] : tensor<2x6x6x128xf32> to tensor<2x6x6x64xf32>
// CHECK:           %[[T:.*]] = tensor.extract_slice %[[DW]][%{{.*}}, %{{.*}}, %[[CI]], 0] [1, 1, 64, 32] [1, 1, 1, 1] : tensor<1x1x128x32xf32> to tensor<64x32xf32>
// CHECK:           linalg.generic {{.*}} ins(%[[X]], %{{.*}} : tensor<2x6x6x64xf32>, tensor<2x6x6x32xf32>) outs(%[[T]] : tensor<64x32xf32>)
// CHECK:           tensor.parallel_insert_slice %{{.*}} into %[[DW]][%{{.*}}, %{{.*}}, %[[CI]], 0] [1, 1, 64, 32]
// ONE-LABEL: func.func @row_parts
// ONE:         scf.forall (%{{.*}}, %{{.*}}) in (1, 1) shared_outs
// 4 threads: 4 parts of 32 input channels.
// FOUR-LABEL: func.func @row_parts
// FOUR:         scf.forall (%{{.*}}, %{{.*}}, %[[P:.*]]) in (1, 1, 4)
// FOUR:           affine.apply affine_map<(d0) -> (d0 * 32)>(%[[P]])
// FOUR:           linalg.generic {{.*}} outs(%{{.*}} : tensor<32x32xf32>)
// SPLIT-LABEL: func.func @row_parts
// SPLIT:         scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (1, 1, 2)
func.func @row_parts(%x: tensor<2x6x6x128xf32>, %dy: tensor<2x6x6x32xf32>) -> tensor<1x1x128x32xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<2x6x6x128xf32>, tensor<2x6x6x32xf32> -> tensor<1x1x128x32xf32>
  return %dw : tensor<1x1x128x32xf32>
}

// -----

// A strided 1x1 filter counts its input channels times the stride along the
// last spatial dimension (each thread reading the whole strided input would
// bring the skipped positions into its caches too): 64 x 2 >= 128 output
// channels splits the input channels (row parts of 32); 64 x 2 < 256 keeps
// the column parts.
// CHECK-LABEL: func.func @row_parts_strided
// CHECK:         scf.forall (%{{.*}}, %{{.*}}, %[[P:.*]]) in (1, 1, 2)
// CHECK:           affine.apply affine_map<(d0) -> (d0 * 32)>(%[[P]])
// CHECK:           linalg.generic {{.*}} outs(%{{.*}} : tensor<32x128xf32>)
// CHECK-LABEL: func.func @column_parts_strided
// CHECK:         scf.forall (%{{.*}}, %{{.*}}, %[[P:.*]]) in (1, 1, 2)
// CHECK:           affine.apply affine_map<(d0) -> (d0 * 128)>(%[[P]])
// CHECK:           linalg.generic {{.*}} outs(%{{.*}} : tensor<64x128xf32>)
func.func @row_parts_strided(%x: tensor<2x12x12x64xf32>, %dy: tensor<2x6x6x128xf32>) -> tensor<1x1x64x128xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [2, 2] dilations = [1, 1] : tensor<2x12x12x64xf32>, tensor<2x6x6x128xf32> -> tensor<1x1x64x128xf32>
  return %dw : tensor<1x1x64x128xf32>
}
func.func @column_parts_strided(%x: tensor<2x12x12x64xf32>, %dy: tensor<2x6x6x256xf32>) -> tensor<1x1x64x256xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [2, 2] dilations = [1, 1] : tensor<2x12x12x64xf32>, tensor<2x6x6x256xf32> -> tensor<1x1x64x256xf32>
  return %dw : tensor<1x1x64x256xf32>
}

// -----

// Tiny-Cin fused taps (3 channels, 7x7: rows (kw, ci) = 21 per leading tap
// kh) with 7 leading taps on 2 threads: the leading taps' scf.forall gets
// 2 parts of 32 output channels (14 iterations, 7 per thread). Each part
// packs its rows and contracts them with its out_backprop channels into
// its columns of the leading tap's [21, 32] block.
// CHECK-LABEL: func.func @fused_parts
// CHECK:         scf.forall (%[[KH:.*]], %[[P:.*]]) in (7, 2) shared_outs(%[[DW:.*]] = %{{.*}}) -> (tensor<7x7x3x64xf32>)
// CHECK:           %[[CO:.*]] = affine.apply affine_map<(d0) -> (d0 * 32)>(%[[P]])
// CHECK:           %[[DY:.*]] = tensor.extract_slice %{{.*}}[0, 0, 0, %[[CO]]] [2, 5, 5, 32] [1, 1, 1, 1] : tensor<2x5x5x64xf32> to tensor<2x5x5x32xf32>
// CHECK:           conv.role = "row_gather"
// CHECK:           %[[BLOCK:.*]] = tensor.extract_slice %[[DW]][%[[KH]], 0, 0, %[[CO]]] [1, 7, 3, 32] [1, 1, 1, 1] : tensor<7x7x3x64xf32> to tensor<7x3x32xf32>
// CHECK:           %[[R:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[DY]] : tensor<2x5x5x21xf32>, tensor<2x5x5x32xf32>) outs(%{{.*}} : tensor<21x32xf32>) attrs = {conv.dw_contractions = 7 : i64, conv.role = "dw_tap"}
// CHECK:           tensor.parallel_insert_slice %{{.*}} into %[[DW]][%[[KH]], 0, 0, %[[CO]]] [1, 7, 3, 32] [1, 1, 1, 1]
// FOUR-LABEL: func.func @fused_parts
// FOUR:         scf.forall (%{{.*}}, %{{.*}}) in (7, 4)
// ONE-LABEL: func.func @fused_parts
// ONE:         scf.forall (%{{.*}}) in (7) shared_outs
func.func @fused_parts(%x: tensor<2x11x11x3xf32>, %dy: tensor<2x5x5x64xf32>) -> tensor<7x7x3x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<2x11x11x3xf32>, tensor<2x5x5x64xf32> -> tensor<7x7x3x64xf32>
  return %dw : tensor<7x7x3x64xf32>
}
