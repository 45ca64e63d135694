// RUN: conv-opt %s --conv-cpu-lower-vectors="vector-bits=512" --cse | FileCheck %s
// RUN: conv-opt %s --conv-cpu-lower-vectors="vector-bits=512" --cse | FileCheck %s --check-prefix=OPS
// RUN: conv-opt %s --conv-cpu-lower-vectors="vector-bits=512" --cse | FileCheck %s --check-prefix=FMA
// RUN: conv-opt %s --conv-cpu-lower-vectors="vector-bits=512 prefetch=false" | FileCheck %s --check-prefix=OFF

// A tap-row register tile's position loop (docs/Lowering.md §2.8), as
// conv-cpu-tile-and-vectorize leaves it: 3 taps of 4 input channels x 4
// groups of 4 output channels, one window position q a step, each tap a
// single-step product of the window row at q (the same for all three) and
// the out_backprop row at q + k'. Each operand row (4 groups x 4 channels)
// is one 16-lane load from the memref with its (g, c) dimensions collapsed
// (CollapseGroupedTileRead), and once the identical lane shuffles of the
// window row are shared (CSE here, LLVM in the pipeline), 4 shuffles feed
// the 12 FMAs. conv.prefetch_ahead = 16: the window row at q + 16 and the
// furthest out_backprop row, q + 2 + 16, are prefetched (one per row, not
// one per read); the mark is removed.
// CHECK-LABEL: func.func @tap_rows
// CHECK-DAG:     %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG:     %[[C18:.+]] = arith.constant 18 : index
// CHECK:         scf.for %[[Q:.+]] = %{{.+}} to %[[C18]] step %{{.+}} iter_args({{.*}}) -> (vector<4x16xf32>, vector<4x16xf32>, vector<4x16xf32>)
// CHECK:           %[[XP:.+]] = arith.addi %[[Q]], %[[C16]] : index
// CHECK:           memref.prefetch %arg0[%[[XP]], %arg5, %{{.+}}], read, locality<3>, data : memref<18x16x4xf32>
// CHECK-NOT:       memref.prefetch %arg0
// CHECK:           %[[DP:.+]] = arith.addi %[[Q]], %[[C18]] : index
// CHECK:           memref.prefetch %arg1[%[[DP]], %arg5, %{{.+}}], read, locality<3>, data : memref<20x16x4xf32>
// CHECK-NOT:       memref.prefetch
// CHECK:         }
// CHECK-NOT:     conv.prefetch_ahead
// OPS-LABEL: func.func @tap_rows
// OPS:         scf.for
// OPS:           vector.load %{{.+}} : memref<18x64xf32>, vector<16xf32>
// OPS:           vector.load %{{.+}} : memref<20x64xf32>, vector<16xf32>
// OPS-COUNT-4:   vector.shuffle %{{.+}} : vector<16xf32>, vector<16xf32>
// OPS:           vector.load %{{.+}} : memref<20x64xf32>, vector<16xf32>
// OPS:           vector.load %{{.+}} : memref<20x64xf32>, vector<16xf32>
// OPS-NOT:       vector.shuffle
// OPS-NOT:       vector.load
// OPS:           scf.yield
// FMA-LABEL: func.func @tap_rows
// FMA:         scf.for
// FMA-COUNT-12:  vector.fma %{{.+}} : vector<16xf32>
// FMA-NOT:       vector.fma
// FMA:           scf.yield
// OFF-LABEL: func.func @tap_rows
// OFF-NOT:     memref.prefetch
// OFF-NOT:     conv.prefetch_ahead
func.func @tap_rows(%x: memref<18x16x4xf32>, %dy: memref<20x16x4xf32>, %a0: vector<4x4x4xf32>, %a1: vector<4x4x4xf32>, %a2: vector<4x4x4xf32>, %g: index) -> (vector<4x4x4xf32>, vector<4x4x4xf32>, vector<4x4x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c18 = arith.constant 18 : index
  %f0 = ub.poison : f32
  %r:3 = scf.for %q = %c0 to %c18 step %c1 iter_args(%s0 = %a0, %s1 = %a1, %s2 = %a2) -> (vector<4x4x4xf32>, vector<4x4x4xf32>, vector<4x4x4xf32>) {
    %xr = vector.transfer_read %x[%q, %g, %c0], %f0 {in_bounds = [true, true]} : memref<18x16x4xf32>, vector<4x4xf32>
    %xb = vector.broadcast %xr : vector<4x4xf32> to vector<4x4x4xf32>
    %xt = vector.transpose %xb, [1, 2, 0] : vector<4x4x4xf32> to vector<4x4x4xf32>
    %y0 = vector.transfer_read %dy[%q, %g, %c0], %f0 {in_bounds = [true, true]} : memref<20x16x4xf32>, vector<4x4xf32>
    %y0b = vector.broadcast %y0 : vector<4x4xf32> to vector<4x4x4xf32>
    %y0t = vector.transpose %y0b, [1, 0, 2] : vector<4x4x4xf32> to vector<4x4x4xf32>
    %s0t = vector.transpose %s0, [1, 0, 2] : vector<4x4x4xf32> to vector<4x4x4xf32>
    %m0 = arith.mulf %xt, %y0t fastmath<contract> : vector<4x4x4xf32>
    %n0 = arith.addf %s0t, %m0 fastmath<contract> : vector<4x4x4xf32>
    %t0 = vector.transpose %n0, [1, 0, 2] : vector<4x4x4xf32> to vector<4x4x4xf32>
    %q1 = affine.apply affine_map<(d0) -> (d0 + 1)>(%q)
    %y1 = vector.transfer_read %dy[%q1, %g, %c0], %f0 {in_bounds = [true, true]} : memref<20x16x4xf32>, vector<4x4xf32>
    %y1b = vector.broadcast %y1 : vector<4x4xf32> to vector<4x4x4xf32>
    %y1t = vector.transpose %y1b, [1, 0, 2] : vector<4x4x4xf32> to vector<4x4x4xf32>
    %s1t = vector.transpose %s1, [1, 0, 2] : vector<4x4x4xf32> to vector<4x4x4xf32>
    %m1 = arith.mulf %xt, %y1t fastmath<contract> : vector<4x4x4xf32>
    %n1 = arith.addf %s1t, %m1 fastmath<contract> : vector<4x4x4xf32>
    %t1 = vector.transpose %n1, [1, 0, 2] : vector<4x4x4xf32> to vector<4x4x4xf32>
    %q2 = affine.apply affine_map<(d0) -> (d0 + 2)>(%q)
    %y2 = vector.transfer_read %dy[%q2, %g, %c0], %f0 {in_bounds = [true, true]} : memref<20x16x4xf32>, vector<4x4xf32>
    %y2b = vector.broadcast %y2 : vector<4x4xf32> to vector<4x4x4xf32>
    %y2t = vector.transpose %y2b, [1, 0, 2] : vector<4x4x4xf32> to vector<4x4x4xf32>
    %s2t = vector.transpose %s2, [1, 0, 2] : vector<4x4x4xf32> to vector<4x4x4xf32>
    %m2 = arith.mulf %xt, %y2t fastmath<contract> : vector<4x4x4xf32>
    %n2 = arith.addf %s2t, %m2 fastmath<contract> : vector<4x4x4xf32>
    %t2 = vector.transpose %n2, [1, 0, 2] : vector<4x4x4xf32> to vector<4x4x4xf32>
    scf.yield %t0, %t1, %t2 : vector<4x4x4xf32>, vector<4x4x4xf32>, vector<4x4x4xf32>
  } {conv.prefetch_ahead = 16 : i64}
  return %r#0, %r#1, %r#2 : vector<4x4x4xf32>, vector<4x4x4xf32>, vector<4x4x4xf32>
}
