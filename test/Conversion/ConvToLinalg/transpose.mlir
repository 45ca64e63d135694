// The phase lowering (CHECK) with transpose-taps-overhead=1.25; with the
// default (1.10) @phases_k3_s2 keeps its phases too (LOW).
// RUN: conv-opt %s --convert-conv-to-linalg=transpose-taps-overhead=1.25 --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s --implicit-check-not=conv.transpose
// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=LOW
// RUN: conv-opt %s --convert-conv-to-linalg=zero-insertion-transpose --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=ZI --implicit-check-not=conv.transpose

// k = 3, stride 2, same (crop 0): 2 x 2 phases with 2x2, 2x1, 1x2, 1x1
// reversed sub-kernels, each a dense stride-1 correlation (a linalg.generic
// with loops [b, oh, ow, co, th, tw, ci]) accumulating straight into a
// stride-2 slice of the output at offsets (0|1, 0|1). Every phase has taps,
// so the phases partition the output: it is not zero-filled as a whole;
// each phase starts from a zero fill of its own slice instead. Phase 0's
// 5x5 window has its zero padding in its first row and column: its
// conv.phase_window says which window rows hold input ([1, 5) in both
// dimensions, taps 1 apart), so that the code generator can skip the taps
// that would multiply the padding.
// CHECK-LABEL: func.func @phases_k3_s2
// CHECK:         %[[W0:.+]] = tensor.pad %{{.*}} low[0, 1, 1, 0] high[0, 0, 0, 0]
// CHECK:         %[[OUT:.+]] = tensor.empty() : tensor<1x8x8x5xf32>
// CHECK-NOT:     linalg.fill ins(%{{.*}} : f32) outs(%[[OUT]]
// CHECK:         %[[S0:.+]] = tensor.extract_slice %[[OUT]][0, 0, 0, 0] [1, 4, 4, 5] [1, 2, 2, 1]
// CHECK:         %[[F0:.+]] = linalg.fill ins(%{{.*}} : f32) outs(%[[S0]] : tensor<1x4x4x5xf32>)
// CHECK:         %[[K0:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> ((-d0 + 1) * 2, (-d1 + 1) * 2, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>]
// CHECK:         %[[P0:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d4, d2 + d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK-SAME:      ins(%[[W0]], %[[K0]] : tensor<1x5x5x3xf32>, tensor<2x2x3x5xf32>) outs(%[[F0]] : tensor<1x4x4x5xf32>) attrs = {conv.phase_window = array<i64: 1, 5, 1, 1, 5, 1>, conv.role = "transpose_phase"}
// CHECK:         %[[I0:.+]] = tensor.insert_slice %[[P0]] into %[[OUT]][0, 0, 0, 0] [1, 4, 4, 5] [1, 2, 2, 1]
// CHECK:         %[[S1:.+]] = tensor.extract_slice %[[I0]][0, 0, 1, 0] [1, 4, 4, 5] [1, 2, 2, 1]
// CHECK:         %[[F1:.+]] = linalg.fill ins(%{{.*}} : f32) outs(%[[S1]] : tensor<1x4x4x5xf32>)
// CHECK:         %[[P1:.+]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x5x4x3xf32>, tensor<2x1x3x5xf32>) outs(%[[F1]] : tensor<1x4x4x5xf32>)
// CHECK:         %[[I1:.+]] = tensor.insert_slice %[[P1]] into %[[I0]][0, 0, 1, 0] [1, 4, 4, 5] [1, 2, 2, 1]
// CHECK:         %[[S2:.+]] = tensor.extract_slice %[[I1]][0, 1, 0, 0] [1, 4, 4, 5] [1, 2, 2, 1]
// CHECK:         %[[F2:.+]] = linalg.fill ins(%{{.*}} : f32) outs(%[[S2]] : tensor<1x4x4x5xf32>)
// CHECK:         %[[P2:.+]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x4x5x3xf32>, tensor<1x2x3x5xf32>) outs(%[[F2]] : tensor<1x4x4x5xf32>)
// CHECK:         %[[I2:.+]] = tensor.insert_slice %[[P2]] into %[[I1]][0, 1, 0, 0] [1, 4, 4, 5] [1, 2, 2, 1]
// CHECK:         %[[S3:.+]] = tensor.extract_slice %[[I2]][0, 1, 1, 0] [1, 4, 4, 5] [1, 2, 2, 1]
// CHECK:         %[[F3:.+]] = linalg.fill ins(%{{.*}} : f32) outs(%[[S3]] : tensor<1x4x4x5xf32>)
// CHECK:         %[[P3:.+]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x4x4x3xf32>, tensor<1x1x3x5xf32>) outs(%[[F3]] : tensor<1x4x4x5xf32>)
// CHECK:         %[[I3:.+]] = tensor.insert_slice %[[P3]] into %[[I2]][0, 1, 1, 0] [1, 4, 4, 5] [1, 2, 2, 1]
// CHECK:         return %[[I3]]

