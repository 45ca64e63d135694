// conv-run's diagnostics.

// RUN: %python -c "import numpy as np; np.save('%t.bad.npy', np.zeros((1, 2, 3), dtype=np.float32))"
// RUN: not conv-run %s --entry nope 2>&1 | FileCheck %s --check-prefix=ENTRY
// RUN: not conv-run %s --entry f --input %t.bad.npy 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not conv-run %s --entry f --input %t.bad.npy --input %t.bad.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not conv-run %s --entry f --input %t.missing.npy --input %t.bad.npy 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not conv-run %s --entry f --output %t.1.npy --output %t.2.npy 2>&1 | FileCheck %s --check-prefix=OUTPUTS
// RUN: not conv-run %S/Inputs/invalid.mlir --entry f 2>&1 | FileCheck %s --check-prefix=VERIFY
// RUN: not conv-run %s --entry f --tune-cpu=no-such-core 2>&1 | FileCheck %s --check-prefix=TUNE

// ENTRY: conv-run: error: the module has no func.func @nope
// COUNT: conv-run: error: @f has 2 arguments but 1 --input files were given
// SHAPE: conv-run: error: --input {{.*}}bad.npy has type tensor<1x2x3xf32> but argument 0 of @f is tensor<1x4x3xf32>
// MISSING: conv-run: error: cannot open '{{.*}}missing.npy'
// OUTPUTS: conv-run: error: @f has 1 results but 2 --output files were given
// TUNE: conv-run: error: tune-cpu: 'no-such-core' is not a CPU LLVM knows for x86_64
// VERIFY: conv-run: error: module:4:{{[0-9]+}}: error: 'conv.transpose' op attribute 'output_padding' must be strictly less than 'strides'

func.func @f(%x: tensor<1x4x3xf32>, %k: tensor<2x5x3xf32>) -> tensor<1x8x5xf32> {
  %y = conv.transpose %x, %k data_format = channels_last padding = same
         strides = [2] dilation_rate = [1]
         : tensor<1x4x3xf32>, tensor<2x5x3xf32> -> tensor<1x8x5xf32>
  return %y : tensor<1x8x5xf32>
}
