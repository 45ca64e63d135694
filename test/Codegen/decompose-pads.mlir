// RUN: conv-opt %s --conv-cpu-decompose-pads --split-input-file | FileCheck %s
// RUN: conv-opt %s --conv-cpu-decompose-pads --split-input-file --one-shot-bufferize="bufferize-function-boundaries" --cse --canonicalize | FileCheck %s --check-prefix=BUF

// A static zero pad of two dimensions (low 1 / high 2 along H, low 1 / high
// 0 along W): border slabs, two per padded dimension (the W slabs span only
// the H interior, so no element is filled twice; the zero high pad of W has
// none), each a linalg.fill into a slice of a tensor.empty, then the source
// inserted into the interior.
// CHECK-LABEL: func.func @two_dims
// CHECK-SAME:    (%[[X:.+]]: tensor<2x4x5x8xf32>)
// CHECK-DAG:     %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<2x7x6x8xf32>
// CHECK:         %[[S0:.+]] = tensor.extract_slice %[[E]][0, 0, 0, 0] [2, 1, 6, 8] [1, 1, 1, 1]
// CHECK:         %[[F0:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[S0]] : tensor<2x1x6x8xf32>)
// CHECK:         %[[I0:.+]] = tensor.insert_slice %[[F0]] into %[[E]][0, 0, 0, 0] [2, 1, 6, 8] [1, 1, 1, 1]
// CHECK:         %[[S1:.+]] = tensor.extract_slice %[[I0]][0, 5, 0, 0] [2, 2, 6, 8] [1, 1, 1, 1]
// CHECK:         %[[F1:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[S1]] : tensor<2x2x6x8xf32>)
// CHECK:         %[[I1:.+]] = tensor.insert_slice %[[F1]] into %[[I0]][0, 5, 0, 0] [2, 2, 6, 8] [1, 1, 1, 1]
// CHECK:         %[[S2:.+]] = tensor.extract_slice %[[I1]][0, 1, 0, 0] [2, 4, 1, 8] [1, 1, 1, 1]
// CHECK:         %[[F2:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[S2]] : tensor<2x4x1x8xf32>)
// CHECK:         %[[I2:.+]] = tensor.insert_slice %[[F2]] into %[[I1]][0, 1, 0, 0] [2, 4, 1, 8] [1, 1, 1, 1]
// CHECK-NOT:     linalg.fill
// CHECK:         %[[R:.+]] = tensor.insert_slice %[[X]] into %[[I2]][0, 1, 1, 0] [2, 4, 5, 8] [1, 1, 1, 1]
// CHECK-NOT:     tensor.pad
// CHECK:         return %[[R]]
//
// Bufferized in place: one allocation, the fills write the three border
// subviews only, the source is one copy into the interior subview.
// BUF-LABEL: func.func @two_dims
// BUF:         %[[A:.+]] = memref.alloc() {{.*}} : memref<2x7x6x8xf32>
// BUF-NOT:     linalg.fill {{.*}} outs(%[[A]] :
// BUF:         %[[B0:.+]] = memref.subview %[[A]][0, 0, 0, 0] [2, 1, 6, 8]
// BUF:         linalg.fill {{.*}} outs(%[[B0]] :
// BUF-NOT:     memref.copy
// BUF:         %[[B1:.+]] = memref.subview %[[A]][0, 5, 0, 0] [2, 2, 6, 8]
// BUF:         linalg.fill {{.*}} outs(%[[B1]] :
// BUF-NOT:     memref.copy
// BUF:         %[[B2:.+]] = memref.subview %[[A]][0, 1, 0, 0] [2, 4, 1, 8]
// BUF:         linalg.fill {{.*}} outs(%[[B2]] :
// BUF-NOT:     memref.copy
// BUF:         %[[IN:.+]] = memref.subview %[[A]][0, 1, 1, 0] [2, 4, 5, 8]
// BUF:         memref.copy %{{.*}}, %[[IN]]
// BUF-NOT:     memref.copy
// BUF-NOT:     linalg.fill
// BUF:         return
func.func @two_dims(%x: tensor<2x4x5x8xf32>) -> tensor<2x7x6x8xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 2, 0, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<2x4x5x8xf32> to tensor<2x7x6x8xf32>
  return %p : tensor<2x7x6x8xf32>
}

