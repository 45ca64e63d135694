// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s --implicit-check-not=conv.backprop_filter

// SAME, stride 2 (NHWC): pad 1 before and after, one scf.forall over the
// (independent) taps, a strided window per tap contracted over (batch, oh,
// ow) into that tap's slice. Per tap, the output rows and columns whose
// input position o*2 + k - 1 falls in the padding are cut from the window
// and from out_backprop (tap 0: o in [1, 5), taps 1 and 2: [0, 5)), so the
// contraction has dynamic sizes.
// CHECK-LABEL: func.func @same_stride2
// CHECK:         %[[ZERO:.+]] = linalg.fill
// CHECK:         %[[PAD:.+]] = tensor.pad %{{.*}} low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK:         scf.forall (%[[KH:[a-z0-9]+]], %[[KW:[a-z0-9]+]]) in (3, 3) shared_outs(%[[B:[a-z0-9]+]] = %[[ZERO]])
// CHECK:             %[[X:.+]] = tensor.extract_slice %[[PAD]][0, %[[KH]], %[[KW]], 0] [2, 5, 5, 8] [1, 2, 2, 1] : tensor<2x11x11x8xf32> to tensor<2x5x5x8xf32>
// CHECK:             %[[LO0:.+]] = affine.max affine_map<(d0) -> (0, (-d0 + 1) ceildiv 2)>(%[[KH]])
// CHECK:             %[[LO:.+]] = affine.min affine_map<(d0) -> (5, d0)>(%[[LO0]])
// CHECK:             %[[HI:.+]] = affine.min affine_map<(d0) -> (5, (-d0 + 9) floordiv 2 + 1)>(%[[KH]])
// CHECK:             %[[N0:.+]] = affine.max affine_map<(d0, d1) -> (0, d0 - d1)>(%[[HI]], %[[LO]])
// CHECK:             %[[N:.+]] = affine.min affine_map<(d0) -> (5, d0)>(%[[N0]])
// CHECK:             %[[XR:.+]] = tensor.extract_slice %[[X]][0, %[[LO]], 0, 0] [2, %[[N]], 5, 8] [1, 1, 1, 1] : tensor<2x5x5x8xf32> to tensor<2x?x5x8xf32>
// CHECK:             %[[DYR:.+]] = tensor.extract_slice %{{.*}}[0, %[[LO]], 0, 0] [2, %[[N]], 5, 16] [1, 1, 1, 1] : tensor<2x5x5x16xf32> to tensor<2x?x5x16xf32>
// CHECK:             %[[CLO0:.+]] = affine.max affine_map<(d0) -> (0, (-d0 + 1) ceildiv 2)>(%[[KW]])
// CHECK:             %[[CLO:.+]] = affine.min affine_map<(d0) -> (5, d0)>(%[[CLO0]])
// CHECK:             %[[XC:.+]] = tensor.extract_slice %[[XR]][0, 0, %[[CLO]], 0] [2, %[[N]], %[[M:.+]], 8] [1, 1, 1, 1] : tensor<2x?x5x8xf32> to tensor<2x?x?x8xf32>
// CHECK:             %[[DYC:.+]] = tensor.extract_slice %[[DYR]][0, 0, %[[CLO]], 0] [2, %[[N]], %[[M]], 16] [1, 1, 1, 1] : tensor<2x?x5x16xf32> to tensor<2x?x?x16xf32>
// CHECK:             %[[T:.+]] = tensor.extract_slice %[[B]][%[[KH]], %[[KW]], 0, 0] [1, 1, 8, 16] [1, 1, 1, 1] : tensor<3x3x8x16xf32> to tensor<8x16xf32>
// CHECK:             %[[G:.+]] = linalg.generic
// CHECK-SAME:          indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4, d0)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>]
// CHECK-SAME:          iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]
// CHECK-SAME:          ins(%[[XC]], %[[DYC]] : tensor<2x?x?x8xf32>, tensor<2x?x?x16xf32>) outs(%[[T]] : tensor<8x16xf32>) attrs = {conv.dw_contractions = 9 : i64, conv.role = "dw_tap"}
// CHECK:               arith.mulf
// CHECK:               arith.addf
// CHECK:             scf.forall.in_parallel
// CHECK-NEXT:          tensor.parallel_insert_slice %[[G]] into %[[B]][%[[KH]], %[[KW]], 0, 0] [1, 1, 8, 16]
func.func @same_stride2(%x: tensor<2x9x9x8xf32>, %dy: tensor<2x5x5x16xf32>) -> tensor<3x3x8x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [2, 2] dilations = [1, 1] : tensor<2x9x9x8xf32>, tensor<2x5x5x16xf32> -> tensor<3x3x8x16xf32>
  return %dw : tensor<3x3x8x16xf32>
}

