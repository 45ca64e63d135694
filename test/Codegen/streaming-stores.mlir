// RUN: conv-opt %s --conv-cpu-streaming-stores="vector-bits=512" --split-input-file | FileCheck %s
// RUN: conv-opt %s --conv-cpu-streaming-stores="vector-bits=512 min-bytes=1048576" --split-input-file | FileCheck %s --check-prefix=LARGE
// RUN: conv-opt %s --conv-cpu-streaming-stores="vector-bits=256" --split-input-file | FileCheck %s --check-prefix=AVX2

// A result only ever written, tile by tile, after each tile's reduction
// loop (a transposed convolution's phase): each 2-D tile write becomes,
// when its first row is 64-byte aligned at run time, one non-temporal
// 64-byte-aligned vector.store per row (rows of 32 floats, two lines; the
// row pitch 64 floats), else the original write; one sfence follows the
// loop nest. With min-bytes above the result's 32 KiB, or without 512-bit
// vectors, nothing changes.
// CHECK-LABEL: func.func @tiles
// CHECK:         scf.for %[[I:.+]] = %c0 to %c128 step %c2
// CHECK:           %[[ACC:.+]] = scf.for
// CHECK:           %[[BASE:.+]], %[[OFF:.+]], %{{.+}}:2, %[[STRIDES:.+]]:2 = memref.extract_strided_metadata %[[V:.+]] :
// CHECK:           %[[R:.+]] = arith.muli %[[I]], %[[STRIDES]]#0 : index
// CHECK:           %[[E:.+]] = arith.addi %[[OFF]], %[[R]] : index
// CHECK:           %[[C:.+]] = arith.muli %c0, %[[STRIDES]]#1 : index
// CHECK:           %[[E2:.+]] = arith.addi %[[E]], %[[C]] : index
// CHECK:           %[[P:.+]] = memref.extract_aligned_pointer_as_index %[[V]]
// CHECK:           %[[B:.+]] = arith.muli %[[E2]], %c4{{.*}} : index
// CHECK:           %[[A:.+]] = arith.addi %[[P]], %[[B]] : index
// CHECK:           %[[M:.+]] = arith.andi %[[A]], %c63{{.*}} : index
// CHECK:           %[[OK:.+]] = arith.cmpi eq, %[[M]], %c0{{.*}} : index
// CHECK:           scf.if %[[OK]] {
// CHECK:             %[[ROW0:.+]] = vector.extract %[[ACC]][0] : vector<32xf32> from vector<2x32xf32>
// CHECK:             vector.store %[[ROW0]], %[[V]][%{{.+}}, %c0] {alignment = 64 : i64, nontemporal = true}
// CHECK:             %[[ROW1:.+]] = vector.extract %[[ACC]][1] : vector<32xf32> from vector<2x32xf32>
// CHECK:             vector.store %[[ROW1]], %[[V]][%{{.+}}, %c0] {alignment = 64 : i64, nontemporal = true}
// CHECK:           } else {
// CHECK:             vector.transfer_write %[[ACC]], %[[V]][%[[I]], %c0] {in_bounds = [true, true]}
// CHECK:           }
// CHECK:         }
// CHECK-NEXT:    llvm.call_intrinsic "llvm.x86.sse.sfence"() : () -> ()
// CHECK-NEXT:    return
// LARGE-LABEL: func.func @tiles
// LARGE-NOT:     nontemporal
// LARGE-NOT:     sfence
// AVX2-LABEL: func.func @tiles
// AVX2-NOT:      nontemporal
// AVX2-NOT:      sfence
// LARGE-LABEL: func.func @read_back
// AVX2-LABEL: func.func @read_back
func.func @tiles(%x: memref<128x8xf32>, %w: memref<8x32xf32>, %out: memref<128x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  %pad = arith.constant 0.0 : f32
  %zero = arith.constant dense<0.0> : vector<2x32xf32>
  %view = memref.subview %out[0, 0] [128, 32] [1, 1] : memref<128x64xf32> to memref<128x32xf32, strided<[64, 1]>>
  scf.for %i = %c0 to %c128 step %c2 {
    %acc = scf.for %k = %c0 to %c8 step %c1 iter_args(%a = %zero) -> (vector<2x32xf32>) {
      %row = vector.transfer_read %w[%k, %c0], %pad {in_bounds = [true]} : memref<8x32xf32>, vector<32xf32>
      %b = vector.broadcast %row : vector<32xf32> to vector<2x32xf32>
      %s = arith.addf %a, %b : vector<2x32xf32>
      scf.yield %s : vector<2x32xf32>
    }
    vector.transfer_write %acc, %view[%i, %c0] {in_bounds = [true, true]} : vector<2x32xf32>, memref<128x32xf32, strided<[64, 1]>>
  }
  return
}

// -----

