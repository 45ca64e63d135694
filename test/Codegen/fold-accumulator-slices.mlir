// RUN: conv-opt %s --split-input-file --conv-cpu-fold-accumulator-slices | FileCheck %s
// RUN: conv-opt %s --split-input-file --convert-conv-to-linalg="dw-tap-row-lanes=16 dw-split-taps-max-bytes=2097152" --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=512 num-vector-registers=32 l1-cache-bytes=49152 l2-cache-bytes=2097152 num-threads=1" --loop-invariant-subset-hoisting --conv-cpu-fold-accumulator-slices --canonicalize --cse --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | FileCheck %s --check-prefix=BUF
// RUN: conv-opt %s --split-input-file --convert-conv-to-linalg="dw-tap-row-lanes=16 dw-split-taps-max-bytes=2097152" --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=512 num-vector-registers=32 l1-cache-bytes=49152 l2-cache-bytes=2097152 num-threads=1" --loop-invariant-subset-hoisting --canonicalize --cse --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | FileCheck %s --check-prefix=UNFOLDED

// A hoisted accumulator tile (what loop-invariant-subset-hoisting leaves):
// read once from a slice of the tile block before the reduction loop,
// written once into a slice re-inserted after it. Both slices fold into
// the transfers, which then address the block itself.
// CHECK-LABEL: func.func @hoisted_tile
// CHECK-SAME:    (%[[BLOCK:.*]]: tensor<5x192x32xf32>, %[[I:.*]]: index, %[[J:.*]]: index
// CHECK-NOT:     tensor.extract_slice
// CHECK:         %[[ACC:.*]] = vector.transfer_read %[[BLOCK]][%c2, %[[I]], %[[J]]]
// CHECK:         %[[SUM:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[ACC]]) -> (vector<4x16xf32>)
// CHECK-NOT:     tensor.insert_slice
// CHECK:         %[[OUT:.*]] = vector.transfer_write %[[SUM]], %[[BLOCK]][%c2, %[[I]], %[[J]]]
// CHECK:         return %[[OUT]]
func.func @hoisted_tile(%block: tensor<5x192x32xf32>, %i: index, %j: index,
                        %v: vector<4x16xf32>) -> tensor<5x192x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %pad = ub.poison : f32
  %slice = tensor.extract_slice %block[2, %i, %j] [1, 4, 16] [1, 1, 1]
      : tensor<5x192x32xf32> to tensor<4x16xf32>
  %acc = vector.transfer_read %slice[%c0, %c0], %pad {in_bounds = [true, true]}
      : tensor<4x16xf32>, vector<4x16xf32>
  %sum = scf.for %k = %c0 to %c8 step %c1 iter_args(%a = %acc) -> (vector<4x16xf32>) {
    %s = arith.addf %a, %v : vector<4x16xf32>
    scf.yield %s : vector<4x16xf32>
  }
  %w = vector.transfer_write %sum, %slice[%c0, %c0] {in_bounds = [true, true]}
      : vector<4x16xf32>, tensor<4x16xf32>
  %out = tensor.insert_slice %w into %block[2, %i, %j] [1, 4, 16] [1, 1, 1]
      : tensor<4x16xf32> into tensor<5x192x32xf32>
  return %out : tensor<5x192x32xf32>
}

// -----

// GoogLeNet's 5x5 28x28x192 -> 32 filter gradient in dense tap rows
// (tile-and-vectorize-dense-tap-rows.mlir): each register tile's five tap
// accumulators, slices of the tile block, are hoisted out of the loops over
// the rows and positions. Folded, one-shot bufferization writes them in
// place: no buffer per register tile (the allocations left are whole
// tensors: the result, the zero-padded input, the split-K partials and
// their sum). Unfolded, it gave each tap's [4, 16] accumulator a heap
// buffer and two copies per register tile.
// BUF-LABEL:   func.func @dense_5x5
// BUF-NOT:       memref.alloc() {{.*}} : memref<4x16xf32>
// BUF:           return
// UNFOLDED-LABEL: func.func @dense_5x5
// UNFOLDED-COUNT-5: memref.alloc() {{.*}} : memref<4x16xf32>
func.func @dense_5x5(%x: tensor<16x28x28x192xf32>, %dy: tensor<16x28x28x32xf32>) -> tensor<5x5x192x32xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = EXPLICIT explicit_paddings = [2, 2, 2, 2]
          strides = [1, 1] dilations = [1, 1]
          : tensor<16x28x28x192xf32>, tensor<16x28x28x32xf32> -> tensor<5x5x192x32xf32>
  return %dw : tensor<5x5x192x32xf32>
}
