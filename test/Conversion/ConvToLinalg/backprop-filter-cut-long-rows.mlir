// Filter gradients with dw-cut-long-rows (the CPU pipeline's setting on
// AVX-512 hosts, docs/Lowering.md §2.5): ungrouped layers cut the padding
// positions of a last dimension longer than 16 too, and a window no tap
// slice reads the padding of is marked conv.interior_reads
// (conv-cpu-decompose-pads then reads the input itself). Without it (CHECK)
// such a row stays whole and the padded copy stays.
// RUN: conv-opt %s --convert-conv-to-linalg=dw-cut-long-rows=true --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s --check-prefix=CUT --implicit-check-not=conv.backprop_filter
// RUN: conv-opt %s --convert-conv-to-linalg --canonicalize --mlir-print-local-scope --split-input-file | FileCheck %s --implicit-check-not=conv.interior_reads

// SAME 3x3 on 20-position rows, 8 -> 8 channels: tap kw reads columns
// [1 - kw, 21 - kw) of the input, cut to [max(1 - kw, 0), min(21 - kw, 20)).
// CUT-LABEL: func.func @long_rows
// CUT:         tensor.pad %arg0 low[0, 1, 1, 0] high[0, 1, 1, 0]
// CUT:         } {conv.interior_reads} : tensor<2x6x20x8xf32> to tensor<2x8x22x8xf32>
// CUT:         scf.forall
// CUT:           affine.min affine_map<(d0) -> (-d0 + 7, 6)>
// CUT:           affine.min affine_map<(d0) -> (-d0 + 21, 20)>
// CUT-NOT:     conv.reads_padding
// CHECK-LABEL: func.func @long_rows
// CHECK:         tensor.pad %arg0 low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK:           affine.min affine_map<(d0) -> (-d0 + 7, 6)>
// CHECK-NOT:       affine.min affine_map<(d0) -> (-d0 + 21, 20)>
// CHECK:         return
func.func @long_rows(%x: tensor<2x6x20x8xf32>, %dy: tensor<2x6x20x8xf32>) -> tensor<3x3x8x8xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<2x6x20x8xf32>, tensor<2x6x20x8xf32> -> tensor<3x3x8x8xf32>
  return %dw : tensor<3x3x8x8xf32>
}

// -----

// Two input channels: the taps are fused with them, and the packed rows
// read whole window rows, padding included: the pad keeps its copy.
// CUT-LABEL: func.func @long_rows_tiny_cin
// CUT:         tensor.pad %arg0 low[0, 1, 1, 0] high[0, 1, 1, 0]
// CUT-NOT:     conv.interior_reads
// CUT:         return
func.func @long_rows_tiny_cin(%x: tensor<2x6x20x2xf32>, %dy: tensor<2x6x20x8xf32>) -> tensor<3x3x2x8xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME strides = [1, 1] dilations = [1, 1] : tensor<2x6x20x2xf32>, tensor<2x6x20x8xf32> -> tensor<3x3x2x8xf32>
  return %dw : tensor<3x3x2x8xf32>
}