// The zero-insertion oracle: x scattered into a zero tensor with stride 2,
// JAX pads (same, k=3, s=2) = (2, 1), one correlation with the flipped kernel
// over the whole output.
// ZI-LABEL: func.func @phases_k3_s2
// ZI:         %[[Z:.+]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x7x7x3xf32>)
// ZI:         %[[S:.+]] = tensor.insert_slice %{{.*}} into %[[Z]][0, 0, 0, 0] [1, 4, 4, 3] [1, 2, 2, 1]
// ZI:         tensor.pad %[[S]] low[0, 2, 2, 0] high[0, 1, 1, 0]
// ZI:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (-d0 + 2, -d1 + 2, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>]
// ZI:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x10x10x3xf32>, tensor<3x3x3x5xf32>) outs(%{{.*}} : tensor<1x8x8x5xf32>) attrs = {conv.role = "transpose_phase"}
// ZI-NOT:     conv.role
// ZI:         return
// With the default transpose-taps-overhead (1.10) the same op keeps its
// phases too: they multiply 12 x 12 products per (ci, co) pair where 11 x
// 11 are useful (1.19), but along the first dimension the code generator
// skips the taps that read padding (conv.phase_window), so only the last
// dimension's 12 / 11 = 1.09 counts against the threshold.
// LOW-LABEL: func.func @phases_k3_s2
// LOW:         tensor.pad
// LOW-COUNT-4: conv.phase_window = {{.*}}, conv.role = "transpose_phase"
// LOW-NOT:     conv.role
// LOW:         return
func.func @phases_k3_s2(%x: tensor<1x4x4x3xf32>, %k: tensor<3x3x5x3xf32>) -> tensor<1x8x8x5xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [1, 1] : tensor<1x4x4x3xf32>, tensor<3x3x5x3xf32> -> tensor<1x8x8x5xf32>
  return %y : tensor<1x8x8x5xf32>
}

// -----

// Stride 3 > k = 2 (valid, 1-D NCW): phase 2 has no tap and stays zero:
// nothing is multiplied by an inserted zero. (The output is zero-filled as
// a whole: the phases do not cover it.) Phases 0 and 1 have the same
// shape (one tap, 4 outputs) and differ only in their tap (m = r) and
// output offset (r), so they are one contraction in an scf.for over r.
// CHECK-LABEL: func.func @empty_phase
// CHECK:         %[[Z:.+]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x3x12xf32>)
// CHECK:         scf.for %[[R:.+]] = %c0 to %c2 step %c1 iter_args(%{{.*}} = %[[Z]])
// CHECK:           tensor.extract_slice %arg1[%[[R]], 0, 0] [1, 3, 2] [3, 1, 1]
// CHECK:           tensor.extract_slice %{{.*}}[0, 0, %[[R]]] [1, 3, 4] [1, 1, 3]
// CHECK-COUNT-1:   conv.role = "transpose_phase"
// CHECK-NOT:     conv.role
// CHECK:         return
func.func @empty_phase(%x: tensor<1x2x4xf32>, %k: tensor<2x3x2xf32>) -> tensor<1x3x12xf32> {
  %y = conv.transpose %x, %k data_format = channels_first padding = valid strides = [3] dilation_rate = [1] : tensor<1x2x4xf32>, tensor<2x3x2xf32> -> tensor<1x3x12xf32>
  return %y : tensor<1x3x12xf32>
}

// -----

// Stride 2 with dilation 2 (legal at ops level, JAX semantics): every tap
// lands on phase 0 (m*d = 0 mod 2), as one dense correlation with dilation
// d/gcd = 1; same crops (k_eff - s) / 2 = 1, so it fills the odd outputs.
// CHECK-LABEL: func.func @dilated_strided
// CHECK:         %[[C:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 + d3, d4)>, {{.*}}} ins(%{{.*}}, %{{.*}} : tensor<1x7x1xf32>, tensor<3x1x1xf32>) outs(%{{.*}} : tensor<1x5x1xf32>) attrs = {conv.phase_window = array<i64: 1, 6, 1>, conv.role = "transpose_phase"}
// CHECK:         tensor.insert_slice %[[C]] into %{{.*}}[0, 1, 0] [1, 5, 1] [1, 2, 1]
// CHECK-NOT:     conv.role
func.func @dilated_strided(%x: tensor<1x5x1xf32>, %k: tensor<3x1x1xf32>) -> tensor<1x10x1xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2] dilation_rate = [2] : tensor<1x5x1xf32>, tensor<3x1x1xf32> -> tensor<1x10x1xf32>
  return %y : tensor<1x10x1xf32>
}

