// The block lowerings of a transposed convolution with a large input: input
// blocks for a kernel equal to its stride (docs/Lowering.md §3.8), batch
// blocks for the phases (§3.9), and the layers that keep the phases.
// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s --implicit-check-not=conv.transpose
// RUN: conv-opt %s --convert-conv-to-linalg=transpose-threads=2 --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=T2
// RUN: conv-opt %s --convert-conv-to-linalg=transpose-threads=3 --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=T3
// RUN: conv-opt %s --convert-conv-to-linalg=transpose-batch-rows=true --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=ROWS

// 3-D U-Net up-convolution 16^3 x 256 -> 32^3 x 128, batch 2: an 8 MiB
// input and a 1 MiB kernel (256K elements: relaid out tap by tap, too large
// for the depth-to-space contraction). The 8 taps' [Cin, Cout] slices are
// relaid out once, before the blocks, into rows of 144 columns (128 f32 =
// 512 bytes, padded by a cache line). Then one scf.forall over (batch item,
// input depth row): a 256 KiB row per block (16 x 16 x 256 f32), 32 blocks
// whose kernel reads (32 x 1 MiB) are fewer bytes than the phases' reads
// of the input (8 taps x 8 MiB). In a block, each tap m (a loop nest over
// the taps) takes K[m] = f[1 - m] and zero fills, then computes, its
// stride-2 slice of the block's two output depth rows [2 j_0, 2 j_0 + 2).
// The output needs no fill of its own.
// CHECK-LABEL: func.func @input_blocks_3d
// CHECK:         %[[F:.+]] = bufferization.alloc_tensor() : tensor<2x2x2x256x144xf32>
// CHECK:         %[[R:.+]] = scf.forall ({{.+}}) in (2, 2, 2) shared_outs({{.+}} = %[[F]])
// CHECK:           linalg.transpose ins(%{{.+}} : tensor<128x256xf32>) outs(%{{.+}} : tensor<256x128xf32>) permutation = [1, 0]  {conv.role = "relayout"}
// CHECK:           tensor.parallel_insert_slice
// CHECK:         %[[FV:.+]] = tensor.extract_slice %[[R]][0, 0, 0, 0, 0] [2, 2, 2, 256, 128] [1, 1, 1, 1, 1] : tensor<2x2x2x256x144xf32> to tensor<2x2x2x256x128xf32>
// CHECK:         %[[OUT:.+]] = tensor.empty() : tensor<2x32x32x32x128xf32>
// CHECK-NOT:     linalg.fill ins(%{{.*}} : f32) outs(%[[OUT]]
// CHECK:         scf.forall (%[[B:.+]], %[[J:.+]]) in (2, 16) shared_outs(%[[S:.+]] = %[[OUT]])
// CHECK:           %[[ROW:.+]] = affine.apply affine_map<(d0) -> (d0 * 2)>(%[[J]])
// CHECK:           %[[X:.+]] = tensor.extract_slice %arg0[%[[B]], %[[J]], 0, 0, 0] [1, 1, 16, 16, 256] [1, 1, 1, 1, 1]
// CHECK:           %[[O:.+]] = tensor.extract_slice %[[S]][%[[B]], %[[ROW]], 0, 0, 0] [1, 2, 32, 32, 128] [1, 1, 1, 1, 1]
// CHECK:           %[[Y:.+]] = scf.for %[[M0:.+]] = %c0 to %c2 step %c1 iter_args(%{{.+}} = %[[O]])
// CHECK:             scf.for %[[M1:.+]] = %c0 to %c2
// CHECK:               scf.for %[[M2:.+]] = %c0 to %c2 step %c1 iter_args(%[[A:.+]] =
// CHECK:                 %[[R0:.+]] = affine.apply affine_map<(d0) -> (-d0 + 1)>(%[[M0]])
// CHECK:                 %[[R1:.+]] = affine.apply affine_map<(d0) -> (-d0 + 1)>(%[[M1]])
// CHECK:                 %[[R2:.+]] = affine.apply affine_map<(d0) -> (-d0 + 1)>(%[[M2]])
// CHECK:                 %[[K:.+]] = tensor.extract_slice %[[FV]][%[[R0]], %[[R1]], %[[R2]], 0, 0] [1, 1, 1, 256, 128]
// CHECK:                 %[[T:.+]] = tensor.extract_slice %[[A]][0, %[[M0]], %[[M1]], %[[M2]], 0] [1, 1, 16, 16, 128] [1, 2, 2, 2, 1]
// CHECK:                 %[[Z:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[T]] : tensor<1x1x16x16x128xf32>)
// CHECK:                 %[[G:.+]] = linalg.generic
// CHECK-SAME:              ins(%[[X]], %[[K]] : tensor<1x1x16x16x256xf32>, tensor<1x1x1x256x128xf32>) outs(%[[Z]] : tensor<1x1x16x16x128xf32>) attrs =  {conv.role = "transpose_phase"}
// CHECK:                 tensor.insert_slice %[[G]] into %[[A]][0, %[[M0]], %[[M1]], %[[M2]], 0] [1, 1, 16, 16, 128] [1, 2, 2, 2, 1]
// CHECK:           scf.forall.in_parallel
// CHECK:             tensor.parallel_insert_slice %[[Y]] into %[[S]][%[[B]], %[[ROW]], 0, 0, 0] [1, 2, 32, 32, 128] [1, 1, 1, 1, 1]
// 32 blocks split evenly over 2 threads; over 3 they are more than 4 a
// thread.
// T2-LABEL: func.func @input_blocks_3d
// T2:         scf.forall ({{.+}}) in (2, 16)
// T3-LABEL: func.func @input_blocks_3d
// T3:         scf.forall ({{.+}}) in (2, 16)
func.func @input_blocks_3d(%x: tensor<2x16x16x16x256xf32>, %k: tensor<2x2x2x128x256xf32>) -> tensor<2x32x32x32x128xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2, 2, 2] dilation_rate = [1, 1, 1] : tensor<2x16x16x16x256xf32>, tensor<2x2x2x128x256xf32> -> tensor<2x32x32x32x128xf32>
  return %y : tensor<2x32x32x32x128xf32>
}