// -----

// A non-zero constant pads the same way (the fill value is the constant).
// CHECK-LABEL: func.func @constant_value
// CHECK:         %[[V:.+]] = arith.constant 1.500000e+00 : f16
// CHECK:         linalg.fill ins(%[[V]] : f16) outs(%{{.*}} : tensor<3x5xf16>)
// CHECK:         tensor.insert_slice %{{.*}} into %{{.*}}[0, 0] [2, 5] [1, 1] : tensor<2x5xf16> into tensor<5x5xf16>
// CHECK-NOT:     tensor.pad
func.func @constant_value(%x: tensor<2x5xf16>) -> tensor<5x5xf16> {
  %v = arith.constant 1.5 : f16
  %p = tensor.pad %x low[0, 0] high[3, 0] {
  ^bb0(%a: index, %b: index):
    tensor.yield %v : f16
  } : tensor<2x5xf16> to tensor<5x5xf16>
  return %p : tensor<5x5xf16>
}

// -----

// Left alone: a dynamic pad amount, a dynamic source, and a padding value
// that depends on the index (not a constant).
// CHECK-LABEL: func.func @not_static
// CHECK-COUNT-3: tensor.pad
// CHECK-NOT:     linalg.fill
func.func @not_static(%x: tensor<4x4xf32>, %y: tensor<?x4xf32>, %n: index)
    -> (tensor<?x4xf32>, tensor<?x4xf32>, tensor<6x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %p0 = tensor.pad %x low[%n, 0] high[0, 0] {
  ^bb0(%a: index, %b: index):
    tensor.yield %zero : f32
  } : tensor<4x4xf32> to tensor<?x4xf32>
  %p1 = tensor.pad %y low[1, 0] high[1, 0] {
  ^bb0(%a: index, %b: index):
    tensor.yield %zero : f32
  } : tensor<?x4xf32> to tensor<?x4xf32>
  %p2 = tensor.pad %x low[1, 0] high[1, 0] {
  ^bb0(%a: index, %b: index):
    %i = arith.index_cast %a : index to i32
    %f = arith.sitofp %i : i32 to f32
    tensor.yield %f : f32
  } : tensor<4x4xf32> to tensor<6x4xf32>
  return %p0, %p1, %p2 : tensor<?x4xf32>, tensor<?x4xf32>, tensor<6x4xf32>
}

// -----

// The padding constant defined inside the pad's region: the fills use a
// constant outside it.
// CHECK-LABEL: func.func @constant_in_region
// CHECK:         %[[V:.+]] = arith.constant 2.000000e+00 : f32
// CHECK:         linalg.fill ins(%[[V]] : f32) outs(%{{.*}} : tensor<1x5xf32>)
// CHECK:         linalg.fill ins(%[[V]] : f32) outs(%{{.*}} : tensor<2x5xf32>)
// CHECK:         tensor.insert_slice %{{.*}} into %{{.*}}[1, 0] [2, 5] [1, 1] : tensor<2x5xf32> into tensor<5x5xf32>
// CHECK-NOT:     tensor.pad
func.func @constant_in_region(%x: tensor<2x5xf32>) -> tensor<5x5xf32> {
  %p = tensor.pad %x low[1, 0] high[2, 0] {
  ^bb0(%a: index, %b: index):
    %v = arith.constant 2.0 : f32
    tensor.yield %v : f32
  } : tensor<2x5xf32> to tensor<5x5xf32>
  return %p : tensor<5x5xf32>
}

// -----

