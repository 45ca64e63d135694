// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --mlir-print-local-scope | FileCheck %s
// RUN: conv-opt %s --convert-conv-to-linalg="transpose-per-tap=never" | FileCheck %s --check-prefix=PHASES

// Columns lowering of a transposed convolution with few output channels
// (docs/Lowering.md §3.6): 4 output channels x 4 taps = 16 columns.
//   1. KT[ci, (m, co)] = K[(m, co), ci]: the kernel as a [16, 4] matrix,
//      transposed (a linalg.transpose tagged as a relayout), as [1, 4, 16].
//   2. Per batch item (an scf.forall: the items write disjoint outputs),
//      Y[1, j, (m, co)] = sum_ci x[j, ci] * KT[ci, (m, co)]:
//      a 1x1 correlation over the item's pixels with 16 output channels
//      (role transpose_phase).
//   3. Input columns 1..4 land all 4 taps in the output (outputs 2j - 1 ..
//      2j + 2, crop 1): each adds its 16 (tap, co) values as one contiguous
//      row of the output (role row_add), in 2 rounds (columns 1, 3, then
//      2, 4: rows two columns apart do not overlap, so no row's adds wait
//      for the previous row's stores; the rounds are loops, being small).
//      The border columns go tap by tap: column 0 for taps 1-3 (outputs
//      0..2), column 5 for taps 0-2 (outputs 9..11).
// CHECK-LABEL: func.func @columns_1d
// CHECK:         %[[KM:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2]] : tensor<4x4x4xf32> into tensor<16x4xf32>
// CHECK:         %[[KTT:.*]] = linalg.transpose ins(%[[KM]] : tensor<16x4xf32>) outs(%{{.*}} : tensor<4x16xf32>) permutation = [1, 0]  {conv.role = "relayout"}
// CHECK:         %[[KT:.*]] = tensor.expand_shape %[[KTT]] {{\[}}[0, 1], [2]] output_shape [1, 4, 16] : tensor<4x16xf32> into tensor<1x4x16xf32>
// The output is not zero-filled as a whole: each item fills its own slice
// (viewed as one row of 48 values, role row_fill) before its adds.
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<2x12x4xf32>
// CHECK:         scf.forall (%[[B:.*]]) in (2) shared_outs(%[[SH:.*]] = %[[E]]) -> (tensor<2x12x4xf32>)
// CHECK:           %[[ITEM:.*]] = tensor.extract_slice %[[SH]][%[[B]], 0, 0] [1, 12, 4] [1, 1, 1] : tensor<2x12x4xf32> to tensor<1x12x4xf32>
// CHECK:           %[[IROW:.*]] = tensor.collapse_shape %[[ITEM]] {{\[}}[0], [1, 2]] : tensor<1x12x4xf32> into tensor<1x48xf32>
// CHECK:           %[[Z:.*]] = linalg.generic {{.*}} outs(%[[IROW]] : tensor<1x48xf32>) attrs = {conv.role = "row_fill"}
// CHECK:           %[[OUT:.*]] = tensor.expand_shape %[[Z]] {{\[}}[0], [1, 2]] output_shape [1, 12, 4] : tensor<1x48xf32> into tensor<1x12x4xf32>
// CHECK:           %[[X:.*]] = tensor.extract_slice %{{.*}}[%[[B]], 0, 0] [1, 6, 4] [1, 1, 1] : tensor<2x6x4xf32> to tensor<1x6x4xf32>
// CHECK:           %[[Y0:.*]] = linalg.fill {{.*}} -> tensor<1x6x16xf32>
// CHECK:           %[[Y:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[KT]] : tensor<1x6x4xf32>, tensor<1x4x16xf32>) outs(%[[Y0]] : tensor<1x6x16xf32>) attrs = {conv.role = "transpose_phase"}
// CHECK:           %[[YS:.*]] = tensor.expand_shape %[[Y]] {{\[}}[0], [1], [2, 3]] output_shape [1, 6, 4, 4]
// Column 0, taps 1..3: outputs 0, 1, 2.
// CHECK:           %[[L:.*]] = scf.for %[[M:[^ ]*]] = %c1{{.*}} to %c4{{.*}} step %c1{{.*}} iter_args(%{{.*}} = %[[OUT]])
// CHECK:             tensor.extract_slice %[[YS]][0, 0, %[[M]], 0] [1, 1, 1, 4] [1, 1, 1, 1] : tensor<1x6x4x4xf32> to tensor<1x1x4xf32>
// CHECK:             %[[O:.*]] = affine.apply affine_map<(d0) -> (d0 - 1)>(%[[M]])
// CHECK:             tensor.extract_slice %{{.*}}[0, %[[O]], 0] [1, 1, 4] [1, 2, 1]
// Column 5, taps 0..2: outputs 9, 10, 11.
// CHECK:           %[[R:.*]] = scf.for %[[M2:[^ ]*]] = %c0{{.*}} to %c3{{.*}} step %c1{{.*}} iter_args(%{{.*}} = %[[L]])
// CHECK:             tensor.extract_slice %[[YS]][0, 5, %[[M2]], 0] [1, 1, 1, 4] [1, 1, 1, 1] : tensor<1x6x4x4xf32> to tensor<1x1x4xf32>
// CHECK:             affine.apply affine_map<(d0) -> (d0 + 9)>(%[[M2]])
// Columns 1..4: rows of 16 values at output offset (2j - 1) * 4; round 0
// the columns j = 2i + 1, round 1 j = 2i + 2.
// CHECK:           %[[MERGED:.*]] = tensor.collapse_shape %[[R]] {{\[}}[0], [1, 2]] : tensor<1x12x4xf32> into tensor<1x48xf32>
// CHECK:           %[[ROUND0:.*]] = scf.for %[[I:[^ ]*]] = %c0{{.*}} to %c2{{.*}} step %c1{{.*}} iter_args(%[[A:.*]] = %[[MERGED]])
// CHECK:             %[[J:.*]] = affine.apply affine_map<(d0) -> (d0 * 2 + 1)>(%[[I]])
// CHECK:             %[[YS1:.*]] = tensor.extract_slice %[[Y]][0, %[[J]], 0] [1, 1, 16] [1, 1, 1] : tensor<1x6x16xf32> to tensor<1x1x16xf32>
// CHECK:             %[[YROW:.*]] = tensor.collapse_shape %[[YS1]] {{\[}}[0], [1, 2]] : tensor<1x1x16xf32> into tensor<1x16xf32>
// CHECK:             %[[Q:.*]] = affine.apply affine_map<(d0) -> (d0 * 16 + 4)>(%[[I]])
// CHECK:             %[[OROW:.*]] = tensor.extract_slice %[[A]][0, %[[Q]]] [1, 16] [1, 1] : tensor<1x48xf32> to tensor<1x16xf32>
// CHECK:             linalg.generic {{.*}} ins(%[[YROW]] : tensor<1x16xf32>) outs(%[[OROW]] : tensor<1x16xf32>) attrs = {conv.role = "row_add"}
// CHECK:               arith.addf
// CHECK:           %[[ROUND1:.*]] = scf.for %[[I1:[^ ]*]] = %c0{{.*}} to %c2{{.*}} step %c1{{.*}} iter_args(%{{.*}} = %[[ROUND0]])
// CHECK:             affine.apply affine_map<(d0) -> (d0 * 2 + 2)>(%[[I1]])
// CHECK:             affine.apply affine_map<(d0) -> (d0 * 16 + 12)>(%[[I1]])
// CHECK:             conv.role = "row_add"
// CHECK:           tensor.expand_shape %[[ROUND1]] {{\[}}[0], [1, 2]] output_shape [1, 12, 4] : tensor<1x48xf32> into tensor<1x12x4xf32>
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
// 1024): the transpose writes KT into the first 32 columns of a 48-column
// buffer (64 more bytes per row, never written nor read), so that a column
// tile's panel does not sit on one cache set; the GEMM reads that view.
// CHECK-LABEL: func.func @padded_rows
// CHECK-NOT:     tensor.pad
// CHECK:         %[[KM:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2]] : tensor<32x1x4xf32> into tensor<32x4xf32>
// CHECK:         %[[BUF:.*]] = bufferization.alloc_tensor() : tensor<4x48xf32>
// CHECK:         %[[VIEW:.*]] = tensor.extract_slice %[[BUF]][0, 0] [4, 32] [1, 1] : tensor<4x48xf32> to tensor<4x32xf32>
// CHECK:         %[[KT:.*]] = linalg.transpose ins(%[[KM]] : tensor<32x4xf32>) outs(%[[VIEW]] : tensor<4x32xf32>) permutation = [1, 0]
// CHECK:         tensor.expand_shape %[[KT]] {{\[}}[0, 1], [2]] output_shape [1, 4, 32] : tensor<4x32xf32> into tensor<1x4x32xf32>
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x6x4xf32>, tensor<1x4x32xf32>) outs(%{{.*}} : tensor<1x6x32xf32>) attrs = {conv.role = "transpose_phase"}
func.func @padded_rows(%x: tensor<1x6x4xf32>, %k: tensor<32x1x4xf32>) -> tensor<1x72x1xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [8] dilation_rate = [1] : tensor<1x6x4xf32>, tensor<32x1x4xf32> -> tensor<1x72x1xf32>
  return %y : tensor<1x72x1xf32>
}