// -----

// One item of 8 depth rows (2 MiB): 8 blocks, even over 2 threads; with 3
// (neither even nor 4 a thread) the phases stay.
// CHECK-LABEL: func.func @input_blocks_threads
// CHECK:         scf.forall ({{.+}}) in (8)
// T2-LABEL: func.func @input_blocks_threads
// T2:         scf.forall ({{.+}}) in (8)
// T3-LABEL: func.func @input_blocks_threads
// T3-NOT:     scf.forall
// T3:         conv.role = "transpose_phase"
// T3-NOT:     scf.forall
// T3:         return
func.func @input_blocks_threads(%x: tensor<1x8x16x16x256xf32>, %k: tensor<2x2x2x128x256xf32>) -> tensor<1x16x32x32x128xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2, 2, 2] dilation_rate = [1, 1, 1] : tensor<1x8x16x16x256xf32>, tensor<2x2x2x128x256xf32> -> tensor<1x16x32x32x128xf32>
  return %y : tensor<1x16x32x32x128xf32>
}

// -----

// Rows smaller than the block budget: 2 rows of 80 KiB (8 x 8 x 320 f32)
// a block. But the 3-D U-Net 8^3 x 320 -> 16^3 x 256 layer's 2.5 MiB kernel
// read by each of its 8 blocks is more than its 1.25 MiB input read by each
// of its 8 taps: the phases stay (one contraction in a loop nest over them).
// CHECK-LABEL: func.func @input_blocks_large_kernel
// CHECK-NOT:     scf.forall
// CHECK:         conv.role = "transpose_phase"
// CHECK-NOT:     scf.forall
// CHECK:         return
func.func @input_blocks_large_kernel(%x: tensor<2x8x8x8x320xf32>, %k: tensor<2x2x2x256x320xf32>) -> tensor<2x16x16x16x256xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2, 2, 2] dilation_rate = [1, 1, 1] : tensor<2x8x8x8x320xf32>, tensor<2x2x2x256x320xf32> -> tensor<2x16x16x16x256xf32>
  return %y : tensor<2x16x16x16x256xf32>
}

// -----

// A 2-D layer with rows of 64 KiB (64 x 256 f32): 4 rows (256 KiB) a block.
// Its 16 blocks read the 1 MiB kernel 16 times, as many bytes as its 4 taps
// would read the 4 MiB input.
// CHECK-LABEL: func.func @input_blocks_2d
// (The forall's unit batch dimension folds away.)
// CHECK:         scf.forall (%[[J:.+]]) in (16)
// CHECK:           %[[I:.+]] = affine.apply affine_map<(d0) -> (d0 * 4)>(%[[J]])
// CHECK:           %[[O:.+]] = affine.apply affine_map<(d0) -> (d0 * 8)>(%[[J]])
// CHECK:           tensor.extract_slice %arg0[0, %[[I]], 0, 0] [1, 4, 64, 256] [1, 1, 1, 1]
// CHECK:           tensor.extract_slice %{{.+}}[0, %[[O]], 0, 0] [1, 8, 128, 256] [1, 1, 1, 1]
func.func @input_blocks_2d(%x: tensor<1x64x64x256xf32>, %k: tensor<2x2x256x256xf32>) -> tensor<1x128x128x256xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2, 2] dilation_rate = [1, 1] : tensor<1x64x64x256xf32>, tensor<2x2x256x256xf32> -> tensor<1x128x128x256xf32>
  return %y : tensor<1x128x128x256xf32>
}

