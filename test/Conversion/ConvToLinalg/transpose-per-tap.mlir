// RUN: conv-opt %s --convert-conv-to-linalg=transpose-per-tap=always --mlir-print-local-scope | FileCheck %s --check-prefix=ALWAYS
// RUN: conv-opt %s --convert-conv-to-linalg=transpose-per-tap=never --mlir-print-local-scope | FileCheck %s --check-prefix=NEVER
// RUN: conv-opt %s --convert-conv-to-linalg --mlir-print-local-scope | FileCheck %s --check-prefix=AUTO
// RUN: not conv-opt %s --convert-conv-to-linalg=transpose-per-tap=sometimes 2>&1 | FileCheck %s --check-prefix=BAD

// 1x1 input, 2x2 kernel, stride 1: the phases would multiply a 3x3 padded
// window by 4 taps per output (4x the useful products), so `auto` lowers it
// tap by tap like `always` (one contraction in a 2x2 scf.for nest over the
// taps); `never` keeps the single phase.
// ALWAYS-LABEL: func.func @small
// ALWAYS:         scf.for
// ALWAYS:           scf.for
// ALWAYS-COUNT-1:     conv.role = "transpose_phase"
// ALWAYS-NOT:     conv.role
// NEVER-LABEL:  func.func @small
// NEVER:          tensor.pad
// NEVER-COUNT-1:  conv.role = "transpose_phase"
// NEVER-NOT:      conv.role
// AUTO-LABEL:   func.func @small
// AUTO-NOT:       tensor.pad
// AUTO:           scf.for
// AUTO:             scf.for
// AUTO-COUNT-1:       conv.role = "transpose_phase"
// AUTO-NOT:       conv.role
func.func @small(%x: tensor<2x1x1x3xf32>, %k: tensor<2x2x5x3xf32>) -> tensor<2x2x2x5xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [1, 1] dilation_rate = [1, 1] : tensor<2x1x1x3xf32>, tensor<2x2x5x3xf32> -> tensor<2x2x2x5xf32>
  return %y : tensor<2x2x2x5xf32>
}

// 16x16 input, k = 2, stride 2: no padding at all, so `auto` keeps the
// phase decomposition: its four one-tap phases differ only in their tap and
// output offsets, so they are one contraction in a 2x2 scf.for nest over
// the phases; `always` gives the same structure over the taps (every tap
// reads the whole input).
// ALWAYS-LABEL: func.func @large
// ALWAYS:         scf.for
// ALWAYS:           scf.for
// ALWAYS-COUNT-1:     conv.role = "transpose_phase"
// NEVER-LABEL:  func.func @large
// AUTO-LABEL:   func.func @large
// AUTO:           scf.for
// AUTO:             scf.for
// AUTO-COUNT-1:       conv.role = "transpose_phase"
// AUTO-NOT:       conv.role
func.func @large(%x: tensor<1x16x16x3xf32>, %k: tensor<2x2x5x3xf32>) -> tensor<1x32x32x5xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = valid strides = [2, 2] dilation_rate = [1, 1] : tensor<1x16x16x3xf32>, tensor<2x2x5x3xf32> -> tensor<1x32x32x5xf32>
  return %y : tensor<1x32x32x5xf32>
}

// BAD: error: convert-conv-to-linalg: option transpose-per-tap: expected 'auto', 'always', 'never' or 'columns', got 'sometimes'
