//===- ConvGen.cpp - C API of the ConvGen JIT -----------------------------===//
//
// Thin wrappers over convgen::Jit::global(): parse the TF / Keras argument
// spellings into specs, report errors as malloc'ed strings, never abort.
//
//===----------------------------------------------------------------------===//

#include "conv-c/ConvGen.h"

#include "conv/Geometry/Geometry.h"
#include "conv/Runtime/Jit.h"
#include "conv/Support/ElementType.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

using namespace convgen;

struct convgen_kernel {
  std::shared_ptr<const Kernel> kernel;
};

namespace {

void setError(char **error, const std::string &message) {
  if (!error)
    return;
  char *copy = static_cast<char *>(std::malloc(message.size() + 1));
  if (copy)
    std::memcpy(copy, message.c_str(), message.size() + 1);
  *error = copy;
}

void clearError(char **error) {
  if (error)
    *error = nullptr;
}

convgen_dtype toC(ElementType t) {
  switch (t) {
  case ElementType::F16:
    return CONVGEN_DTYPE_F16;
  case ElementType::BF16:
    return CONVGEN_DTYPE_BF16;
  case ElementType::F32:
    return CONVGEN_DTYPE_F32;
  case ElementType::F64:
    return CONVGEN_DTYPE_F64;
  }
  return CONVGEN_DTYPE_INVALID;
}

bool toShape(const int64_t *data, size_t n, const char *name, Shape &out,
             std::string &error) {
  if (n && !data) {
    error = std::string(name) + " is NULL but has " + std::to_string(n) +
            " entries";
    return false;
  }
  out.assign(data, data + n);
  return true;
}

bool parseDType(const char *dtype, ElementType &out, std::string &error) {
  if (!dtype) {
    error = "dtype is NULL";
    return false;
  }
  auto t = parseElementType(dtype);
  if (!t) {
    error = std::string("unsupported dtype '") + dtype +
            "' (expected f16, bf16, f32 or f64)";
    return false;
  }
  out = *t;
  return true;
}

/// All-ones dilations for NULL, else the given list.
bool dilationList(const int64_t *data, size_t n, size_t inputRank,
                  const char *name, Shape &out, std::string &error) {
  if (!data && n == 0) {
    out.assign(inputRank >= 2 ? inputRank - 2 : 0, 1);
    return true;
  }
  return toShape(data, n, name, out, error);
}

/// The backprop_filter arguments; `outBackprop` may be NULL (inferred).
struct FilterArgs {
  ElementType elementType = ElementType::F32;
  BackpropFilterAttrs attrs;
  int64_t numSpatialDims = 0;
  std::string dataFormat;
  Shape input, filter;
};

bool parseFilterArgs(const char *dataFormat, const int64_t *inputShape,
                     size_t inputRank, const int64_t *filterSizes,
                     size_t filterRank, const int64_t *strides,
                     size_t numStrides, const int64_t *dilations,
                     size_t numDilations, const char *padding,
                     const int64_t *explicitPaddings,
                     size_t numExplicitPaddings, FilterArgs &args,
                     std::string &error) {
  if (!dataFormat) {
    error = "data_format is NULL";
    return false;
  }
  static const struct {
    const char *name;
    DataLayout layout;
    int64_t n;
  } formats[] = {{"NWC", DataLayout::ChannelsLast, 1},
                 {"NHWC", DataLayout::ChannelsLast, 2},
                 {"NDHWC", DataLayout::ChannelsLast, 3},
                 {"NCW", DataLayout::ChannelsFirst, 1},
                 {"NCHW", DataLayout::ChannelsFirst, 2},
                 {"NCDHW", DataLayout::ChannelsFirst, 3}};
  bool found = false;
  for (const auto &f : formats)
    if (std::strcmp(f.name, dataFormat) == 0) {
      args.attrs.layout = f.layout;
      args.numSpatialDims = f.n;
      found = true;
    }
  if (!found) {
    error = std::string("data_format '") + dataFormat +
            "' is not one of NWC, NHWC, NDHWC, NCW, NCHW, NCDHW";
    return false;
  }
  args.dataFormat = dataFormat;
  if (!padding) {
    error = "padding is NULL";
    return false;
  }
  std::string p = padding;
  if (p == "SAME")
    args.attrs.padding = FilterPadding::Same;
  else if (p == "VALID")
    args.attrs.padding = FilterPadding::Valid;
  else if (p == "EXPLICIT")
    args.attrs.padding = FilterPadding::Explicit;
  else {
    error = "padding '" + p + "' is not one of SAME, VALID, EXPLICIT";
    return false;
  }
  return toShape(inputShape, inputRank, "input_shape", args.input, error) &&
         toShape(filterSizes, filterRank, "filter_sizes", args.filter, error) &&
         toShape(strides, numStrides, "strides", args.attrs.strides, error) &&
         dilationList(dilations, numDilations, inputRank, "dilations",
                      args.attrs.dilations, error) &&
         toShape(explicitPaddings, numExplicitPaddings, "explicit_paddings",
                 args.attrs.explicitPaddings, error);
}

struct TransposeArgs {
  TransposeAttrs attrs;
  Shape input, kernel;
};

bool parseTransposeArgs(const char *dataFormat, const int64_t *inputShape,
                        size_t inputRank, const int64_t *kernelShape,
                        size_t kernelRank, const int64_t *strides,
                        size_t numStrides, const int64_t *dilationRate,
                        size_t numDilationRate, const char *padding,
                        const int64_t *outputPadding, size_t numOutputPadding,
                        TransposeArgs &args, std::string &error) {
  if (!dataFormat) {
    error = "data_format is NULL";
    return false;
  }
  std::string f = dataFormat;
  if (f == "channels_last")
    args.attrs.layout = DataLayout::ChannelsLast;
  else if (f == "channels_first")
    args.attrs.layout = DataLayout::ChannelsFirst;
  else {
    error =
        "data_format '" + f + "' is not one of channels_last, channels_first";
    return false;
  }
  if (!padding) {
    error = "padding is NULL";
    return false;
  }
  std::string p = padding;
  for (char &c : p)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (p == "same")
    args.attrs.padding = TransposePadding::Same;
  else if (p == "valid")
    args.attrs.padding = TransposePadding::Valid;
  else {
    error = std::string("padding '") + padding + "' is not one of valid, same";
    return false;
  }
  if (outputPadding || numOutputPadding) {
    Shape op;
    if (!toShape(outputPadding, numOutputPadding, "output_padding", op, error))
      return false;
    args.attrs.outputPadding = std::move(op);
  }
  return toShape(inputShape, inputRank, "input_shape", args.input, error) &&
         toShape(kernelShape, kernelRank, "kernel_shape", args.kernel, error) &&
         toShape(strides, numStrides, "strides", args.attrs.strides, error) &&
         dilationList(dilationRate, numDilationRate, inputRank, "dilation_rate",
                      args.attrs.dilations, error);
}

convgen_kernel *finish(llvm::Expected<std::shared_ptr<const Kernel>> kernel,
                       char **error) {
  if (!kernel) {
    setError(error, llvm::toString(kernel.takeError()));
    return nullptr;
  }
  return new convgen_kernel{std::move(*kernel)};
}

const TensorInfo *argInfo(const convgen_kernel *k, size_t index, bool output) {
  if (!k)
    return nullptr;
  const auto &list = output ? k->kernel->outputs() : k->kernel->inputs();
  return index < list.size() ? &list[index] : nullptr;
}

CompileOptions compileOptions(uint32_t flags) {
  CompileOptions options;
  options.zeroInsertionTranspose =
      (flags & CONVGEN_FLAG_ZERO_INSERTION_TRANSPOSE) != 0;
  return options;
}

} // namespace

