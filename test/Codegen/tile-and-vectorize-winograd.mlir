// RUN: conv-opt %s --convert-conv-to-linalg=transpose-winograd=on --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=512 num-vector-registers=32 l1-cache-bytes=32768 l2-cache-bytes=1048576 num-threads=2" --mlir-print-local-scope | FileCheck %s

// A Winograd F(2, 2) phase layer (docs/Lowering.md §3.10) in batch blocks
// of 4 items, on 2 threads: the elementwise transforms
// (conv.role = "winograd_transform") run in rows of 32-lane chunks along
// the channels, their loops kept rolled (conv.llvm_no_unroll, for
// conv-cpu-annotate-loop-unrolling); the products' register tiles (4 x 64
// accumulators) run their rows along the block's 4 items
// (conv.phase_batch_rows: inside the block's forall the block is the
// thread's batch), each row broadcasting its input channel from another
// item.
// CHECK-LABEL: func.func @dcgan_blocks
// The tap transform U1 = f0 + f1, before the blocks.
// CHECK:         scf.for
// CHECK:               vector.transfer_read {{.*}} : tensor<2x2x32x64xf32>, vector<32xf32>
// CHECK:               arith.addf {{.*}} : vector<32xf32>
// CHECK:               vector.transfer_write {{.*}} : vector<32xf32>, tensor<2x1x32x64xf32>
// CHECK:             } {conv.llvm_no_unroll}
// CHECK:         scf.forall (%{{.+}}) in (2)
// The input transform D0 = w0 - w1 of a phase's columns, over all 10 rows
// of the block's padded window (two phases read it).
// CHECK:               arith.subf {{.*}} : vector<32xf32>
// CHECK:               vector.transfer_write {{.*}} : vector<32xf32>, tensor<4x10x4x32xf32>
// CHECK:             } {conv.llvm_no_unroll}
// The products: 4 items x 64 output channels a register tile.
// CHECK:           scf.for %{{.+}} = %c0 to %c3 step %c1 iter_args(%{{.+}}) -> (tensor<3x4x8x4x64xf32>)
// CHECK:                 vector.transfer_read {{.*}} {in_bounds = [true], permutation_map = affine_map<(d0, d1, d2, d3, d4) -> (d1)>} : tensor<3x4x10x4x32xf32>, vector<4xf32>
// CHECK:                 arith.mulf {{.*}} : vector<4x64xf32>
// The output transform y0 = M0 + M1.
// CHECK:               arith.addf {{.*}} : vector<32xf32>
// CHECK:               vector.transfer_write {{.*}} : vector<32xf32>, tensor<4x8x4x64xf32>
// CHECK:             } {conv.llvm_no_unroll}
func.func @dcgan_blocks(%x: tensor<8x8x8x32xf32>, %k: tensor<4x4x64x32xf32>) -> tensor<8x16x16x64xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same
         strides = [2, 2] dilation_rate = [1, 1]
         : tensor<8x8x8x32xf32>, tensor<4x4x64x32xf32> -> tensor<8x16x16x64xf32>
  return %y : tensor<8x16x16x64xf32>
}
