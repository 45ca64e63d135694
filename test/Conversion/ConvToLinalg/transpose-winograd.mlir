// Winograd F(2, T) phases (convert-conv-to-linalg's transpose-winograd,
// docs/Lowering.md §3.10): along the last spatial dimension each pair of a
// phase's outputs takes T + 1 products of transformed inputs and taps
// instead of 2T.
// RUN: conv-opt %s --convert-conv-to-linalg=transpose-winograd=on --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s
// RUN: conv-opt %s "--convert-conv-to-linalg=transpose-winograd=on transpose-per-tap=never" --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=NEVER
// Off (the pass's default): no transform. 'auto' (the CPU pipeline's
// default) takes ops with at most 2 Winograd phases, or 4 with at least 128
// output channels: not the 4 of @dcgan_blocks (32 channels), those of
// @dcgan_128.
// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --split-input-file | FileCheck %s --check-prefix=OFF
// RUN: conv-opt %s --convert-conv-to-linalg=transpose-winograd=auto --canonicalize --split-input-file | FileCheck %s --check-prefix=AUTO
// With transpose-winograd-many-phase-out-channels=32 (the CPU pipeline
// uses 64 on cores with two 512-bit FMA units, 128 elsewhere) 'auto' takes
// @dcgan_blocks' 4 phases of 32 output channels too.
// RUN: conv-opt %s "--convert-conv-to-linalg=transpose-winograd=auto transpose-winograd-many-phase-out-channels=32" --canonicalize --split-input-file | FileCheck %s --check-prefix=AUTO32
// AUTO32-LABEL: func.func @dcgan_blocks
// AUTO32:         winograd_transform
// RUN: not conv-opt %s --convert-conv-to-linalg=transpose-winograd=yes 2>&1 | FileCheck %s --check-prefix=BAD
// With 2 threads a phase's tap transform runs in one scf.forall over halves
// of the input channels, all its rows in it (the rows that are taps
// themselves, U0 = f0 and U2 = f1, inserted as they are).
// RUN: conv-opt %s "--convert-conv-to-linalg=transpose-winograd=on transpose-threads=2" --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=THREADS
// THREADS-LABEL: func.func @dcgan_blocks
// THREADS:         %[[U:.+]] = bufferization.alloc_tensor() : tensor<3x2x1x32x48xf32>
// THREADS:         scf.forall (%[[P:.+]]) in (2) shared_outs(%[[S:.+]] = %[[U]])
// THREADS:           %[[CI:.+]] = affine.apply affine_map<(d0) -> (d0 * 16)>(%[[P]])
// THREADS:           %[[U1:.+]] = linalg.generic
// THREADS:             arith.addf
// THREADS:           scf.forall.in_parallel
// THREADS-NEXT:        tensor.parallel_insert_slice %{{.+}} into %[[S]][0, 0, 0, %[[CI]], 0] [1, 2, 1, 16, 32]
// THREADS-NEXT:        tensor.parallel_insert_slice %[[U1]] into %[[S]][1, 0, 0, %[[CI]], 0] [1, 2, 1, 16, 32]
// THREADS-NEXT:        tensor.parallel_insert_slice %{{.+}} into %[[S]][2, 0, 0, %[[CI]], 0] [1, 2, 1, 16, 32]
// OFF-NOT: winograd_transform
// BAD: convert-conv-to-linalg: option transpose-winograd: expected 'off', 'auto' or 'on', got 'yes'
// AUTO-LABEL: func.func @dcgan_blocks
// AUTO-NOT:     winograd_transform
// AUTO-LABEL: func.func @dcgan_128
// AUTO:         winograd_transform
// AUTO-LABEL: func.func @stride1_3x3
// AUTO:         winograd_transform