// 2-D, valid (no crop): the GEMM runs over the 9 pixels of the item
// flattened (x as [1, 9, 4], Y as [1, 9, 18]), so the register tiles' rows
// are not cut at every input row. Every input column lands all 3 taps of
// the last dimension in the output: for each leading tap m_h, column j_w
// adds Y[0, 0:3, j_w, m_h, 0:6] (3 taps x 2 channels) to output rows
// 2 j_h + m_h at offset 2 j_w * 2 of the merged (w, co) dimension. (The Y
// row is a full-rank slice whose unit dims a collapse drops: MLIR 22's
// canonicalizer can rebuild a rank-reducing slice dropping the wrong unit
// dims once its offsets fold to constants.)
// CHECK-LABEL: func.func @columns_2d
// CHECK:         tensor.collapse_shape %arg0 {{\[}}[0], [1, 2], [3]] : tensor<1x3x3x4xf32> into tensor<1x9x4xf32>
// CHECK:         %[[Y:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x9x18xf32>) attrs = {conv.role = "transpose_phase"}
// CHECK:         %[[YS:.*]] = tensor.expand_shape %[[Y]] {{\[}}[0], [1, 2], [3, 4]] output_shape [1, 3, 3, 3, 6]
// CHECK:         scf.for %[[MH:[^ ]*]] = %c0 to %c3 step %c1
// CHECK:           tensor.collapse_shape %{{.*}} {{\[}}[0], [1], [2, 3]] : tensor<1x7x7x2xf32> into tensor<1x7x14xf32>
// CHECK:           scf.for %[[JW:[^ ]*]] = %c0 to %c3 step %c1
// CHECK:             %[[YS1:.*]] = tensor.extract_slice %[[YS]][0, 0, %[[JW]], %[[MH]], 0] [1, 3, 1, 1, 6] [1, 1, 1, 1, 1] : tensor<1x3x3x3x6xf32> to tensor<1x3x1x1x6xf32>
// CHECK:             %[[YROW:.*]] = tensor.collapse_shape %[[YS1]] {{\[}}[0], [1], [2, 3, 4]] : tensor<1x3x1x1x6xf32> into tensor<1x3x6xf32>
// CHECK:             %[[Q:.*]] = affine.apply affine_map<(d0) -> (d0 * 4)>(%[[JW]])
// CHECK:             %[[OROW:.*]] = tensor.extract_slice %{{.*}}[0, %[[MH]], %[[Q]]] [1, 3, 6] [1, 2, 1] : tensor<1x7x14xf32> to tensor<1x3x6xf32>
// CHECK:             linalg.generic {{.*}} ins(%[[YROW]] : tensor<1x3x6xf32>) outs(%[[OROW]] : tensor<1x3x6xf32>) attrs = {conv.role = "row_add"}
func.func @columns_2d(%x: tensor<1x3x3x4xf32>, %k: tensor<3x3x2x4xf32>) -> tensor<1x7x7x2xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2, 2] dilation_rate = [1, 1] : tensor<1x3x3x4xf32>, tensor<3x3x2x4xf32> -> tensor<1x7x7x2xf32>
  return %y : tensor<1x7x7x2xf32>
}