// -----

// f16: accumulate in f32, round once.
// CHECK-LABEL: func.func @f16_accumulates_in_f32
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<{{.*}}xf16>, tensor<{{.*}}xf16>) outs(%{{.*}} : tensor<{{.*}}xf32>) attrs = {conv.role = "transpose_phase"}
// CHECK:           arith.extf
// CHECK:         arith.truncf %{{.*}} : f32 to f16
func.func @f16_accumulates_in_f32(%x: tensor<1x2x2x2x1xf16>, %k: tensor<1x1x1x1x1xf16>) -> tensor<1x2x2x2x1xf16> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [1, 1, 1] dilation_rate = [1, 1, 1] : tensor<1x2x2x2x1xf16>, tensor<1x1x1x1x1xf16> -> tensor<1x2x2x2x1xf16>
  return %y : tensor<1x2x2x2x1xf16>
}

// -----

// A 1x1 input (a GAN generator's first layer): the phase correlation would
// multiply a 7x7 zero-padded input by all 16 taps for 16 useful products per
// output channel, so the op is lowered tap by tap instead: the input times
// K[m], accumulated into the output position the tap lands on. Every tap
// reads the same input rows (one segment per dimension), so the 16 taps are
// one scf.for nest around a single contraction with static shapes; only the
// kernel and output offsets move. No padding. Each output position gets
// exactly one tap (the taps cover the output), so the output is not zero
// filled: each tap starts from a zero fill of its own slice.
// CHECK-LABEL: func.func @taps_small_input
// CHECK-NOT:     tensor.pad
// CHECK:         %[[OUT:.+]] = tensor.empty() : tensor<2x4x4x5xf32>
// CHECK-NOT:     linalg.fill
// CHECK:         scf.for %[[MH:.+]] = %c0 to %c4 step %c1 iter_args(%[[A:.+]] = %[[OUT]])
// CHECK:           scf.for %[[MW:.+]] = %c0 to %c4 step %c1 iter_args(%[[B:.+]] = %[[A]])
// CHECK:             %[[S:.+]] = tensor.extract_slice %[[B]][0, %[[MH]], %[[MW]], 0] [2, 1, 1, 5] [1, 1, 1, 1]
// CHECK:             %[[Z:.+]] = linalg.fill ins(%{{.*}} : f32) outs(%[[S]] : tensor<2x1x1x5xf32>)
// CHECK:             %[[KS:.+]] = tensor.extract_slice %arg1[%[[MH]], %[[MW]], 0, 0] [1, 1, 5, 3] [1, 1, 1, 1]
// CHECK:             %[[K:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (-d0, -d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>]{{.*}} ins(%[[KS]]
// CHECK:             %[[P:.+]] = linalg.generic {{.*}} ins(%arg0, %[[K]] : tensor<2x1x1x3xf32>, tensor<1x1x3x5xf32>) outs(%[[Z]] : tensor<2x1x1x5xf32>) attrs = {conv.role = "transpose_phase"}
// CHECK:             tensor.insert_slice %[[P]] into %[[B]][0, %[[MH]], %[[MW]], 0] [2, 1, 1, 5] [1, 1, 1, 1]
// CHECK-NOT:     conv.role
func.func @taps_small_input(%x: tensor<2x1x1x3xf32>, %k: tensor<4x4x5x3xf32>) -> tensor<2x4x4x5xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [1, 1] dilation_rate = [1, 1] : tensor<2x1x1x3xf32>, tensor<4x4x5x3xf32> -> tensor<2x4x4x5xf32>
  return %y : tensor<2x4x4x5xf32>
}

// -----

