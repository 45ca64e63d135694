// RUN: conv-opt %s --convert-conv-to-linalg="dw-threads=2 dw-small-filter-block-bytes=16384" --mlir-print-local-scope --split-input-file | FileCheck %s
// RUN: conv-opt %s --convert-conv-to-linalg="dw-threads=2 dw-small-filter-block-bytes=16384 dw-reduction-block-bytes=8192" --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=BLOCKS
// RUN: conv-opt %s --convert-conv-to-linalg="dw-threads=1 dw-small-filter-block-bytes=16384" --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=ONE
// RUN: conv-opt %s --convert-conv-to-linalg="dw-threads=2 dw-small-filter-block-bytes=65536" --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=SMALL
// RUN: conv-opt %s --convert-conv-to-linalg="dw-threads=2" --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=SMALL

// Thread channel parts (docs/Lowering.md §2.4): a 3x3 filter gradient with
// 64 input and 32 output channels (72 KiB of dW, more than twice the 16 KiB
// small-filter block) on 2 threads. An scf.forall over 2 parts of 32 input
// channels leads: part q reads input channels [32q, 32q + 32) of the window
// and runs all the taps (their forall nested inside) into rows
// [32q, 32q + 32) of dW.
// CHECK-LABEL: func.func @rows
// CHECK:         scf.forall (%[[Q:.*]]) in (2) shared_outs(%[[DW:.*]] = %{{.*}}) -> (tensor<3x3x64x32xf32>)
// CHECK:           %[[CI:.*]] = affine.apply affine_map<(d0) -> (d0 * 32)>(%[[Q]])
// CHECK-DAG:       %[[X:.*]] = tensor.extract_slice %arg0[0, 0, 0, %[[CI]]] [2, 8, 8, 32] [1, 1, 1, 1] : tensor<2x8x8x64xf32> to tensor<2x8x8x32xf32>
// CHECK-DAG:       %[[MINE:.*]] = tensor.extract_slice %[[DW]][0, 0, %[[CI]], 0] [3, 3, 32, 32] [1, 1, 1, 1] : tensor<3x3x64x32xf32> to tensor<3x3x32x32xf32>
// CHECK:           %[[T:.*]] = scf.forall (%[[KH:.*]], %[[KW:.*]]) in (3, 3) shared_outs(%[[TS:.*]] = %[[MINE]]) -> (tensor<3x3x32x32xf32>)
// CHECK-DAG:         tensor.extract_slice %[[X]][0, %[[KH]], %[[KW]], 0] [2, 6, 6, 32]
// CHECK-DAG:         tensor.extract_slice %[[TS]][%[[KH]], %[[KW]], 0, 0] [1, 1, 32, 32]
// CHECK:             linalg.generic {{.*}} ins(%{{.*}}, %arg1 : tensor<2x6x6x32xf32>, tensor<2x6x6x32xf32>) outs(%{{.*}} : tensor<32x32xf32>) attrs = {conv.dw_contractions = 9 : i64, conv.role = "dw_tap"}
// CHECK:           tensor.parallel_insert_slice %[[T]] into %[[DW]][0, 0, %[[CI]], 0] [3, 3, 32, 32] [1, 1, 1, 1]
// With reduction blocks (one batch item each), they run inside each part:
// one fork per call rather than one per block.
// BLOCKS-LABEL: func.func @rows
// BLOCKS:         scf.forall (%{{.*}}) in (2) shared_outs
// BLOCKS:           scf.for
// BLOCKS:             scf.forall (%{{.*}}, %{{.*}}) in (3, 3) shared_outs
// One thread: the taps' forall alone.
// ONE-LABEL: func.func @rows
// ONE:         scf.forall (%{{.*}}, %{{.*}}) in (3, 3) shared_outs
// A dW within twice the small-filter block (or without that option): the
// taps' forall spreads the work (here with 2 parts of the output channels
// too narrow: 16 each).
// SMALL-LABEL: func.func @rows
// SMALL:         scf.forall (%{{.*}}, %{{.*}}) in (3, 3) shared_outs
func.func @rows(%x: tensor<2x8x8x64xf32>, %dy: tensor<2x6x6x32xf32>) -> tensor<3x3x64x32xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<2x8x8x64xf32>, tensor<2x6x6x32xf32> -> tensor<3x3x64x32xf32>
  return %dw : tensor<3x3x64x32xf32>
}

// -----

// More output than input channels (channels first): 2 parts of 32 output
// channels, each reading its channels of out_backprop and writing its dW
// columns, over its reduction blocks of one batch item.
// CHECK-LABEL: func.func @columns
// CHECK:         scf.forall (%[[Q:.*]]) in (2) shared_outs(%[[DW:.*]] = %{{.*}}) -> (tensor<3x3x16x64xf32>)
// CHECK:           %[[CO:.*]] = affine.apply affine_map<(d0) -> (d0 * 32)>(%[[Q]])
// CHECK-DAG:       tensor.extract_slice %arg1[0, %[[CO]], 0, 0] [2, 32, 6, 6] [1, 1, 1, 1] : tensor<2x64x6x6xf32> to tensor<2x32x6x6xf32>
// CHECK-DAG:       %[[MINE:.*]] = tensor.extract_slice %[[DW]][0, 0, 0, %[[CO]]] [3, 3, 16, 32] [1, 1, 1, 1] : tensor<3x3x16x64xf32> to tensor<3x3x16x32xf32>
// CHECK:           %[[B:.*]] = scf.for %{{.*}} iter_args(%{{.*}} = %[[MINE]]) -> (tensor<3x3x16x32xf32>)
// CHECK:             scf.forall (%{{.*}}, %{{.*}}) in (3, 3) shared_outs
// CHECK:           tensor.parallel_insert_slice %[[B]] into %[[DW]][0, 0, 0, %[[CO]]] [3, 3, 16, 32] [1, 1, 1, 1]
func.func @columns(%x: tensor<2x16x8x8xf32>, %dy: tensor<2x64x6x6xf32>) -> tensor<3x3x16x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NCHW padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<2x16x8x8xf32>, tensor<2x64x6x6xf32> -> tensor<3x3x16x64xf32>
  return %dw : tensor<3x3x16x64xf32>
}

// -----

// Grouped filter gradients keep the taps' forall.
// CHECK-LABEL: func.func @grouped
// CHECK-NOT:     scf.forall (%{{.*}}) in (2)
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (3, 3) shared_outs
func.func @grouped(%x: tensor<2x8x8x128xf32>, %dy: tensor<2x6x6x64xf32>) -> tensor<3x3x64x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<2x8x8x128xf32>, tensor<2x6x6x64xf32> -> tensor<3x3x64x64xf32>
  return %dw : tensor<3x3x64x64xf32>
}