// Fewer pixels than columns (ISTFT-like: 4 frames, 32 columns), so that
// transposing the item's X and the product back, (8 + 32) * 4 values, is
// cheaper than transposing K, 8 * 32: the GEMM is Y^T = K X^T, with the
// kernel as it is ([32, 8], the row operand: one broadcast value per row)
// and X^T ([8, 4]) as the vector operand; Y^T [32, 4] is transposed back
// to Y [4, 32] (into rows one cache line longer: 32 values are 128 bytes),
// whose rows the row adds read as before.
// CHECK-LABEL: func.func @swapped
// CHECK:         %[[KM:.*]] = tensor.collapse_shape %arg1 {{\[}}[0, 1], [2]] : tensor<32x1x8xf32> into tensor<32x8xf32>
// CHECK-NOT:     linalg.transpose ins(%[[KM]]
// CHECK:         %[[XM:.*]] = tensor.collapse_shape %arg0 {{\[}}[0, 1], [2]] : tensor<1x4x8xf32> into tensor<4x8xf32>
// CHECK:         %[[XT:.*]] = linalg.transpose ins(%[[XM]] : tensor<4x8xf32>) outs(%{{.*}} : tensor<8x4xf32>) permutation = [1, 0]  {conv.role = "relayout"}
// CHECK:         %[[XT3:.*]] = tensor.expand_shape %[[XT]] {{\[}}[0, 1], [2]] output_shape [1, 8, 4] : tensor<8x4xf32> into tensor<1x8x4xf32>
// CHECK:         %[[K3:.*]] = tensor.expand_shape %[[KM]] {{\[}}[0, 1], [2]] output_shape [1, 32, 8] : tensor<32x8xf32> into tensor<1x32x8xf32>
// CHECK:         %[[Z:.*]] = linalg.fill {{.*}} -> tensor<1x32x4xf32>
// CHECK:         %[[YT:.*]] = linalg.generic {{.*}} ins(%[[K3]], %[[XT3]] : tensor<1x32x8xf32>, tensor<1x8x4xf32>) outs(%[[Z]] : tensor<1x32x4xf32>) attrs = {conv.role = "transpose_phase"}
// CHECK:         %[[YT2:.*]] = tensor.collapse_shape %[[YT]] {{\[}}[0, 1], [2]] : tensor<1x32x4xf32> into tensor<32x4xf32>
// CHECK:         %[[BUF:.*]] = bufferization.alloc_tensor() : tensor<4x48xf32>
// CHECK:         %[[VIEW:.*]] = tensor.extract_slice %[[BUF]][0, 0] [4, 32] [1, 1] : tensor<4x48xf32> to tensor<4x32xf32>
// CHECK:         %[[Y:.*]] = linalg.transpose ins(%[[YT2]] : tensor<32x4xf32>) outs(%[[VIEW]] : tensor<4x32xf32>) permutation = [1, 0]  {conv.role = "relayout"}
// CHECK:         %[[Y3:.*]] = tensor.expand_shape %[[Y]] {{\[}}[0, 1], [2]] output_shape [1, 4, 32] : tensor<4x32xf32> into tensor<1x4x32xf32>
// CHECK:         scf.for %[[J:[^ ]*]] = %c0 to %c4 step %c1
// CHECK:           tensor.extract_slice %[[Y3]][0, %[[J]], 0] [1, 1, 32] [1, 1, 1] : tensor<1x4x32xf32> to tensor<1x1x32xf32>
// CHECK:           linalg.generic {{.*}} attrs = {conv.role = "row_add"}
func.func @swapped(%x: tensor<1x4x8xf32>, %k: tensor<32x1x8xf32>) -> tensor<1x56x1xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [8] dilation_rate = [1] : tensor<1x4x8xf32>, tensor<32x1x8xf32> -> tensor<1x56x1xf32>
  return %y : tensor<1x56x1xf32>
}

