// Winograd F(3, 2) filter gradients (convert-conv-to-linalg's dw-winograd,
// docs/Lowering.md §2.7): per dimension the input and out_backprop are
// transformed to 4 points (every pair of output positions reads 4 input
// values and 2 out_backprop values), one 1x1 filter gradient per point
// (4^n of them, an scf.forall), and the output transform takes the 3 taps
// from the 4 points.
// RUN: conv-opt %s --convert-conv-to-linalg=dw-winograd=on --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s
// Off (the pass's default): the direct per-tap lowering. 'auto' (the CPU
// pipeline's default) takes 2-D layers with at least 32 channels each
// side, at most 0.6x the direct products, and a reduction of at least 192
// batch x pair positions: @rn9, not @small_batch (8 x 4 x 4 = 128 pairs,
// and 7 positions padded to 8), nor @one_d (1-D).
// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --split-input-file | FileCheck %s --check-prefix=OFF
// RUN: conv-opt %s --convert-conv-to-linalg=dw-winograd=auto --canonicalize --split-input-file | FileCheck %s --check-prefix=AUTO
// The CPU pipeline's thresholds on cores with two 512-bit FMA units: at
// least 64 channels each side and at most 0.55x the direct products
// (AUTOTZ lines): @rn9 and @c64, not @c32 nor @batch16.
// RUN: conv-opt %s "--convert-conv-to-linalg=dw-winograd=auto dw-winograd-min-channels=64 dw-winograd-max-products=0.55" --canonicalize --split-input-file | FileCheck %s --check-prefix=AUTOTZ
// RUN: not conv-opt %s --convert-conv-to-linalg=dw-winograd=yes 2>&1 | FileCheck %s --check-prefix=BAD
// A point whose transformed operands exceed dw-reduction-block-bytes (here
// 256 KiB: @rn9's are 784 KiB) is a 1x1 conv.backprop_filter, lowered in
// reduction blocks of batch items inside the points' forall; smaller ones
// (the default, no budget) are the contraction itself, into M's slot.
// RUN: conv-opt %s "--convert-conv-to-linalg=dw-winograd=on dw-reduction-block-bytes=262144" --canonicalize --split-input-file | FileCheck %s --check-prefix=BLOCKS
// BLOCKS-LABEL: func.func @rn9
// BLOCKS:         scf.forall ({{.+}}) in (16)
// BLOCKS:           scf.for %{{.+}} = %c0 to %c8 step %c2
// BLOCKS:             conv.role = "dw_tap"
// BLOCKS:           scf.forall.in_parallel
// Reduction blocks (dw-winograd-block-bytes, the CPU pipeline's L2 / 16):
// an scf.forall over the first dimension's 4 points (entries), each
// iteration the 4 points of the last dimension of one entry or more,
// accumulated over blocks of batch items or of pair rows (BLK lines, @c64
// in 2-row blocks of one image); with more threads than the 4 entries, 2
// points an iteration (the BLK5 lines, 5 threads).
// RUN: conv-opt %s "--convert-conv-to-linalg=dw-winograd=on dw-winograd-block-bytes=16384" --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=BLK
// RUN: conv-opt %s "--convert-conv-to-linalg=dw-winograd=on dw-winograd-block-bytes=16384 dw-threads=5" --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=BLK5
// With a 128 KiB budget @c64's 16 products (256 KiB) take at most 2
// budgets: the batch in two halves of 4 images, an iteration each
// (BLKP lines), summed after the forall.
// RUN: conv-opt %s "--convert-conv-to-linalg=dw-winograd=on dw-winograd-block-bytes=131072" --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=BLKP
// Blocks only when an iteration's 4 products take at most 8 budgets (half
// the L2 that the pipeline's budget implies): @rn9's 4 x 256 KiB with a
// 96 KiB budget keep the whole-batch form (PRODS lines); with 128 KiB they
// take blocks. With 96 KiB @c64's 16 products (256 KiB) take at most 4
// budgets (a quarter of the L2): the batch in two halves.
// RUN: conv-opt %s "--convert-conv-to-linalg=dw-winograd=on dw-winograd-block-bytes=98304" --canonicalize --split-input-file | FileCheck %s --check-prefix=PRODS
// RUN: conv-opt %s "--convert-conv-to-linalg=dw-winograd=on dw-winograd-block-bytes=131072" --canonicalize --split-input-file | FileCheck %s --check-prefix=PRODSB
// PRODS-LABEL: func.func @rn9
// PRODS:         bufferization.alloc_tensor() : tensor<4x8x7x16x256xf32>
// PRODS:         bufferization.alloc_tensor() : tensor<16x256x256xf32>
// PRODS:         scf.forall ({{.+}}) in (16)
// PRODS-LABEL: func.func @c64
// PRODS:         bufferization.alloc_tensor() : tensor<8x3x64x64xf32>
// PRODS:         scf.forall ({{.+}}) in (2)
// PRODS:         linalg.generic {{.+}} ins(%{{.+}}, %{{.+}} : tensor<4x3x64x64xf32>, tensor<4x3x64x64xf32>)
// PRODSB-LABEL: func.func @rn9
// PRODSB-NOT:    tensor<4x8x7x16x256xf32>
// PRODSB:        bufferization.alloc_tensor() : tensor<4x3x256x256xf32>
// PRODSB:        scf.forall ({{.+}}) in (4)
// dw-winograd-l1-block-bytes (the CPU pipeline's three quarters of the
// L1) caps F(3, 2) blocks only: with 16 KiB @c64 keeps its halves (the L2
// budget decides them) but reduces 2 pair rows of an image a block (29 KiB
// of one point's operands at most) instead of whole images (BLKL1 lines);
// F(5, 2) (@f52) keeps its one block of 8 images.
// RUN: conv-opt %s "--convert-conv-to-linalg=dw-winograd=on dw-winograd-block-bytes=131072 dw-winograd-l1-block-bytes=16384" --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=BLKL1
// BAD: convert-conv-to-linalg: option dw-winograd: expected 'off', 'auto' or 'on', got 'yes'
// OFF-NOT: winograd_transform

