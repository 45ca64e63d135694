// Transposed convolutions (and a filter gradient) whose register tiles
// write the result once (conv-cpu-streaming-stores: non-temporal stores on
// AVX-512 hosts for a result of at least four L2s by default; here, with
// --streaming-stores-min-bytes=0, of any size), against the reference on 1
// and 2 threads, and bit-identical to the same kernels with ordinary
// stores (streaming-stores=0). On other hosts the pass changes nothing and
// the checks still hold.
// The layers: 2x2 stride-2 (U-Net's up-convolution), 3-D 2x2x2 stride 2,
// 3x3 stride-2 SAME, a bf16 up-convolution (rows of 32 bf16 values: one
// line), and 40 output channels (160-byte pixels: each
// phase's pixels are 320 bytes apart, so the first 32 channels of a pixel
// are two whole lines, streamed where aligned (the even phases), and the
// last 8 share a line with the next pixel and are stored as usual).
// RUN: conv-run %s --entry up2x2 --check --seed 1 --streaming-stores-min-bytes=0 | FileCheck %s
// RUN: conv-run %s --entry up2x2 --check --seed 1 --streaming-stores-min-bytes=0 --num-threads=2 --min-parallel-flops=0 | FileCheck %s
// RUN: conv-run %s --entry up3d --check --seed 2 --streaming-stores-min-bytes=0 | FileCheck %s
// RUN: conv-run %s --entry up3d --check --seed 2 --streaming-stores-min-bytes=0 --num-threads=2 --min-parallel-flops=0 | FileCheck %s
// RUN: conv-run %s --entry same3x3 --check --seed 3 --streaming-stores-min-bytes=0 | FileCheck %s
// RUN: conv-run %s --entry same3x3 --check --seed 3 --streaming-stores-min-bytes=0 --num-threads=2 --min-parallel-flops=0 | FileCheck %s
// RUN: conv-run %s --entry cout40 --check --seed 4 --streaming-stores-min-bytes=0 | FileCheck %s
// RUN: conv-run %s --entry cout40 --check --seed 4 --streaming-stores-min-bytes=0 --num-threads=2 --min-parallel-flops=0 | FileCheck %s
// RUN: conv-run %s --entry up2x2_bf16 --check --seed 5 --streaming-stores-min-bytes=0 --num-threads=2 --min-parallel-flops=0 | FileCheck %s
// DCGAN's 4x4 stride-2 SAME layer with Winograd F(2, T) phases: half of
// each phase's outputs are stored from the output transform (streamed),
// the other half copied into the result from a scratch (memref.copy,
// ordinary stores).
// RUN: conv-run %s --entry dcgan --check --seed 7 --winograd=on --streaming-stores-min-bytes=0 | FileCheck %s
// RUN: conv-run %s --entry dcgan --check --seed 7 --winograd=on --streaming-stores-min-bytes=0 --num-threads=2 --min-parallel-flops=0 | FileCheck %s
// RUN: conv-run %s --entry dcgan --repeat 2 --winograd=on --streaming-stores-min-bytes=0 --compare=streaming-stores=0 | FileCheck %s --check-prefix=SAME
// A filter gradient whose dW its register tiles write once (one
// reduction block, zero-started tiles; with 2 threads the sum of the two
// partial dWs, stored row by row): streamed too.
// RUN: conv-run %s --entry dw_once --check --seed 6 --streaming-stores-min-bytes=0 | FileCheck %s
// RUN: conv-run %s --entry dw_once --check --seed 6 --streaming-stores-min-bytes=0 --num-threads=2 --min-parallel-flops=0 | FileCheck %s
// CHECK: check: max abs error {{.*}}: PASS
//
// RUN: conv-run %s --entry up2x2 --repeat 2 --streaming-stores-min-bytes=0 --num-threads=2 --min-parallel-flops=0 --compare=streaming-stores=0 | FileCheck %s --check-prefix=SAME
// RUN: conv-run %s --entry up3d --repeat 2 --streaming-stores-min-bytes=0 --compare=streaming-stores=0 | FileCheck %s --check-prefix=SAME
// RUN: conv-run %s --entry same3x3 --repeat 2 --streaming-stores-min-bytes=0 --compare=streaming-stores=0 | FileCheck %s --check-prefix=SAME
// SAME: B (streaming-stores=0): compile
// SAME: B - A: max abs difference 0.000e+00
//
// The lowered kernels on an AVX-512 host: 64-byte aligned non-temporal
// stores behind the alignment test, and an sfence; none with
// streaming-stores=false, nor for results under the default threshold
// (four L2s, at least 1 MiB on any host with an L2 of 256 KiB or more;
// these results are 128-256 KiB).
// RUN: %if avx512 %{ conv-opt %s --conv-lower-to-llvm-cpu="optimize streaming-stores-min-bytes=0 winograd=on" | FileCheck %s --check-prefix=IR %}
// RUN: conv-opt %s --conv-lower-to-llvm-cpu="optimize streaming-stores-min-bytes=0 streaming-stores=false" | FileCheck %s --check-prefix=OFF
// RUN: conv-opt %s --conv-lower-to-llvm-cpu="optimize" | FileCheck %s --check-prefix=OFF
// IR-LABEL: llvm.func @up2x2
// IR:         llvm.store {{.*}} {alignment = 64 : i64, nontemporal} : vector<{{16|32|64}}xf32>, !llvm.ptr
// IR:         llvm.call_intrinsic "llvm.x86.sse.sfence"() : () -> ()
// IR-LABEL: llvm.func @up3d
// IR:         llvm.store {{.*}} {alignment = 64 : i64, nontemporal}
// IR:         llvm.call_intrinsic "llvm.x86.sse.sfence"
// IR-LABEL: llvm.func @up2x2_bf16
// IR:         llvm.store {{.*}} {alignment = 64 : i64, nontemporal} : vector<{{32|64}}xbf16>, !llvm.ptr
// IR:         llvm.call_intrinsic "llvm.x86.sse.sfence"
// IR-LABEL: llvm.func @dcgan
// IR:         llvm.store {{.*}} {alignment = 64 : i64, nontemporal}
// IR:         llvm.call_intrinsic "llvm.x86.sse.sfence"
// IR-LABEL: llvm.func @dw_once
// IR:         llvm.store {{.*}} {alignment = 64 : i64, nontemporal}
// IR:         llvm.call_intrinsic "llvm.x86.sse.sfence"
// IR-LABEL: llvm.func @cout40
// IR-NOT:     nontemporal} : vector<8xf32>
// IR:         llvm.store {{.*}} {alignment = 64 : i64, nontemporal} : vector<32xf32>, !llvm.ptr
// IR-NOT:     nontemporal} : vector<8xf32>
// IR:         llvm.call_intrinsic "llvm.x86.sse.sfence"
// IR-NOT:     nontemporal} : vector<8xf32>
// OFF-NOT: nontemporal
// OFF-NOT: sfence