// -----

// VALID, stride 3, width 7: the last input column is never read (negative
// used after-pad), so the window is a crop, not a pad. Dilation 2 scales the
// tap offset.
// CHECK-LABEL: func.func @valid_crop_dilated
// CHECK-NOT:     tensor.pad
// CHECK:         %[[CROP:.+]] = tensor.extract_slice %{{.*}}[0, 0, 0] [1, 6, 8] [1, 1, 1] : tensor<1x7x8xf32> to tensor<1x6x8xf32>
// CHECK:         scf.forall (%[[K:[a-z0-9]+]]) in (2)
// CHECK:           %[[OFF:.+]] = arith.muli %[[K]], %c2
// CHECK:           tensor.extract_slice %[[CROP]][0, %[[OFF]], 0] [1, 2, 8] [1, 3, 1]
func.func @valid_crop_dilated(%x: tensor<1x7x8xf32>, %dy: tensor<1x2x1xf32>) -> tensor<2x8x1xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NWC padding = VALID strides = [3] dilations = [2] : tensor<1x7x8xf32>, tensor<1x2x1xf32> -> tensor<2x8x1xf32>
  return %dw : tensor<2x8x1xf32>
}

// -----

// Groups (NCHW): Cin = 4 = 2 groups x Cf 2, Cout = 6 = 2 x 3. The channel
// dimensions are expanded to [G, C/G] and the group is a parallel loop.
// CHECK-LABEL: func.func @grouped_nchw
// CHECK:         scf.forall
// CHECK:             tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2], [3], [4]] output_shape [2, 2, 2, 3, 2] : tensor<2x4x3x2xf32> into tensor<2x2x2x3x2xf32>
// CHECK:             tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2], [3], [4]] output_shape [2, 2, 3, 3, 2] : tensor<2x6x3x2xf32> into tensor<2x2x3x3x2xf32>
// CHECK:             tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2]] output_shape [2, 2, 3] : tensor<2x6xf32> into tensor<2x2x3xf32>
// CHECK:             linalg.generic
// CHECK-SAME:          affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d0, d1, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d0, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d0, d2)>
// CHECK-SAME:          iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]
// CHECK:             tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2]] : tensor<2x2x3xf32> into tensor<2x6xf32>
func.func @grouped_nchw(%x: tensor<2x4x5x4xf32>, %dy: tensor<2x6x3x2xf32>) -> tensor<3x3x2x6xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NCHW padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<2x4x5x4xf32>, tensor<2x6x3x2xf32> -> tensor<3x3x2x6xf32>
  return %dw : tensor<3x3x2x6xf32>
}

// -----

// 16-bit types accumulate in f32 and are rounded once at the end.
// CHECK-LABEL: func.func @bf16_accumulates_in_f32
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x1x1x2x2xf32>)
// CHECK:         linalg.generic
// CHECK:           arith.extf %{{.*}} : bf16 to f32
// CHECK:           arith.extf %{{.*}} : bf16 to f32
// CHECK:           arith.mulf %{{.*}} : f32
// CHECK:         linalg.generic
// CHECK:           arith.truncf %{{.*}} : f32 to bf16
// CHECK:         -> tensor<1x1x1x2x2xbf16>
func.func @bf16_accumulates_in_f32(%x: tensor<1x2x2x2x2xbf16>, %dy: tensor<1x2x2x2x2xbf16>) -> tensor<1x1x1x2x2xbf16> {
  %dw = conv.backprop_filter %x, %dy data_format = NDHWC padding = SAME strides = [1, 1, 1] dilations = [1, 1, 1] : tensor<1x2x2x2x2xbf16>, tensor<1x2x2x2x2xbf16> -> tensor<1x1x1x2x2xbf16>
  return %dw : tensor<1x1x1x2x2xbf16>
}

// -----