// CHECK-DAG: #[[$M1:.+]] = affine_map<()[s0] -> (s0 - 1)>
// CHECK-DAG: #[[$M2:.+]] = affine_map<()[s0] -> (s0 + 2)>
// A pad whose reads the lowering cut to its source's interior
// (conv.interior_reads): every slice reads the source at its offsets minus
// the low padding, and no padded copy is made.
// CHECK-LABEL: func.func @interior_reads
// CHECK-SAME:    (%[[X:.+]]: tensor<2x6x20x8xf32>, %[[I:.+]]: index, %[[J:.+]]: index)
// CHECK-NOT:     tensor.pad
// CHECK-NOT:     tensor.empty
// CHECK:         %[[H:.+]] = affine.apply #[[$M1]]()[%[[I]]]
// CHECK:         %[[W:.+]] = affine.apply #[[$M2]]()[%[[J]]]
// CHECK:         tensor.extract_slice %[[X]][0, %[[H]], %[[W]], 0] [2, 3, 4, 8] [1, 1, 2, 1]
// CHECK:         tensor.extract_slice %[[X]][1, 0, 0, 0] [1, 6, 20, 8] [1, 1, 1, 1]
func.func @interior_reads(%x: tensor<2x6x20x8xf32>, %i: index, %j: index) -> (tensor<2x3x4x8xf32>, tensor<1x6x20x8xf32>) {
  %cst = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %cst : f32
  } {conv.interior_reads} : tensor<2x6x20x8xf32> to tensor<2x8x22x8xf32>
  %jj = affine.apply affine_map<()[s0] -> (s0 + 3)>()[%j]
  %s = tensor.extract_slice %p[0, %i, %jj, 0] [2, 3, 4, 8] [1, 1, 2, 1] : tensor<2x8x22x8xf32> to tensor<2x3x4x8xf32>
  %t = tensor.extract_slice %p[1, 1, 1, 0] [1, 6, 20, 8] [1, 1, 1, 1] : tensor<2x8x22x8xf32> to tensor<1x6x20x8xf32>
  return %s, %t : tensor<2x3x4x8xf32>, tensor<1x6x20x8xf32>
}

// -----

// CHECK-DAG: #[[$N1:.+]] = affine_map<()[s0] -> (s0 - 1)>
// The same with an in-bounds vector read the tiling folded its slice into:
// it reads the source at its indices minus the low padding. A read that
// may go out of bounds (or a masked one) keeps the pad.
// CHECK-LABEL: func.func @interior_transfer_read
// CHECK-SAME:    (%[[X:.+]]: tensor<2x6x20x8xf32>, %[[I:.+]]: index, %[[J:.+]]: index)
// CHECK-NOT:     tensor.pad
// CHECK:         %[[H:.+]] = affine.apply #[[$N1]]()[%[[I]]]
// CHECK:         %[[W:.+]] = affine.apply #[[$N1]]()[%[[J]]]
// CHECK:         vector.transfer_read %[[X]][%{{.+}}, %[[H]], %[[W]], %{{.+}}], %{{.+}} {in_bounds = [true, true]} : tensor<2x6x20x8xf32>, vector<4x8xf32>
func.func @interior_transfer_read(%x: tensor<2x6x20x8xf32>, %i: index, %j: index) -> vector<4x8xf32> {
  %cst = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %cst : f32
  } {conv.interior_reads} : tensor<2x6x20x8xf32> to tensor<2x8x22x8xf32>
  %v = vector.transfer_read %p[%c0, %i, %j, %c0], %cst {in_bounds = [true, true]} : tensor<2x8x22x8xf32>, vector<4x8xf32>
  return %v : vector<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @interior_transfer_read_out_of_bounds
// CHECK:         linalg.fill
// CHECK:         vector.transfer_read %{{.+}} : tensor<2x8x22x8xf32>, vector<4x8xf32>
func.func @interior_transfer_read_out_of_bounds(%x: tensor<2x6x20x8xf32>, %i: index, %j: index) -> vector<4x8xf32> {
  %cst = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %cst : f32
  } {conv.interior_reads} : tensor<2x6x20x8xf32> to tensor<2x8x22x8xf32>
  %v = vector.transfer_read %p[%c0, %i, %j, %c0], %cst {in_bounds = [false, true]} : tensor<2x8x22x8xf32>, vector<4x8xf32>
  return %v : vector<4x8xf32>
}

// -----

// A slice that is statically not inside the source (a whole-window view
// that later slices cut further) keeps the pad.
// CHECK-LABEL: func.func @interior_reads_static_padding_view
// CHECK:         linalg.fill
// CHECK:         tensor.extract_slice %{{.+}}[0, 0, 0, 0] [2, 8, 11, 8] [1, 1, 2, 1] : tensor<2x8x22x8xf32>
func.func @interior_reads_static_padding_view(%x: tensor<2x6x20x8xf32>) -> tensor<2x8x11x8xf32> {
  %cst = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %cst : f32
  } {conv.interior_reads} : tensor<2x6x20x8xf32> to tensor<2x8x22x8xf32>
  %s = tensor.extract_slice %p[0, 0, 0, 0] [2, 8, 11, 8] [1, 1, 2, 1] : tensor<2x8x22x8xf32> to tensor<2x8x11x8xf32>
  return %s : tensor<2x8x11x8xf32>
}