// Stride 2, same, k = 4 on a 2x2 input (crop 1): per dimension the taps
// read one input row (m = 0: input [1, 2) -> output 1; m = 3: input [0, 1)
// -> output 2) or two (m = 1, 2: input [0, 2) -> outputs m - 1, m + 1).
// Each count's taps form one run in which the tap, the input row and the
// output row step by constants (m = 3t, row 1 - t, output t + 1; and
// m = 1 + t, row 0, output t): 2 x 2 boxes, each one contraction in a
// 2 x 2 scf.for nest, 4 contractions in all (9 boxes of taps with the same
// rows before). The run of taps 1 and 2 covers the output rows (each row
// gets one of its taps), so the box of those runs goes first, zero filling
// its slices, and the output has no fill of its own.
// CHECK-LABEL: func.func @taps_cropped_border
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<1x4x4x3xf32>
// CHECK-NOT:     linalg.fill
// CHECK:         scf.for %[[CH:.+]] = %c0 to %c2 step %c1 iter_args(%[[CA:.+]] = %[[E]])
// CHECK-NEXT:      scf.for %[[CW:.+]] = %c0 to %c2 step %c1 iter_args(%[[CB:.+]] = %[[CA]])
// CHECK:             %[[CS:.+]] = tensor.extract_slice %[[CB]][0, %[[CH]], %[[CW]], 0] [1, 2, 2, 3] [1, 2, 2, 1]
// CHECK:             %[[CZ:.+]] = linalg.fill ins(%{{.*}} : f32) outs(%[[CS]] : tensor<1x2x2x3xf32>)
// CHECK:             linalg.generic {{.*}} ins(%arg0, %{{.*}} : tensor<1x2x2x2xf32>, tensor<1x1x2x3xf32>) outs(%[[CZ]] : tensor<1x2x2x3xf32>) attrs = {conv.role = "transpose_phase"}
// CHECK-COUNT-2: conv.role = "transpose_phase"
// CHECK-NOT:     linalg.fill
// CHECK:         scf.for %[[TH:.+]] = %c0 to %c2 step %c1
// CHECK-NEXT:      scf.for %[[TW:.+]] = %c0 to %c2 step %c1
// CHECK-DAG:         %[[IH:.+]] = affine.apply affine_map<(d0) -> (-d0 + 1)>(%[[TH]])
// CHECK-DAG:         %[[MH:.+]] = affine.apply affine_map<(d0) -> (d0 * 3)>(%[[TH]])
// CHECK-DAG:         %[[IW:.+]] = affine.apply affine_map<(d0) -> (-d0 + 1)>(%[[TW]])
// CHECK-DAG:         %[[MW:.+]] = affine.apply affine_map<(d0) -> (d0 * 3)>(%[[TW]])
// CHECK:             tensor.extract_slice %arg0[0, %[[IH]], %[[IW]], 0] [1, 1, 1, 2] [1, 1, 1, 1]
// CHECK-DAG:         %[[OH:.+]] = affine.apply affine_map<(d0) -> (d0 + 1)>(%[[TH]])
// CHECK-DAG:         %[[OW:.+]] = affine.apply affine_map<(d0) -> (d0 + 1)>(%[[TW]])
// CHECK:             tensor.extract_slice %{{.*}}[0, %[[OH]], %[[OW]], 0] [1, 1, 1, 3] [1, 2, 2, 1]
// CHECK:             tensor.extract_slice %arg1[%[[MH]], %[[MW]], 0, 0] [1, 1, 3, 2]
// CHECK:             conv.role = "transpose_phase"
// CHECK-NOT:     conv.role
func.func @taps_cropped_border(%x: tensor<1x2x2x2xf32>, %k: tensor<4x4x3x2xf32>) -> tensor<1x4x4x3xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [1, 1] : tensor<1x2x2x2xf32>, tensor<4x4x3x2xf32> -> tensor<1x4x4x3xf32>
  return %y : tensor<1x4x4x3xf32>
}

// -----

