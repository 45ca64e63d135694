// RUN: conv-opt %s --conv-cpu-lower-vectors="vector-bits=512" --split-input-file | FileCheck %s
// RUN: conv-opt %s --conv-cpu-lower-vectors="vector-bits=512 prefetch=false" --split-input-file | FileCheck %s --check-prefix=OFF

// The register tile of a filter gradient streaming out_backprop once: the
// loop over a block of 16 positions (4 per step) is marked
// conv.prefetch_rhs. Per step, each of the 4 rows of 32 f32 (2 cache lines)
// of the right-hand read is prefetched 16 positions further on: 8 prefetches
// at rows i + 16 .. i + 19, columns 0 and 16. The mark is removed.
// CHECK-LABEL: func.func @marked
// CHECK-DAG:     %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG:     %[[C17:.+]] = arith.constant 17 : index
// CHECK-DAG:     %[[C18:.+]] = arith.constant 18 : index
// CHECK-DAG:     %[[C19:.+]] = arith.constant 19 : index
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK:         scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step
// CHECK:           %[[R0:.+]] = arith.addi %[[I]], %[[C16]] : index
// CHECK-NEXT:      memref.prefetch %[[DY:.+]][%[[R0]], %[[C0]]], read, locality<3>, data : memref<64x32xf32>
// CHECK-NEXT:      memref.prefetch %[[DY]][%[[R0]], %[[C16]]], read, locality<3>, data : memref<64x32xf32>
// CHECK-NEXT:      %[[R1:.+]] = arith.addi %[[I]], %[[C17]] : index
// CHECK-NEXT:      memref.prefetch %[[DY]][%[[R1]], %[[C0]]]
// CHECK-NEXT:      memref.prefetch %[[DY]][%[[R1]], %[[C16]]]
// CHECK-NEXT:      %[[R2:.+]] = arith.addi %[[I]], %[[C18]] : index
// CHECK-NEXT:      memref.prefetch %[[DY]][%[[R2]], %[[C0]]]
// CHECK-NEXT:      memref.prefetch %[[DY]][%[[R2]], %[[C16]]]
// CHECK-NEXT:      %[[R3:.+]] = arith.addi %[[I]], %[[C19]] : index
// CHECK-NEXT:      memref.prefetch %[[DY]][%[[R3]], %[[C0]]]
// CHECK-NEXT:      memref.prefetch %[[DY]][%[[R3]], %[[C16]]]
// CHECK-NOT:       memref.prefetch
// CHECK:           vector.fma
// CHECK-NOT:     conv.prefetch_rhs
// OFF-LABEL: func.func @marked
// OFF-NOT:     memref.prefetch
// OFF-NOT:     conv.prefetch_rhs
#lhs = affine_map<(d0, d1, d2) -> (d2, d0)>
#rhs = affine_map<(d0, d1, d2) -> (d2, d1)>
#acc = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @marked(%x: memref<64x2xf32>, %dy: memref<64x32xf32>, %init: vector<2x32xf32>) -> vector<2x32xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %f0 = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %c16 step %c4 iter_args(%a = %init) -> (vector<2x32xf32>) {
    %l = vector.transfer_read %x[%i, %c0], %f0 {in_bounds = [true, true]} : memref<64x2xf32>, vector<4x2xf32>
    %y = vector.transfer_read %dy[%i, %c0], %f0 {in_bounds = [true, true]} : memref<64x32xf32>, vector<4x32xf32>
    %n = vector.contract {indexing_maps = [#lhs, #rhs, #acc], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %l, %y, %a : vector<4x2xf32>, vector<4x32xf32> into vector<2x32xf32>
    scf.yield %n : vector<2x32xf32>
  } {conv.prefetch_rhs}
  return %r : vector<2x32xf32>
}

// -----

// Marked conv.prefetch_l2 as well: the same prefetches, into the L2 only
// (locality 2). Both marks are removed.
// CHECK-LABEL: func.func @marked_l2
// CHECK:         scf.for
// CHECK-COUNT-8:   memref.prefetch %{{.+}}[%{{.+}}, %{{.+}}], read, locality<2>, data : memref<64x32xf32>
// CHECK-NOT:       memref.prefetch
// CHECK:           vector.fma
// CHECK-NOT:     conv.prefetch_l2
// CHECK-NOT:     conv.prefetch_rhs
// OFF-LABEL: func.func @marked_l2
// OFF-NOT:     memref.prefetch
// OFF-NOT:     conv.prefetch_l2
#lhs = affine_map<(d0, d1, d2) -> (d2, d0)>
#rhs = affine_map<(d0, d1, d2) -> (d2, d1)>
#acc = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @marked_l2(%x: memref<64x2xf32>, %dy: memref<64x32xf32>, %init: vector<2x32xf32>) -> vector<2x32xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %f0 = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %c16 step %c4 iter_args(%a = %init) -> (vector<2x32xf32>) {
    %l = vector.transfer_read %x[%i, %c0], %f0 {in_bounds = [true, true]} : memref<64x2xf32>, vector<4x2xf32>
    %y = vector.transfer_read %dy[%i, %c0], %f0 {in_bounds = [true, true]} : memref<64x32xf32>, vector<4x32xf32>
    %n = vector.contract {indexing_maps = [#lhs, #rhs, #acc], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %l, %y, %a : vector<4x2xf32>, vector<4x32xf32> into vector<2x32xf32>
    scf.yield %n : vector<2x32xf32>
  } {conv.prefetch_l2, conv.prefetch_rhs}
  return %r : vector<2x32xf32>
}

// -----

