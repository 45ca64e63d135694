// RUN: conv-opt %s --convert-conv-to-linalg="transpose-per-tap=never" --canonicalize --cse --conv-cpu-tile-and-vectorize="num-threads=1 register-tile-vectors=1 reduction-chunk=1" --canonicalize --cse | FileCheck %s

// The tap loops of a transposed convolution's phase tiles carry
// conv.llvm_unroll (LLVM's unroller may unroll them:
// conv-cpu-annotate-loop-unrolling disables it for the other loops); the
// row-tile and input-channel loops do not. 3x3 stride 2: phases of 2x2,
// 2x1, 1x2 and 1x1 taps (the unit tap loops fold away). One input channel
// a step on any host (reduction-chunk=1; without AVX-512 the 1x1 phase
// would reduce 4).

// CHECK-LABEL: func.func @phase
// 2x2 taps: kh and kw loops (marked) around the input channels (not).
// CHECK:         scf.for %{{.*}} = %c0 to %c2 step %c1
// CHECK:           scf.for %{{.*}} = %c0 to %c2 step %c1
// CHECK:             scf.for %{{.*}} = %c0 to %c32 step %c1
// CHECK:               arith.addf
// CHECK:               scf.yield
// CHECK-NEXT:        }{{$}}
// CHECK-NEXT:        scf.yield
// CHECK-NEXT:      } {conv.llvm_unroll}
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    } {conv.llvm_unroll}
// 2x1 and 1x2 taps: one marked tap loop each.
// CHECK:           scf.for %{{.*}} = %c0 to %c2 step %c1
// CHECK:             scf.for %{{.*}} = %c0 to %c32 step %c1
// CHECK:               arith.addf
// CHECK:               scf.yield
// CHECK-NEXT:        }{{$}}
// CHECK-NEXT:        scf.yield
// CHECK-NEXT:      } {conv.llvm_unroll}
// CHECK:           scf.for %{{.*}} = %c0 to %c2 step %c1
// CHECK:             scf.for %{{.*}} = %c0 to %c32 step %c1
// CHECK:             } {conv.llvm_unroll}
// 1x1 taps: no tap loop, nothing marked.
// CHECK-NOT:     conv.llvm_unroll
// CHECK:         return
func.func @phase(%x: tensor<1x6x6x32xf32>, %k: tensor<3x3x16x32xf32>) -> tensor<1x11x11x16xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same
         strides = [2, 2] dilation_rate = [1, 1] output_padding = [0, 0]
         : tensor<1x6x6x32xf32>, tensor<3x3x16x32xf32> -> tensor<1x11x11x16xf32>
  return %y : tensor<1x11x11x16xf32>
}