// Empty batch: the gradient is all zeros, no contraction is emitted.
// CHECK-LABEL: func.func @empty_batch
// CHECK-NOT:     linalg.generic
// CHECK:         %[[C:.+]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x2x1x1xf32>)
// CHECK:         return %[[C]]
func.func @empty_batch(%x: tensor<0x2x3x1xf32>, %dy: tensor<0x1x2x1xf32>) -> tensor<2x2x1x1xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<0x2x3x1xf32>, tensor<0x1x2x1xf32> -> tensor<2x2x1x1xf32>
  return %dw : tensor<2x2x1x1xf32>
}

// -----

// One input channel (NHWC): a tap's contraction would have a single row, so
// all kernel dimensions are fused with ci (3 x 3 x 1 = 9 rows < 16 after
// fusing only the last one): one packed copy P'[b, oh, ow, kh, kw, ci] =
// x[b, oh + kh, ow + kw, ci], collapsed to [b, oh, ow, 9], and a single
// dw_tap contraction into dW viewed as [9, Cout], marked conv.dw_stream (it
// reads each out_backprop position once); no scf.forall. With
// dilation 1 along the last dimension, its (kw, ci) pairs are a contiguous
// run of the input viewed as [b, h, w * ci]: the pack is a row gather of
// runs j = kw * ci + ci' at ow * ci.
// CHECK-LABEL: func.func @tiny_channels_all_taps_fused
// CHECK-NOT:     scf.forall
// CHECK:         %[[XC:.+]] = tensor.collapse_shape %{{.*}} {{\[\[}}0], [1], [2, 3]] : tensor<1x6x6x1xf32> into tensor<1x6x6xf32>
// CHECK:         %[[P:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 + d3, d2 + d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>]
// CHECK-SAME:      ins(%[[XC]] : tensor<1x6x6xf32>) outs(%{{.*}} : tensor<1x4x4x3x3xf32>) attrs = {conv.role = "row_gather"}
// CHECK:         %[[PC:.+]] = tensor.collapse_shape %[[P]] {{\[\[}}0], [1], [2], [3, 4]] : tensor<1x4x4x3x3xf32> into tensor<1x4x4x9xf32>
// CHECK:         tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2], [3]] : tensor<3x3x1x8xf32> into tensor<9x8xf32>
// CHECK:         %[[C:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4, d0)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>]
// CHECK-SAME:      ins(%[[PC]], %{{.*}} : tensor<1x4x4x9xf32>, tensor<1x4x4x8xf32>) outs(%{{.*}} : tensor<9x8xf32>) attrs = {conv.dw_contractions = 1 : i64, conv.dw_stream, conv.role = "dw_tap"}
// CHECK:         tensor.expand_shape %[[C]] {{\[\[}}0, 1, 2], [3]] output_shape [3, 3, 1, 8] : tensor<9x8xf32> into tensor<3x3x1x8xf32>
func.func @tiny_channels_all_taps_fused(%x: tensor<1x6x6x1xf32>, %dy: tensor<1x4x4x8xf32>) -> tensor<3x3x1x8xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<1x6x6x1xf32>, tensor<1x4x4x8xf32> -> tensor<3x3x1x8xf32>
  return %dw : tensor<3x3x1x8xf32>
}

// -----

// Two input channels, a 3 x 8 kernel, stride 2: fusing the last kernel
// dimension already gives 8 x 2 = 16 rows, so the kernel rows stay an
// scf.forall and each packs P'[b, oh, ow, (kw, ci)] = x[b, 2 oh + kh, 2 ow + kw, ci]
// as a row gather of 16-long runs at 2 * 2 * ow of the window viewed as
// [b, h, w * ci] (the window is 10 columns: VALID never reads the last one).
// CHECK-LABEL: func.func @tiny_channels_last_dim_fused
// CHECK:         scf.forall (%[[KH:[a-z0-9]+]]) in (3)
// CHECK:           %[[X:.+]] = tensor.extract_slice %{{.*}}[0, %[[KH]], 0, 0] [1, 2, 10, 2] [1, 2, 1, 1]
// CHECK:           %[[XC:.+]] = tensor.collapse_shape %[[X]] {{\[\[}}0], [1], [2, 3]] : tensor<1x2x10x2xf32> into tensor<1x2x20xf32>
// CHECK:           %[[P:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2 * 4 + d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]
// CHECK-SAME:        ins(%[[XC]] : tensor<1x2x20xf32>) outs(%{{.*}} : tensor<1x2x2x16xf32>) attrs = {conv.role = "row_gather"}
// CHECK:           linalg.generic {{.*}} ins(%[[P]], %{{.*}} : tensor<1x2x2x16xf32>, tensor<1x2x2x4xf32>) outs(%{{.*}} : tensor<16x4xf32>) attrs = {conv.dw_contractions = {{[0-9]+}} : i64, conv.role = "dw_tap"}
// CHECK:           tensor.parallel_insert_slice %{{.*}} into %{{.*}}[%[[KH]], 0, 0, 0] [1, 8, 2, 4] [1, 1, 1, 1] : tensor<8x2x4xf32> into tensor<3x8x2x4xf32>
func.func @tiny_channels_last_dim_fused(%x: tensor<1x5x11x2xf32>, %dy: tensor<1x2x2x4xf32>) -> tensor<3x8x2x4xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [2, 2] dilations = [1, 1] : tensor<1x5x11x2xf32>, tensor<1x2x2x4xf32> -> tensor<3x8x2x4xf32>
  return %dw : tensor<3x8x2x4xf32>
}

