// RUN: conv-opt %s --convert-conv-to-linalg="transpose-columns-lanes=16" --canonicalize --mlir-print-local-scope | FileCheck %s --check-prefix=LANES16
// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --mlir-print-local-scope | FileCheck %s --check-prefix=UNKNOWN
// RUN: conv-opt %s --convert-conv-to-linalg="transpose-columns-lanes=8" --canonicalize --mlir-print-local-scope | FileCheck %s --check-prefix=LANES8
// RUN: conv-opt %s --convert-conv-to-linalg="transpose-columns-lanes=16 transpose-threads=2" --canonicalize --mlir-print-local-scope | FileCheck %s --check-prefix=PARTS

// The columns lowering's GEMM pads the transposed kernel's (tap, co)
// columns with zeros to whole vectors of the target's lanes
// (docs/Lowering.md §3.6, "Columns padded to whole vectors";
// transpose-columns-lanes). A masknet-like layer: k7 x 3 output channels =
// 21 (tap, co) columns, 64 pixels, 16 input channels. With 16 lanes, K is
// transposed ([21, 16] -> [16, 21]), padded to 2 vectors (32 columns), the
// GEMM runs over all 32 and Y is cut back to the 21 for the row adds. X is
// not transposed (the GEMM along the pixels measured slower than the
// padded columns).
// LANES16-LABEL: func.func @masknet_like
// LANES16:         linalg.transpose ins(%{{.*}} : tensor<21x16xf32>) outs(%{{.*}} : tensor<16x21xf32>) permutation = [1, 0]  {conv.role = "relayout"}
// LANES16-NOT:     linalg.transpose ins(%{{.*}} : tensor<64x16xf32>)
// LANES16:         %[[KT16:.*]] = tensor.pad %{{.*}} low[0, 0, 0] high[0, 0, 11]
// LANES16:         } : tensor<1x16x21xf32> to tensor<1x16x32xf32>
// LANES16:         %[[Y16:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[KT16]] : tensor<1x64x16xf32>, tensor<1x16x32xf32>) outs(%{{.*}} : tensor<1x64x32xf32>) attrs = {conv.role = "transpose_phase"}
// LANES16:         tensor.extract_slice %[[Y16]][0, 0, 0] [1, 64, 21] [1, 1, 1] : tensor<1x64x32xf32> to tensor<1x64x21xf32>
// LANES16-NOT:     linalg.transpose ins(%{{.*}} : tensor<21x64xf32>)
// LANES16:         conv.role = "row_add"
// Without the target's lanes (the pass's default) the columns stay 21.
// UNKNOWN-LABEL: func.func @masknet_like
// UNKNOWN:         linalg.transpose ins(%{{.*}} : tensor<21x16xf32>) outs(%{{.*}} : tensor<16x21xf32>) permutation = [1, 0]  {conv.role = "relayout"}
// UNKNOWN-NOT:     linalg.transpose ins(%{{.*}} : tensor<64x16xf32>)
// UNKNOWN-NOT:     tensor.pad
// UNKNOWN:         linalg.generic {{.*}} outs(%{{.*}} : tensor<1x64x21xf32>) attrs = {conv.role = "transpose_phase"}
// With 8 lanes (AVX2) 21 columns take 3 vectors: padded to 24.
// LANES8-LABEL: func.func @masknet_like
// LANES8:         linalg.transpose ins(%{{.*}} : tensor<21x16xf32>) outs(%{{.*}} : tensor<16x21xf32>)
// LANES8-NOT:     linalg.transpose ins(%{{.*}} : tensor<64x16xf32>)
// LANES8:         %[[KT8:.*]] = tensor.pad %{{.*}} low[0, 0, 0] high[0, 0, 3]
// LANES8:         } : tensor<1x16x21xf32> to tensor<1x16x24xf32>
// LANES8:         %[[Y8:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[KT8]] : tensor<1x64x16xf32>, tensor<1x16x24xf32>) outs(%{{.*}} : tensor<1x64x24xf32>) attrs = {conv.role = "transpose_phase"}
// LANES8:         tensor.extract_slice %[[Y8]][0, 0, 0] [1, 64, 21] [1, 1, 1] : tensor<1x64x24xf32> to tensor<1x64x21xf32>
// On 2 threads the item runs in row parts (each part transposes K). Each
// part's GEMM runs over the 32 padded columns and cuts its Y (35 rows: 32
// and the 3 before) back to the 21.
// PARTS-LABEL: func.func @masknet_like
// PARTS:         scf.forall (%{{.*}}) in (2)
// PARTS:           linalg.transpose ins(%{{.*}} : tensor<21x16xf32>)
// PARTS:           %[[KT:.*]] = tensor.pad %{{.*}} low[0, 0, 0] high[0, 0, 11]
// PARTS:           } : tensor<1x16x21xf32> to tensor<1x16x32xf32>
// PARTS:           %[[Y:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[KT]] : tensor<1x35x16xf32>, tensor<1x16x32xf32>) outs(%{{.*}} : tensor<1x35x32xf32>) attrs = {conv.role = "transpose_phase"}
// PARTS:           tensor.extract_slice %[[Y]][0, 0, 0] [1, 35, 21] [1, 1, 1] : tensor<1x35x32xf32> to tensor<1x35x21xf32>
// PARTS-NOT:     linalg.transpose ins(%{{.*}} : tensor<64x16xf32>)
func.func @masknet_like(%x: tensor<1x64x16xf32>, %k: tensor<7x3x16xf32>) -> tensor<1x134x3xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2] dilation_rate = [1] output_padding = [1] : tensor<1x64x16xf32>, tensor<7x3x16xf32> -> tensor<1x134x3xf32>
  return %y : tensor<1x134x3xf32>
}

