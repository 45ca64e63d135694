// The C++ API of ConvGen (include/conv/Runtime/Jit.h): compile a kernel from
// an op spec, run it on your own buffers, and read errors as llvm::Error.
// Link against ConvRuntime.

#include "conv/Runtime/Jit.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

using namespace convgen;

int main() {
  // tf.nn.conv2d_backprop_filter(x, filter_sizes=[2, 2, 1, 1], dy,
  //                              strides=[1, 2, 2, 1], padding="SAME")
  BackpropFilterSpec spec;
  spec.elementType = ElementType::F32;
  spec.attrs.layout = DataLayout::ChannelsLast; // NHWC
  spec.attrs.padding = FilterPadding::Same;
  spec.attrs.strides = {2, 2};   // one per spatial dimension
  spec.attrs.dilations = {1, 1};
  spec.inputShape = {1, 2, 3, 1};
  spec.filterShape = {2, 2, 1, 1}; // filter_sizes (HWIO)
  spec.outBackpropShape = {1, 1, 2, 1};

  llvm::Expected<std::shared_ptr<const Kernel>> kernel =
      Jit::global().compile(spec);
  if (!kernel) {
    llvm::errs() << llvm::toString(kernel.takeError()) << "\n";
    return 1;
  }
  std::vector<float> x = {1, 2, 3, 4, 5, 6}, dy = {1, 2}, dw(4);
  // Buffers: the inputs, then the outputs; dense row-major.
  if (llvm::Error err = (*kernel)->run({x.data(), dy.data(), dw.data()})) {
    llvm::errs() << llvm::toString(std::move(err)) << "\n";
    return 1;
  }
  llvm::outs() << "dw:";
  for (float v : dw)
    llvm::outs() << " " << llvm::format("%g", v);
  llvm::outs() << "\n"; // dw: 7 2 16 5

  // keras.ops.conv_transpose(x, k, strides=2, padding="same",
  //                          output_padding=0), in f64.
  TransposeSpec transpose;
  transpose.elementType = ElementType::F64;
  transpose.attrs.layout = DataLayout::ChannelsLast;
  transpose.attrs.padding = TransposePadding::Same;
  transpose.attrs.strides = {2};
  transpose.attrs.dilations = {1};
  transpose.attrs.outputPadding = Shape{0}; // std::nullopt is Keras' None
  transpose.inputShape = {1, 3, 1};
  transpose.kernelShape = {3, 1, 1}; // (k, out_channels, in_channels)
  auto tkernel = Jit::global().compile(transpose);
  if (!tkernel) {
    llvm::errs() << llvm::toString(tkernel.takeError()) << "\n";
    return 1;
  }
  const TensorInfo &out = (*tkernel)->outputs()[0];
  std::vector<double> in = {1, 2, 3}, k = {1, 10, 100}, y(out.numElements());
  if (llvm::Error err = (*tkernel)->run({in.data(), k.data(), y.data()})) {
    llvm::errs() << llvm::toString(std::move(err)) << "\n";
    return 1;
  }
  llvm::outs() << "y (" << out.shape[1] << " elements):";
  for (double v : y)
    llvm::outs() << " " << llvm::format("%g", v);
  llvm::outs() << "\n"; // y (5 elements): 10 102 20 203 30

  // An invalid spec fails with the verifier's message; nothing aborts.
  spec.outBackpropShape = {1, 2, 2, 1};
  auto bad = Jit::global().compile(spec);
  if (!bad)
    llvm::outs() << "error: " << llvm::toString(bad.takeError()) << "\n";

  // Compiling the same spec again is a cache hit.
  size_t compiles = Jit::global().numCompiles();
  spec.outBackpropShape = {1, 1, 2, 1};
  auto again = Jit::global().compile(spec);
  llvm::outs() << "cache hit: "
               << (again && *again == *kernel &&
                   Jit::global().numCompiles() == compiles)
               << "\n";
  return 0;
}