// One output channel, 4 taps x 130 input channels per output: the
// input-channel reduction is split into 8 lanes kept apart (vectors run
// along ci, contiguous in the input and in the kernel gathered as
// [t, co, ci]): partial[b, co, o, lane] over (t, ci / 8), then the lanes
// are summed into the output; the last 130 - 128 = 2 channels go through
// the plain correlation.
// CHECK-LABEL: func.func @lanes_few_output_channels
// CHECK:         %[[XM:.+]] = tensor.extract_slice %{{.*}}[0, 0, 0] [1, 38, 128] [1, 1, 1] : tensor<1x38x130xf32> to tensor<1x38x128xf32>
// CHECK:         %[[X:.+]] = tensor.expand_shape %[[XM]] {{\[\[}}0], [1], [2, 3]] output_shape [1, 38, 16, 8]
// CHECK:         %[[KT:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (-d0 + 3, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]
// CHECK:         %[[KM:.+]] = tensor.extract_slice %[[KT]][0, 0, 0] [4, 1, 128] [1, 1, 1]
// CHECK:         %[[K:.+]] = tensor.expand_shape %[[KM]] {{\[\[}}0], [1], [2, 3]] output_shape [4, 1, 16, 8]
// CHECK:         %[[P:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 + d4, d5, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d2, d5, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d1, d3)>]
// CHECK-SAME:      ins(%[[X]], %[[K]] : tensor<1x38x16x8xf32>, tensor<4x1x16x8xf32>) outs(%{{.*}} : tensor<1x1x35x8xf32>) attrs = {conv.role = "transpose_lanes"}
// CHECK:         %[[S:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[P]] : tensor<1x1x35x8xf32>)
// CHECK:         tensor.extract_slice %{{.*}}[0, 0, 128] [1, 38, 2] [1, 1, 1]
// CHECK:         linalg.generic {{.*}} outs(%[[S]] : tensor<1x35x1xf32>) attrs = {conv.phase_window = array<i64: 3, 35, 1>, conv.role = "transpose_phase"}
func.func @lanes_few_output_channels(%x: tensor<1x32x130xf32>, %k: tensor<4x1x130xf32>) -> tensor<1x35x1xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [1] dilation_rate = [1] : tensor<1x32x130xf32>, tensor<4x1x130xf32> -> tensor<1x35x1xf32>
  return %y : tensor<1x35x1xf32>
}

// -----

// Gathered kernel rows of 32 f32 (128 bytes, a multiple of 128) would put a
// column tile's panel on a few cache sets: the gather copies a kernel padded
// by 16 output channels (64 bytes per row) and the phase reads the
// [..., 0:32] view of it.
// CHECK-LABEL: func.func @padded_kernel_rows
// CHECK:         scf.for
// CHECK:           %[[P:.*]] = tensor.pad %{{.*}} low[0, 0, 0, 0] high[0, 0, 16, 0]
// CHECK:           } : tensor<1x1x32x8xf32> to tensor<1x1x48x8xf32>
// CHECK:           %[[G:.*]] = linalg.generic {{.*}} ins(%[[P]] : tensor<1x1x48x8xf32>) outs(%{{.*}} : tensor<1x1x8x48xf32>)
// CHECK:           %[[V:.*]] = tensor.extract_slice %[[G]][0, 0, 0, 0] [1, 1, 8, 32] [1, 1, 1, 1] : tensor<1x1x8x48xf32> to tensor<1x1x8x32xf32>
// CHECK:           linalg.generic {{.*}} ins(%{{.*}}, %[[V]] : tensor<1x4x4x8xf32>, tensor<1x1x8x32xf32>)
func.func @padded_kernel_rows(%x: tensor<1x4x4x8xf32>, %k: tensor<2x2x32x8xf32>) -> tensor<1x8x8x32xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2, 2] dilation_rate = [1, 1] : tensor<1x4x4x8xf32>, tensor<2x2x32x8xf32> -> tensor<1x8x8x32xf32>
  return %y : tensor<1x8x8x32xf32>
}

// -----

