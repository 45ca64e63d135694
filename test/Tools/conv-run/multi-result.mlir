// A function with two conv ops and two results: one --output per result,
// and --check refuses it (it is not a single conv op).

// RUN: %python -c "import numpy as np; [np.save('%t.%%d.npy' %% i, np.full(s, i + 1, dtype=np.float32)) for i, s in enumerate([(1, 3, 1), (1, 1, 1), (1, 3, 1), (2, 1, 1)])]"
// RUN: conv-run %s --entry two --input %t.0.npy --input %t.1.npy --input %t.2.npy --input %t.3.npy --print --output %t.a.npy --output %t.b.npy | FileCheck %s
// RUN: %python -c "import numpy as np; print(np.load('%t.a.npy').ravel().tolist(), np.load('%t.b.npy').ravel().tolist())" | FileCheck %s --check-prefix=NPY
// RUN: not conv-run %s --entry two --check 2>&1 | FileCheck %s --check-prefix=CHECK-ERR

// CHECK: result 0: tensor<3x1x1xf32>
// CHECK-NEXT: [2]
// CHECK-NEXT: [2]
// CHECK-NEXT: [2]
// CHECK-NEXT: result 1: tensor<1x4x1xf32>
// CHECK-NEXT: [12]
// CHECK-NEXT: [24]
// CHECK-NEXT: [24]
// CHECK-NEXT: [12]
// NPY: [2.0, 2.0, 2.0] [12.0, 24.0, 24.0, 12.0]
// CHECK-ERR: conv-run: error: --check needs @two to be a single conv op returning conv(arg0, arg1)

func.func @two(%x: tensor<1x3x1xf32>, %dy: tensor<1x1x1xf32>,
               %t: tensor<1x3x1xf32>, %k: tensor<2x1x1xf32>)
    -> (tensor<3x1x1xf32>, tensor<1x4x1xf32>) {
  // dw[k] = x[k] * dy[0] = 1 * 2
  %dw = conv.backprop_filter %x, %dy data_format = NWC padding = VALID
          strides = [1] dilations = [1]
          : tensor<1x3x1xf32>, tensor<1x1x1xf32> -> tensor<3x1x1xf32>
  // [3, 3, 3] (*) [4, 4]: 12, 24, 24, 12
  %y = conv.transpose %t, %k data_format = channels_last padding = valid
         strides = [1] dilation_rate = [1]
         : tensor<1x3x1xf32>, tensor<2x1x1xf32> -> tensor<1x4x1xf32>
  return %dw, %y : tensor<3x1x1xf32>, tensor<1x4x1xf32>
}
