// --compare compiles the function a second time with some compile options
// changed and times both kernels in alternating calls: the A and B lines,
// the median of the per-pair speed ratios, and the difference between the
// two kernels' results (the same function: zero here, where both sum every
// dW element in the same order).

// RUN: conv-run %s --entry bf --repeat 6 --compare=register-tile-rows=2,l2-cache-bytes=65536 | FileCheck %s
// CHECK:      A: compile {{[0-9.]+}} ms, median {{[0-9.]+}} ms, mean {{[0-9.]+}} ms, best {{[0-9.]+}} ms per call ({{[0-9.]+}} / {{[0-9.]+}} GFLOP/s)
// CHECK-NEXT: B (register-tile-rows=2,l2-cache-bytes=65536): compile {{[0-9.]+}} ms, median {{[0-9.]+}} ms
// CHECK-NEXT: B speed / A speed: median {{[0-9.]+}} of 6 pairs (quartiles {{[0-9.]+}}, {{[0-9.]+}})
// CHECK-NEXT: B - A: max abs difference 0.000e+00 (max |A| {{[0-9.]+}}e+{{[0-9]+}})

// The scheduling model (tune-cpu) reorders instructions but changes no
// sum: the same results bit for bit. The JIT sets it on every function of
// the LLVM module (CONVGEN_DUMP_LLVM writes the module the optimizer gets).
// RUN: conv-run %s --entry bf --repeat 2 --compare=tune-cpu=x86-64 | FileCheck %s --check-prefix=TUNE
// TUNE: B (tune-cpu=x86-64): compile
// TUNE: B - A: max abs difference 0.000e+00
// RUN: env CONVGEN_DUMP_LLVM=%t.ll conv-run %s --entry bf --tune-cpu=skylake-avx512
// RUN: FileCheck %s --check-prefix=TUNEIR < %t.ll
// TUNEIR: define {{.*}}@bf({{.*}} #[[ATTRS:[0-9]+]]
// TUNEIR: attributes #[[ATTRS]] = {{{.*}}"tune-cpu"="skylake-avx512"

// A transposed convolution lowered per tap and by phases.
// RUN: conv-run %s --entry tr --repeat 2 --transpose-per-tap=always --compare=transpose-per-tap=never,num-threads=2 | FileCheck %s --check-prefix=TR
// TR: B (transpose-per-tap=never,num-threads=2): compile
// TR: B speed / A speed: median {{[0-9.]+}} of 2 pairs
// TR: B - A: max abs difference {{[0-9.]+}}e{{[-+][0-9]+}} (max |A|

// A tiny-Cin filter gradient that streams out_backprop once, with and
// without its software prefetch: the same sums (prefetches change no value).
// RUN: conv-run %s --entry stream --repeat 2 --num-threads=1 --compare=prefetch=0 | FileCheck %s --check-prefix=PREFETCH
// PREFETCH: B (prefetch=0): compile
// PREFETCH: B - A: max abs difference 0.000e+00
// 3-channel stride-2 layers (every tap fused, cache-blocked, so each block
// packs its rows or, with direct-rows, the default, its register tiles read
// them from the input), with and without zero padding, 1 and 2 threads:
// the same sums either way, bit for bit.
// RUN: conv-run %s --entry rows_valid --repeat 2 --num-threads=1 --l1-cache-bytes=32768 --l2-cache-bytes=524288 --compare=direct-rows=0 | FileCheck %s --check-prefix=ROWS
// RUN: conv-run %s --entry rows_valid --repeat 2 --num-threads=2 --min-parallel-flops=0 --l1-cache-bytes=32768 --l2-cache-bytes=524288 --compare=direct-rows=0 | FileCheck %s --check-prefix=ROWS
// RUN: conv-run %s --entry rows_same --repeat 2 --num-threads=1 --l1-cache-bytes=32768 --l2-cache-bytes=524288 --compare=direct-rows=0 | FileCheck %s --check-prefix=ROWS
// ROWS: B (direct-rows=0): compile
// ROWS: B - A: max abs difference 0.000e+00 (max |A| {{[0-9.]+}}e+{{[0-9]+}})
// RUN: not conv-run %s --entry bf --repeat 2 --compare=direct-rows=2 2>&1 | FileCheck %s --check-prefix=ROWSBOOL
// ROWSBOOL: error: --compare: 'direct-rows=2': expected 0 or 1
// RUN: not conv-run %s --entry bf --repeat 2 --compare=prefetch=2 2>&1 | FileCheck %s --check-prefix=BOOL
// BOOL: error: --compare: 'prefetch=2': expected 0 or 1
// RUN: not conv-run %s --entry bf --repeat 2 --no-prefetch --compare=prefetch=0 2>&1 | FileCheck %s --check-prefix=SAMEPF
// SAMEPF: error: --compare=prefetch=0 changes none of the compile options