// -----

// The same mark with a user that is not a slice: the pad stays (and is
// decomposed as usual).
// CHECK-LABEL: func.func @interior_reads_other_user
// CHECK:         tensor.empty() : tensor<2x8x22x8xf32>
// CHECK:         linalg.fill
func.func @interior_reads_other_user(%x: tensor<2x6x20x8xf32>) -> tensor<2x8x22x8xf32> {
  %cst = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %cst : f32
  } {conv.interior_reads} : tensor<2x6x20x8xf32> to tensor<2x8x22x8xf32>
  return %p : tensor<2x8x22x8xf32>
}

// -----

// Without the mark, reads whose positions are provably inside the source
// along every padded dimension (ValueBoundsConstraintSet): tap loops
// clipped to the input rows, as conv-cpu-tile-and-vectorize's tap clipping
// makes them (rows 1-8 of the padded 10), and vectors of 2 rows along a
// padded dimension whose last row stays inside. They read the source and no padded copy is made.
// CHECK-LABEL: func.func @proven_interior_reads
// CHECK-SAME:    (%[[X:.+]]: tensor<4x8x8x16xf32>
// CHECK-NOT:     tensor.pad
// CHECK-NOT:     linalg.fill
// CHECK:         vector.transfer_read %[[X]]{{.+}} : tensor<4x8x8x16xf32>, vector<4xf32>
// CHECK:         vector.transfer_read %[[X]]{{.+}} : tensor<4x8x8x16xf32>, vector<2x16xf32>
func.func @proven_interior_reads(%x: tensor<4x8x8x16xf32>, %init: vector<2x16xf32>, %acc: vector<4xf32>) -> (vector<4xf32>, vector<2x16xf32>) {
  %cst = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %cst : f32
  } : tensor<4x8x8x16xf32> to tensor<4x10x10x16xf32>
  %r = scf.for %o = %c0 to %c8 step %c1 iter_args(%a0 = %acc) -> (vector<4xf32>) {
    %lo = affine.max affine_map<()[s0] -> (-s0 + 1, 0)>()[%o]
    %hi = affine.min affine_map<()[s0] -> (-s0 + 9, 2)>()[%o]
    %s = scf.for %t = %lo to %hi step %c1 iter_args(%a1 = %a0) -> (vector<4xf32>) {
      %row = affine.apply affine_map<()[s0, s1] -> (s0 + s1)>()[%o, %t]
      %v = vector.transfer_read %p[%c0, %row, %row, %c0], %cst {in_bounds = [true], permutation_map = affine_map<(d0, d1, d2, d3) -> (d0)>} : tensor<4x10x10x16xf32>, vector<4xf32>
      %n = arith.addf %a1, %v : vector<4xf32>
      scf.yield %n : vector<4xf32>
    }
    scf.yield %s : vector<4xf32>
  }
  %u = scf.for %j = %c1 to %c8 step %c1 iter_args(%b0 = %init) -> (vector<2x16xf32>) {
    %b = vector.transfer_read %p[%c1, %c2, %j, %c0], %cst {in_bounds = [true, true]} : tensor<4x10x10x16xf32>, vector<2x16xf32>
    %b1 = arith.addf %b0, %b : vector<2x16xf32>
    scf.yield %b1 : vector<2x16xf32>
  }
  return %r, %u : vector<4xf32>, vector<2x16xf32>
}

// -----