func.func @up2x2(%x: tensor<1x16x16x32xf32>, %k: tensor<2x2x64x32xf32>) -> tensor<1x32x32x64xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [2, 2] dilation_rate = [1, 1]
         : tensor<1x16x16x32xf32>, tensor<2x2x64x32xf32> -> tensor<1x32x32x64xf32>
  return %y : tensor<1x32x32x64xf32>
}

func.func @up3d(%x: tensor<2x4x4x4x32xf32>, %k: tensor<2x2x2x64x32xf32>) -> tensor<2x8x8x8x64xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [2, 2, 2] dilation_rate = [1, 1, 1]
         : tensor<2x4x4x4x32xf32>, tensor<2x2x2x64x32xf32> -> tensor<2x8x8x8x64xf32>
  return %y : tensor<2x8x8x8x64xf32>
}

func.func @same3x3(%x: tensor<2x8x8x32xf32>, %k: tensor<3x3x64x32xf32>) -> tensor<2x16x16x64xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same
         strides = [2, 2] dilation_rate = [1, 1]
         : tensor<2x8x8x32xf32>, tensor<3x3x64x32xf32> -> tensor<2x16x16x64xf32>
  return %y : tensor<2x16x16x64xf32>
}

func.func @up2x2_bf16(%x: tensor<1x16x16x32xbf16>, %k: tensor<2x2x64x32xbf16>) -> tensor<1x32x32x64xbf16> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [2, 2] dilation_rate = [1, 1]
         : tensor<1x16x16x32xbf16>, tensor<2x2x64x32xbf16> -> tensor<1x32x32x64xbf16>
  return %y : tensor<1x32x32x64xbf16>
}

func.func @dcgan(%x: tensor<2x8x8x64xf32>, %k: tensor<4x4x64x64xf32>) -> tensor<2x16x16x64xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same
         strides = [2, 2] dilation_rate = [1, 1]
         : tensor<2x8x8x64xf32>, tensor<4x4x64x64xf32> -> tensor<2x16x16x64xf32>
  return %y : tensor<2x16x16x64xf32>
}

func.func @dw_once(%x: tensor<1x12x16x64xf32>, %dy: tensor<1x12x16x64xf32>) -> tensor<3x3x64x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = EXPLICIT explicit_paddings = [2, 2, 2, 2]
          strides = [1, 1] dilations = [2, 2]
          : tensor<1x12x16x64xf32>, tensor<1x12x16x64xf32> -> tensor<3x3x64x64xf32>
  return %dw : tensor<3x3x64x64xf32>
}

func.func @cout40(%x: tensor<1x16x16x32xf32>, %k: tensor<2x2x40x32xf32>) -> tensor<1x32x32x40xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid
         strides = [2, 2] dilation_rate = [1, 1]
         : tensor<1x16x16x32xf32>, tensor<2x2x40x32xf32> -> tensor<1x32x32x40xf32>
  return %y : tensor<1x32x32x40xf32>
}
