// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=512 num-vector-registers=32 l1-cache-bytes=49152 l2-cache-bytes=2097152 two-zmm-fma-units" --mlir-print-local-scope --split-input-file | FileCheck %s
// RUN: conv-opt %s --convert-conv-to-linalg="dw-threads=2" --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=512 num-vector-registers=32 l1-cache-bytes=49152 l2-cache-bytes=2097152 two-zmm-fma-units num-threads=2" --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=THREADS
// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --conv-cpu-tile-and-vectorize="vector-bits=256 num-vector-registers=16 l1-cache-bytes=49152 l2-cache-bytes=2097152" --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=AVX2

// Row panels (packRowPanels). A stride-2 1x1 filter gradient, 256 -> 512:
// the register tiles (6 ci x 64 co) read the input's rows 2 KiB apart
// (256 channels, every other position), which fall into 2 of the L1's 64
// sets, and each ci tile's column is swept by 8 co tiles. Each full ci
// tile first copies its column (2 x 7 x 7 positions of 6 channels, one
// 6-lane run per position) into a panel allocated once, outside the tile
// loops; its co tiles, zero-started, read the panel. The remainder tile of
// 4 ci reads the input in place.
// CHECK-LABEL: func.func @dw_1x1_strided_panels
// CHECK:         %[[PANEL:.*]] = tensor.empty() : tensor<2x7x7x6xf32>
// CHECK:         scf.for %[[CI:.*]] = %c0 to %c252 step %c6
// CHECK-NEXT:      tensor.extract_slice
// CHECK-NEXT:      scf.for %{{.*}} = %c0 to %c2 step %c1 iter_args(%{{.*}} = %[[PANEL]])
// CHECK-NEXT:        scf.for %{{.*}} = %c0 to %c7 step %c1
// CHECK-NEXT:          scf.for %{{.*}} = %c0 to %c7 step %c1
// CHECK-NEXT:            %[[VEC:.*]] = vector.transfer_read %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %[[CI]]]{{.*}} : tensor<2x7x7x256xf32>, vector<6xf32>
// CHECK-NEXT:            vector.transfer_write %[[VEC]]{{.*}} : vector<6xf32>, tensor<2x7x7x6xf32>
// CHECK:           scf.for %{{.*}} = %c0 to %c512 step %c64
// CHECK:             vector.transfer_write %cst{{.*}} : vector<6x64xf32>, tensor<6x64xf32>
// CHECK-NEXT:        scf.for %{{.*}} = %c0 to %c2 step %c1
// CHECK-NEXT:          scf.for %{{.*}} = %c0 to %c7 step %c1
// CHECK-NEXT:            vector.transfer_read %{{.*}} : tensor<2x7x7x6xf32>, vector<7x6xf32>
// CHECK-NEXT:            vector.transfer_read %arg1{{.*}} : tensor<2x7x7x512xf32>, vector<7x64xf32>
// CHECK:                 vector.contract {{.*}} : vector<7x6xf32>, vector<7x64xf32> into vector<6x64xf32>
// CHECK:         scf.for %{{.*}} = %c0 to %c512 step %c64
// CHECK:               vector.transfer_read %{{.*}}, %c252]{{.*}} : tensor<2x7x7x256xf32>, vector<7x4xf32>
// CHECK:               vector.contract {{.*}} : vector<7x4xf32>, vector<7x64xf32> into vector<4x64xf32>
// With 2 threads (each half the ci rows) each thread has its own panel.
// THREADS-LABEL: func.func @dw_1x1_strided_panels
// THREADS:         scf.forall (%{{.*}}) in (2)
// THREADS-NEXT:      %[[PANEL:.*]] = tensor.empty() : tensor<2x7x7x6xf32>
// THREADS:           scf.for %{{.*}} = %c0 to %c126 step %c6
// THREADS:             scf.for %{{.*}} = %c0 to %c2 step %c1 iter_args(%{{.*}} = %[[PANEL]])
// THREADS:                   vector.transfer_read {{.*}} : tensor<2x7x7x256xf32>, vector<6xf32>
// THREADS:             scf.for %{{.*}} = %c0 to %c512 step %c64
// THREADS:                   vector.transfer_read %{{.*}} : tensor<2x7x7x6xf32>, vector<7x6xf32>
// Without AVX-512 no panels (the input gets a conflict-free pitch instead).
// AVX2-LABEL: func.func @dw_1x1_strided_panels
// AVX2-NOT:     tensor<2x7x7x6xf32>
// AVX2:         return
func.func @dw_1x1_strided_panels(%x: tensor<2x14x14x256xf32>, %dy: tensor<2x7x7x512xf32>) -> tensor<1x1x256x512xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [2, 2] dilations = [1, 1] : tensor<2x14x14x256xf32>, tensor<2x7x7x512xf32> -> tensor<1x1x256x512xf32>
  return %dw : tensor<1x1x256x512xf32>
}

