// RUN: conv-opt %s --convert-conv-to-linalg="transpose-threads=2" --canonicalize --mlir-print-local-scope | FileCheck %s
// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize | FileCheck %s --check-prefix=ONE

// Row parts of the columns lowering (docs/Lowering.md §3.6): a single 1-D
// batch item on 2 threads. 16 input rows, k 7, s 2, 3 output channels
// (21 columns), output_padding 1: 38 outputs. G = ceil(7/2) = 4 rounds,
// h = 3 rows before a part reach into its outputs. Part p (P = 8 rows) owns
// the outputs [16p, 16p + 16) (48 values), computes the GEMM rows
// [max(8p - 3, 0), +11), and adds, round r by round r:
//   r >= 1: the halo row 8p - 4 + r (parts p >= 1: an scf.if) from output
//           16p on: its last 21 - 6(4 - r) values (3, 9, 15);
//   the whole rows 8p + r + 4i (2 in round 0, 1 in the others);
//   r >= 1: the row 8p + 4 + r up to output 16p + 16: its first 6(4 - r)
//           values (18, 12, 6).
// Outputs 32..37 (values 96..113) are zeroed and get the last 3 rows' values
// past output 32 after the scf.forall, in round order, from part 1's copy of
// its last 3 GEMM rows.
// CHECK-LABEL: func.func @row_parts
// CHECK:         %[[KM:.*]] = tensor.collapse_shape %{{.*}} : tensor<7x3x8xf32> into tensor<21x8xf32>
// CHECK:         %[[PARTS:.*]]:2 = scf.forall (%[[P:.*]]) in (2) shared_outs(%[[OUT:.*]] = %{{.*}}, %[[LAST:.*]] = %{{.*}}) -> (tensor<1x114xf32>, tensor<2x3x21xf32>)
// CHECK:           %[[BASE:.*]] = affine.max affine_map<(d0) -> (0, d0 * 8 - 3)>(%[[P]])
// CHECK:           %[[SHIFT:.*]] = affine.min affine_map<(d0) -> (3, d0 * 8)>(%[[P]])
// CHECK:           %[[X:.*]] = tensor.extract_slice %{{.*}}[0, %[[BASE]], 0] [1, 11, 8] [1, 1, 1] : tensor<1x16x8xf32> to tensor<1x11x8xf32>
// Each part transposes the kernel itself.
// CHECK:           %[[KT:.*]] = linalg.transpose ins(%[[KM]] : tensor<21x8xf32>) {{.*}} {conv.role = "relayout"}
// CHECK:           %[[KT3:.*]] = tensor.expand_shape %[[KT]]
// CHECK:           %[[Y:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[KT3]] : tensor<1x11x8xf32>, tensor<1x8x21xf32>) outs(%{{.*}} : tensor<1x11x21xf32>)
// CHECK:           %[[TILE_OFF:.*]] = affine.apply affine_map<(d0) -> (d0 * 48)>(%[[P]])
// CHECK:           %[[TILE:.*]] = tensor.extract_slice %[[OUT]][0, %[[TILE_OFF]]] [1, 48] [1, 1]
// CHECK:           %[[ZERO:.*]] = linalg.generic {{.*}} outs(%[[TILE]] : tensor<1x48xf32>) attrs = {conv.role = "row_fill"}
// CHECK:           %[[NOT_FIRST:.*]] = arith.cmpi ugt, %[[P]], %c0
// Round 0: rows 8p and 8p + 4, whole, at values 0 and 24 of the tile.
// CHECK:           %[[R0:.*]] = scf.for %[[I:.*]] = %c0 to %c2 step %c1 iter_args(%[[A0:.*]] = %[[ZERO]])
// CHECK:             %[[O0:.*]] = affine.apply affine_map<(d0) -> (d0 * 24)>(%[[I]])
// CHECK:             %[[L0:.*]] = affine.apply affine_map<(d0, d1) -> (d0 + d1 * 4)>(%[[SHIFT]], %[[I]])
// CHECK:             tensor.extract_slice %[[Y]][0, %[[L0]], 0] [1, 1, 21]
// CHECK:             tensor.extract_slice %[[A0]][0, %[[O0]]] [1, 21]
// CHECK:             conv.role = "row_add"
// Round 1: the halo row 8p - 3 (GEMM row 0 of parts p >= 1) from output
// 16p: its values 18..20.
// CHECK:           %[[H1:.*]] = scf.if %[[NOT_FIRST]] -> (tensor<1x48xf32>) {
// CHECK:             tensor.extract_slice %[[Y]][0, 0, 18] [1, 1, 3]
// CHECK:             tensor.extract_slice %[[R0]][0, 0] [1, 3]
// CHECK:             conv.role = "row_add"
// CHECK:           } else {
// CHECK:             scf.yield %[[R0]]
// CHECK:           }
// CHECK:           %[[L1:.*]] = affine.apply affine_map<(d0) -> (d0 + 1)>(%[[SHIFT]])
// CHECK:           tensor.extract_slice %[[Y]][0, %[[L1]], 0] [1, 1, 21]
// CHECK:           tensor.extract_slice %[[H1]][0, 6] [1, 21]
// CHECK:           conv.role = "row_add"
// Its cut row 8p + 5: the first 18 values, at tile value 30.
// CHECK:           %[[T1:.*]] = affine.apply affine_map<(d0) -> (d0 + 5)>(%[[SHIFT]])
// CHECK:           tensor.extract_slice %[[Y]][0, %[[T1]], 0] [1, 1, 18]
// CHECK:           tensor.extract_slice %{{.*}}[0, 30] [1, 18]
// CHECK:           conv.role = "row_add"
// Round 2: halo values 12..20, row 8p + 2 at 12, row 8p + 6's first 12.
// CHECK:           scf.if %[[NOT_FIRST]]
// CHECK:             tensor.extract_slice %[[Y]][0, 1, 12] [1, 1, 9]
// CHECK:           tensor.extract_slice %{{.*}}[0, 12] [1, 21]
// CHECK:           tensor.extract_slice %[[Y]][0, %{{.*}}, 0] [1, 1, 12]
// CHECK:           tensor.extract_slice %{{.*}}[0, 36] [1, 12]
// Round 3: halo values 6..20, row 8p + 3 at 18, row 8p + 7's first 6.
// CHECK:           scf.if %[[NOT_FIRST]]
// CHECK:             tensor.extract_slice %[[Y]][0, 2, 6] [1, 1, 15]
// CHECK:           tensor.extract_slice %{{.*}}[0, 18] [1, 21]
// CHECK:           tensor.extract_slice %[[Y]][0, %{{.*}}, 0] [1, 1, 6]
// CHECK:           %[[DONE:.*]] = tensor.insert_slice %{{.*}}[0, 42] [1, 6]
// The part's last 3 GEMM rows (8p + 5..7).
// CHECK:           %[[LROWS:.*]] = tensor.extract_slice %[[Y]][0, %{{.*}}, 0] [1, 3, 21]
// CHECK:           scf.forall.in_parallel {
// CHECK:             tensor.parallel_insert_slice %[[DONE]] into %[[OUT]][0, %[[TILE_OFF]]] [1, 48] [1, 1]
// CHECK:             tensor.parallel_insert_slice %[[LROWS]] into %[[LAST]][%[[P]], 0, 0] [1, 3, 21] [1, 1, 1]
// CHECK:           }
// Outputs 32..37: zeros, then rows 13, 14, 15 past output 32 (their last
// 3, 9, 15 values).
// CHECK:         %[[TAIL:.*]] = tensor.extract_slice %[[PARTS]]#0[0, 96] [1, 18] [1, 1]
// CHECK:         linalg.generic {{.*}} outs(%[[TAIL]] : tensor<1x18xf32>) attrs = {conv.role = "row_fill"}
// CHECK:         tensor.extract_slice %[[PARTS]]#1[1, 0, 0] [1, 3, 21]
// CHECK:         tensor.extract_slice %{{.*}}[0, 0, 18] [1, 1, 3]
// CHECK:         conv.role = "row_add"
// CHECK:         tensor.extract_slice %{{.*}}[0, 1, 12] [1, 1, 9]
// CHECK:         conv.role = "row_add"
// CHECK:         tensor.extract_slice %{{.*}}[0, 2, 6] [1, 1, 15]
// CHECK:         conv.role = "row_add"
// CHECK:         %[[ALL:.*]] = tensor.insert_slice %{{.*}} into %[[PARTS]]#0[0, 96] [1, 18] [1, 1]
// CHECK:         tensor.expand_shape %[[ALL]] {{\[}}[0], [1, 2]] output_shape [1, 38, 3]
// One thread: one GEMM of the 16 rows, no scf.forall.
// ONE-LABEL: func.func @row_parts
// ONE-NOT:     scf.forall (
// ONE:         linalg.generic {{.*}} outs(%{{.*}} : tensor<1x16x21xf32>)
// ONE-NOT:     scf.forall (
// ONE:         return
func.func @row_parts(%x: tensor<1x16x8xf32>, %k: tensor<7x3x8xf32>) -> tensor<1x38x3xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [2] dilation_rate = [1] output_padding = [1]
         : tensor<1x16x8xf32>, tensor<7x3x8xf32> -> tensor<1x38x3xf32>
  return %y : tensor<1x38x3xf32>
}