// Kernel = stride, no crop, a large input (1 MiB) and a small kernel
// (32 KiB): depth-to-space lowering. The kernel is relaid out as
// KD[m_0, ci, (m_1, co)]; one contraction with loops
// [b, j_0, m_0, j_1, (m_1, co), ci] (no tap loops: conv.phase_taps = 0)
// fills the output viewed as [N, I_0, s_0, I_1, s_1 * Cout], which two
// reshapes turn back into [N, O_0, O_1, Cout]. The view is one of an
// output-shaped buffer (bufferization.alloc_tensor, which canonicalize does
// not fold into the reshapes as it would a tensor.empty), so that the
// bufferized result is that buffer, the out-param (test/Pipelines).
// CHECK-LABEL: func.func @depth_to_space_2d
// CHECK:         %[[KT:.*]] = linalg.transpose ins(%arg1 : tensor<2x2x32x64xf32>) outs(%{{.*}} : tensor<2x64x2x32xf32>) permutation = [0, 3, 1, 2]  {conv.role = "relayout"}
// CHECK:         %[[KD:.*]] = tensor.collapse_shape %[[KT]] {{\[\[}}0], [1], [2, 3]] : tensor<2x64x2x32xf32> into tensor<2x64x64xf32>
// CHECK:         %[[OUT:.*]] = bufferization.alloc_tensor() : tensor<1x128x128x32xf32>
// CHECK:         %[[OS:.*]] = tensor.expand_shape %[[OUT]] {{\[\[}}0], [1, 2], [3, 4], [5]] output_shape [1, 64, 2, 64, 2, 32]
// CHECK:         %[[OV:.*]] = tensor.collapse_shape %[[OS]] {{\[\[}}0], [1], [2], [3], [4, 5]] : tensor<1x64x2x64x2x32xf32> into tensor<1x64x2x64x64xf32>
// CHECK:         %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[OV]] : tensor<1x64x2x64x64xf32>)
// CHECK:         %[[G:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d5, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME:      ins(%arg0, %[[KD]] : tensor<1x64x64x64xf32>, tensor<2x64x64xf32>) outs(%[[Z]] : tensor<1x64x2x64x64xf32>)
// CHECK-SAME:      attrs = {conv.phase_taps = 0 : i64, conv.role = "transpose_phase"}
// CHECK:         %[[E:.*]] = tensor.expand_shape %[[G]] {{\[\[}}0], [1], [2], [3], [4, 5]] output_shape [1, 64, 2, 64, 2, 32]
// CHECK:         %[[O:.*]] = tensor.collapse_shape %[[E]] {{\[\[}}0], [1, 2], [3, 4], [5]] : tensor<1x64x2x64x2x32xf32> into tensor<1x128x128x32xf32>
// CHECK:         return %[[O]]
func.func @depth_to_space_2d(%x: tensor<1x64x64x64xf32>, %k: tensor<2x2x32x64xf32>) -> tensor<1x128x128x32xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2, 2] dilation_rate = [1, 1] : tensor<1x64x64x64xf32>, tensor<2x2x32x64xf32> -> tensor<1x128x128x32xf32>
  return %y : tensor<1x128x128x32xf32>
}

// -----

// 3-D, 'same' padding (k = s: no crop): the output view is
// [N, I_0, s_0, I_1, s_1, I_2, s_2 * Cout].
// CHECK-LABEL: func.func @depth_to_space_3d
// CHECK:         linalg.transpose ins(%arg1 : tensor<2x2x2x16x64xf32>) outs(%{{.*}} : tensor<2x2x64x2x16xf32>) permutation = [0, 1, 4, 2, 3]
// CHECK:         tensor.collapse_shape %{{.*}} {{\[\[}}0], [1], [2], [3, 4]] : tensor<2x2x64x2x16xf32> into tensor<2x2x64x32xf32>
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d3, d5, d7)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d2, d4, d7, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4, d5, d6)>]
// CHECK-SAME:      outs(%{{.*}} : tensor<1x16x2x16x2x16x32xf32>) attrs = {conv.phase_taps = 0 : i64, conv.role = "transpose_phase"}
// CHECK:         tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2], [3, 4], [5, 6], [7]] : tensor<1x16x2x16x2x16x2x16xf32> into tensor<1x32x32x32x16xf32>
func.func @depth_to_space_3d(%x: tensor<1x16x16x16x64xf32>, %k: tensor<2x2x2x16x64xf32>) -> tensor<1x32x32x32x16xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2, 2] dilation_rate = [1, 1, 1] : tensor<1x16x16x16x64xf32>, tensor<2x2x2x16x64xf32> -> tensor<1x32x32x32x16xf32>
  return %y : tensor<1x32x32x32x16xf32>
}

// -----

// The same layer with a kernel of 256 KiB (above 128 KiB): it would be
// re-read for every input row, so the phases stay (one contraction in a
// 2 x 2 loop over them).
// CHECK-LABEL: func.func @depth_to_space_large_kernel
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK-NOT:       conv.phase_taps
// CHECK:             conv.role = "transpose_phase"
func.func @depth_to_space_large_kernel(%x: tensor<1x64x64x64xf32>, %k: tensor<2x2x256x64xf32>) -> tensor<1x128x128x256xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2, 2] dilation_rate = [1, 1] : tensor<1x64x64x64xf32>, tensor<2x2x256x64xf32> -> tensor<1x128x128x256xf32>
  return %y : tensor<1x128x128x256xf32>
}

// -----