// -----

// Batch blocks (docs/Lowering.md §3.9): a 4x4 stride-2 'same' layer (DCGAN
// 8x8x256 -> 16x16x128) with 16 items of 64 KiB, 1 MiB of input that the
// 4 phases would each sweep, and a kernel of 512K elements that they would
// each relay out for their taps. The whole kernel is relaid out once (all
// 16 taps reversed, rows of 144 columns: 128 f32 = 512 bytes, padded by a
// cache line); an scf.forall over 8 blocks of 2 items runs the 4 phases on
// its block's padded input, each reading its 2x2 taps as a stride-2 slice
// of the relaid-out kernel (phase (1, 1): f[1::2, 1::2] = K[2 - 2u, 2 - 2v])
// and zero filling its slice of the block's output first.
// CHECK-LABEL: func.func @batch_blocks
// CHECK:         %[[F:.+]] = bufferization.alloc_tensor() : tensor<4x4x256x144xf32>
// CHECK:         %[[R:.+]] = scf.forall ({{.+}}) in (4, 4) shared_outs({{.+}} = %[[F]])
// CHECK:           %[[M0:.+]] = affine.apply affine_map<(d0) -> (-d0 + 3)>
// CHECK:           %[[M1:.+]] = affine.apply affine_map<(d0) -> (-d0 + 3)>
// CHECK:           tensor.extract_slice %arg1[%[[M0]], %[[M1]], 0, 0] [1, 1, 128, 256]
// CHECK:           linalg.transpose ins(%{{.+}} : tensor<128x256xf32>) outs(%{{.+}} : tensor<256x128xf32>) permutation = [1, 0]  {conv.role = "relayout"}
// CHECK:         %[[FV:.+]] = tensor.extract_slice %[[R]][0, 0, 0, 0] [4, 4, 256, 128] [1, 1, 1, 1]
// CHECK:         %[[OUT:.+]] = tensor.empty() : tensor<16x16x16x128xf32>
// CHECK-NOT:     linalg.fill ins(%{{.*}} : f32) outs(%[[OUT]]
// CHECK:         scf.forall (%[[I:.+]]) in (8) shared_outs(%[[S:.+]] = %[[OUT]])
// CHECK:           %[[B0:.+]] = affine.apply affine_map<(d0) -> (d0 * 2)>(%[[I]])
// CHECK:           %[[X:.+]] = tensor.extract_slice %arg0[%[[B0]], 0, 0, 0] [2, 8, 8, 256] [1, 1, 1, 1]
// CHECK:           %[[O:.+]] = tensor.extract_slice %[[S]][%[[B0]], 0, 0, 0] [2, 16, 16, 128] [1, 1, 1, 1]
// CHECK:           %[[P:.+]] = tensor.pad %[[X]] low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK:           %[[W:.+]] = tensor.extract_slice %[[P]][0, 1, 1, 0] [2, 9, 9, 256] [1, 1, 1, 1]
// CHECK:           %[[T:.+]] = tensor.extract_slice %[[O]][0, 1, 1, 0] [2, 8, 8, 128] [1, 2, 2, 1]
// CHECK:           %[[Z:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[T]] : tensor<2x8x8x128xf32>)
// CHECK:           %[[K:.+]] = tensor.extract_slice %[[FV]][1, 1, 0, 0] [2, 2, 256, 128] [2, 2, 1, 1]
// CHECK:           linalg.generic
// CHECK-SAME:        ins(%[[W]], %[[K]] : tensor<2x9x9x256xf32>, tensor<2x2x256x128xf32>) outs(%[[Z]] : tensor<2x8x8x128xf32>)
// CHECK-SAME:        conv.role = "transpose_phase"
// CHECK-COUNT-3:   conv.role = "transpose_phase"
// CHECK:           scf.forall.in_parallel
// CHECK:             tensor.parallel_insert_slice %{{.+}} into %[[S]][%[[B0]], 0, 0, 0] [2, 16, 16, 128] [1, 1, 1, 1]
// 8 blocks split evenly over 2 threads, but not over 3 (nor 4 a thread).
// T2-LABEL: func.func @batch_blocks
// T2:         scf.forall ({{.+}}) in (8)
// T3-LABEL: func.func @batch_blocks
// T3-NOT:     -> (tensor<16x16x16x128xf32>)
// T3:         return
// With the code generator's batch rows (transpose-batch-rows, AVX-512):
// the phases multiply padding along the last dimension (the window padded
// by one column) and the batch of 16 makes tiles of 4 rows, so the phases
// run over the whole batch instead.
// ROWS-LABEL: func.func @batch_blocks
// ROWS-NOT:     -> (tensor<16x16x16x128xf32>)
// ROWS-COUNT-4: tensor<2x2x256x128xf32>) outs(%{{.+}} : tensor<16x8x8x128xf32>) attrs = {conv.phase_window
// ROWS:         return
func.func @batch_blocks(%x: tensor<16x8x8x256xf32>, %k: tensor<4x4x128x256xf32>) -> tensor<16x16x16x128xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [1, 1] : tensor<16x8x8x256xf32>, tensor<4x4x128x256xf32> -> tensor<16x16x16x128xf32>
  return %y : tensor<16x16x16x128xf32>
}