// 50 pixels: the padded columns as with 64.
// (The other prefixes' labels end their @masknet_like blocks.)
// UNKNOWN-LABEL: func.func @ragged_pixels
// LANES8-LABEL: func.func @ragged_pixels
// PARTS-LABEL: func.func @ragged_pixels
// LANES16-LABEL: func.func @ragged_pixels
// LANES16:         linalg.transpose ins(%{{.*}} : tensor<21x16xf32>) outs(%{{.*}} : tensor<16x21xf32>)
// LANES16-NOT:     linalg.transpose ins(%{{.*}} : tensor<50x16xf32>)
// LANES16:         } : tensor<1x16x21xf32> to tensor<1x16x32xf32>
// LANES16:         outs(%{{.*}} : tensor<1x50x32xf32>) attrs = {conv.role = "transpose_phase"}
func.func @ragged_pixels(%x: tensor<1x50x16xf32>, %k: tensor<7x3x16xf32>) -> tensor<1x105x3xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2] dilation_rate = [1] : tensor<1x50x16xf32>, tensor<7x3x16xf32> -> tensor<1x105x3xf32>
  return %y : tensor<1x105x3xf32>
}

// 8 input channels: padded columns too.
// LANES16-LABEL: func.func @few_input_channels
// LANES16:         linalg.transpose ins(%{{.*}} : tensor<21x8xf32>) outs(%{{.*}} : tensor<8x21xf32>)
// LANES16-NOT:     linalg.transpose ins(%{{.*}} : tensor<64x8xf32>)
// LANES16:         } : tensor<1x8x21xf32> to tensor<1x8x32xf32>
func.func @few_input_channels(%x: tensor<1x64x8xf32>, %k: tensor<7x3x8xf32>) -> tensor<1x133x3xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2] dilation_rate = [1] : tensor<1x64x8xf32>, tensor<7x3x8xf32> -> tensor<1x133x3xf32>
  return %y : tensor<1x133x3xf32>
}

// 48 columns (4x4 taps x 3 channels, DCGAN's RGB layer) fill 3 vectors:
// no padding.
// LANES16-LABEL: func.func @full_columns
// LANES16:         linalg.transpose ins(%{{.*}} : tensor<48x16xf32>) outs(%{{.*}} : tensor<16x48xf32>)
// LANES16-NOT:     linalg.transpose ins(%{{.*}} : tensor<64x16xf32>)
// LANES16-NOT:     tensor.pad
// LANES16:         outs(%{{.*}} : tensor<1x64x48xf32>) attrs = {conv.role = "transpose_phase"}
func.func @full_columns(%x: tensor<1x8x8x16xf32>, %k: tensor<4x4x3x16xf32>) -> tensor<1x18x18x3xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2, 2] dilation_rate = [1, 1] : tensor<1x8x8x16xf32>, tensor<4x4x3x16xf32> -> tensor<1x18x18x3xf32>
  return %y : tensor<1x18x18x3xf32>
}