// ResNet-50's 14x14x256 3x3 layer: 7 x 7 pairs. The first dimension's
// transforms (4 ops each) make stacks of 4 over the whole batch; each of
// the 16 points then transforms its entry along the last dimension
// (c0 * t0 + c1 * t1, the coefficients selected by the point) and reduces
// it with a 1x1 filter gradient (a dw_tap contraction, marked
// conv.dw_winograd) into its slot of M (zero-filled in place); 3 + 3 output-transform ops make dW (the last
// dimension first).
// CHECK-LABEL: func.func @rn9
// CHECK:         %[[X:.+]] = tensor.pad %{{.+}} low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK:         tensor.extract_slice %[[X]][0, 0, 0, 0] [8, 7, 16, 256] [1, 2, 1, 1]
// CHECK:         tensor.extract_slice %[[X]][0, 2, 0, 0] [8, 7, 16, 256] [1, 2, 1, 1]
// CHECK:         bufferization.alloc_tensor() : tensor<4x8x7x16x256xf32>
// CHECK-COUNT-4: conv.role = "winograd_transform"
// CHECK:         bufferization.alloc_tensor() : tensor<4x8x7x14x256xf32>
// CHECK-COUNT-3: conv.role = "winograd_transform"
// CHECK:         %[[M:.+]] = bufferization.alloc_tensor() : tensor<16x256x256xf32>
// CHECK:         %[[P:.+]] = scf.forall (%[[A:.+]]) in (16) shared_outs(%[[S:.+]] = %[[M]])
// CHECK:           affine.apply affine_map<()[s0] -> (s0 floordiv 4)>()[%[[A]]]
// CHECK:           affine.apply affine_map<()[s0] -> (s0 mod 4)>()[%[[A]]]
// CHECK:           tensor.extract_slice %{{.+}}[0, 0, %{{.+}}, 0] [8, 7, 7, 256] [1, 1, 2, 1] : tensor<8x7x16x256xf32> to tensor<8x7x7x256xf32>
// CHECK:           linalg.generic {{.+}} ins(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : tensor<8x7x7x256xf32>, tensor<8x7x7x256xf32>, f32, f32) {{.+}}conv.role = "winograd_transform"
// CHECK:             arith.mulf
// CHECK:             arith.mulf
// CHECK:             arith.addf
// CHECK:           linalg.generic {{.+}} ins(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : tensor<8x7x7x256xf32>, tensor<8x7x7x256xf32>, f32, f32) {{.+}}conv.role = "winograd_transform"
// CHECK:           %[[SLOT:.+]] = tensor.extract_slice %[[S]][%[[A]], 0, 0] [1, 256, 256] [1, 1, 1]
// CHECK:           %[[FLAT:.+]] = tensor.collapse_shape %[[SLOT]]
// CHECK:           %[[ZERO:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[FLAT]] : tensor<256x256xf32>)
// CHECK:           %[[V:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0], [1, 2], [3]] : tensor<8x7x7x256xf32> into tensor<8x49x256xf32>
// CHECK:           %[[U:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0], [1, 2], [3]] : tensor<8x7x7x256xf32> into tensor<8x49x256xf32>
// CHECK:           linalg.generic
// CHECK-SAME:        iterator_types = ["parallel", "parallel", "reduction", "reduction"]
// CHECK-SAME:        ins(%[[V]], %[[U]] : tensor<8x49x256xf32>, tensor<8x49x256xf32>)
// CHECK-SAME:        outs(%[[ZERO]] : tensor<256x256xf32>)
// CHECK-SAME:        attrs = {conv.dw_contractions = 1 : i64, conv.dw_winograd, conv.role = "dw_tap"}
// CHECK:           scf.forall.in_parallel
// CHECK-NEXT:        tensor.parallel_insert_slice %{{.+}} into %[[S]][%[[A]], 0, 0] [1, 256, 256] [1, 1, 1] : tensor<1x256x256xf32> into tensor<16x256x256xf32>
// CHECK:         tensor.expand_shape %[[P]] {{\[}}[0, 1], [2], [3]] output_shape [4, 4, 256, 256]
// CHECK:         bufferization.alloc_tensor() : tensor<4x3x256x256xf32>
// CHECK-COUNT-3: conv.role = "winograd_transform"
// CHECK:         bufferization.alloc_tensor() : tensor<3x3x256x256xf32>
// CHECK-COUNT-3: conv.role = "winograd_transform"
// CHECK:         return %{{.+}} : tensor<3x3x256x256xf32>
// AUTO-LABEL: func.func @rn9
// AUTO: scf.forall ({{.+}}) in (16)
// AUTO: winograd_transform
// AUTOTZ-LABEL: func.func @rn9
// AUTOTZ: scf.forall ({{.+}}) in (16)
// AUTOTZ: winograd_transform
func.func @rn9(%x: tensor<8x14x14x256xf32>, %dy: tensor<8x14x14x256xf32>) -> tensor<3x3x256x256xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<8x14x14x256xf32>, tensor<8x14x14x256xf32> -> tensor<3x3x256x256xf32>
  return %dw : tensor<3x3x256x256xf32>
}

