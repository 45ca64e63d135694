// python/benchmarks/ab_suite.py: paired conv-run --compare runs over
// conv-bench's shape table. One small shape (the 1-D MaskNet transpose)
// with 2 call pairs: the table row (median ratio, quartiles, both compile
// times, the zero difference of two kernels that sum in the same order)
// and the geomeans.
// RUN: %python %conv_src_root/python/benchmarks/ab_suite.py --bin=%conv_tools_dir --compare=register-tile-rows=4 --filter=mk1 --repeat=2 | FileCheck %s
// CHECK:      B = register-tile-rows=4, 1 thread(s), 2 call pairs per shape
// CHECK:      mk1 transpose [[R:[0-9.]+]] {{[0-9.]+}}-{{[0-9.]+}} {{[0-9.]+}} {{[0-9.]+}} 0.000e+00
// CHECK-NEXT: geomean transpose [[R]] over 1 shapes
// CHECK-NEXT: geomean overall [[R]] over 1 shapes, 0 failed

// An option conv-run does not know: the shape fails, and so does the run.
// RUN: not %python %conv_src_root/python/benchmarks/ab_suite.py --bin=%conv_tools_dir --compare=tile-rows=4 --filter=mk1 --repeat=2 | FileCheck %s --check-prefix=BAD
// BAD: mk1 transpose FAILED: conv-run: error: --compare: 'tile-rows=4': unknown option 'tile-rows'
// BAD: geomean overall nan over 0 shapes, 1 failed
