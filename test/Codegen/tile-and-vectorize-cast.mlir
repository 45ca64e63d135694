// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=512 num-vector-registers=32 l1-cache-bytes=32768 l2-cache-bytes=1048576 num-threads=2" --mlir-print-local-scope --split-input-file | FileCheck %s
// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=512 num-vector-registers=32 l1-cache-bytes=32768 l2-cache-bytes=1048576 num-threads=2" --conv-cpu-lower-vectors="vector-bits=512" --split-input-file | FileCheck %s --check-prefix=LOWER

// The conversion of the f32 accumulators to a 16-bit result
// (conv.role = "cast") runs in rows of two f32 vectors (32 elements), and
// with at least 64 Ki elements over the threads along its first dimension
// (here 8 batch items, 4 per thread).
// CHECK-LABEL: func.func @bf16_rows_threaded
// CHECK:         scf.forall ({{.*}}) = (0) to (8) step (4) shared_outs({{.*}}) -> (tensor<8x16x16x32xbf16>)
// CHECK:           scf.for
// CHECK:             %[[R:.*]] = vector.transfer_read {{.*}} : tensor<8x16x16x32xf32>, vector<32xf32>
// CHECK:             %[[T:.*]] = arith.truncf %[[R]] : vector<32xf32> to vector<32xbf16>
// CHECK:             vector.transfer_write %[[T]], {{.*}} : vector<32xbf16>, tensor<4x16x16x32xbf16>
// The rounding to bf16 becomes integer operations on the bits (round to
// nearest even, NaN kept) rather than a call per element.
// LOWER-LABEL: func.func @bf16_rows_threaded
// LOWER-NOT:     arith.truncf {{.*}} to vector<32xbf16>
// LOWER:         arith.bitcast {{.*}} : vector<32xf32> to vector<32xi32>
// LOWER:         arith.shrui {{.*}} : vector<32xi32>
// LOWER:         arith.trunci {{.*}} : vector<32xi32> to vector<32xi16>
// LOWER:         arith.bitcast {{.*}} : vector<32xi16> to vector<32xbf16>
func.func @bf16_rows_threaded(%x: tensor<8x8x8x8xbf16>, %k: tensor<2x2x32x8xbf16>) -> tensor<8x16x16x32xbf16> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2, 2] dilation_rate = [1, 1] : tensor<8x8x8x8xbf16>, tensor<2x2x32x8xbf16> -> tensor<8x16x16x32xbf16>
  return %y : tensor<8x16x16x32xbf16>
}

// -----

// bf16 rows of 41 are not cut into 32 + 9 (LLVM 22 cannot generate code for
// a 9-element bf16 vector with AVX512-BF16, which bf16-dot turns on) but
// into chunks of 8 and a last single element; f16 rows keep 32 + 9.
// CHECK-LABEL: func.func @bf16_odd_rows
// CHECK:         arith.truncf {{.*}} : vector<8xf32> to vector<8xbf16>
// CHECK:         arith.truncf {{.*}} : f32 to bf16
// CHECK-NOT:     vector<9xbf16>
// CHECK-NOT:     vector<32xbf16>
// CHECK-LABEL: func.func @f16_odd_rows
// CHECK:         arith.truncf {{.*}} : vector<32xf32> to vector<32xf16>
// CHECK:         arith.truncf {{.*}} : vector<9xf32> to vector<9xf16>
func.func @bf16_odd_rows(%x: tensor<1x4x4x8xbf16>, %k: tensor<2x2x41x8xbf16>) -> tensor<1x8x8x41xbf16> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2, 2] dilation_rate = [1, 1] : tensor<1x4x4x8xbf16>, tensor<2x2x41x8xbf16> -> tensor<1x8x8x41xbf16>
  return %y : tensor<1x8x8x41xbf16>
}
func.func @f16_odd_rows(%x: tensor<1x4x4x8xf16>, %k: tensor<2x2x41x8xf16>) -> tensor<1x8x8x41xf16> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2, 2] dilation_rate = [1, 1] : tensor<1x4x4x8xf16>, tensor<2x2x41x8xf16> -> tensor<1x8x8x41xf16>
  return %y : tensor<1x8x8x41xf16>
}