// -----

// Dilation 2 along the first dimension: its pairs are (o, o + 2), the
// padded window [-1, 11) viewed as 3 blocks of 4 rows (2 d); the values of
// a pair are the block q + i / 2, columns [2 (i % 2), 2 (i % 2) + 2). The
// other dimension (dilation 1) reads every other column (stride 2).
// CHECK-LABEL: func.func @dilated
// CHECK:         %[[X:.+]] = tensor.expand_shape %{{.+}} {{\[}}[0], [1, 2], [3], [4]] output_shape [2, 3, 4, 8, 16] : tensor<2x12x8x16xf32> into tensor<2x3x4x8x16xf32>
// CHECK:         tensor.extract_slice %[[X]][0, 0, 0, 0, 0] [2, 2, 2, 8, 16] [1, 1, 1, 1, 1]
// CHECK:         tensor.extract_slice %[[X]][0, 0, 2, 0, 0] [2, 2, 2, 8, 16] [1, 1, 1, 1, 1]
// CHECK:         tensor.extract_slice %[[X]][0, 1, 0, 0, 0] [2, 2, 2, 8, 16] [1, 1, 1, 1, 1]
// CHECK:         tensor.extract_slice %[[X]][0, 1, 2, 0, 0] [2, 2, 2, 8, 16] [1, 1, 1, 1, 1]
// CHECK:         scf.forall ({{.+}}) in (16)
// CHECK:           tensor.extract_slice %{{.+}}[0, 0, 0, %{{.+}}, 0] [2, 2, 2, 3, 16] [1, 1, 1, 2, 1] : tensor<2x2x2x8x16xf32> to tensor<2x2x2x3x16xf32>
// CHECK:           tensor.collapse_shape %{{.+}} {{\[}}[0], [1, 2, 3], [4]] : tensor<2x2x2x3x16xf32> into tensor<2x12x16xf32>
// CHECK:           conv.role = "dw_tap"
// CHECK:         return %{{.+}} : tensor<3x3x16x24xf32>
func.func @dilated(%x: tensor<2x9x6x16xf32>, %dy: tensor<2x8x6x24xf32>) -> tensor<3x3x16x24xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = EXPLICIT
          explicit_paddings = [1, 2, 1, 1]
          strides = [1, 1] dilations = [2, 1]
          : tensor<2x9x6x16xf32>, tensor<2x8x6x24xf32> -> tensor<3x3x16x24xf32>
  return %dw : tensor<3x3x16x24xf32>
}