// Inside a loop marked conv.prefetch_tiles (3 tiles of rows that all read
// the same 4 rows x 2 lines a step, out_backprop's whole rows): the next
// 16 rows' 32 lines in memory order, after the contraction. Tile
// t = (i - 0) / 9 at step s = j / 4 (of 4) prefetches lines (4 t + s) x 3
// to + 2 (at most line 31), at row j + 16 - 4 s, column 16 l. The marks
// are removed.
// CHECK-LABEL: func.func @marked_tiles(
// CHECK-DAG:     %[[C3:.+]] = arith.constant 3 : index
// CHECK-DAG:     %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG:     %[[C9:.+]] = arith.constant 9 : index
// CHECK-DAG:     %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG:     %[[C31:.+]] = arith.constant 31 : index
// CHECK:         scf.for %[[T:.+]] = %{{.+}} to %{{.+}} step %[[C9]]
// CHECK:           %[[TILE:.+]] = arith.divui %[[T]], %[[C9]] : index
// CHECK:           scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %[[C4]]
// CHECK-NOT:         memref.prefetch
// CHECK:             vector.fma
// CHECK:             %[[S:.+]] = arith.divui %[[I]], %[[C4]] : index
// CHECK-NEXT:        %[[TS:.+]] = arith.muli %[[TILE]], %[[C4]] : index
// CHECK-NEXT:        %[[TSPLUS:.+]] = arith.addi %[[TS]], %[[S]] : index
// CHECK-NEXT:        %[[FIRST:.+]] = arith.muli %[[TSPLUS]], %[[C3]] : index
// CHECK-NEXT:        %[[BACK:.+]] = arith.muli %[[S]], %[[C4]] : index
// CHECK-NEXT:        %[[AHEAD:.+]] = arith.addi %[[I]], %[[C16]] : index
// CHECK-NEXT:        %[[ROW:.+]] = arith.subi %[[AHEAD]], %[[BACK]] : index
// CHECK-NEXT:        %[[L0:.+]] = arith.minui %[[FIRST]], %[[C31]] : index
// CHECK-NEXT:        %[[COL0:.+]] = arith.muli %[[L0]], %[[C16]] : index
// CHECK-NEXT:        memref.prefetch %{{.+}}[%[[ROW]], %[[COL0]]], read, locality<2>, data : memref<64x32xf32>
// CHECK-COUNT-2:     memref.prefetch %{{.+}}[%[[ROW]], %{{.+}}], read, locality<2>, data : memref<64x32xf32>
// CHECK-NOT:         memref.prefetch
// CHECK:             scf.yield
// CHECK-NOT:     conv.prefetch_tiles
// CHECK-NOT:     conv.prefetch_rhs
#lhs = affine_map<(d0, d1, d2) -> (d2, d0)>
#rhs = affine_map<(d0, d1, d2) -> (d2, d1)>
#acc = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @marked_tiles(%x: memref<64x27xf32>, %dy: memref<64x32xf32>, %out: memref<27x32xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c9 = arith.constant 9 : index
  %c16 = arith.constant 16 : index
  %c27 = arith.constant 27 : index
  %f0 = arith.constant 0.0 : f32
  scf.for %t = %c0 to %c27 step %c9 {
    %init = vector.transfer_read %out[%t, %c0], %f0 {in_bounds = [true, true]} : memref<27x32xf32>, vector<9x32xf32>
    %r = scf.for %i = %c0 to %c16 step %c4 iter_args(%a = %init) -> (vector<9x32xf32>) {
      %l = vector.transfer_read %x[%i, %t], %f0 {in_bounds = [true, true]} : memref<64x27xf32>, vector<4x9xf32>
      %y = vector.transfer_read %dy[%i, %c0], %f0 {in_bounds = [true, true]} : memref<64x32xf32>, vector<4x32xf32>
      %n = vector.contract {indexing_maps = [#lhs, #rhs, #acc], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %l, %y, %a : vector<4x9xf32>, vector<4x32xf32> into vector<9x32xf32>
      scf.yield %n : vector<9x32xf32>
    } {conv.prefetch_l2, conv.prefetch_rhs}
    vector.transfer_write %r, %out[%t, %c0] {in_bounds = [true, true]} : vector<9x32xf32>, memref<27x32xf32>
  } {conv.prefetch_tiles}
  return
}

// -----

// Inside a loop marked conv.prefetch_tiles (3 tiles of rows that all read
// the same 4 rows x 2 lines a step), reading half of out_backprop's rows
// (not the memory-order prefetches below): iteration t = (i - 0) / 9 prefetches
// only lines t, t + 3 and t + 6 (modulo 8) of the 8, line l at row
// l / 2 and column (l mod 2) x 16. The line offsets are computed at the
// start of the tiles' loop. The marks are removed.
// CHECK-LABEL: func.func @marked_tiles_half_rows
// CHECK-DAG:     %[[C9:.+]] = arith.constant 9 : index
// CHECK-DAG:     %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG:     %[[C2:.+]] = arith.constant 2 : index
// CHECK:         scf.for %[[T:.+]] = %{{.+}} to %{{.+}} step %[[C9]]
// CHECK:           %[[TILE:.+]] = arith.divui %{{.+}}, %[[C9]] : index
// CHECK:           %[[L0:.+]] = arith.remui %[[TILE]], %[[C8]] : index
// CHECK:           %[[ROW0:.+]] = arith.divui %[[L0]], %[[C2]] : index
// CHECK:           %[[LANE0:.+]] = arith.remui %[[L0]], %[[C2]] : index
// CHECK:           %[[COL0:.+]] = arith.muli %[[LANE0]], %{{.+}} : index
// CHECK:           %[[T3:.+]] = arith.addi %[[TILE]], %{{.+}} : index
// CHECK:           arith.remui %[[T3]], %[[C8]] : index
// CHECK:           %[[T6:.+]] = arith.addi %[[TILE]], %{{.+}} : index
// CHECK:           arith.remui %[[T6]], %[[C8]] : index
// CHECK:           scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step
// CHECK:             %[[AHEAD:.+]] = arith.addi %[[I]], %{{.+}} : index
// CHECK:             %[[R0:.+]] = arith.addi %[[AHEAD]], %[[ROW0]] : index
// CHECK:             memref.prefetch %{{.+}}[%[[R0]], %[[COL0]]], read, locality<2>, data : memref<64x64xf32>
// CHECK-COUNT-2:     memref.prefetch %{{.+}}, read, locality<2>, data : memref<64x64xf32>
// CHECK-NOT:         memref.prefetch
// CHECK:             vector.fma
// CHECK-NOT:     conv.prefetch_tiles
// CHECK-NOT:     conv.prefetch_rhs
#lhs = affine_map<(d0, d1, d2) -> (d2, d0)>
#rhs = affine_map<(d0, d1, d2) -> (d2, d1)>
#acc = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @marked_tiles_half_rows(%x: memref<64x27xf32>, %dy: memref<64x64xf32>, %out: memref<27x32xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c9 = arith.constant 9 : index
  %c16 = arith.constant 16 : index
  %c27 = arith.constant 27 : index
  %f0 = arith.constant 0.0 : f32
  scf.for %t = %c0 to %c27 step %c9 {
    %init = vector.transfer_read %out[%t, %c0], %f0 {in_bounds = [true, true]} : memref<27x32xf32>, vector<9x32xf32>
    %r = scf.for %i = %c0 to %c16 step %c4 iter_args(%a = %init) -> (vector<9x32xf32>) {
      %l = vector.transfer_read %x[%i, %t], %f0 {in_bounds = [true, true]} : memref<64x27xf32>, vector<4x9xf32>
      %y = vector.transfer_read %dy[%i, %c0], %f0 {in_bounds = [true, true]} : memref<64x64xf32>, vector<4x32xf32>
      %n = vector.contract {indexing_maps = [#lhs, #rhs, #acc], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %l, %y, %a : vector<4x9xf32>, vector<4x32xf32> into vector<9x32xf32>
      scf.yield %n : vector<9x32xf32>
    } {conv.prefetch_l2, conv.prefetch_rhs}
    vector.transfer_write %r, %out[%t, %c0] {in_bounds = [true, true]} : vector<9x32xf32>, memref<27x32xf32>
  } {conv.prefetch_tiles}
  return
}

// -----

// Not marked: no prefetch.
// CHECK-LABEL: func.func @unmarked
// CHECK-NOT:     memref.prefetch
// CHECK:         return
#lhs = affine_map<(d0, d1, d2) -> (d2, d0)>
#rhs = affine_map<(d0, d1, d2) -> (d2, d1)>
#acc = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @unmarked(%x: memref<64x2xf32>, %dy: memref<64x32xf32>, %init: vector<2x32xf32>) -> vector<2x32xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %f0 = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %c16 step %c4 iter_args(%a = %init) -> (vector<2x32xf32>) {
    %l = vector.transfer_read %x[%i, %c0], %f0 {in_bounds = [true, true]} : memref<64x2xf32>, vector<4x2xf32>
    %y = vector.transfer_read %dy[%i, %c0], %f0 {in_bounds = [true, true]} : memref<64x32xf32>, vector<4x32xf32>
    %n = vector.contract {indexing_maps = [#lhs, #rhs, #acc], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %l, %y, %a : vector<4x2xf32>, vector<4x32xf32> into vector<2x32xf32>
    scf.yield %n : vector<2x32xf32>
  }
  return %r : vector<2x32xf32>
}

// -----

// Marked, but rows shorter than a cache line (8 f32), a loop of dynamic
// range, and a right-hand operand that is not read from a memref: no
// prefetch, and the marks are removed.
// CHECK-LABEL: func.func @short_rows
// CHECK-NOT:     memref.prefetch
// CHECK-NOT:     conv.prefetch_rhs
// CHECK-LABEL: func.func @dynamic_range
// CHECK-NOT:     memref.prefetch
// CHECK-NOT:     conv.prefetch_rhs
// CHECK-LABEL: func.func @not_a_read
// CHECK-NOT:     memref.prefetch
// CHECK-NOT:     conv.prefetch_rhs
// CHECK:         return
#lhs = affine_map<(d0, d1, d2) -> (d2, d0)>
#rhs = affine_map<(d0, d1, d2) -> (d2, d1)>
#acc = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @short_rows(%x: memref<64x2xf32>, %dy: memref<64x8xf32>, %init: vector<2x8xf32>) -> vector<2x8xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %f0 = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %c16 step %c4 iter_args(%a = %init) -> (vector<2x8xf32>) {
    %l = vector.transfer_read %x[%i, %c0], %f0 {in_bounds = [true, true]} : memref<64x2xf32>, vector<4x2xf32>
    %y = vector.transfer_read %dy[%i, %c0], %f0 {in_bounds = [true, true]} : memref<64x8xf32>, vector<4x8xf32>
    %n = vector.contract {indexing_maps = [#lhs, #rhs, #acc], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %l, %y, %a : vector<4x2xf32>, vector<4x8xf32> into vector<2x8xf32>
    scf.yield %n : vector<2x8xf32>
  } {conv.prefetch_rhs}
  return %r : vector<2x8xf32>
}
func.func @dynamic_range(%x: memref<64x2xf32>, %dy: memref<64x32xf32>, %init: vector<2x32xf32>, %ub: index) -> vector<2x32xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %f0 = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %ub step %c4 iter_args(%a = %init) -> (vector<2x32xf32>) {
    %l = vector.transfer_read %x[%i, %c0], %f0 {in_bounds = [true, true]} : memref<64x2xf32>, vector<4x2xf32>
    %y = vector.transfer_read %dy[%i, %c0], %f0 {in_bounds = [true, true]} : memref<64x32xf32>, vector<4x32xf32>
    %n = vector.contract {indexing_maps = [#lhs, #rhs, #acc], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %l, %y, %a : vector<4x2xf32>, vector<4x32xf32> into vector<2x32xf32>
    scf.yield %n : vector<2x32xf32>
  } {conv.prefetch_rhs}
  return %r : vector<2x32xf32>
}
func.func @not_a_read(%x: memref<64x2xf32>, %y: vector<4x32xf32>, %init: vector<2x32xf32>) -> vector<2x32xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %f0 = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %c16 step %c4 iter_args(%a = %init) -> (vector<2x32xf32>) {
    %l = vector.transfer_read %x[%i, %c0], %f0 {in_bounds = [true, true]} : memref<64x2xf32>, vector<4x2xf32>
    %n = vector.contract {indexing_maps = [#lhs, #rhs, #acc], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %l, %y, %a : vector<4x2xf32>, vector<4x32xf32> into vector<2x32xf32>
    scf.yield %n : vector<2x32xf32>
  } {conv.prefetch_rhs}
  return %r : vector<2x32xf32>
}

// -----

// conv.prefetch_rows (a 1x1 filter gradient's whole-dW tile): both reads'
// rows 8 positions further on. The left-hand read (8 x 6 input channels
// from column %ci, narrower than a line) gets one prefetch per row at its
// own column; the right-hand read (64 output channels, 4 lines) one per row
// at line (%ci / 6) mod 4, so that the 11 column blocks of 6 channels of
// the 64 fetch different lines. Both marks are removed.
// CHECK-LABEL: func.func @rows
// CHECK-DAG:     %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG:     %[[C15:.+]] = arith.constant 15 : index
// CHECK-DAG:     %[[C6:.+]] = arith.constant 6 : index
// CHECK-DAG:     %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG:     %[[C16:.+]] = arith.constant 16 : index
// CHECK:         scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step
// CHECK:           %[[L0:.+]] = arith.addi %[[I]], %[[C8]] : index
// CHECK-NEXT:      memref.prefetch %[[X:.+]][%[[L0]], %[[CI:.+]]], read, locality<3>, data : memref<64x64xf32>
// CHECK:           %[[L7:.+]] = arith.addi %[[I]], %[[C15]] : index
// CHECK-NEXT:      memref.prefetch %[[X]][%[[L7]], %[[CI]]]
// CHECK:           %[[BLOCK:.+]] = arith.divui %[[CI]], %[[C6]] : index
// CHECK-NEXT:      %[[LINE:.+]] = arith.remui %[[BLOCK]], %[[C4]] : index
// CHECK-NEXT:      %[[COL:.+]] = arith.muli %[[LINE]], %[[C16]] : index
// CHECK:           %[[R0:.+]] = arith.addi %[[I]], %[[C8]] : index
// CHECK-NEXT:      memref.prefetch %[[DY:.+]][%[[R0]], %[[COL]]], read, locality<3>, data : memref<64x64xf32>
// CHECK-COUNT-7:   memref.prefetch %[[DY]][%{{.+}}, %[[COL]]]
// CHECK-NOT:       memref.prefetch
// CHECK:           vector.fma
// CHECK-NOT:     conv.prefetch_rows
// OFF-LABEL: func.func @rows
// OFF-NOT:     memref.prefetch
// OFF-NOT:     conv.prefetch_rows
#lhs = affine_map<(d0, d1, d2) -> (d2, d0)>
#rhs = affine_map<(d0, d1, d2) -> (d2, d1)>
#acc = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @rows(%x: memref<64x64xf32>, %dy: memref<64x64xf32>, %init: vector<6x64xf32>, %ci: index) -> vector<6x64xf32> {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %f0 = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %c8 step %c8 iter_args(%a = %init) -> (vector<6x64xf32>) {
    %l = vector.transfer_read %x[%i, %ci], %f0 {in_bounds = [true, true]} : memref<64x64xf32>, vector<8x6xf32>
    %y = vector.transfer_read %dy[%i, %c0], %f0 {in_bounds = [true, true]} : memref<64x64xf32>, vector<8x64xf32>
    %n = vector.contract {indexing_maps = [#lhs, #rhs, #acc], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %l, %y, %a : vector<8x6xf32>, vector<8x64xf32> into vector<6x64xf32>
    scf.yield %n : vector<6x64xf32>
  } {conv.prefetch_rows}
  return %r : vector<6x64xf32>
}

// -----

// conv.prefetch_rows with fewer left-hand column blocks than right-hand
// lines (2 blocks of 8 channels, 4 lines of 64 output channels): every
// line of the right-hand rows, as conv.prefetch_rhs does.
// CHECK-LABEL: func.func @rows_few_blocks
// CHECK-NOT:       arith.remui
// CHECK-COUNT-4:   memref.prefetch %{{.+}} : memref<64x16xf32>
// CHECK-COUNT-16:  memref.prefetch %{{.+}} : memref<64x64xf32>
// CHECK-NOT:       memref.prefetch
// CHECK:           vector.fma
#lhs = affine_map<(d0, d1, d2) -> (d2, d0)>
#rhs = affine_map<(d0, d1, d2) -> (d2, d1)>
#acc = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @rows_few_blocks(%x: memref<64x16xf32>, %dy: memref<64x64xf32>, %init: vector<8x64xf32>, %ci: index) -> vector<8x64xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %f0 = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %c16 step %c4 iter_args(%a = %init) -> (vector<8x64xf32>) {
    %l = vector.transfer_read %x[%i, %ci], %f0 {in_bounds = [true, true]} : memref<64x16xf32>, vector<4x8xf32>
    %y = vector.transfer_read %dy[%i, %c0], %f0 {in_bounds = [true, true]} : memref<64x64xf32>, vector<4x64xf32>
    %n = vector.contract {indexing_maps = [#lhs, #rhs, #acc], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %l, %y, %a : vector<4x8xf32>, vector<4x64xf32> into vector<8x64xf32>
    scf.yield %n : vector<8x64xf32>
  } {conv.prefetch_rows}
  return %r : vector<8x64xf32>
}

// -----

// conv.prefetch_rows with conv.prefetch_l2 inside a loop marked
// conv.prefetch_tiles (10 tiles of 6 of the 64 input channels, all reading
// the same 8 positions a step): the next block's lines of both operands
// (the loop's 16 rows, whole rows: the left-hand read's 64 input channels
// from column 0, not its own 6 columns; 64 lines each) are spread over the
// tiles into the L2 in memory order, after the contraction. Tile t = c / 6
// at step s = i / 8 (of 2) prefetches 4 consecutive lines of each operand,
// (2 t + s) x 4 to + 3, at most line 63 (tiles 8 and 9 are past the
// block's end), line l at row i - 8 s + 16 (the next block's first row)
// and column 16 l: the rows are contiguous. The remainder tile after the
// loop (the last 4 input channels) prefetches nothing. The marks are
// removed.
// CHECK-LABEL: func.func @rows_tiles(
// CHECK-SAME:      %[[X:[^:]+]]: memref<64x64xf32>, %[[DY:[^:]+]]: memref<64x64xf32>
// CHECK-DAG:     %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG:     %[[C3:.+]] = arith.constant 3 : index
// CHECK-DAG:     %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG:     %[[C6:.+]] = arith.constant 6 : index
// CHECK-DAG:     %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG:     %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG:     %[[C63:.+]] = arith.constant 63 : index
// CHECK:         scf.for %[[T:.+]] = %{{.+}} to %{{.+}} step %[[C6]]
// CHECK:           %[[TILE:.+]] = arith.divui %[[T]], %[[C6]] : index
// CHECK:           scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %[[C8]]
// CHECK-NOT:         memref.prefetch
// CHECK:             vector.fma
// CHECK:             %[[S:.+]] = arith.divui %[[I]], %[[C8]] : index
// CHECK-NEXT:        %[[TS:.+]] = arith.muli %[[TILE]], %[[C2]] : index
// CHECK-NEXT:        %[[TSPLUS:.+]] = arith.addi %[[TS]], %[[S]] : index
// CHECK-NEXT:        %[[FIRST:.+]] = arith.muli %[[TSPLUS]], %[[C4]] : index
// CHECK-NEXT:        %[[BACK:.+]] = arith.muli %[[S]], %[[C8]] : index
// CHECK-NEXT:        %[[AHEAD:.+]] = arith.addi %[[I]], %[[C16]] : index
// CHECK-NEXT:        %[[ROW:.+]] = arith.subi %[[AHEAD]], %[[BACK]] : index
// CHECK-NEXT:        %[[L0:.+]] = arith.minui %[[FIRST]], %[[C63]] : index
// CHECK-NEXT:        %[[COL0:.+]] = arith.muli %[[L0]], %[[C16]] : index
// CHECK-NEXT:        memref.prefetch %[[DY]][%[[ROW]], %[[COL0]]], read, locality<2>, data : memref<64x64xf32>
// CHECK-NEXT:        %[[F1:.+]] = arith.addi %[[FIRST]], %[[C1]] : index
// CHECK-NEXT:        %[[L1:.+]] = arith.minui %[[F1]], %[[C63]] : index
// CHECK-NEXT:        %[[COL1:.+]] = arith.muli %[[L1]], %[[C16]] : index
// CHECK-NEXT:        memref.prefetch %[[DY]][%[[ROW]], %[[COL1]]], read, locality<2>, data : memref<64x64xf32>
// CHECK-NEXT:        %[[F2:.+]] = arith.addi %[[FIRST]], %[[C2]] : index
// CHECK:             memref.prefetch %[[DY]]
// CHECK-NEXT:        %[[F3:.+]] = arith.addi %[[FIRST]], %[[C3]] : index
// CHECK:             memref.prefetch %[[DY]]
// CHECK-COUNT-4:     memref.prefetch %[[X]][%{{.+}}, %{{.+}}], read, locality<2>, data : memref<64x64xf32>
// CHECK-NOT:         memref.prefetch
// CHECK:             scf.yield
// CHECK:         scf.for
// CHECK-NOT:       memref.prefetch
// CHECK:           vector.fma
// CHECK-NOT:     conv.prefetch_rows
// CHECK-NOT:     conv.prefetch_l2
// CHECK-NOT:     conv.prefetch_tiles
#lhs = affine_map<(d0, d1, d2) -> (d2, d0)>
#rhs = affine_map<(d0, d1, d2) -> (d2, d1)>
#acc = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @rows_tiles(%x: memref<64x64xf32>, %dy: memref<64x64xf32>, %out: memref<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c60 = arith.constant 60 : index
  %f0 = arith.constant 0.0 : f32
  scf.for %t = %c0 to %c60 step %c6 {
    %init = vector.transfer_read %out[%t, %c0], %f0 {in_bounds = [true, true]} : memref<64x64xf32>, vector<6x64xf32>
    %r = scf.for %i = %c0 to %c16 step %c8 iter_args(%a = %init) -> (vector<6x64xf32>) {
      %l = vector.transfer_read %x[%i, %t], %f0 {in_bounds = [true, true]} : memref<64x64xf32>, vector<8x6xf32>
      %y = vector.transfer_read %dy[%i, %c0], %f0 {in_bounds = [true, true]} : memref<64x64xf32>, vector<8x64xf32>
      %n = vector.contract {indexing_maps = [#lhs, #rhs, #acc], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %l, %y, %a : vector<8x6xf32>, vector<8x64xf32> into vector<6x64xf32>
      scf.yield %n : vector<6x64xf32>
    } {conv.prefetch_l2, conv.prefetch_rows}
    vector.transfer_write %r, %out[%t, %c0] {in_bounds = [true, true]} : vector<6x64xf32>, memref<64x64xf32>
  } {conv.prefetch_tiles}
  %init = vector.transfer_read %out[%c60, %c0], %f0 {in_bounds = [true, true]} : memref<64x64xf32>, vector<4x64xf32>
  %r = scf.for %i = %c0 to %c16 step %c8 iter_args(%a = %init) -> (vector<4x64xf32>) {
    %l = vector.transfer_read %x[%i, %c60], %f0 {in_bounds = [true, true]} : memref<64x64xf32>, vector<8x4xf32>
    %y = vector.transfer_read %dy[%i, %c0], %f0 {in_bounds = [true, true]} : memref<64x64xf32>, vector<8x64xf32>
    %n = vector.contract {indexing_maps = [#lhs, #rhs, #acc], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %l, %y, %a : vector<8x4xf32>, vector<8x64xf32> into vector<4x64xf32>
    scf.yield %n : vector<4x64xf32>
  } {conv.prefetch_l2, conv.prefetch_rows}
  vector.transfer_write %r, %out[%c60, %c0] {in_bounds = [true, true]} : vector<4x64xf32>, memref<64x64xf32>
  return
}

// -----

// As @rows_tiles, with a loop over 2 column tiles of out_backprop's 128
// channels inside the tiles' loop (conv.prefetch_tiles_inner) and the
// distance of a whole block (conv.prefetch_distance = 32 positions, not
// the loop's 16). The loop's steps (2 of 8 rows) do not make the block's
// 32 rows: the lines of each step's rows are spread over the tiles instead
// (the order before the memory-order one above), before the contraction.
// The tile index runs over both loops, 10 x 2 = 20 tiles:
// t = (c / 6) x 2 + u / 64, computed at the start of the inner loop's body.
// Both operands' whole rows are spread over them: the left-hand one's 8
// rows x 4 lines (2 a tile: lines t and t + 20, modulo 32), the right-hand
// one's 8 rows x 8 lines from column 0 (4 a tile: t, t + 20, t + 40, t + 60,
// modulo 64), at rows i + 32 + l / lines.
// CHECK-LABEL: func.func @rows_tiles_inner(
// CHECK-SAME:      %[[X:[^:]+]]: memref<64x64xf32>, %[[DY:[^:]+]]: memref<64x128xf32>
// CHECK-DAG:     %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG:     %[[C6:.+]] = arith.constant 6 : index
// CHECK-DAG:     %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG:     %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG:     %[[C32:.+]] = arith.constant 32 : index
// CHECK-DAG:     %[[C64:.+]] = arith.constant 64 : index
// CHECK:         scf.for %[[T:.+]] = %{{.+}} to %{{.+}} step %[[C6]]
// CHECK:           scf.for %[[U:.+]] = %{{.+}} to %{{.+}} step %[[C64]]
// CHECK:             %[[TT:.+]] = arith.divui %[[T]], %[[C6]] : index
// CHECK-NEXT:        %[[UU:.+]] = arith.divui %[[U]], %[[C64]] : index
// CHECK-NEXT:        %[[TT2:.+]] = arith.muli %[[TT]], %[[C2]] : index
// CHECK-NEXT:        %[[TILE:.+]] = arith.addi %[[TT2]], %[[UU]] : index
// CHECK-NEXT:        %[[L0:.+]] = arith.remui %[[TILE]], %[[C64]] : index
// CHECK-NEXT:        %[[ROW0:.+]] = arith.divui %[[L0]], %[[C8]] : index
// CHECK-NEXT:        %[[LANE0:.+]] = arith.remui %[[L0]], %[[C8]] : index
// CHECK-NEXT:        %[[COL0:.+]] = arith.muli %[[LANE0]], %[[C16]] : index
// CHECK:             scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step
// CHECK:               %[[XAHEAD:.+]] = arith.addi %[[I]], %[[C32]] : index
// CHECK-COUNT-2:       memref.prefetch %[[X]][%{{.+}}, %{{.+}}], read, locality<2>, data : memref<64x64xf32>
// CHECK:               %[[AHEAD:.+]] = arith.addi %[[I]], %[[C32]] : index
// CHECK-NEXT:          %[[R0:.+]] = arith.addi %[[AHEAD]], %[[ROW0]] : index
// CHECK-NEXT:          memref.prefetch %[[DY]][%[[R0]], %[[COL0]]], read, locality<2>, data : memref<64x128xf32>
// CHECK-COUNT-3:       memref.prefetch %[[DY]][%{{.+}}, %{{.+}}], read, locality<2>, data : memref<64x128xf32>
// CHECK-NOT:           memref.prefetch
// CHECK:               vector.fma
// CHECK-NOT:     conv.prefetch_tiles_inner
// CHECK-NOT:     conv.prefetch_distance
#lhs = affine_map<(d0, d1, d2) -> (d2, d0)>
#rhs = affine_map<(d0, d1, d2) -> (d2, d1)>
#acc = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @rows_tiles_inner(%x: memref<64x64xf32>, %dy: memref<64x128xf32>, %out: memref<64x128xf32>) {
  %c0 = arith.constant 0 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c60 = arith.constant 60 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %f0 = arith.constant 0.0 : f32
  scf.for %t = %c0 to %c60 step %c6 {
    scf.for %u = %c0 to %c128 step %c64 {
      %init = vector.transfer_read %out[%t, %u], %f0 {in_bounds = [true, true]} : memref<64x128xf32>, vector<6x64xf32>
      %r = scf.for %i = %c0 to %c16 step %c8 iter_args(%a = %init) -> (vector<6x64xf32>) {
        %l = vector.transfer_read %x[%i, %t], %f0 {in_bounds = [true, true]} : memref<64x64xf32>, vector<8x6xf32>
        %y = vector.transfer_read %dy[%i, %u], %f0 {in_bounds = [true, true]} : memref<64x128xf32>, vector<8x64xf32>
        %n = vector.contract {indexing_maps = [#lhs, #rhs, #acc], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %l, %y, %a : vector<8x6xf32>, vector<8x64xf32> into vector<6x64xf32>
        scf.yield %n : vector<6x64xf32>
      } {conv.prefetch_distance = 32 : i64, conv.prefetch_l2, conv.prefetch_rows}
      vector.transfer_write %r, %out[%t, %u] {in_bounds = [true, true]} : vector<6x64xf32>, memref<64x128xf32>
    } {conv.prefetch_tiles_inner}
  } {conv.prefetch_tiles}
  return
}

// -----

// As @rows_tiles, the block made of 2 image rows of 16 positions (loops
// over the rows and over the positions of a row, 2 x 2 steps of 8
// positions; conv.prefetch_distance = 32, the block): step s = 2 h + w / 8
// prefetches at row w + 32 - 8 s of image row h (the block after the
// current one: image row h0 + 2 in the contiguous memref), 2 tiles x 4
// steps x 16 lines covering the next block's 32 x 4 lines. With 8 of each
// image row's 16 positions (2 half rows, conv.prefetch_distance = 16) the
// steps do not make whole image rows: the strided order (before the
// contraction).
// CHECK-LABEL: func.func @rows_tiles_two_steps(
// CHECK-SAME:      %[[X:[^:]+]]: memref<2x4x16x64xf32>, %[[DY:[^:]+]]: memref<2x4x16x64xf32>
// CHECK-DAG:     %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG:     %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG:     %[[C6:.+]] = arith.constant 6 : index
// CHECK-DAG:     %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG:     %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG:     %[[C32:.+]] = arith.constant 32 : index
// CHECK-DAG:     %[[C127:.+]] = arith.constant 127 : index
// CHECK:         scf.for %[[T:.+]] = %{{.+}} to %{{.+}} step %[[C6]]
// CHECK:           %[[TILE:.+]] = arith.divui %[[T]], %[[C6]] : index
// CHECK:           scf.for %[[H:.+]] = %{{.+}} to %[[C2]] step
// CHECK:             scf.for %[[W:.+]] = %{{.+}} to %[[C16]] step %[[C8]]
// CHECK-NOT:           memref.prefetch
// CHECK:               vector.fma
// CHECK:               %[[W8:.+]] = arith.divui %[[W]], %[[C8]] : index
// CHECK-NEXT:          %[[H2:.+]] = arith.muli %[[H]], %[[C2]] : index
// CHECK-NEXT:          %[[S:.+]] = arith.addi %[[H2]], %[[W8]] : index
// CHECK-NEXT:          %[[TS:.+]] = arith.muli %[[TILE]], %[[C4]] : index
// CHECK-NEXT:          %[[TSPLUS:.+]] = arith.addi %[[TS]], %[[S]] : index
// CHECK-NEXT:          %[[FIRST:.+]] = arith.muli %[[TSPLUS]], %[[C16]] : index
// CHECK-NEXT:          %[[BACK:.+]] = arith.muli %[[S]], %[[C8]] : index
// CHECK-NEXT:          %[[AHEAD:.+]] = arith.addi %[[W]], %[[C32]] : index
// CHECK-NEXT:          %[[ROW:.+]] = arith.subi %[[AHEAD]], %[[BACK]] : index
// CHECK-NEXT:          %[[L0:.+]] = arith.minui %[[FIRST]], %[[C127]] : index
// CHECK-NEXT:          %[[COL0:.+]] = arith.muli %[[L0]], %[[C16]] : index
// CHECK-NEXT:          memref.prefetch %[[DY]][%{{.+}}, %[[H]], %[[ROW]], %[[COL0]]], read, locality<2>, data : memref<2x4x16x64xf32>
// CHECK-COUNT-15:      memref.prefetch %[[DY]]
// CHECK-COUNT-16:      memref.prefetch %[[X]]
// CHECK-NOT:           memref.prefetch
// CHECK:               scf.yield
// CHECK-LABEL: func.func @rows_tiles_partial_rows(
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK-NOT:           arith.minui
// CHECK:               memref.prefetch
// CHECK:               vector.fma
// CHECK-NOT:           memref.prefetch
// CHECK:               scf.yield
#lhs = affine_map<(d0, d1, d2) -> (d2, d0)>
#rhs = affine_map<(d0, d1, d2) -> (d2, d1)>
#acc = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @rows_tiles_two_steps(%x: memref<2x4x16x64xf32>, %dy: memref<2x4x16x64xf32>, %out: memref<12x64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %c16 = arith.constant 16 : index
  %f0 = arith.constant 0.0 : f32
  scf.for %t = %c0 to %c12 step %c6 {
    %init = vector.transfer_read %out[%t, %c0], %f0 {in_bounds = [true, true]} : memref<12x64xf32>, vector<6x64xf32>
    %r = scf.for %h = %c0 to %c2 step %c1 iter_args(%b = %init) -> (vector<6x64xf32>) {
      %q = scf.for %w = %c0 to %c16 step %c8 iter_args(%a = %b) -> (vector<6x64xf32>) {
        %l = vector.transfer_read %x[%n, %h, %w, %t], %f0 {in_bounds = [true, true]} : memref<2x4x16x64xf32>, vector<8x6xf32>
        %y = vector.transfer_read %dy[%n, %h, %w, %c0], %f0 {in_bounds = [true, true]} : memref<2x4x16x64xf32>, vector<8x64xf32>
        %m = vector.contract {indexing_maps = [#lhs, #rhs, #acc], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %l, %y, %a : vector<8x6xf32>, vector<8x64xf32> into vector<6x64xf32>
        scf.yield %m : vector<6x64xf32>
      } {conv.prefetch_distance = 32 : i64, conv.prefetch_l2, conv.prefetch_rows}
      scf.yield %q : vector<6x64xf32>
    }
    vector.transfer_write %r, %out[%t, %c0] {in_bounds = [true, true]} : vector<6x64xf32>, memref<12x64xf32>
  } {conv.prefetch_tiles}
  return
}
func.func @rows_tiles_partial_rows(%x: memref<2x4x16x64xf32>, %dy: memref<2x4x16x64xf32>, %out: memref<12x64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %c16 = arith.constant 16 : index
  %f0 = arith.constant 0.0 : f32
  scf.for %t = %c0 to %c12 step %c6 {
    %init = vector.transfer_read %out[%t, %c0], %f0 {in_bounds = [true, true]} : memref<12x64xf32>, vector<6x64xf32>
    %r = scf.for %h = %c0 to %c2 step %c1 iter_args(%b = %init) -> (vector<6x64xf32>) {
      %q = scf.for %w = %c0 to %c8 step %c8 iter_args(%a = %b) -> (vector<6x64xf32>) {
        %l = vector.transfer_read %x[%n, %h, %w, %t], %f0 {in_bounds = [true, true]} : memref<2x4x16x64xf32>, vector<8x6xf32>
        %y = vector.transfer_read %dy[%n, %h, %w, %c0], %f0 {in_bounds = [true, true]} : memref<2x4x16x64xf32>, vector<8x64xf32>
        %m = vector.contract {indexing_maps = [#lhs, #rhs, #acc], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %l, %y, %a : vector<8x6xf32>, vector<8x64xf32> into vector<6x64xf32>
        scf.yield %m : vector<6x64xf32>
      } {conv.prefetch_distance = 16 : i64, conv.prefetch_l2, conv.prefetch_rows}
      scf.yield %q : vector<6x64xf32>
    }
    vector.transfer_write %r, %out[%t, %c0] {in_bounds = [true, true]} : vector<6x64xf32>, memref<12x64xf32>
  } {conv.prefetch_tiles}
  return
}

// -----

// conv.prefetch_ahead_nested = 1 (TransposeDot.cpp's loop over phase rows):
// the reads anywhere in its body, in an inner loop inside a branch here,
// whose indices use the induction variable plus a constant (arith.addi or
// affine.apply) prefetch the same indices a row ahead. Of the reads of one
// column at rows mh - 1 and mh only the furthest prefetches (row mh + 1);
// the kernel's read, without the induction variable, does not; the mark is
// removed.
// CHECK-LABEL: func.func @ahead_nested
// CHECK-DAG:     %[[C1:.+]] = arith.constant 1 : index
// CHECK:         scf.for %[[MH:[a-z0-9_]+]] = %{{.+}} to %{{.+}} step %[[C1]]
// CHECK:           %[[W1:.+]] = affine.apply #{{.+}}(%arg2)
// CHECK:           scf.if
// CHECK:             scf.for %[[CH:[a-z0-9_]+]] =
// CHECK:               %[[A0:.+]] = arith.addi %[[MH]], %[[C1]] : index
// CHECK:               memref.prefetch %arg0[%[[A0]], %arg2, %[[CH]]], read, locality<3>, data : memref<8x32x64xf32>
// CHECK:               %[[A1:.+]] = arith.addi %[[MH]], %[[C1]] : index
// CHECK:               memref.prefetch %arg0[%[[A1]], %[[W1]], %[[CH]]], read, locality<3>, data : memref<8x32x64xf32>
// CHECK-NOT:           memref.prefetch
// CHECK:               scf.yield
// CHECK-NOT:     conv.prefetch_ahead_nested
// OFF-LABEL: func.func @ahead_nested
// OFF-NOT:     memref.prefetch
// OFF-NOT:     conv.prefetch_ahead_nested
func.func @ahead_nested(%x: memref<8x32x64xf32>, %k: memref<2x64xf32>, %w: index, %cond: i1) -> vector<16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %cm1 = arith.constant -1 : index
  %f0 = ub.poison : f32
  %zero = arith.constant dense<0.0> : vector<16xf32>
  %r = scf.for %mh = %c1 to %c8 step %c1 iter_args(%s = %zero) -> (vector<16xf32>) {
    %prev = arith.addi %mh, %cm1 : index
    %w1 = affine.apply affine_map<(d0) -> (d0 + 1)>(%w)
    %t = scf.if %cond -> (vector<16xf32>) {
      %u = scf.for %ch = %c0 to %c64 step %c16 iter_args(%a = %s) -> (vector<16xf32>) {
        %x0 = vector.transfer_read %x[%prev, %w, %ch], %f0 {in_bounds = [true]} : memref<8x32x64xf32>, vector<16xf32>
        %x1 = vector.transfer_read %x[%mh, %w, %ch], %f0 {in_bounds = [true]} : memref<8x32x64xf32>, vector<16xf32>
        %x2 = vector.transfer_read %x[%mh, %w1, %ch], %f0 {in_bounds = [true]} : memref<8x32x64xf32>, vector<16xf32>
        %k0 = vector.transfer_read %k[%c0, %ch], %f0 {in_bounds = [true]} : memref<2x64xf32>, vector<16xf32>
        %f = vector.fma %x0, %k0, %a : vector<16xf32>
        %g = vector.fma %x1, %k0, %f : vector<16xf32>
        %h = vector.fma %x2, %k0, %g : vector<16xf32>
        scf.yield %h : vector<16xf32>
      }
      scf.yield %u : vector<16xf32>
    } else {
      scf.yield %s : vector<16xf32>
    }
    scf.yield %t : vector<16xf32>
  } {conv.prefetch_ahead_nested = 1 : i64}
  return %r : vector<16xf32>
}