// RUN: not conv-run %s --entry bf --repeat 2 --compare=tile-rows=2 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: --compare: 'tile-rows=2': unknown option 'tile-rows'
// RUN: not conv-run %s --entry bf --repeat 2 --compare=l2-cache-bytes=big 2>&1 | FileCheck %s --check-prefix=VALUE
// VALUE: error: --compare: 'l2-cache-bytes=big': expected a non-negative integer value
// RUN: not conv-run %s --entry bf --repeat 2 --compare=num-threads 2>&1 | FileCheck %s --check-prefix=FORM
// FORM: error: --compare: 'num-threads': expected KEY=VALUE
// RUN: not conv-run %s --entry bf --compare=num-threads=2 2>&1 | FileCheck %s --check-prefix=REPEAT
// REPEAT: error: --compare needs --repeat N (the number of call pairs)
// RUN: not conv-run %s --entry bf --repeat 2 --num-threads=2 --min-parallel-flops=0 --compare=num-threads=2 2>&1 | FileCheck %s --check-prefix=SAME
// SAME: error: --compare=num-threads=2 changes none of the compile options

func.func @bf(%x: tensor<2x8x8x8xf32>, %dy: tensor<2x4x4x16xf32>) -> tensor<3x3x8x16xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [2, 2] dilations = [1, 1]
          : tensor<2x8x8x8xf32>, tensor<2x4x4x16xf32> -> tensor<3x3x8x16xf32>
  return %dw : tensor<3x3x8x16xf32>
}

func.func @tr(%x: tensor<1x4x4x16xf32>, %k: tensor<4x4x8x16xf32>) -> tensor<1x8x8x8xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same
         strides = [2, 2] dilation_rate = [1, 1]
         : tensor<1x4x4x16xf32>, tensor<4x4x8x16xf32> -> tensor<1x8x8x8xf32>
  return %y : tensor<1x8x8x8xf32>
}

func.func @stream(%x: tensor<2x18x34x3xf32>, %dy: tensor<2x16x32x64xf32>) -> tensor<3x3x3x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID
          strides = [1, 1] dilations = [1, 1]
          : tensor<2x18x34x3xf32>, tensor<2x16x32x64xf32> -> tensor<3x3x3x64xf32>
  return %dw : tensor<3x3x3x64xf32>
}

func.func @rows_valid(%x: tensor<8x65x65x3xf32>, %dy: tensor<8x32x32x64xf32>) -> tensor<3x3x3x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID
          strides = [2, 2] dilations = [1, 1]
          : tensor<8x65x65x3xf32>, tensor<8x32x32x64xf32> -> tensor<3x3x3x64xf32>
  return %dw : tensor<3x3x3x64xf32>
}

func.func @rows_same(%x: tensor<4x66x66x3xf32>, %dy: tensor<4x33x33x64xf32>) -> tensor<3x3x3x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [2, 2] dilations = [1, 1]
          : tensor<4x66x66x3xf32>, tensor<4x33x33x64xf32> -> tensor<3x3x3x64xf32>
  return %dw : tensor<3x3x3x64xf32>
}