// -----

// 'auto' leaves these direct: 128 pairs to reduce over (and 7 outputs
// padded to 8 a dimension), and a 1-D layer.
// AUTO-LABEL: func.func @small_batch
// AUTO-NOT: winograd_transform
// AUTO-LABEL: func.func @one_d
// AUTO-NOT: winograd_transform
func.func @small_batch(%x: tensor<8x7x7x512xf32>, %dy: tensor<8x7x7x512xf32>) -> tensor<3x3x512x512xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<8x7x7x512xf32>, tensor<8x7x7x512xf32> -> tensor<3x3x512x512xf32>
  return %dw : tensor<3x3x512x512xf32>
}

func.func @one_d(%x: tensor<8x64x64xf32>, %dy: tensor<8x64x64xf32>) -> tensor<3x64x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NWC padding = SAME
          strides = [1] dilations = [1]
          : tensor<8x64x64xf32>, tensor<8x64x64xf32> -> tensor<3x64x64xf32>
  return %dw : tensor<3x64x64xf32>
}

// -----

// 64 and 32 channels (ResNet's 28x28 shape; 0.44x the direct products)
// and the 7x7x512 layer with a batch of 16 (256 pairs, 0.58x the
// products: 7 positions padded to 8): 'auto' takes all three with its
// default thresholds, only the 64-channel one with the two-FMA-unit ones.
//
// In blocks (BLK): 2 entries of the first dimension's points an iteration
// (E = 2: their 8 products of 16 KiB take half the 256 KiB L2 that the
// budget implies), a0 = 2 it + e; per block (image b, pair rows [r, r +
// 2): window rows [2 r, 2 r + 6), out_backprop rows [2 r, 2 r + 4)) and
// entry, the first dimension's transforms (row a0 of BT and A), then per
// point a = 4 a0 + j the last dimension's transform and the dw_tap
// contraction into the iteration's product 4 e + j; after the blocks, the
// 3 taps of the last dimension (GT) of each entry's 4 products into
// M[2 it + e] (a loop over the entries), and GT along the first dimension
// after the forall.
// BLK-LABEL: func.func @c64
// BLK:         %[[X:.+]] = tensor.pad
// BLK:         %[[M:.+]] = bufferization.alloc_tensor() : tensor<4x3x64x64xf32>
// BLK:         %[[P:.+]] = scf.forall (%[[IT:.+]]) in (2) shared_outs(%[[S:.+]] = %[[M]])
// BLK:           %[[SLOTS:.+]] = tensor.empty() : tensor<8x64x64xf32>
// BLK:           %[[ZERO:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[SLOTS]] : tensor<8x64x64xf32>)
// BLK:           %[[R:.+]] = scf.for %[[B:.+]] = %c0 to %c8 step %c1 iter_args(%{{.+}} = %[[ZERO]])
// BLK:             scf.for %[[Q:.+]] = %c0 to %c14 step %c2 iter_args(
// BLK:               %[[XR:.+]] = affine.apply affine_map<()[s0] -> (s0 * 2)>()[%[[Q]]]
// BLK:               tensor.extract_slice %[[X]][%[[B]], %[[XR]], 0, 0] [1, 6, 30, 64] [1, 1, 1, 1]
// BLK:               tensor.extract_slice %{{.+}}[%[[B]], %{{.+}}, 0, 0] [1, 4, 28, 64] [1, 1, 1, 1]
// BLK:               scf.for %[[E:.+]] = %c0 to %c2 step %c1 iter_args(
// BLK:                 %[[A0:.+]] = affine.apply affine_map<()[s0, s1] -> ((s0 + s1 * 2) mod 4)>()[%[[E]], %[[IT]]]
// BLK:                 arith.cmpi eq, %[[A0]]
// BLK:                 linalg.generic {{.+}} outs(%{{.+}} : tensor<1x2x30x64xf32>) {{.+}}conv.role = "winograd_transform"
// BLK:                 linalg.generic {{.+}} outs(%{{.+}} : tensor<1x2x28x64xf32>) {{.+}}conv.role = "winograd_transform"
// BLK:                 scf.for %[[J:.+]] = %c0 to %c4 step %c1 iter_args(%[[ACC:.+]] = %{{.+}})
// BLK:                   %[[SL:.+]] = affine.apply affine_map<()[s0, s1] -> (s0 * 4 + s1)>()[%[[E]], %[[J]]]
// BLK:                   linalg.generic {{.+}} outs(%{{.+}} : tensor<1x2x14x64xf32>) {{.+}}conv.role = "winograd_transform"
// BLK:                   linalg.generic {{.+}} outs(%{{.+}} : tensor<1x2x14x64xf32>) {{.+}}conv.role = "winograd_transform"
// BLK:                   tensor.extract_slice %[[ACC]][%[[SL]], 0, 0] [1, 64, 64] [1, 1, 1]
// BLK:                   linalg.generic
// BLK-SAME:                ins(%{{.+}}, %{{.+}} : tensor<1x28x64xf32>, tensor<1x28x64xf32>) outs(%{{.+}} : tensor<64x64xf32>)
// BLK-SAME:                conv.role = "dw_tap"
// BLK:                   tensor.insert_slice %{{.+}} into %[[ACC]][%[[SL]], 0, 0] [1, 64, 64] [1, 1, 1]
// BLK:           %[[BASE:.+]] = affine.apply affine_map<()[s0] -> (s0 * 2)>()[%[[IT]]]
// BLK:           tensor.extract_slice %[[S]][%[[BASE]], 0, 0, 0] [2, 3, 64, 64] [1, 1, 1, 1]
// BLK:           scf.for %[[TE:.+]] = %c0 to %c2 step %c1 iter_args(
// BLK:             %[[TP:.+]] = affine.apply affine_map<()[s0] -> (s0 * 4)>()[%[[TE]]]
// BLK:             tensor.extract_slice %[[R]][%[[TP]], 0, 0] [4, 64, 64]
// BLK-COUNT-3:     conv.role = "winograd_transform"
// BLK:             tensor.insert_slice %{{.+}} into %{{.+}}[%[[TE]], 0, 0, 0] [1, 3, 64, 64]
// BLK:           scf.forall.in_parallel
// BLK-NEXT:        tensor.parallel_insert_slice %{{.+}} into %[[S]][%[[BASE]], 0, 0, 0] [2, 3, 64, 64] [1, 1, 1, 1]
// BLK:         bufferization.alloc_tensor() : tensor<3x3x64x64xf32>
// BLK-COUNT-3:   conv.role = "winograd_transform"
// BLK:         return %{{.+}} : tensor<3x3x64x64xf32>
// BLKP-LABEL: func.func @c64
// BLKP:         %[[X:.+]] = tensor.pad
// BLKP:         %[[M:.+]] = bufferization.alloc_tensor() : tensor<8x3x64x64xf32>
// BLKP:         %[[P:.+]] = scf.forall (%[[H:.+]]) in (2) shared_outs(%[[S:.+]] = %[[M]])
// BLKP:           scf.for %[[B:.+]] = %c0 to %c4 step %c1
// BLKP:             %[[IMG:.+]] = affine.apply affine_map<()[s0, s1] -> (s0 + s1 * 4)>()[%[[B]], %[[H]]]
// BLKP:             tensor.extract_slice %[[X]][%[[IMG]], 0, 0, 0] [1, 30, 30, 64] [1, 1, 1, 1]
// BLKP:             scf.for %{{.+}} = %c0 to %c4 step %c1
// BLKP:               conv.role = "dw_tap"
// BLKP:           %[[BASE:.+]] = affine.apply affine_map<()[s0] -> (s0 * 4)>()[%[[H]]]
// BLKP:           tensor.parallel_insert_slice %{{.+}} into %[[S]][%[[BASE]], 0, 0, 0] [4, 3, 64, 64] [1, 1, 1, 1]
// BLKP:         %[[H0:.+]] = tensor.extract_slice %[[P]][0, 0, 0, 0] [4, 3, 64, 64] [1, 1, 1, 1]
// BLKP:         %[[H1:.+]] = tensor.extract_slice %[[P]][4, 0, 0, 0] [4, 3, 64, 64] [1, 1, 1, 1]
// BLKP:         linalg.generic {{.+}} ins(%[[H0]], %[[H1]] : tensor<4x3x64x64xf32>, tensor<4x3x64x64xf32>)
// BLKP:         return %{{.+}} : tensor<3x3x64x64xf32>
// BLKL1-LABEL: func.func @c64
// BLKL1:         %[[X:.+]] = tensor.pad
// BLKL1:         bufferization.alloc_tensor() : tensor<8x3x64x64xf32>
// BLKL1:         scf.forall (%[[H:.+]]) in (2)
// BLKL1:           scf.for %[[B:.+]] = %c0 to %c4 step %c1
// BLKL1:             scf.for %[[Q:.+]] = %c0 to %c14 step %c2
// BLKL1:               tensor.extract_slice %[[X]][%{{.+}}, %{{.+}}, 0, 0] [1, 6, 30, 64] [1, 1, 1, 1]
// BLKL1:               conv.role = "dw_tap"
// BLKL1:         return %{{.+}} : tensor<3x3x64x64xf32>
// With 5 threads: 8 iterations of 2 points, it = 2 a0 + h (points 4 a0 +
// 2 h + j), M's slots [2 it, 2 it + 2), and GT along both dimensions after
// the forall.
// BLK5-LABEL: func.func @c64
// BLK5:         scf.forall (%[[IT:.+]]) in (8)
// BLK5:           %[[BASE:.+]] = affine.apply affine_map<()[s0] -> (s0 * 2)>()[%[[IT]]]
// BLK5:           tensor.extract_slice %{{.+}}[%[[BASE]], 0, 0] [2, 64, 64] [1, 1, 1]
// BLK5:           affine.apply affine_map<()[s0] -> ((s0 floordiv 2) mod 4)>()[%[[IT]]]
// BLK5:           scf.for %[[J:.+]] = %c0 to %c2 step %c1
// BLK5:             affine.apply affine_map<()[s0, s1] -> (s0 + s1 * 2 - (s1 floordiv 2) * 4)>()[%[[J]], %[[IT]]]
// BLK5:             conv.role = "dw_tap"
// BLK5:           tensor.parallel_insert_slice %{{.+}} into %{{.+}}[%[[BASE]], 0, 0] [2, 64, 64] [1, 1, 1]
// BLK5:         tensor.expand_shape %{{.+}} {{\[}}[0, 1], [2], [3]] output_shape [4, 4, 64, 64]
// BLK5:         bufferization.alloc_tensor() : tensor<4x3x64x64xf32>
// AUTO-LABEL: func.func @c64
// AUTO: winograd_transform
// AUTO-LABEL: func.func @c32
// AUTO: winograd_transform
// AUTO-LABEL: func.func @batch16
// AUTO: winograd_transform
// AUTOTZ-LABEL: func.func @c64
// AUTOTZ: winograd_transform
// AUTOTZ-LABEL: func.func @c32
// AUTOTZ-NOT: winograd_transform
// AUTOTZ-LABEL: func.func @batch16
// AUTOTZ-NOT: winograd_transform
func.func @c64(%x: tensor<8x28x28x64xf32>, %dy: tensor<8x28x28x64xf32>) -> tensor<3x3x64x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<8x28x28x64xf32>, tensor<8x28x28x64xf32> -> tensor<3x3x64x64xf32>
  return %dw : tensor<3x3x64x64xf32>
}