// A kernel of at least 256K elements (3x3x192x160): a phase's reversed taps
// are relaid out by one linalg.transpose per tap (a relayout, which the
// tiling vectorizes in 8x8 squares) in an scf.forall over the taps (the
// threads share them), the reversal in its source offsets (phase (0, 0)
// takes K[2 - 2 t_0, 2 - 2 t_1]). 192 f32 output channels are 768 bytes, a
// multiple of 128: the taps go into the first 192 columns of a 208-column
// bufferization.alloc_tensor (no zero fill), the forall's shared output,
// and the phase reads the [..., 0:192] view taken after it. (Smaller
// kernels keep gatherKernelTaps' generic copy: @phases_k3_s2.)
// CHECK-LABEL: func.func @phases_relayout
// CHECK-NOT:     tensor.pad %arg1
// CHECK:         %[[B:.+]] = bufferization.alloc_tensor() : tensor<2x2x160x208xf32>
// CHECK:         %[[L:.+]] = scf.forall (%[[T0:.+]], %[[T1:.+]]) in (2, 2) shared_outs(%[[A:.+]] = %[[B]])
// CHECK:           %[[M0:.+]] = affine.apply affine_map<(d0) -> (d0 * -2 + 2)>(%[[T0]])
// CHECK:           %[[M1:.+]] = affine.apply affine_map<(d0) -> (d0 * -2 + 2)>(%[[T1]])
// CHECK:           %[[KS:.+]] = tensor.extract_slice %arg1[%[[M0]], %[[M1]], 0, 0] [1, 1, 192, 160] [1, 1, 1, 1] : tensor<3x3x192x160xf32> to tensor<192x160xf32>
// CHECK:           %[[KD:.+]] = tensor.extract_slice %[[A]][%[[T0]], %[[T1]], 0, 0] [1, 1, 160, 192] [1, 1, 1, 1] : tensor<2x2x160x208xf32> to tensor<160x192xf32>
// CHECK:           %[[KT:.+]] = linalg.transpose ins(%[[KS]] : tensor<192x160xf32>) outs(%[[KD]] : tensor<160x192xf32>) permutation = [1, 0] {conv.role = "relayout"}
// CHECK:           scf.forall.in_parallel
// CHECK:             tensor.parallel_insert_slice %[[KT]] into %[[A]][%[[T0]], %[[T1]], 0, 0] [1, 1, 160, 192] [1, 1, 1, 1] : tensor<160x192xf32> into tensor<2x2x160x208xf32>
// CHECK:         %[[V:.+]] = tensor.extract_slice %[[L]][0, 0, 0, 0] [2, 2, 160, 192] [1, 1, 1, 1] : tensor<2x2x160x208xf32> to tensor<2x2x160x192xf32>
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %[[V]] : tensor<1x5x5x160xf32>, tensor<2x2x160x192xf32>) {{.*}} attrs = {conv.phase_window = array<i64: 1, 5, 1, 1, 5, 1>, conv.role = "transpose_phase"}
// CHECK-COUNT-3: conv.role = "relayout"
func.func @phases_relayout(%x: tensor<1x4x4x160xf32>, %k: tensor<3x3x192x160xf32>) -> tensor<1x8x8x192xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [1, 1] : tensor<1x4x4x160xf32>, tensor<3x3x192x160xf32> -> tensor<1x8x8x192xf32>
  return %y : tensor<1x8x8x192xf32>
}

// -----

// A kernel of 64K-256K elements (3x3x128x128) is relaid out too when its
// taps take few transposes: with a dilation that is a multiple of the
// stride, all 9 taps land on one phase (one relayout over them, in an
// scf.forall). (The other phases only zero fill.)
// CHECK-LABEL: func.func @relayout_one_phase
// CHECK:         %[[B:.+]] = bufferization.alloc_tensor() : tensor<3x3x128x144xf32>
// CHECK:         scf.forall ({{.+}}) in (3, 3) shared_outs({{.+}} = %[[B]])
// CHECK:           linalg.transpose ins(%{{.+}} : tensor<128x128xf32>) outs(%{{.+}} : tensor<128x128xf32>) permutation = [1, 0]  {conv.role = "relayout"}
// CHECK-COUNT-1: conv.role = "transpose_phase"
// CHECK-NOT:     conv.role = "transpose_phase"
func.func @relayout_one_phase(%x: tensor<1x8x8x128xf32>, %k: tensor<3x3x128x128xf32>) -> tensor<1x16x16x128xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [2, 2] : tensor<1x8x8x128xf32>, tensor<3x3x128x128xf32> -> tensor<1x16x16x128xf32>
  return %y : tensor<1x16x16x128xf32>
}

// -----