// DCGAN-like 4x4 stride-2 'same' layer, batch 8: four phases of 2 x 2 taps,
// F(2, 2) along the last dimension (8 outputs a phase row: 4 pairs). The
// batch runs in blocks of 4 items (an scf.forall); each phase's taps
// [2, 2, Cin, Cout] become U = [f0, f0 + f1, f1] along that dimension,
// once, before the blocks ([3, 2, 1, 32, 48]: rows one cache line longer).
// CHECK-LABEL: func.func @dcgan_blocks
// CHECK:         linalg.transpose {{.*}} {conv.role = "relayout"}
// CHECK:         %[[U:.+]] = bufferization.alloc_tensor() : tensor<3x2x1x32x48xf32>
// CHECK:         linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<2x1x32x32xf32>, tensor<2x1x32x32xf32>) outs(%{{.+}} : tensor<2x1x32x32xf32>)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      arith.addf
// CHECK:         } -> tensor<2x1x32x32xf32>
// CHECK:         scf.forall (%{{.+}}) in (2) shared_outs
// The block's padded window, the 9 columns of the first phase (from column
// 1), its columns 2j, 2j + 1, 2j + 2 (stride 2), and D = [w0 - w1, w1, w2 -
// w1] for the 4 items x all 10 rows of the padded window x 4 pairs: the
// phase below reads the same columns and shares D.
// CHECK:           tensor.pad
// CHECK:           %[[COLS:.+]] = tensor.extract_slice %{{.+}}[0, 0, 1, 0] [4, 10, 9, 32] [1, 1, 1, 1]
// CHECK:           tensor.extract_slice %[[COLS]][0, 0, 0, 0] [4, 10, 4, 32] [1, 1, 2, 1]
// CHECK:           tensor.extract_slice %[[COLS]][0, 0, 1, 0] [4, 10, 4, 32] [1, 1, 2, 1]
// CHECK:           tensor.extract_slice %[[COLS]][0, 0, 2, 0] [4, 10, 4, 32] [1, 1, 2, 1]
// CHECK:           bufferization.alloc_tensor() : tensor<3x4x10x4x32xf32>
// CHECK:           linalg.generic
// CHECK-NEXT:      ^bb0
// CHECK-NEXT:        arith.subf
// CHECK:           {conv.role = "winograd_transform"}
// The phase's 9 window rows of D (from row 1).
// CHECK:           %[[D:.+]] = tensor.extract_slice %{{.+}}[0, 0, 1, 0, 0] [3, 4, 9, 4, 32] [1, 1, 1, 1, 1]
// The products: one correlation (2 taps along the first dimension, 1
// along the last) in a loop over the 3 transformed pairs, its rows along
// the batch (conv.phase_batch_rows), the window rows that hold input
// (conv.phase_window) along the first dimension only.
// CHECK:           %[[M:.+]] = scf.for %[[XI:.+]] = %c0 to %c3 step %c1
// CHECK:             linalg.fill
// CHECK:             tensor.extract_slice %[[D]][%[[XI]], 0, 0, 0, 0] [1, 4, 9, 4, 32]
// CHECK:             linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]{{.*}} outs(%{{.+}} : tensor<4x8x4x32xf32>) attrs =  {conv.phase_batch_rows, conv.phase_window = array<i64: 0, 8, 1, 0, 4, 1>, conv.role = "transpose_phase"}
// y[2j] = M0 + M1 and y[2j + 1] = M1 + M2, straight into the block's
// output at the phase's rows and columns: stride 4 (twice the stride).
// CHECK:           linalg.generic
// CHECK-NEXT:      ^bb0
// CHECK-NEXT:        arith.addf
// CHECK:           tensor.insert_slice %{{.+}} into %{{.+}}[0, 1, 1, 0] [4, 8, 4, 32] [1, 2, 4, 1]
// CHECK:           linalg.generic
// CHECK-NEXT:      ^bb0
// CHECK-NEXT:        arith.addf
// CHECK:           tensor.insert_slice %{{.+}} into %{{.+}}[0, 1, 3, 0] [4, 8, 4, 32] [1, 2, 4, 1]
// The second phase (columns from 0) has a stack of its own; the last two
// phases (rows from 0) share the first two phases' stacks.
// CHECK:           bufferization.alloc_tensor() : tensor<3x4x10x4x32xf32>
// CHECK:           tensor.insert_slice %{{.+}} into %{{.+}}[0, 1, 2, 0] [4, 8, 4, 32] [1, 2, 4, 1]
// CHECK-NOT:       alloc_tensor() : tensor<3x4x10x4x32xf32>
// CHECK:           tensor.insert_slice %{{.+}} into %{{.+}}[0, 0, 3, 0] [4, 8, 4, 32] [1, 2, 4, 1]
// CHECK-NOT:       alloc_tensor() : tensor<3x4x10x4x32xf32>
// CHECK:           tensor.insert_slice %{{.+}} into %{{.+}}[0, 0, 2, 0] [4, 8, 4, 32] [1, 2, 4, 1]
// CHECK:           tensor.parallel_insert_slice
func.func @dcgan_blocks(%x: tensor<8x8x8x32xf32>, %k: tensor<4x4x32x32xf32>) -> tensor<8x16x16x32xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same
         strides = [2, 2] dilation_rate = [1, 1]
         : tensor<8x8x8x32xf32>, tensor<4x4x32x32xf32> -> tensor<8x16x16x32xf32>
  return %y : tensor<8x16x16x32xf32>
}

// -----

// The same layer with 128 output channels: 'auto' takes its 4 phases.
// CHECK-LABEL: func.func @dcgan_128
// CHECK:         winograd_transform
func.func @dcgan_128(%x: tensor<8x8x8x32xf32>, %k: tensor<4x4x128x32xf32>) -> tensor<8x16x16x128xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same
         strides = [2, 2] dilation_rate = [1, 1]
         : tensor<8x8x8x32xf32>, tensor<4x4x128x32xf32> -> tensor<8x16x16x128xf32>
  return %y : tensor<8x16x16x128xf32>
}

