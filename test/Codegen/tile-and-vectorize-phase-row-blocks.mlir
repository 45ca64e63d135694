// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=256 num-vector-registers=16 l1-cache-bytes=8192 l2-cache-bytes=65536 num-threads=1" --split-input-file | FileCheck %s --check-prefix=T1
// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=256 num-vector-registers=16 l1-cache-bytes=8192 l2-cache-bytes=65536 num-threads=2" --split-input-file | FileCheck %s --check-prefix=T2

// The output-row blocks of a 2-D U-Net-style up-convolution (k = s = 2:
// four phases of one tap each, a batch of 1), L2 64 KiB.

// Each phase's kernel (128 x 128 channels, 64 KiB) does not stay in the L2
// beside a quarter-L2 block of input rows, so every block would reload it:
// the blocks take what the L2 holds beside two 16-column panels (64 - 2 x 8
// = 48 KiB, 12 of the 4 KiB rows), down to a count dividing the rows: 8 of
// the 16 rows (a quarter of the L2 would be 4). With 2 threads (which split
// the rows of the single image) each thread's 8 rows are one block.
// T1-LABEL: func.func @transpose_kernel_outside_l2
// T1:         scf.for %{{.*}} = %c0 to %c16 step %c8
// T1:           scf.for %{{.*}} = %c0 to %c128 step %c16
// T1:             scf.for %{{.*}} = %c0 to %c8 step %c1
// T1:               scf.for %{{.*}} = %c0 to %c8 step %c4
// T1:                 vector.contract {{.*}} : vector<4x4xf32>, vector<4x16xf32> into vector<4x16xf32>
// T2-LABEL: func.func @transpose_kernel_outside_l2
// T2:         scf.forall (%{{.*}}) = (0) to (16) step (8)
// T2-NOT:       scf.for %{{.*}} = %c0 to %c8 step %c4
// T2:           scf.for %{{.*}} = %c0 to %c128 step %c16
// T2:             scf.for %{{.*}} = %c0 to %c8 step %c1
func.func @transpose_kernel_outside_l2(%x: tensor<1x16x8x128xf32>, %k: tensor<2x2x128x128xf32>) -> tensor<1x32x16x128xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2, 2] dilation_rate = [1, 1] : tensor<1x16x8x128xf32>, tensor<2x2x128x128xf32> -> tensor<1x32x16x128xf32>
  return %y : tensor<1x32x16x128xf32>
}

// -----

// A kernel that stays in the L2 (128 x 16 channels, 8 KiB): blocks of a
// quarter of the L2, 4 rows of 4 KiB, which divide the 28 rows. With 2
// threads each thread has 14 rows, and the blocks divide those: 2 rows (no
// 4-row block count divides 14, and 3 blocks of 4 would leave a remainder
// block of 2, a second copy of the register-tile nest).
// T1-LABEL: func.func @transpose_thread_row_blocks
// T1:         scf.for %{{.*}} = %c0 to %c28 step %c4
// T1:           scf.for %{{.*}} = %c0 to %c4 step %c1
// T2-LABEL: func.func @transpose_thread_row_blocks
// T2:         scf.forall (%{{.*}}) = (0) to (28) step (14)
// T2:           scf.for %{{.*}} = %c0 to %c14 step %c2
// T2:             scf.for %{{.*}} = %c0 to %c2 step %c1
// T2-NOT:       scf.for %{{.*}} = %c0 to %c12 step %c4
func.func @transpose_thread_row_blocks(%x: tensor<1x28x8x128xf32>, %k: tensor<2x2x16x128xf32>) -> tensor<1x56x16x16xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2, 2] dilation_rate = [1, 1] : tensor<1x28x8x128xf32>, tensor<2x2x16x128xf32> -> tensor<1x56x16x16xf32>
  return %y : tensor<1x56x16x16xf32>
}

// -----

// A kernel outside the L2 again (64 KiB), 28 rows of 14 positions (7 KiB):
// 6 rows a block from the sizes above (48 KiB). With 1 thread 4 rows
// divide the 28 (at least half a block). With 2 threads each thread's 14
// rows have no divisor from 3 to 6: blocks of 7 rows instead of one row a
// block, since 7 rows and one column panel (49 + 8 KiB) fit the L2.
// T1-LABEL: func.func @transpose_kernel_outside_l2_next_divisor
// T1:         scf.for %{{.*}} = %c0 to %c28 step %c4
// T1:           scf.for %{{.*}} = %c0 to %c128 step %c16
// T1:             scf.for %{{.*}} = %c0 to %c4 step %c1
// T2-LABEL: func.func @transpose_kernel_outside_l2_next_divisor
// T2:         scf.forall (%{{.*}}) = (0) to (28) step (14)
// T2:           scf.for %{{.*}} = %c0 to %c14 step %c7
// T2:             scf.for %{{.*}} = %c0 to %c128 step %c16
// T2:               scf.for %{{.*}} = %c0 to %c7 step %c1
func.func @transpose_kernel_outside_l2_next_divisor(%x: tensor<1x28x14x128xf32>, %k: tensor<2x2x128x128xf32>) -> tensor<1x56x28x128xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2, 2] dilation_rate = [1, 1] : tensor<1x28x14x128xf32>, tensor<2x2x128x128xf32> -> tensor<1x56x28x128xf32>
  return %y : tensor<1x56x28x128xf32>
}