// -----

// A batch of 18 items (1.1 MiB): no tiles of 4 batch rows, so the blocks
// stay with transpose-batch-rows too.
// CHECK-LABEL: func.func @batch_blocks_odd_batch
// CHECK:         scf.forall ({{.+}}) in (9)
// ROWS-LABEL:  func.func @batch_blocks_odd_batch
// ROWS:          scf.forall ({{.+}}) in (9)
func.func @batch_blocks_odd_batch(%x: tensor<18x8x8x256xf32>, %k: tensor<4x4x128x256xf32>) -> tensor<18x16x16x128xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [1, 1] : tensor<18x8x8x256xf32>, tensor<4x4x128x256xf32> -> tensor<18x16x16x128xf32>
  return %y : tensor<18x16x16x128xf32>
}

// -----

// 32 output channels: too few for the code generator's 4-vector register
// tiles, which batch rows need; the blocks stay with transpose-batch-rows.
// CHECK-LABEL: func.func @batch_blocks_narrow
// CHECK:         scf.forall ({{.+}}) in (8)
// ROWS-LABEL:  func.func @batch_blocks_narrow
// ROWS:          scf.forall ({{.+}}) in (8)
func.func @batch_blocks_narrow(%x: tensor<16x8x8x512xf32>, %k: tensor<4x4x32x512xf32>) -> tensor<16x16x16x32xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [1, 1] : tensor<16x8x8x512xf32>, tensor<4x4x32x512xf32> -> tensor<16x16x16x32xf32>
  return %y : tensor<16x16x16x32xf32>
}

// -----

// Items of 784 KiB (28 x 28 x 256 f32): two would not stay in the L2 the
// blocks assume, and the phases stay (the only scf.forall loops are those of
// their taps' relayouts, the correlations' come with the tiling).
// CHECK-LABEL: func.func @batch_blocks_large_items
// CHECK-NOT:     tensor.pad %{{.+}} low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK:         scf.forall ({{.+}}) in (2, 2) shared_outs({{.+}}) -> (tensor<2x2x256x144xf32>)
// CHECK:         scf.forall ({{.+}}) in (2) shared_outs({{.+}}) -> (tensor<2x1x256x144xf32>)
// CHECK:         scf.forall ({{.+}}) in (2) shared_outs({{.+}}) -> (tensor<1x2x256x144xf32>)
// CHECK-NOT:     scf.forall (
// CHECK:         return
func.func @batch_blocks_large_items(%x: tensor<8x28x28x256xf32>, %k: tensor<3x3x128x256xf32>) -> tensor<8x56x56x128xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [1, 1] : tensor<8x28x28x256xf32>, tensor<3x3x128x256xf32> -> tensor<8x56x56x128xf32>
  return %y : tensor<8x56x56x128xf32>
}

// -----

// A kernel of 128K elements (4x4x64x128, DCGAN 16x16x128 -> 32x32x64, 8 MiB
// of input in items of 128 KiB): blocks, which would take the whole
// kernel's vectorized relayouts up front, grew its first compile by a sixth
// for a few percent. The phases stay: each relays out its own taps (an
// scf.forall over its 2 x 2 taps, relayoutPhaseTaps), and no forall runs
// over the batch.
// CHECK-LABEL: func.func @batch_blocks_small_kernel
// CHECK-NOT:     scf.forall {{.*}}tensor<64x
// CHECK-COUNT-4: scf.forall (%{{.*}}, %{{.*}}) in (2, 2) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<2x2x128x80xf32>)
// CHECK-NOT:     scf.forall (
// CHECK:         return
func.func @batch_blocks_small_kernel(%x: tensor<64x16x16x128xf32>, %k: tensor<4x4x64x128xf32>) -> tensor<64x32x32x64xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same strides = [2, 2] dilation_rate = [1, 1] : tensor<64x16x16x128xf32>, tensor<4x4x64x128xf32> -> tensor<64x32x32x64xf32>
  return %y : tensor<64x32x32x64xf32>
}