extern "C" {

void convgen_free_string(char *str) { std::free(str); }

const char *convgen_dtype_name(convgen_dtype dtype) {
  switch (dtype) {
  case CONVGEN_DTYPE_F16:
    return "f16";
  case CONVGEN_DTYPE_BF16:
    return "bf16";
  case CONVGEN_DTYPE_F32:
    return "f32";
  case CONVGEN_DTYPE_F64:
    return "f64";
  default:
    return nullptr;
  }
}

convgen_kernel *convgen_compile_backprop_filter(
    const char *dtype, const char *data_format, const int64_t *input_shape,
    size_t input_rank, const int64_t *filter_sizes, size_t filter_rank,
    const int64_t *out_backprop_shape, size_t out_backprop_rank,
    const int64_t *strides, size_t num_strides, const int64_t *dilations,
    size_t num_dilations, const char *padding, const int64_t *explicit_paddings,
    size_t num_explicit_paddings, uint32_t flags, char **error) {
  clearError(error);
  std::string message;
  FilterArgs args;
  if (!parseDType(dtype, args.elementType, message) ||
      !parseFilterArgs(data_format, input_shape, input_rank, filter_sizes,
                       filter_rank, strides, num_strides, dilations,
                       num_dilations, padding, explicit_paddings,
                       num_explicit_paddings, args, message)) {
    setError(error, message);
    return nullptr;
  }
  BackpropFilterSpec spec;
  spec.elementType = args.elementType;
  spec.attrs = args.attrs;
  spec.inputShape = args.input;
  spec.filterShape = args.filter;
  spec.dataFormatSpatialDims = args.numSpatialDims;
  if (out_backprop_shape || out_backprop_rank) {
    if (!toShape(out_backprop_shape, out_backprop_rank, "out_backprop_shape",
                 spec.outBackpropShape, message)) {
      setError(error, message);
      return nullptr;
    }
  } else {
    // Inferred; when the arguments are invalid any shape does: the
    // verifier then reports the same rule the inference failed on.
    auto inferred =
        inferOutBackpropShape(spec.attrs, spec.inputShape, spec.filterShape);
    spec.outBackpropShape = inferred ? *inferred : spec.inputShape;
  }
  return finish(Jit::global().compile(spec, compileOptions(flags)), error);
}

convgen_kernel *convgen_compile_transpose(
    const char *dtype, const char *data_format, const int64_t *input_shape,
    size_t input_rank, const int64_t *kernel_shape, size_t kernel_rank,
    const int64_t *strides, size_t num_strides, const int64_t *dilation_rate,
    size_t num_dilation_rate, const char *padding,
    const int64_t *output_padding, size_t num_output_padding, uint32_t flags,
    char **error) {
  clearError(error);
  std::string message;
  TransposeSpec spec;
  TransposeArgs args;
  if (!parseDType(dtype, spec.elementType, message) ||
      !parseTransposeArgs(data_format, input_shape, input_rank, kernel_shape,
                          kernel_rank, strides, num_strides, dilation_rate,
                          num_dilation_rate, padding, output_padding,
                          num_output_padding, args, message)) {
    setError(error, message);
    return nullptr;
  }
  spec.attrs = args.attrs;
  spec.inputShape = args.input;
  spec.kernelShape = args.kernel;
  return finish(Jit::global().compile(spec, compileOptions(flags)), error);
}

convgen_kernel *convgen_compile_module(const char *module_text,
                                       const char *entry, uint32_t flags,
                                       char **error) {
  clearError(error);
  if (!module_text || !entry) {
    setError(error, module_text ? "entry is NULL" : "module_text is NULL");
    return nullptr;
  }
  return finish(
      Jit::global().compileModule(module_text, entry, compileOptions(flags)),
      error);
}

void convgen_kernel_release(convgen_kernel *kernel) { delete kernel; }

size_t convgen_kernel_num_inputs(const convgen_kernel *kernel) {
  return kernel ? kernel->kernel->inputs().size() : 0;
}

size_t convgen_kernel_num_outputs(const convgen_kernel *kernel) {
  return kernel ? kernel->kernel->outputs().size() : 0;
}

size_t convgen_kernel_input_rank(const convgen_kernel *kernel, size_t index) {
  const TensorInfo *info = argInfo(kernel, index, false);
  return info ? info->shape.size() : 0;
}

const int64_t *convgen_kernel_input_shape(const convgen_kernel *kernel,
                                          size_t index) {
  const TensorInfo *info = argInfo(kernel, index, false);
  return info ? info->shape.data() : nullptr;
}

convgen_dtype convgen_kernel_input_dtype(const convgen_kernel *kernel,
                                         size_t index) {
  const TensorInfo *info = argInfo(kernel, index, false);
  return info ? toC(info->elementType) : CONVGEN_DTYPE_INVALID;
}

size_t convgen_kernel_input_byte_size(const convgen_kernel *kernel,
                                      size_t index) {
  const TensorInfo *info = argInfo(kernel, index, false);
  return info ? info->byteSize() : 0;
}

size_t convgen_kernel_output_rank(const convgen_kernel *kernel, size_t index) {
  const TensorInfo *info = argInfo(kernel, index, true);
  return info ? info->shape.size() : 0;
}

const int64_t *convgen_kernel_output_shape(const convgen_kernel *kernel,
                                           size_t index) {
  const TensorInfo *info = argInfo(kernel, index, true);
  return info ? info->shape.data() : nullptr;
}

convgen_dtype convgen_kernel_output_dtype(const convgen_kernel *kernel,
                                          size_t index) {
  const TensorInfo *info = argInfo(kernel, index, true);
  return info ? toC(info->elementType) : CONVGEN_DTYPE_INVALID;
}

size_t convgen_kernel_output_byte_size(const convgen_kernel *kernel,
                                       size_t index) {
  const TensorInfo *info = argInfo(kernel, index, true);
  return info ? info->byteSize() : 0;
}

int convgen_kernel_run(const convgen_kernel *kernel, void *const *buffers,
                       size_t num_buffers, char **error) {
  clearError(error);
  if (!kernel || (num_buffers && !buffers)) {
    setError(error, kernel ? "buffers is NULL" : "kernel is NULL");
    return 1;
  }
  llvm::Error err =
      kernel->kernel->run(llvm::ArrayRef<void *>(buffers, num_buffers));
  if (err) {
    setError(error, llvm::toString(std::move(err)));
    return 1;
  }
  return 0;
}

int convgen_kernel_run_reference(const convgen_kernel *kernel,
                                 void *const *buffers, size_t num_buffers,
                                 char **error) {
  clearError(error);
  if (!kernel) {
    setError(error, "kernel is NULL");
    return 1;
  }
  const SingleConvOp *op = kernel->kernel->singleConvOp();
  if (!op) {
    setError(error, "the kernel is not a single conv op: no reference");
    return 1;
  }
  if (num_buffers != 3 || !buffers) {
    setError(error, "the reference expects 3 buffers (2 inputs, 1 output), "
                    "got " +
                        std::to_string(num_buffers));
    return 1;
  }
  for (size_t i = 0; i < 3; ++i) {
    const TensorInfo *info = argInfo(kernel, i % 2, i == 2);
    if (!buffers[i] && info && info->numElements()) {
      setError(error, "buffer " + std::to_string(i) + " is NULL");
      return 1;
    }
  }
  op->runReference(llvm::ArrayRef<void *>(buffers, 3));
  return 0;
}

double convgen_kernel_flops(const convgen_kernel *kernel) {
  if (!kernel)
    return 0;
  const SingleConvOp *op = kernel->kernel->singleConvOp();
  return op ? op->flops() : 0;
}

double convgen_kernel_compile_seconds(const convgen_kernel *kernel) {
  return kernel ? kernel->kernel->compileSeconds() : 0;
}

const char *convgen_kernel_source(const convgen_kernel *kernel) {
  return kernel ? kernel->kernel->sourceModule().c_str() : nullptr;
}

int convgen_backprop_filter_out_backprop_shape(
    const char *data_format, const int64_t *input_shape, size_t input_rank,
    const int64_t *filter_sizes, size_t filter_rank, const int64_t *strides,
    size_t num_strides, const int64_t *dilations, size_t num_dilations,
    const char *padding, const int64_t *explicit_paddings,
    size_t num_explicit_paddings, int64_t *out_backprop_shape, char **error) {
  clearError(error);
  std::string message;
  FilterArgs args;
  if (!parseFilterArgs(data_format, input_shape, input_rank, filter_sizes,
                       filter_rank, strides, num_strides, dilations,
                       num_dilations, padding, explicit_paddings,
                       num_explicit_paddings, args, message)) {
    setError(error, message);
    return 1;
  }
  if (static_cast<int64_t>(input_rank) != args.numSpatialDims + 2) {
    setError(error, "data_format " + args.dataFormat + " requires rank-" +
                        std::to_string(args.numSpatialDims + 2) +
                        " operands, but operand 'input' has rank " +
                        std::to_string(input_rank));
    return 1;
  }
  auto shape = inferOutBackpropShape(args.attrs, args.input, args.filter);
  if (!shape) {
    setError(error, shape.error());
    return 1;
  }
  if (!out_backprop_shape) {
    setError(error, "out_backprop_shape is NULL");
    return 1;
  }
  std::copy(shape->begin(), shape->end(), out_backprop_shape);
  return 0;
}

int convgen_transpose_output_shape(
    const char *data_format, const int64_t *input_shape, size_t input_rank,
    const int64_t *kernel_shape, size_t kernel_rank, const int64_t *strides,
    size_t num_strides, const int64_t *dilation_rate, size_t num_dilation_rate,
    const char *padding, const int64_t *output_padding,
    size_t num_output_padding, int64_t *output_shape, char **error) {
  clearError(error);
  std::string message;
  TransposeArgs args;
  if (!parseTransposeArgs(data_format, input_shape, input_rank, kernel_shape,
                          kernel_rank, strides, num_strides, dilation_rate,
                          num_dilation_rate, padding, output_padding,
                          num_output_padding, args, message)) {
    setError(error, message);
    return 1;
  }
  auto geometry = computeTransposeGeometry(args.attrs, args.input, args.kernel);
  if (!geometry) {
    setError(error, geometry.error());
    return 1;
  }
  if (!output_shape) {
    setError(error, "output_shape is NULL");
    return 1;
  }
  Shape shape = geometry->outputShape();
  std::copy(shape.begin(), shape.end(), output_shape);
  return 0;
}

size_t convgen_cache_size(void) { return Jit::global().cacheSize(); }

size_t convgen_num_compiles(void) { return Jit::global().numCompiles(); }

void convgen_clear_cache(void) { Jit::global().clearCache(); }

} // extern "C"
