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
// least 128 channels each side and at most 0.55x the direct products
// (AUTOTZ lines): @rn9 still, not @c64 nor @batch16.
// RUN: conv-opt %s "--convert-conv-to-linalg=dw-winograd=auto dw-winograd-min-channels=128 dw-winograd-max-products=0.55" --canonicalize --split-input-file | FileCheck %s --check-prefix=AUTOTZ
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
// BAD: convert-conv-to-linalg: option dw-winograd: expected 'off', 'auto' or 'on', got 'yes'
// OFF-NOT: winograd_transform

// ResNet-50's 14x14x256 3x3 layer: 7 x 7 pairs. The first dimension's
// transforms (4 ops each) make stacks of 4 over the whole batch; each of
// the 16 points then transforms its entry along the last dimension
// (c0 * t0 + c1 * t1, the coefficients selected by the point) and reduces
// it with a 1x1 filter gradient (a dw_tap contraction) into its slot of M
// (zero-filled in place); 3 + 3 output-transform ops make dW.
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
// CHECK:           linalg.generic
// CHECK-SAME:        iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]
// CHECK-SAME:        outs(%[[ZERO]] : tensor<256x256xf32>)
// CHECK-SAME:        conv.role = "dw_tap"
// CHECK:           scf.forall.in_parallel
// CHECK-NEXT:        tensor.parallel_insert_slice %{{.+}} into %[[S]][%[[A]], 0, 0] [1, 256, 256] [1, 1, 1] : tensor<1x256x256xf32> into tensor<16x256x256xf32>
// CHECK:         tensor.expand_shape %[[P]] {{\[}}[0, 1], [2], [3]] output_shape [4, 4, 256, 256]
// CHECK:         bufferization.alloc_tensor() : tensor<3x4x256x256xf32>
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
// CHECK:           tensor.collapse_shape %{{.+}} {{\[}}[0], [1, 2], [3], [4]] : tensor<2x2x2x3x16xf32> into tensor<2x4x3x16xf32>
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

// 64 channels (ResNet's 28x28 shape with 64 channels; 0.44x the direct
// products) and the 7x7x512 layer with a batch of 16 (256 pairs, 0.58x the
// products: 7 positions padded to 8): 'auto' takes both with its default
// thresholds, neither with the two-FMA-unit ones.
// AUTO-LABEL: func.func @c64
// AUTO: winograd_transform
// AUTO-LABEL: func.func @batch16
// AUTO: winograd_transform
// AUTOTZ-LABEL: func.func @c64
// AUTOTZ-NOT: winograd_transform
// AUTOTZ-LABEL: func.func @batch16
// AUTOTZ-NOT: winograd_transform
func.func @c64(%x: tensor<8x28x28x64xf32>, %dy: tensor<8x28x28x64xf32>) -> tensor<3x3x64x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<8x28x28x64xf32>, tensor<8x28x28x64xf32> -> tensor<3x3x64x64xf32>
  return %dw : tensor<3x3x64x64xf32>
}

func.func @batch16(%x: tensor<16x7x7x512xf32>, %dy: tensor<16x7x7x512xf32>) -> tensor<3x3x512x512xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [1, 1] dilations = [1, 1]
          : tensor<16x7x7x512xf32>, tensor<16x7x7x512xf32> -> tensor<3x3x512x512xf32>
  return %dw : tensor<3x3x512x512xf32>
}