func.func @c32(%x: tensor<8x28x28x32xf32>, %dy: tensor<8x28x28x32xf32>) -> tensor<3x3x32x32xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<8x28x28x32xf32>, tensor<8x28x28x32xf32> -> tensor<3x3x32x32xf32>
  return %dw : tensor<3x3x32x32xf32>
}

func.func @batch16(%x: tensor<16x7x7x512xf32>, %dy: tensor<16x7x7x512xf32>) -> tensor<3x3x512x512xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<16x7x7x512xf32>, tensor<16x7x7x512xf32> -> tensor<3x3x512x512xf32>
  return %dw : tensor<3x3x512x512xf32>
}

// -----

// Winograd F(5, 2): 5 taps a dimension, 6 points (a pair of output
// positions reads 6 input values, 2 pair rows of 'SAME' padding each
// side: the window [-2, 10) of 12 rows). The first dimension's
// transforms make stacks of 6 over the whole batch; the 36 points' forall
// transforms its entry along the last dimension with 5 terms (BT's rows
// have up to 5 nonzeros, the coefficients selected by the point) and
// reduces it over the batch and the 4 x 4 pairs; the output transform
// takes the 5 taps from the 6 points with coefficients other than +-1
// (here row 1 of GT: M1 - M2 + 2 M3 - M4 / 2). 'auto' takes the layer
// with 32 channels each side (the F(5, 2) threshold, also with
// dw-winograd-min-channels=64) and 16 x 4 x 4 = 256 pairs to reduce,
// not @f52_7x7 (0.47x the direct products: 7 outputs pad to 8; the
// F(5, 2) rule takes at most 0.4x); 3-D layers with 5 taps stay direct.
// CHECK-LABEL: func.func @f52
// CHECK:         %[[X:.+]] = tensor.pad %{{.+}} low[0, 2, 2, 0] high[0, 2, 2, 0]
// CHECK:         tensor.extract_slice %[[X]][0, 5, 0, 0] [16, 4, 12, 32] [1, 2, 1, 1]
// CHECK:         bufferization.alloc_tensor() : tensor<6x16x4x12x32xf32>
// CHECK-COUNT-6: conv.role = "winograd_transform"
// CHECK:         bufferization.alloc_tensor() : tensor<6x16x4x8x32xf32>
// CHECK:         scf.forall (%[[A:.+]]) in (36)
// CHECK:           affine.apply affine_map<()[s0] -> (s0 floordiv 6)>()[%[[A]]]
// CHECK:           affine.apply affine_map<()[s0] -> (s0 mod 6)>()[%[[A]]]
// CHECK:           linalg.generic {{.+}} ins(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : tensor<16x4x4x32xf32>, tensor<16x4x4x32xf32>, tensor<16x4x4x32xf32>, tensor<16x4x4x32xf32>, tensor<16x4x4x32xf32>, f32, f32, f32, f32, f32) {{.+}}conv.role = "winograd_transform"
// CHECK:           linalg.generic {{.+}} ins(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : tensor<16x4x4x32xf32>, tensor<16x4x4x32xf32>, f32, f32) {{.+}}conv.role = "winograd_transform"
// CHECK:           tensor.collapse_shape %{{.+}} {{\[}}[0], [1, 2], [3]] : tensor<16x4x4x32xf32> into tensor<16x16x32xf32>
// CHECK:           conv.role = "dw_tap"
// CHECK:         bufferization.alloc_tensor() : tensor<6x5x32x32xf32>
// CHECK:         linalg.generic
// CHECK:         linalg.generic
// CHECK:           %[[D:.+]] = arith.subf %{{.+}}, %{{.+}} fastmath<contract> : f32
// CHECK:           %[[T:.+]] = arith.mulf %{{.+}}, %{{.+}} fastmath<contract> : f32
// CHECK:           %[[S:.+]] = arith.addf %[[D]], %[[T]] fastmath<contract> : f32
// CHECK:           %[[H:.+]] = arith.mulf %{{.+}}, %{{.+}} fastmath<contract> : f32
// CHECK:           arith.subf %[[S]], %[[H]] fastmath<contract> : f32
// CHECK-COUNT-3: conv.role = "winograd_transform"
// CHECK:         bufferization.alloc_tensor() : tensor<5x5x32x32xf32>
// CHECK-COUNT-5: conv.role = "winograd_transform"
// CHECK:         return %{{.+}} : tensor<5x5x32x32xf32>
// CHECK-LABEL: func.func @vol5
// CHECK-NOT:     winograd_transform
// CHECK:         return
// AUTO-LABEL: func.func @f52
// AUTO: scf.forall ({{.+}}) in (36)
// AUTO-LABEL: func.func @f52_7x7
// AUTO-NOT: winograd_transform
// AUTO: return
// AUTOTZ-LABEL: func.func @f52
// AUTOTZ: scf.forall ({{.+}}) in (36)
// BLKL1-LABEL: func.func @f52
// BLKL1:         scf.forall (%{{.+}}) in (2)
// BLKL1:           tensor.extract_slice %{{.+}}[%{{.+}}, 0, 0, 0] [8, 12, 12, 32] [1, 1, 1, 1]
// BLKL1-NOT:       scf.for %{{.+}} = %c0 to %c8 step %c1
// BLKL1:           scf.forall.in_parallel
func.func @f52(%x: tensor<16x8x8x32xf32>, %dy: tensor<16x8x8x32xf32>) -> tensor<5x5x32x32xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<16x8x8x32xf32>, tensor<16x8x8x32xf32> -> tensor<5x5x32x32xf32>
  return %dw : tensor<5x5x32x32xf32>
}

func.func @vol5(%x: tensor<1x6x6x6x8xf32>, %dy: tensor<1x6x6x6x8xf32>) -> tensor<5x5x5x8x8xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NDHWC padding = SAME
          strides = [1, 1, 1] dilations = [1, 1, 1]
          : tensor<1x6x6x6x8xf32>, tensor<1x6x6x6x8xf32> -> tensor<5x5x5x8x8xf32>
  return %dw : tensor<5x5x5x8x8xf32>
}

func.func @f52_7x7(%x: tensor<16x7x7x32xf32>, %dy: tensor<16x7x7x32xf32>) -> tensor<5x5x32x32xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<16x7x7x32xf32>, tensor<16x7x7x32xf32> -> tensor<5x5x32x32xf32>
  return %dw : tensor<5x5x32x32xf32>
}