// ... or one tap a phase (a 2x2 stride-2 kernel of 128K elements): one
// transpose each, here in the per-tap lowering's loop nest over the taps.
// CHECK-LABEL: func.func @relayout_one_tap_a_phase
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             linalg.transpose ins(%{{.+}} : tensor<128x256xf32>) outs(%{{.+}} : tensor<256x128xf32>) permutation = [1, 0]  {conv.role = "relayout"}
// CHECK-NOT:     linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel"]
func.func @relayout_one_tap_a_phase(%x: tensor<1x4x4x256xf32>, %k: tensor<2x2x128x256xf32>) -> tensor<1x8x8x128xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2, 2] dilation_rate = [1, 1] : tensor<1x4x4x256xf32>, tensor<2x2x128x256xf32> -> tensor<1x8x8x128xf32>
  return %y : tensor<1x8x8x128xf32>
}

// -----

// The same kernel without the dilation spreads over 4 phases of 4, 2, 2
// and 1 taps. A kernel of at least 64K elements has each phase relay its
// taps out too (relayoutPhaseTaps; the batch- and input-block rules still
// count it as a copied kernel): an scf.forall of transposes for each
// phase of several taps, one transpose for the last, into [T, T, Cin,
// Cout] buffers with rows one cache line longer (144), and no generic copy
// of the whole kernel.
// CHECK-LABEL: func.func @relayout_several_phases
// CHECK-NOT:     affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (2, 2) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<2x2x128x144xf32>)
// CHECK:           linalg.transpose ins(%{{.+}} : tensor<128x128xf32>) outs(%{{.+}} : tensor<128x128xf32>) permutation = [1, 0]  {conv.role = "relayout"}
// CHECK:         scf.forall (%{{.*}}) in (2) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<2x1x128x144xf32>)
// CHECK:         scf.forall (%{{.*}}) in (2) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<1x2x128x144xf32>)
// CHECK:         linalg.transpose ins(%{{.+}} : tensor<128x128xf32>) outs(%{{.+}} : tensor<128x128xf32>) permutation = [1, 0]  {conv.role = "relayout"}
// CHECK-NOT:     affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
// CHECK:         return
func.func @relayout_several_phases(%x: tensor<1x8x8x128xf32>, %k: tensor<3x3x128x128xf32>) -> tensor<1x16x16x128xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [1, 1] : tensor<1x8x8x128xf32>, tensor<3x3x128x128xf32> -> tensor<1x16x16x128xf32>
  return %y : tensor<1x16x16x128xf32>
}

// -----

// One input position with a large kernel (4x4x128x256): every tap writes
// its own output position, so the taps are one scf.forall (threads take
// whole taps), each tap writing its slice with a parallel_insert_slice. The
// taps cover every output position (valid): no fill of the whole output,
// each tap fills its own slice.
// CHECK-LABEL: func.func @taps_forall
// CHECK:         %[[OUT:.+]] = tensor.empty() : tensor<2x4x4x128xf32>
// CHECK-NOT:     linalg.fill ins(%{{.*}} : f32) outs(%[[OUT]]
// CHECK:         scf.forall (%[[MH:.+]], %[[MW:.+]]) in (4, 4) shared_outs(%[[S:.+]] = %[[OUT]])
// CHECK:           %[[O:.+]] = tensor.extract_slice %[[S]][0, %[[MH]], %[[MW]], 0] [2, 1, 1, 128] [1, 1, 1, 1]
// CHECK:           %[[F:.+]] = linalg.fill ins(%{{.*}} : f32) outs(%[[O]] : tensor<2x1x1x128xf32>)
// CHECK:           bufferization.alloc_tensor() : tensor<1x1x256x144xf32>
// CHECK:           tensor.extract_slice %arg1[%[[MH]], %[[MW]], 0, 0] [1, 1, 128, 256] [1, 1, 1, 1] : tensor<4x4x128x256xf32> to tensor<128x256xf32>
// CHECK:           linalg.transpose {{.*}} permutation = [1, 0] {conv.role = "relayout"}
// CHECK:           %[[P:.+]] = linalg.generic {{.*}} outs(%[[F]] : tensor<2x1x1x128xf32>) attrs = {conv.role = "transpose_phase"}
// CHECK:           scf.forall.in_parallel
// CHECK:             tensor.parallel_insert_slice %[[P]] into %[[S]][0, %[[MH]], %[[MW]], 0] [2, 1, 1, 128] [1, 1, 1, 1]
func.func @taps_forall(%x: tensor<2x1x1x256xf32>, %k: tensor<4x4x128x256xf32>) -> tensor<2x4x4x128xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [1, 1] dilation_rate = [1, 1] : tensor<2x1x1x256xf32>, tensor<4x4x128x256xf32> -> tensor<2x4x4x128xf32>
  return %y : tensor<2x4x4x128xf32>
}