// -----

// Dilation 2 along the last dimension: the (kw, ci) pairs of an output
// position are not contiguous in the input, so the pack keeps ci as its own
// loop (x[b, oh + kh, ow + 2 kw, ci]) and is no row gather.
// CHECK-LABEL: func.func @tiny_channels_dilated_last_dim
// CHECK-NOT:     tensor.collapse_shape %{{.*}} : tensor<1x6x8x1xf32>
// CHECK:         %[[P:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 + d3, d2 + d4 * 2, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>]
// CHECK-SAME:      ins(%{{.*}} : tensor<1x6x8x1xf32>) outs(%{{.*}} : tensor<1x4x4x3x3x1xf32>) {
// CHECK:         tensor.collapse_shape %[[P]] {{\[\[}}0], [1], [2], [3, 4, 5]] : tensor<1x4x4x3x3x1xf32> into tensor<1x4x4x9xf32>
func.func @tiny_channels_dilated_last_dim(%x: tensor<1x6x8x1xf32>, %dy: tensor<1x4x4x8xf32>) -> tensor<3x3x1x8xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 2] : tensor<1x6x8x1xf32>, tensor<1x4x4x8xf32> -> tensor<3x3x1x8xf32>
  return %dw : tensor<3x3x1x8xf32>
}

// -----

// A grouped layer (4 groups of 2 -> 2 channels) whose taps' padding
// positions are all cut, the long last dimension (20 positions) included:
// no tap slice reads the zero padding, and the pad is marked
// conv.interior_reads (conv-cpu-decompose-pads then reads the input
// itself). Docs/Lowering.md §2.5.
// CHECK-LABEL: func.func @grouped_nhwc_interior
// CHECK:         tensor.pad %arg0 low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK:         } {conv.interior_reads} : tensor<2x6x20x8xf32> to tensor<2x8x22x8xf32>
// CHECK:         scf.forall
// CHECK:           affine.min affine_map<(d0) -> (-d0 + 21, 20)>
// CHECK-NOT:     conv.reads_padding
func.func @grouped_nhwc_interior(%x: tensor<2x6x20x8xf32>, %dy: tensor<2x6x20x8xf32>) -> tensor<3x3x2x8xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<2x6x20x8xf32>, tensor<2x6x20x8xf32> -> tensor<3x3x2x8xf32>
  return %dw : tensor<3x3x2x8xf32>
}

// -----

// A 5x5 kernel on a 2x2 image: the corner taps read only padding, so the
// padding cannot be cut (tapsCutPadding) and the pad is not marked.
// CHECK-LABEL: func.func @grouped_nhwc_reads_padding
// CHECK:         tensor.pad %arg0 low[0, 2, 2, 0] high[0, 2, 2, 0]
// CHECK-NOT:     conv.interior_reads
// CHECK-NOT:     conv.reads_padding
// CHECK:         return
func.func @grouped_nhwc_reads_padding(%x: tensor<1x2x2x8xf32>, %dy: tensor<1x2x2x8xf32>) -> tensor<5x5x2x8xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<1x2x2x8xf32>, tensor<1x2x2x8xf32> -> tensor<5x5x2x8xf32>
  return %dw : tensor<5x5x2x8xf32>
}