// -----

// 1-D, 3 taps, stride 1, 13 outputs (odd): F(2, 3), 7 pairs, the last one's
// second output dropped; the window takes one more zero column (16 = 2 low,
// 11 input, 3 high instead of 2). D = [w0 - w2, w1 + w2, w2 - w1, w1 - w3],
// U = [f0, (f0 + f1 + f2) / 2, (f0 - f1 + f2) / 2, f2], y[2j] = M0 + M1 +
// M2 (7 outputs), y[2j + 1] = M1 - M2 - M3 (6). (By default its padding
// products pick the per-tap lowering.)
// NEVER-LABEL: func.func @odd_f23
// NEVER:         %[[HALF:.+]] = arith.constant 5.000000e-01 : f32
// NEVER:         tensor.pad %{{.+}} low[0, 2, 0] high[0, 3, 0]
// NEVER:         bufferization.alloc_tensor() : tensor<4x1x16x16xf32>
// NEVER:         arith.mulf %{{.+}}, %[[HALF]] : f32
// NEVER:         bufferization.alloc_tensor() : tensor<4x1x7x16xf32>
// NEVER:         scf.for %{{.+}} = %c0 to %c4 step %c1
// NEVER:           conv.role = "transpose_phase"
// NEVER:         tensor.insert_slice %{{.+}} into %{{.+}}[0, 0, 0] [1, 7, 16] [1, 2, 1]
// NEVER:         tensor.insert_slice %{{.+}} into %{{.+}}[0, 1, 0] [1, 6, 16] [1, 2, 1]
// CHECK-LABEL: func.func @odd_f23
// CHECK-NOT:     winograd_transform
func.func @odd_f23(%x: tensor<1x11x16xf32>, %k: tensor<3x16x16xf32>) -> tensor<1x13x16xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [1] dilation_rate = [1]
         : tensor<1x11x16xf32>, tensor<3x16x16xf32> -> tensor<1x13x16xf32>
  return %y : tensor<1x13x16xf32>
}

// -----

// Keras 3x3 stride 2: the phases with 2 taps along the last dimension hold
// 2/3 of the products, and F(2, 2) would save a quarter of those (1/6 <
// 1/5): no Winograd phase.
// CHECK-LABEL: func.func @keras_3x3
// CHECK-NOT:     winograd_transform
// CHECK:         return
func.func @keras_3x3(%x: tensor<8x8x8x32xf32>, %k: tensor<3x3x32x32xf32>) -> tensor<8x16x16x32xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same
         strides = [2, 2] dilation_rate = [1, 1]
         : tensor<8x8x8x32xf32>, tensor<3x3x32x32xf32> -> tensor<8x16x16x32xf32>
  return %y : tensor<8x16x16x32xf32>
}

// -----

// Fewer than 16 output channels (4 here: the few-channel lowerings), or
// f64: the direct phases.
// CHECK-LABEL: func.func @few_channels
// CHECK-NOT:     winograd_transform
// CHECK:         return
func.func @few_channels(%x: tensor<8x8x8x32xf32>, %k: tensor<4x4x4x32xf32>) -> tensor<8x16x16x4xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same
         strides = [2, 2] dilation_rate = [1, 1]
         : tensor<8x8x8x32xf32>, tensor<4x4x4x32xf32> -> tensor<8x16x16x4xf32>
  return %y : tensor<8x16x16x4xf32>
}
// CHECK-LABEL: func.func @f64
// CHECK-NOT:     winograd_transform
// CHECK:         return
func.func @f64(%x: tensor<8x8x8x32xf64>, %k: tensor<4x4x32x32xf64>) -> tensor<8x16x16x32xf64> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same
         strides = [2, 2] dilation_rate = [1, 1]
         : tensor<8x8x8x32xf64>, tensor<4x4x32x32xf64> -> tensor<8x16x16x32xf64>
  return %y : tensor<8x16x16x32xf64>
}

// -----

// A stride-1 3x3 layer (AlexNet's deconv3 shape, smaller): one phase of
// 3 x 3 taps, F(2, 3) along the last dimension ('auto' takes it).
// CHECK-LABEL: func.func @stride1_3x3
// CHECK:         bufferization.alloc_tensor() : tensor<4x3x1x32x48xf32>
// CHECK:         scf.forall (%{{.+}}) in (2)
// CHECK:           scf.for %{{.+}} = %c0 to %c4 step %c1
// CHECK:             conv.role = "transpose_phase"
func.func @stride1_3x3(%x: tensor<8x13x13x32xf32>, %k: tensor<3x3x32x32xf32>) -> tensor<8x13x13x32xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same
         strides = [1, 1] dilation_rate = [1, 1]
         : tensor<8x13x13x32xf32>, tensor<3x3x32x32xf32> -> tensor<8x13x13x32xf32>
  return %y : tensor<8x13x13x32xf32>
}