// One batch item with rounds of at least 16 Ki values (4 rounds of 150 rows
// of 128 values): each round is an scf.forall that threads split (its rows
// do not overlap); the rounds stay in order.
// CHECK-LABEL: func.func @threaded_rounds
// CHECK:         %[[T0:.*]] = scf.forall (%[[I:.*]]) in (150) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<1x19296xf32>)
// CHECK:           affine.apply affine_map<(d0) -> (d0 * 4)>(%[[I]])
// CHECK:           conv.role = "row_add"
// CHECK:           tensor.parallel_insert_slice
// CHECK:         %[[T1:.*]] = scf.forall (%[[I1:.*]]) in (150) shared_outs(%{{.*}} = %[[T0]])
// CHECK:           affine.apply affine_map<(d0) -> (d0 * 4 + 1)>(%[[I1]])
// CHECK:         %[[T2:.*]] = scf.forall (%{{.*}}) in (150) shared_outs(%{{.*}} = %[[T1]])
// CHECK:         scf.forall (%{{.*}}) in (150) shared_outs(%{{.*}} = %[[T2]])
func.func @threaded_rounds(%x: tensor<1x600x8xf32>, %k: tensor<128x1x8xf32>) -> tensor<1x19296xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [32] dilation_rate = [1] : tensor<1x600x8xf32>, tensor<128x1x8xf32> -> tensor<1x19296x1xf32>
  %c = tensor.collapse_shape %y [[0], [1, 2]] : tensor<1x19296x1xf32> into tensor<1x19296xf32>
  return %c : tensor<1x19296xf32>
}