// -----

// A single co tile (256 -> 64): each column is read once, nothing to pack.
// CHECK-LABEL: func.func @dw_1x1_one_co_tile
// CHECK-NOT:     tensor.empty() : tensor<2x7x7x6xf32>
// CHECK:         scf.for %{{.*}} = %c0 to %c252 step %c6
// CHECK:             vector.transfer_read %arg0{{.*}} : tensor<2x7x7x256xf32>, vector<7x6xf32>
func.func @dw_1x1_one_co_tile(%x: tensor<2x7x7x256xf32>, %dy: tensor<2x7x7x64xf32>) -> tensor<1x1x256x64xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<2x7x7x256xf32>, tensor<2x7x7x64xf32> -> tensor<1x1x256x64xf32>
  return %dw : tensor<1x1x256x64xf32>
}

// -----

// 512-byte rows (128 channels) use 8 sets: read in place.
// CHECK-LABEL: func.func @dw_1x1_short_rows
// CHECK-NOT:     tensor.empty() : tensor<2x7x7x6xf32>
// CHECK:         scf.for %{{.*}} = %c0 to %c126 step %c6
// CHECK:           scf.for %{{.*}} = %c0 to %c256 step %c64
// CHECK:               vector.transfer_read %arg0{{.*}} : tensor<2x7x7x128xf32>, vector<7x6xf32>
func.func @dw_1x1_short_rows(%x: tensor<2x7x7x128xf32>, %dy: tensor<2x7x7x256xf32>) -> tensor<1x1x128x256xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = VALID strides = [1, 1] dilations = [1, 1] : tensor<2x7x7x128xf32>, tensor<2x7x7x256xf32> -> tensor<1x1x128x256xf32>
  return %dw : tensor<1x1x128x256xf32>
}

// -----

// A 3x3 layer (SAME padding, 512 -> 256 on 7x7 images, 2 KiB input rows):
// each tap's contraction covers its cut rows, a dynamic range of at most
// 7 x 7 positions. Its panel is allocated at that bound, once per tap
// iteration of the forall, and each full ci tile copies its rows into the
// leading part of the cut size, which its 4 co tiles then read.
// CHECK-LABEL: func.func @dw_3x3_cut_rows_panels
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (3, 3)
// CHECK-NEXT:      %[[PANEL:.*]] = tensor.empty() : tensor<2x7x7x6xf32>
// CHECK:           scf.for %{{.*}} = %c0 to %c510 step %c6
// CHECK:             %[[CUT:.*]] = tensor.extract_slice %[[PANEL]][0, 0, 0, 0] [2, %[[H:.*]], %[[W:.*]], 6] [1, 1, 1, 1] : tensor<2x7x7x6xf32> to tensor<2x?x?x6xf32>
// CHECK-NEXT:        scf.for %{{.*}} = %c0 to %c2 step %c1 iter_args(%{{.*}} = %[[CUT]])
// CHECK-NEXT:          scf.for %{{.*}} = %c0 to %[[H]] step %c1
// CHECK-NEXT:            scf.for %{{.*}} = %c0 to %[[W]] step %c1
// CHECK:                   vector.transfer_read %padded{{.*}} : tensor<2x9x9x512xf32>, vector<6xf32>
// CHECK:             scf.for %{{.*}} = %c0 to %c256 step %c64
// CHECK:                   vector.transfer_read %{{.*}} : tensor<2x?x?x6xf32>, vector<6xf32>
// CHECK:                   vector.transfer_read %arg1{{.*}} : tensor<2x7x7x256xf32>, vector<64xf32>
func.func @dw_3x3_cut_rows_panels(%x: tensor<2x7x7x512xf32>, %dy: tensor<2x7x7x256xf32>) -> tensor<3x3x512x256xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<2x7x7x512xf32>, tensor<2x7x7x256xf32> -> tensor<3x3x512x256xf32>
  return %dw : tensor<3x3x512x256xf32>
}