// The same reads with one position that the bounds do not keep inside: a
// tap loop clipped at the low end only (row o + t reaches 9, the high
// padding), or a 2-row vector whose last row reaches it. The pad stays.
// CHECK-LABEL: func.func @unproven_interior_reads
// CHECK:         linalg.fill
// CHECK:         vector.transfer_read %{{.+}} : tensor<4x10x10x16xf32>, vector<4xf32>
// CHECK-LABEL: func.func @unproven_interior_vector
// CHECK:         linalg.fill
// CHECK:         vector.transfer_read %{{.+}} : tensor<4x10x10x16xf32>, vector<2x16xf32>
func.func @unproven_interior_reads(%x: tensor<4x8x8x16xf32>, %acc: vector<4xf32>) -> vector<4xf32> {
  %cst = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %cst : f32
  } : tensor<4x8x8x16xf32> to tensor<4x10x10x16xf32>
  %r = scf.for %o = %c0 to %c8 step %c1 iter_args(%a0 = %acc) -> (vector<4xf32>) {
    %lo = affine.max affine_map<()[s0] -> (-s0 + 1, 0)>()[%o]
    %s = scf.for %t = %lo to %c3 step %c1 iter_args(%a1 = %a0) -> (vector<4xf32>) {
      %row = affine.apply affine_map<()[s0, s1] -> (s0 + s1)>()[%o, %t]
      %v = vector.transfer_read %p[%c0, %row, %c1, %c0], %cst {in_bounds = [true], permutation_map = affine_map<(d0, d1, d2, d3) -> (d0)>} : tensor<4x10x10x16xf32>, vector<4xf32>
      %n = arith.addf %a1, %v : vector<4xf32>
      scf.yield %n : vector<4xf32>
    }
    scf.yield %s : vector<4xf32>
  }
  return %r : vector<4xf32>
}
func.func @unproven_interior_vector(%x: tensor<4x8x8x16xf32>, %init: vector<2x16xf32>) -> vector<2x16xf32> {
  %cst = arith.constant 0.0 : f32
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c9 = arith.constant 9 : index
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %cst : f32
  } : tensor<4x8x8x16xf32> to tensor<4x10x10x16xf32>
  %c0 = arith.constant 0 : index
  %u = scf.for %j = %c1 to %c9 step %c1 iter_args(%b0 = %init) -> (vector<2x16xf32>) {
    %b = vector.transfer_read %p[%c1, %c2, %j, %c0], %cst {in_bounds = [true, true]} : tensor<4x10x10x16xf32>, vector<2x16xf32>
    %b1 = arith.addf %b0, %b : vector<2x16xf32>
    scf.yield %b1 : vector<2x16xf32>
  }
  return %u : vector<2x16xf32>
}

// -----