// The result is also read (a phase accumulating into it): no stream.
// CHECK-LABEL: func.func @read_back
// CHECK-NOT:     nontemporal
// CHECK-NOT:     sfence
func.func @read_back(%out: memref<64x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %pad = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c64 step %c1 {
    %v = vector.transfer_read %out[%i, %c0], %pad {in_bounds = [true]} : memref<64x32xf32>, vector<32xf32>
    %s = arith.addf %v, %v : vector<32xf32>
    vector.transfer_write %s, %out[%i, %c0] {in_bounds = [true]} : vector<32xf32>, memref<64x32xf32>
  }
  return
}

// -----

// Rows of 3 floats (12 bytes: parts of cache lines), a constant written
// (a fill), a temporary of the function: no stream.
// CHECK-LABEL: func.func @partial_lines
// CHECK-NOT:     nontemporal
// CHECK-NOT:     sfence
func.func @partial_lines(%x: memref<64x3xf32>, %out: memref<64x3xf32>, %fill: memref<64x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %pad = arith.constant 0.0 : f32
  %zero = arith.constant dense<0.0> : vector<16xf32>
  %tmp = memref.alloc() : memref<64x16xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %v = vector.transfer_read %x[%i, %c0], %pad {in_bounds = [true]} : memref<64x3xf32>, vector<3xf32>
    vector.transfer_write %v, %out[%i, %c0] {in_bounds = [true]} : vector<3xf32>, memref<64x3xf32>
    vector.transfer_write %zero, %fill[%i, %c0] {in_bounds = [true]} : vector<16xf32>, memref<64x16xf32>
    %w = vector.broadcast %pad : f32 to vector<16xf32>
    %s = arith.addf %w, %zero : vector<16xf32>
    vector.transfer_write %s, %tmp[%i, %c0] {in_bounds = [true]} : vector<16xf32>, memref<64x16xf32>
  }
  memref.dealloc %tmp : memref<64x16xf32>
  return
}

// -----

// A 1-D write of one line per step inside a thread's scf.forall body: the
// sfence goes at the end of that body (each thread fences its own
// stores).
// CHECK-LABEL: func.func @threads
// CHECK:         scf.forall
// CHECK:           scf.for
// CHECK:             scf.if
// CHECK:               vector.store %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}] {alignment = 64 : i64, nontemporal = true} : memref<64x16xf32>, vector<16xf32>
// CHECK:             } else {
// CHECK:               vector.transfer_write {{.*}} : vector<16xf32>, memref<64x16xf32>{{$}}
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:      llvm.call_intrinsic "llvm.x86.sse.sfence"() : () -> ()
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @threads(%x: memref<64x16xf32>, %out: memref<64x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %pad = arith.constant 0.0 : f32
  scf.forall (%t) in (2) {
    %lo = arith.muli %t, %c32 : index
    %hi = arith.addi %lo, %c32 : index
    scf.for %i = %lo to %hi step %c1 {
      %v = vector.transfer_read %x[%i, %c0], %pad {in_bounds = [true]} : memref<64x16xf32>, vector<16xf32>
      %s = arith.addf %v, %v : vector<16xf32>
      vector.transfer_write %s, %out[%i, %c0] {in_bounds = [true]} : vector<16xf32>, memref<64x16xf32>
    }
  }
  return
}

// -----

// A vector.store of one whole line per step (a bf16 result converted row by
// row) streams the same way; one that is already non-temporal stays.
// CHECK-LABEL: func.func @stores
// CHECK:         scf.for
// CHECK:           %[[V:.+]] = arith.truncf
// CHECK:           scf.if
// CHECK-NEXT:        vector.store %[[V]], %{{.+}}[%{{.+}}, %c0] {alignment = 64 : i64, nontemporal = true} : memref<64x32xbf16>, vector<32xbf16>
// CHECK-NEXT:      } else {
// CHECK-NEXT:        vector.store %[[V]], %{{.+}}[%{{.+}}, %c0] : memref<64x32xbf16>, vector<32xbf16>
// CHECK-NEXT:      }
// CHECK:           vector.store %{{.+}}, %{{.+}}[%{{.+}}, %c0] {nontemporal = true} : memref<64x16xf32>, vector<16xf32>
// CHECK-NOT:       scf.if
// CHECK:         llvm.call_intrinsic "llvm.x86.sse.sfence"
func.func @stores(%x: memref<64x32xf32>, %out: memref<64x32xbf16>, %nt: memref<64x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c1 {
    %v = vector.load %x[%i, %c0] : memref<64x32xf32>, vector<32xf32>
    %b = arith.truncf %v : vector<32xf32> to vector<32xbf16>
    vector.store %b, %out[%i, %c0] : memref<64x32xbf16>, vector<32xbf16>
    %h = vector.extract_strided_slice %v {offsets = [0], sizes = [16], strides = [1]} : vector<32xf32> to vector<16xf32>
    vector.store %h, %nt[%i, %c0] {nontemporal = true} : memref<64x16xf32>, vector<16xf32>
  }
  return
}
