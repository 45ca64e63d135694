// RUN: conv-opt %s --convert-conv-to-linalg="widen-16-bit-operands bf16-dot" --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=512 num-vector-registers=32 l1-cache-bytes=32768 l2-cache-bytes=1048576 bf16-dot" --mlir-print-local-scope | FileCheck %s
// RUN: conv-opt %s --convert-conv-to-linalg="widen-16-bit-operands bf16-dot" --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=512 num-vector-registers=32 l1-cache-bytes=32768 l2-cache-bytes=1048576 bf16-dot" --canonicalize --one-shot-bufferize="bufferize-function-boundaries" --conv-cpu-lower-vectors="vector-bits=512 bf16-dot" --mlir-print-local-scope | FileCheck %s --check-prefix=LOWER
// RUN: conv-opt %s --convert-conv-to-linalg="widen-16-bit-operands bf16-dot" --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=512 num-vector-registers=32 l1-cache-bytes=32768 l2-cache-bytes=1048576 bf16-dot" --canonicalize --one-shot-bufferize="bufferize-function-boundaries" --conv-cpu-lower-vectors="vector-bits=512 bf16-dot" \
// RUN:   --convert-linalg-to-loops --scf-forall-to-for --convert-vector-to-scf --canonicalize --expand-strided-metadata --lower-affine --convert-scf-to-cf \
// RUN:   --convert-vector-to-llvm="enable-x86vector" --convert-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-translate --mlir-to-llvmir \
// RUN:   | llc -O2 -mtriple=x86_64-unknown-linux-gnu -mcpu=znver4 -mattr=+avx512bf16 \
// RUN:   | FileCheck %s --check-prefix=ASM

// A bf16 filter gradient of pairs of output positions (docs/Lowering.md
// §2.6, docs/Codegen.md "bf16 dot products"): 3x3 taps, 64 -> 64 channels,
// 14-column rows (7 pairs).
//
// The pair packs: P (15 = 12 + 2 + 1 columns of the padded window) and
// Q, one chunk of 32 channels per step, the two runs read whole and
// interleaved (as i16) into one contiguous [32, 2] write.
// CHECK-LABEL: func.func @dw_pairs
// CHECK:         tensor.empty() : tensor<4x16x15x64x2xbf16>
// CHECK:         vector.transfer_read {{.*}} : tensor<4x16x16x64xbf16>, vector<32xbf16>
// CHECK:         vector.transfer_read {{.*}} : tensor<4x16x16x64xbf16>, vector<32xbf16>
// CHECK:         vector.interleave %{{.*}}, %{{.*}} : vector<32xi16> -> vector<64xi16>
// CHECK:         vector.shape_cast %{{.*}} : vector<64xbf16> to vector<32x2xbf16>
// CHECK:         vector.transfer_write {{.*}} : vector<32x2xbf16>, tensor<1x1x1x32x2xbf16>
// CHECK:         tensor.empty() : tensor<4x14x7x64x2xbf16>
// CHECK:         vector.interleave %{{.*}}, %{{.*}} : vector<32xi16> -> vector<64xi16>
// The register tile: 8 input channels x 32 output channels over all the
// rows of an image that the tap reads (a dynamic range of up to 14: the
// whole-dW tiles of a multi-tap filter gradient take all the rows of their
// block when those fit half the L2) of 7 pairs, one pair of positions per
// step (the pair loop
// `e` whole): a contraction over the pair of [8, 2] and [32, 2] bf16
// operands. The first image's tiles start from zero (zeroStartFirstBlocks:
// no zero fill of the dW), the other 3 images' from what it left.
// CHECK:         scf.forall
// CHECK:           scf.for %{{.*}} = %c0 to %c64 step %c8
// CHECK-NEXT:        scf.for %{{.*}} = %c0 to %c64 step %c32
// CHECK:               vector.transfer_write %cst{{.*}} : vector<8x32xf32>, tensor<8x32xf32>
// CHECK-NEXT:          scf.for %{{.*}} = %c0 to %{{.*}} step %c1
// CHECK-NEXT:            scf.for %{{.*}} = %c0 to %c7 step %c1
// CHECK:                   vector.transfer_read {{.*}} : tensor<4x14x7x64x2xbf16>, vector<8x2xbf16>
// CHECK:                   vector.transfer_read {{.*}} : tensor<4x14x7x64x2xbf16>, vector<32x2xbf16>
// CHECK:                   vector.contract {{.*}} into vector<8x32xf32>
// CHECK:           scf.for %{{.*}} = %c1 to %c4 step %c1
// CHECK-NEXT:        scf.for %{{.*}} = %c0 to %c64 step %c8
// CHECK-NEXT:          scf.for %{{.*}} = %c0 to %c64 step %c32
// CHECK-NEXT:            scf.for %{{.*}} = %c0 to %{{.*}} step %c1
// CHECK-NEXT:              scf.for %{{.*}} = %c0 to %c7 step %c1
// CHECK:                     vector.contract {{.*}} into vector<8x32xf32>
//
// conv-cpu-lower-vectors: each column operand's pairs are already
// contiguous: one 64-element read of the flattened pair dimension, sliced
// into 32-element halves (no shuffle); each row's pair is a 2-element load
// broadcast as a 32-bit word; one x86vector.avx512.dot per accumulator
// vector (8 rows x 2); in the first image's tiles and in the others'.
// LOWER-LABEL: func.func @dw_pairs
// LOWER:         scf.forall
// LOWER:           memref.collapse_shape {{.*}} into memref<4x14x7x128xbf16
// LOWER:           vector.load {{.*}} vector<64xbf16>
// LOWER-NOT:       vector.shuffle
// (The 8 row loads and the 16 dot products, in any interleaving.)
// LOWER-NOT:       vector.fma
// LOWER-COUNT-24:  {{vector.load .* vector<2xbf16>$|x86vector.avx512.dot}}
// LOWER:           vector.load {{.*}} vector<64xbf16>
// LOWER-NOT:       {{vector.shuffle|vector.fma}}
// LOWER-COUNT-24:  {{vector.load .* vector<2xbf16>$|x86vector.avx512.dot}}
// LOWER-NOT:       {{vector.shuffle|vector.fma|vector<2xbf16>$|x86vector.avx512.dot}}
// LOWER:         return
//
// x86: 8 broadcasts from memory and 16 vdpbf16ps per step, no word
// extracts or shuffles.
// ASM-LABEL: dw_pairs:
// ASM:         vbroadcastss {{.*}}(%{{.*}}), %zmm
// ASM-NOT:     vpextrw
// ASM-NOT:     vpunpcklwd
// ASM-COUNT-15: vdpbf16ps {{.*}}%zmm
func.func @dw_pairs(%x: tensor<4x14x14x64xbf16>, %dy: tensor<4x14x14x64xbf16>) -> tensor<3x3x64x64xbf16> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<4x14x14x64xbf16>, tensor<4x14x14x64xbf16> -> tensor<3x3x64x64xbf16>
  return %dw : tensor<3x3x64x64xbf16>
}