// A pad read only through slices of one image each, at image offsets
// computed from the induction variables of a thread loop and a batch loop
// (inside the row loop, where the tiling leaves them): each image is padded
// on its own, at the top of the batch loop's body, and the two row blocks of
// the image read that one padded copy. The thread that reads an image writes
// its padded copy just before (into its caches), instead of the whole padded
// input going through memory in a pass of its own.
// CHECK-LABEL: func.func @pad_per_block
// CHECK-SAME:    (%[[X:.+]]: tensor<4x8x8x16xf32>
// CHECK-NOT:     tensor.pad
// CHECK:         scf.forall (%[[T:.+]]) in (2)
// CHECK:           scf.for %[[N:[^ ]+]] =
// CHECK:             %[[I:.+]] = affine.apply #{{.+}}(%[[T]])[%[[N]]]
// CHECK:             %[[B:.+]] = tensor.extract_slice %[[X]][%[[I]], 0, 0, 0] [1, 8, 8, 16] [1, 1, 1, 1]
// CHECK:             %[[E:.+]] = tensor.empty() : tensor<1x10x10x16xf32>
// CHECK-COUNT-4:     linalg.fill
// CHECK:             %[[P:.+]] = tensor.insert_slice %[[B]] into %{{.+}}[0, 1, 1, 0] [1, 8, 8, 16] [1, 1, 1, 1]
// CHECK:             scf.for %[[R:[^ ]+]] =
// CHECK:               tensor.extract_slice %[[P]][0, %[[R]], 0, 0] [1, 6, 10, 16] [1, 1, 1, 1]
// CHECK:               tensor.extract_slice %[[P]][0, %{{.+}}, 0, 0] [1, 6, 10, 16] [1, 1, 1, 1]
// CHECK-NOT:     tensor.pad
// CHECK-NOT:     tensor<4x10x10x16xf32>
//
// Bufferized: one image-sized allocation inside the batch loop.
// BUF-LABEL: func.func @pad_per_block
// BUF:         scf.forall
// BUF:           scf.for
// BUF:             memref.alloc() {{.*}} : memref<1x10x10x16xf32>
// BUF-NOT:       memref<4x10x10x16xf32>
func.func @pad_per_block(%x: tensor<4x8x8x16xf32>, %init: tensor<2x16xf32>) -> tensor<2x2x16xf32> {
  %cst = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %cst : f32
  } : tensor<4x8x8x16xf32> to tensor<4x10x10x16xf32>
  %e = tensor.empty() : tensor<2x2x16xf32>
  %r = scf.forall (%t) in (2) shared_outs(%o = %e) -> (tensor<2x2x16xf32>) {
    %s = scf.for %n = %c0 to %c2 step %c1 iter_args(%a = %init) -> (tensor<2x16xf32>) {
      %s2 = scf.for %row = %c0 to %c4 step %c4 iter_args(%b = %a) -> (tensor<2x16xf32>) {
        %img = affine.apply affine_map<(d0)[s0] -> (d0 * 2 + s0)>(%t)[%n]
        %blk = tensor.extract_slice %p[%img, %row, 0, 0] [1, 6, 10, 16] [1, 1, 1, 1] : tensor<4x10x10x16xf32> to tensor<1x6x10x16xf32>
        %row2 = affine.apply affine_map<()[s0] -> (s0 + 4)>()[%row]
        %blk2 = tensor.extract_slice %p[%img, %row2, 0, 0] [1, 6, 10, 16] [1, 1, 1, 1] : tensor<4x10x10x16xf32> to tensor<1x6x10x16xf32>
        %v1 = vector.transfer_read %blk[%c0, %c0, %c0, %c0], %cst {in_bounds = [true]} : tensor<1x6x10x16xf32>, vector<16xf32>
        %v2 = vector.transfer_read %blk2[%c0, %c1, %c1, %c0], %cst {in_bounds = [true]} : tensor<1x6x10x16xf32>, vector<16xf32>
        %w = arith.addf %v1, %v2 : vector<16xf32>
        %b1 = vector.transfer_write %w, %b[%c0, %c0] {in_bounds = [true]} : vector<16xf32>, tensor<2x16xf32>
        scf.yield %b1 : tensor<2x16xf32>
      }
      scf.yield %s2 : tensor<2x16xf32>
    }
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%t, 0, 0] [1, 2, 16] [1, 1, 1] : tensor<2x16xf32> into tensor<2x2x16xf32>
    }
  }
  return %r : tensor<2x2x16xf32>
}

// -----

// The same image slices in a batch loop that a loop around it repeats:
// padding each image there would copy it twice, so the whole input is padded
// once, before the loops.
// CHECK-LABEL: func.func @pad_per_block_repeated
// BUF-LABEL: func.func @pad_per_block_repeated
// BUF:         memref.alloc() {{.*}} : memref<4x10x10x16xf32>
// CHECK:         tensor.empty() : tensor<4x10x10x16xf32>
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK-NOT:         tensor.empty
// CHECK:             tensor.extract_slice {{.+}} : tensor<4x10x10x16xf32> to tensor<1x10x10x16xf32>
func.func @pad_per_block_repeated(%x: tensor<4x8x8x16xf32>, %init: vector<16xf32>) -> vector<16xf32> {
  %cst = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %cst : f32
  } : tensor<4x8x8x16xf32> to tensor<4x10x10x16xf32>
  %r = scf.for %k = %c0 to %c2 step %c1 iter_args(%a = %init) -> (vector<16xf32>) {
    %s = scf.for %n = %c0 to %c4 step %c1 iter_args(%b = %a) -> (vector<16xf32>) {
      %img = tensor.extract_slice %p[%n, 0, 0, 0] [1, 10, 10, 16] [1, 1, 1, 1] : tensor<4x10x10x16xf32> to tensor<1x10x10x16xf32>
      %v = vector.transfer_read %img[%c0, %k, %k, %c0], %cst {in_bounds = [true]} : tensor<1x10x10x16xf32>, vector<16xf32>
      %w = arith.addf %b, %v : vector<16xf32>
      scf.yield %w : vector<16xf32>
    }
    scf.yield %s : vector<16xf32>
  }
  return %r : vector<16xf32>
}