// No row parts: 18 rows in 2 parts of 9 (not a multiple of G = 4), 2 batch
// items (the items' scf.forall), "same" padding (outputs cropped: the
// border rows go tap by tap), a 2-D input.
// CHECK-LABEL: func.func @no_row_parts_rows
// CHECK-NOT:     scf.forall (
// CHECK:         return
func.func @no_row_parts_rows(%x: tensor<1x18x8xf32>, %k: tensor<7x3x8xf32>) -> tensor<1x41x3xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [2] dilation_rate = [1]
         : tensor<1x18x8xf32>, tensor<7x3x8xf32> -> tensor<1x41x3xf32>
  return %y : tensor<1x41x3xf32>
}
// CHECK-LABEL: func.func @no_row_parts_batch
// CHECK:         scf.forall (%{{.*}}) in (2) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<2x37x3xf32>)
// CHECK-NOT:     scf.forall (
// CHECK:         return
func.func @no_row_parts_batch(%x: tensor<2x16x8xf32>, %k: tensor<7x3x8xf32>) -> tensor<2x37x3xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [2] dilation_rate = [1]
         : tensor<2x16x8xf32>, tensor<7x3x8xf32> -> tensor<2x37x3xf32>
  return %y : tensor<2x37x3xf32>
}
// CHECK-LABEL: func.func @no_row_parts_same
// CHECK-NOT:     scf.forall (
// CHECK:         return
func.func @no_row_parts_same(%x: tensor<1x16x8xf32>, %k: tensor<7x3x8xf32>) -> tensor<1x32x3xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same
         strides = [2] dilation_rate = [1]
         : tensor<1x16x8xf32>, tensor<7x3x8xf32> -> tensor<1x32x3xf32>
  return %y : tensor<1x32x3xf32>
}
// CHECK-LABEL: func.func @no_row_parts_2d
// CHECK-NOT:     scf.forall (
// CHECK:         return
func.func @no_row_parts_2d(%x: tensor<1x4x16x8xf32>, %k: tensor<1x7x3x8xf32>) -> tensor<1x4x37x3xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [1, 2] dilation_rate = [1, 1]
         : tensor<1x4x16x8xf32>, tensor<1x7x3x8xf32> -> tensor<1x4x37x3xf32>
  return %y : tensor<1x4x37x3xf32>
}
