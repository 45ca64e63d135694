// .npy inputs and outputs, --print, and bf16 functions exchanging f32 files.
// Spec §3.3: input 1..6 as [1,2,3,1], out_backprop [1,2] as [1,1,2,1], 2x2
// filter, stride 2, SAME -> 7, 2, 16, 5.

// RUN: %python -c "import numpy as np; np.save('%t.x.npy', np.arange(1, 7, dtype=np.float32).reshape(1, 2, 3, 1)); np.save('%t.dy.npy', np.array([1, 2], dtype=np.float16).reshape(1, 1, 2, 1))"
// RUN: conv-run %s --entry bf_f32 --input %t.x.npy --input %t.dy.npy --print --check --output %t.dw.npy | FileCheck %s --check-prefix=F32
// RUN: %python -c "import numpy as np; a = np.load('%t.dw.npy'); print(a.dtype, a.shape, a.ravel().tolist())" | FileCheck %s --check-prefix=F32-NPY
// RUN: conv-run %s --entry bf_bf16 --input %t.x.npy --input %t.dy.npy --output %t.dw16.npy
// RUN: %python -c "import numpy as np; a = np.load('%t.dw16.npy'); print(a.dtype, a.shape, a.ravel().tolist())" | FileCheck %s --check-prefix=BF16-NPY
// RUN: conv-run %s --entry bf_f64 --input %t.x.npy --input %t.dy.npy --output %t.dw64.npy --print | FileCheck %s --check-prefix=F64
// RUN: %python -c "import numpy as np; a = np.load('%t.dw64.npy'); print(a.dtype, a.shape, a.ravel().tolist())" | FileCheck %s --check-prefix=F64-NPY

// F32: result 0: tensor<2x2x1x1xf32>
// F32-NEXT: [7]
// F32-NEXT: [2]
// F32-NEXT: [16]
// F32-NEXT: [5]
// F32-NEXT: check: max abs error 0.000e+00, max |reference| 1.600e+01, tolerance 1.600e-03 (f32): PASS
// F32-NPY: float32 (2, 2, 1, 1) [7.0, 2.0, 16.0, 5.0]
// BF16-NPY: float32 (2, 2, 1, 1) [7.0, 2.0, 16.0, 5.0]
// F64: result 0: tensor<2x2x1x1xf64>
// F64-NPY: float64 (2, 2, 1, 1) [7.0, 2.0, 16.0, 5.0]

func.func @bf_f32(%x: tensor<1x2x3x1xf32>, %dy: tensor<1x1x2x1xf32>) -> tensor<2x2x1x1xf32> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [2, 2] dilations = [1, 1]
          : tensor<1x2x3x1xf32>, tensor<1x1x2x1xf32> -> tensor<2x2x1x1xf32>
  return %dw : tensor<2x2x1x1xf32>
}

func.func @bf_bf16(%x: tensor<1x2x3x1xbf16>, %dy: tensor<1x1x2x1xbf16>) -> tensor<2x2x1x1xbf16> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [2, 2] dilations = [1, 1]
          : tensor<1x2x3x1xbf16>, tensor<1x1x2x1xbf16> -> tensor<2x2x1x1xbf16>
  return %dw : tensor<2x2x1x1xbf16>
}

func.func @bf_f64(%x: tensor<1x2x3x1xf64>, %dy: tensor<1x1x2x1xf64>) -> tensor<2x2x1x1xf64> {
  %dw = conv.backprop_filter %x, %dy data_format = NHWC padding = SAME
          strides = [2, 2] dilations = [1, 1]
          : tensor<1x2x3x1xf64>, tensor<1x1x2x1xf64> -> tensor<2x2x1x1xf64>
  return %dw : tensor<2x2x1x1xf64>
}
