//===- Jit.cpp - ConvGen JIT runtime --------------------------------------===//
//
// Spec -> single-op module (builder API, verified) -> conv-lower-to-llvm-cpu
// -> LLVM IR -> objects (LLVM O2 without the loop/SLP vectorizers, host CPU
// and features, see optimizeKernelModule; the module's functions split into
// parts compiled concurrently, ObjectCode.h) -> linked by an ORC LLJIT. Each
// compile uses its own MLIRContext and LLVMContexts, so different kernels
// compile concurrently; the cache hands every thread asking for one key the
// same in-flight compile.
//
//===----------------------------------------------------------------------===//

#include "conv/Runtime/Jit.h"
#include "conv/Codegen/Passes.h"
#include "conv/Conversion/ConvToLinalg/ConvToLinalg.h"
#include "conv/Runtime/BF16DotProducts.h"
#include "conv/Runtime/BufferCache.h"
#include "conv/Runtime/HostCpu.h"
#include "conv/Runtime/ObjectCode.h"

#include "conv/Dialect/Conv/IR/ConvDialect.h"
#include "conv/Dialect/Conv/IR/ConvOps.h"
#include "conv/InitAll.h"
#include "conv/Pipelines/Pipelines.h"
#include "conv/Reference/Reference.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/CRunnerUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/ExecutionEngine/JITEventListener.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/RTDyldObjectLinkingLayer.h"
#include "llvm/ExecutionEngine/SectionMemoryManager.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"
#include "llvm/TargetParser/Triple.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <future>
#include <mutex>
#include <thread>
#include <unordered_map>

using namespace mlir;

namespace convgen {

//===----------------------------------------------------------------------===//
// Small value types
//===----------------------------------------------------------------------===//

/// `v` as printf's %g writes it.
static std::string formatG(double v) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", v);
  return text;
}

std::string CompileOptions::str() const {
  return std::string("zero-insertion-transpose=") +
         (zeroInsertionTranspose ? "1" : "0") +
         " transpose-per-tap=" + transposePerTap +
         " optimize=" + (optimize ? "1" : "0") +
         " register-tile-rows=" + std::to_string(registerTileRows) +
         " register-tile-vectors=" + std::to_string(registerTileVectors) +
         " reduction-chunk=" + std::to_string(reductionChunk) +
         " l1-cache-bytes=" + std::to_string(l1CacheBytes) +
         " l2-cache-bytes=" + std::to_string(l2CacheBytes) +
         " l3-cache-bytes=" + std::to_string(l3CacheBytes) +
         " bf16-dot=" + bf16Dot + " dw-tap-rows=" + dwTapRows +
         " prefetch=" + (prefetch ? "1" : "0") +
         " streaming-stores=" + (streamingStores ? "1" : "0") +
         " streaming-stores-min-bytes=" +
         std::to_string(streamingStoresMinBytes) +
         " direct-rows=" + (directRows ? "1" : "0") +
         " dw-tap-planes=" + (dwTapPlanes ? "1" : "0") +
         " winograd=" + winograd +
         " num-threads=" + std::to_string(numThreads) +
         " min-parallel-flops=" + formatG(minParallelFlops) +
         " compile-threads=" + std::to_string(compileThreads) +
         " tune-cpu=" + tuneCpu;
}

size_t TensorInfo::numElements() const {
  size_t n = 1;
  for (int64_t d : shape)
    n *= static_cast<size_t>(d);
  return n;
}

size_t TensorInfo::byteSize() const {
  return numElements() * byteWidth(elementType);
}

Kernel::~Kernel() = default;

double SingleConvOp::flops() const {
  return kind == Kind::BackpropFilter ? backpropFilter.flops()
                                      : transpose.flops();
}

void SingleConvOp::runReference(llvm::ArrayRef<void *> buffers) const {
  if (kind == Kind::BackpropFilter)
    referenceBackpropFilter(backpropFilter, elementType, buffers[0], buffers[1],
                            buffers[2]);
  else
    referenceTranspose(transpose, elementType, buffers[0], buffers[1],
                       buffers[2]);
}

void SingleConvOp::runReferenceF64(const double *lhs, const double *rhs,
                                   double *result) const {
  if (kind == Kind::BackpropFilter)
    referenceBackpropFilter(backpropFilter, lhs, rhs, result);
  else
    referenceTranspose(transpose, lhs, rhs, result);
}

namespace {

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::make_error<llvm::StringError>(message,
                                             llvm::inconvertibleErrorCode());
}

/// The value of the auto / on / off option `name` as its pipeline enum.
template <typename E>
llvm::Expected<E> parseAutoOnOff(llvm::StringRef name,
                                 const std::string &value) {
  if (value == "auto")
    return E::Auto;
  if (value == "on")
    return E::On;
  if (value == "off")
    return E::Off;
  return makeError(name + " must be auto, on or off, not '" + value + "'");
}

std::string joined(const Shape &v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

//===----------------------------------------------------------------------===//
// MLIR plumbing
//===----------------------------------------------------------------------===//

/// Dialects, interface models and LLVM IR translations, built once.
const DialectRegistry &compileRegistry() {
  static const DialectRegistry *registry = [] {
    auto *r = new DialectRegistry;
    conv::registerAllDialects(*r);
    registerAllToLLVMIRTranslations(*r);
    return r;
  }();
  return *registry;
}

void initializeLLVMOnce() {
  static std::once_flag flag;
  std::call_once(flag, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
}

/// "triple/cpu": the host part of cache keys.
const std::string &hostTargetKey() {
  static const std::string key =
      llvm::sys::getProcessTriple() + "/" + hostTuningCpuName();
  return key;
}

/// Collects the diagnostics emitted while alive instead of printing them.
class DiagnosticCapture {
public:
  explicit DiagnosticCapture(MLIRContext *context)
      : handler(context, [this](Diagnostic &diag) {
          record(diag);
          return success();
        }) {
    // The messages name the op; its generic form would only add noise.
    context->printOpOnDiagnostic(false);
  }

  /// The collected text, or `fallback` when nothing was reported.
  std::string text(llvm::StringRef fallback) const {
    return messages.empty() ? fallback.str() : messages;
  }

private:
  void record(Diagnostic &diag) {
    llvm::raw_string_ostream os(messages);
    if (!messages.empty())
      os << "\n";
    bool located = false;
    if (auto loc = dyn_cast<FileLineColLoc>(diag.getLocation())) {
      os << loc.getFilename().getValue() << ":" << loc.getLine() << ":"
         << loc.getColumn() << ": ";
      located = true;
    }
    switch (diag.getSeverity()) {
    case DiagnosticSeverity::Error:
      if (located)
        os << "error: ";
      break;
    case DiagnosticSeverity::Warning:
      os << "warning: ";
      break;
    case DiagnosticSeverity::Note:
      os << "note: ";
      break;
    case DiagnosticSeverity::Remark:
      os << "remark: ";
      break;
    }
    os << diag.str();
    for (Diagnostic &note : diag.getNotes())
      os << "\nnote: " << note.str();
  }

  std::string messages;
  ScopedDiagnosticHandler handler;
};

Type toMLIRType(MLIRContext *context, ElementType t) {
  Builder b(context);
  switch (t) {
  case ElementType::F16:
    return b.getF16Type();
  case ElementType::BF16:
    return b.getBF16Type();
  case ElementType::F32:
    return b.getF32Type();
  case ElementType::F64:
    return b.getF64Type();
  }
  return {};
}

std::optional<ElementType> fromMLIRType(Type t) {
  if (t.isF16())
    return ElementType::F16;
  if (t.isBF16())
    return ElementType::BF16;
  if (t.isF32())
    return ElementType::F32;
  if (t.isF64())
    return ElementType::F64;
  return std::nullopt;
}

/// Tensor types cannot hold negative sizes: reject them before building IR.
llvm::Error checkSizes(llvm::StringRef name, const Shape &shape) {
  for (size_t i = 0; i < shape.size(); ++i)
    if (shape[i] < 0)
      return makeError(name + " dimension " + llvm::Twine(i) +
                       " has negative size " + llvm::Twine(shape[i]) + " (" +
                       name + " shape " + joined(shape) + ")");
  return llvm::Error::success();
}

/// Builds `func.func @kernel(lhs, rhs) -> result { conv op }`, verifies it
/// and returns its text.
template <typename BuildOp>
llvm::Expected<std::string>
buildKernelModule(ElementType elementType, const Shape &lhs, const Shape &rhs,
                  const Shape &result, BuildOp buildOp) {
  MLIRContext context(MLIRContext::Threading::DISABLED);
  context.loadDialect<conv::ConvDialect, func::FuncDialect>();
  DiagnosticCapture diagnostics(&context);
  OpBuilder b(&context);
  Location loc = b.getUnknownLoc();
  Type et = toMLIRType(&context, elementType);
  auto lhsType = RankedTensorType::get(lhs, et);
  auto rhsType = RankedTensorType::get(rhs, et);
  auto resultType = RankedTensorType::get(result, et);

  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());
  auto func = func::FuncOp::create(
      b, loc, "kernel", b.getFunctionType({lhsType, rhsType}, {resultType}));
  Block *body = func.addEntryBlock();
  b.setInsertionPointToEnd(body);
  Value value =
      buildOp(b, loc, resultType, body->getArgument(0), body->getArgument(1));
  func::ReturnOp::create(b, loc, value);

  if (failed(verify(*module)))
    return makeError(diagnostics.text("the generated kernel does not verify"));
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os);
  return text;
}

//===----------------------------------------------------------------------===//
// Runtime symbols of the generated code
//===----------------------------------------------------------------------===//

#if defined(__x86_64__)
// x86-64 passes and returns bf16 in the low half of an SSE register, like
// float: return a float whose low 16 bits are the bf16 (as MLIR's
// Float16bits.cpp does). libgcc before GCC 13 has no __truncsfbf2, and the
// LLVM backend calls it for fptrunc to bf16 without AVX512-BF16.
float truncSFToBF16(float value) {
  uint32_t bits = floatToBf16(value);
  float result;
  std::memcpy(&result, &bits, sizeof(result));
  return result;
}

float truncDFToBF16(double value) {
  // Round once: double -> float rounding to odd, then float -> bf16 to
  // nearest even (float keeps more than two extra bits, so this is exact).
  float f = static_cast<float>(value);
  if (value == value && static_cast<double>(f) != value) {
    uint32_t u;
    std::memcpy(&u, &f, sizeof(u));
    bool awayFromZero =
        (f < 0 ? -static_cast<double>(f) : f) > (value < 0 ? -value : value);
    if (awayFromZero)
      --u; // truncate toward zero (the magnitude bits are monotonic)
    u |= 1;
    std::memcpy(&f, &u, sizeof(f));
  }
  return truncSFToBF16(f);
}
#endif

/// Symbols the lowered code may call that need not be in the process: the
/// memref runtime (memrefCopy of non-contiguous copies) and conversions.
llvm::orc::SymbolMap runtimeSymbols(llvm::orc::MangleAndInterner interner) {
  llvm::orc::SymbolMap map;
  auto add = [&](llvm::StringRef name, auto *fn) {
    map[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(fn),
                           llvm::JITSymbolFlags::Exported};
  };
  add("memrefCopy", &memrefCopy);
  // Temporary buffers (ConvCPUPipelineOptions::genericAllocFunctions).
  add("_mlir_memref_to_llvm_alloc", &bufferCacheAlloc);
  add("_mlir_memref_to_llvm_aligned_alloc", &bufferCacheAlignedAlloc);
  add("_mlir_memref_to_llvm_free", &bufferCacheFree);
#if defined(__x86_64__)
  add("__truncsfbf2", &truncSFToBF16);
  add("__truncdfbf2", &truncDFToBF16);
#endif
  return map;
}

//===----------------------------------------------------------------------===//
// The kernel
//===----------------------------------------------------------------------===//

class JitKernel final : public Kernel {
public:
  const std::vector<TensorInfo> &inputs() const override { return ins; }
  const std::vector<TensorInfo> &outputs() const override { return outs; }
  double compileSeconds() const override { return seconds; }
  const std::string &sourceModule() const override { return source; }
  const SingleConvOp *singleConvOp() const override {
    return convOp ? &*convOp : nullptr;
  }
  unsigned threads() const override { return numThreads; }
  unsigned codeParts() const override { return parts; }

  llvm::Error run(llvm::ArrayRef<void *> buffers) const override {
    size_t n = ins.size() + outs.size();
    if (buffers.size() != n)
      return makeError("kernel expects " + llvm::Twine(n) + " buffers (" +
                       llvm::Twine(ins.size()) + " inputs, " +
                       llvm::Twine(outs.size()) + " outputs), got " +
                       llvm::Twine(buffers.size()));
    // One descriptor {allocated, aligned, offset, sizes[r], strides[r]} per
    // argument, all in one int64 array; pointers are 64-bit here.
    static_assert(sizeof(void *) == sizeof(int64_t), "64-bit hosts only");
    llvm::SmallVector<int64_t, 64> storage(descriptorWords);
    llvm::SmallVector<void *, 8> descriptors(n);
    llvm::SmallVector<void *, 8> args(n);
    size_t word = 0;
    for (size_t i = 0; i < n; ++i) {
      const TensorInfo &info = i < ins.size() ? ins[i] : outs[i - ins.size()];
      void *data = buffers[i];
      if (!data && info.numElements() != 0)
        return makeError("buffer " + llvm::Twine(i) + " is null");
      int64_t *d = storage.data() + word;
      std::memcpy(d, &data, sizeof(void *));
      std::memcpy(d + 1, &data, sizeof(void *));
      d[2] = 0;
      size_t rank = info.shape.size();
      int64_t stride = 1;
      for (size_t k = rank; k-- > 0;) {
        d[3 + k] = info.shape[k];
        d[3 + rank + k] = stride;
        stride *= info.shape[k];
      }
      descriptors[i] = d;
      args[i] = &descriptors[i];
      word += 3 + 2 * rank;
    }
    entry(args.data());
    return llvm::Error::success();
  }

  std::unique_ptr<llvm::orc::LLJIT> jit;
  void (*entry)(void **) = nullptr;
  std::vector<TensorInfo> ins, outs;
  size_t descriptorWords = 0;
  double seconds = 0;
  std::string source;
  std::optional<SingleConvOp> convOp;
  unsigned numThreads = 1;
  unsigned parts = 1;
};

llvm::Expected<TensorInfo> tensorInfo(Type type, llvm::StringRef what) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor) {
    std::string s;
    llvm::raw_string_ostream(s) << what << " has type " << type
                                << "; only ranked tensors are supported";
    return makeError(s);
  }
  std::optional<ElementType> et = fromMLIRType(tensor.getElementType());
  if (!et || !tensor.hasStaticShape()) {
    std::string s;
    llvm::raw_string_ostream(s)
        << what << " has type " << type
        << "; only static shapes of f16, bf16, f32 or f64 are supported";
    return makeError(s);
  }
  return TensorInfo{*et,
                    Shape(tensor.getShape().begin(), tensor.getShape().end())};
}

/// The conv op of `func` when its body is `return conv(arg0, arg1)`.
std::optional<SingleConvOp> findSingleConvOp(func::FuncOp func) {
  Block &body = func.getBody().front();
  if (func.getNumArguments() != 2 || func.getNumResults() != 1 ||
      body.getOperations().size() != 2)
    return std::nullopt;
  Operation *op = &body.front();
  auto ret = dyn_cast<func::ReturnOp>(body.back());
  if (!ret || ret.getNumOperands() != 1 ||
      ret.getOperand(0).getDefiningOp() != op || op->getNumOperands() != 2 ||
      op->getOperand(0) != body.getArgument(0) ||
      op->getOperand(1) != body.getArgument(1))
    return std::nullopt;
  auto elementType = fromMLIRType(
      cast<ShapedType>(op->getResult(0).getType()).getElementType());
  if (!elementType)
    return std::nullopt;
  SingleConvOp info;
  info.elementType = *elementType;
  if (auto bf = dyn_cast<conv::BackpropFilterOp>(op)) {
    auto g = bf.getGeometry();
    if (!g)
      return std::nullopt;
    info.kind = SingleConvOp::Kind::BackpropFilter;
    info.backpropFilter = *g;
    return info;
  }
  if (auto tr = dyn_cast<conv::TransposeOp>(op)) {
    auto g = tr.getGeometry();
    if (!g)
      return std::nullopt;
    info.kind = SingleConvOp::Kind::Transpose;
    info.transpose = *g;
    return info;
  }
  return std::nullopt;
}

/// The target machine of the host CPU, with every extension it has but
/// AVX512-BF16. LLVM 22's type legalizer aborts ("Do not know how to soft
/// promote this operator's operand!") on a vector of bf16 whose length is
/// one more than a multiple of 8 (9, 17, 25, ...: a 9-position register
/// tile row) when that feature is on: splitting it leaves a one-element
/// piece it cannot promote. Without the feature bf16 vectors are
/// promoted to f32 like on any other x86 CPU, and the f32 -> bf16 rounding
/// is the runtime's __truncsfbf2 (above). See docs/Codegen.md (JIT).
llvm::Expected<std::unique_ptr<llvm::TargetMachine>> createHostTargetMachine() {
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return builder.takeError();
  // detectHost() already fills in these two; set them explicitly so the
  // generated code uses every extension of this CPU (AVX2, AVX-512, ...),
  // tuned for the core the features describe (HostCpu.h: a virtual
  // machine may report a client core's model for a server core).
  builder->setCPU(hostTuningCpuName());
  llvm::SubtargetFeatures features;
  for (const auto &feature : llvm::sys::getHostCPUFeatures())
    features.AddFeature(feature.first(), feature.second &&
                                             feature.first() != "avx512bf16");
  builder->setFeatures(features.getString());
  builder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  // LLVM's default for JIT code on x86-64, made explicit: the kernel's
  // parts are separate objects that reference each other's functions
  // (ObjectCode.h), by 64-bit absolute addresses whatever the distance
  // between the places the JIT maps them.
  builder->setCodeModel(llvm::CodeModel::Large);
  return builder->createTargetMachine();
}

/// The LLVM IR optimizer for a lowered kernel: the `-O2` pipeline without
/// the loop and SLP vectorizers. The MLIR pipeline has already vectorized
/// the register tiles, and the default `-O3` pipeline spent about half of
/// its time (and a third of the code generator's, on the extra loop
/// versions) vectorizing the scalar remainder and copy loops around them.
/// Loop unrolling stays: it unrolls the tap loops inside the transposed
/// convolution's register tiles (without it the multi-tap phases ran at
/// half speed). conv-cpu-annotate-loop-unrolling has disabled it for the
/// other loops, which it used to analyse for half of this pipeline's time.
llvm::Error optimizeKernelModule(llvm::Module &module,
                                 llvm::TargetMachine &targetMachine) {
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = false;
  tuning.LoopInterleaving = false;
  tuning.SLPVectorization = false;
  tuning.LoopUnrolling = true;
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder builder(&targetMachine, tuning);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager passes =
      builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2);
  passes.run(module, mam);
  return llvm::Error::success();
}

/// Defines `void _mlir_<name>(void **args)`, which calls `name` with the
/// values args[i] point to (mlir::ExecutionEngine's packed interface, for
/// the one function the kernel calls).
llvm::Error addPackedInterface(llvm::Module &module, llvm::StringRef name) {
  llvm::Function *func = module.getFunction(name);
  if (!func || func->isDeclaration())
    return makeError("the LLVM module has no function " + name.str());
  llvm::LLVMContext &context = module.getContext();
  llvm::IRBuilder<> builder(context);
  auto *type = llvm::FunctionType::get(builder.getVoidTy(), builder.getPtrTy(),
                                       /*isVarArg=*/false);
  auto *packed = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage,
                                        "_mlir_" + name, module);
  builder.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", packed));
  llvm::Value *list = packed->getArg(0);
  llvm::SmallVector<llvm::Value *> args;
  for (llvm::Argument &arg : func->args()) {
    llvm::Value *slot = builder.CreateConstGEP1_64(builder.getPtrTy(), list,
                                                   arg.getArgNo());
    llvm::Value *pointer = builder.CreateLoad(builder.getPtrTy(), slot);
    args.push_back(builder.CreateLoad(arg.getType(), pointer));
  }
  llvm::Value *result = builder.CreateCall(func, args);
  if (!result->getType()->isVoidTy()) {
    llvm::Value *slot = builder.CreateConstGEP1_64(builder.getPtrTy(), list,
                                                   func->arg_size());
    builder.CreateStore(result, builder.CreateLoad(builder.getPtrTy(), slot));
  }
  builder.CreateRetVoid();
  return llvm::Error::success();
}

/// The IR compiler of a JIT that is given objects only.
class NoIRCompiler final : public llvm::orc::IRCompileLayer::IRCompiler {
public:
  NoIRCompiler() : IRCompiler(llvm::orc::IRSymbolMapper::ManglingOptions()) {}
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
  operator()(llvm::Module &) override {
    return makeError("the kernel JIT links objects; it compiles no IR");
  }
};

/// The JIT that links a kernel's objects: ORC's LLJIT with the RuntimeDyld
/// linker and section memory manager (as mlir::ExecutionEngine sets it up),
/// the process's symbols, the runtime's (runtimeSymbols) and, loaded once
/// for the process, the OpenMP runtime.
llvm::Expected<std::unique_ptr<llvm::orc::LLJIT>>
createLinker(const llvm::DataLayout &dataLayout, bool loadOpenMP,
             bool perfListener) {
#ifdef CONV_LIBOMP_PATH
  if (loadOpenMP) {
    static const std::string openMPError = [] {
      std::string error;
      llvm::sys::DynamicLibrary::getPermanentLibrary(CONV_LIBOMP_PATH, &error);
      return error;
    }();
    if (!openMPError.empty())
      return makeError("cannot load " + std::string(CONV_LIBOMP_PATH) + ": " +
                       openMPError);
  }
#else
  (void)loadOpenMP;
#endif
  auto objectLayer = [perfListener](llvm::orc::ExecutionSession &session)
      -> llvm::Expected<std::unique_ptr<llvm::orc::ObjectLayer>> {
    auto layer = std::make_unique<llvm::orc::RTDyldObjectLinkingLayer>(
        session, [](const llvm::MemoryBuffer &) {
          return std::make_unique<llvm::SectionMemoryManager>();
        });
    if (auto *gdb = llvm::JITEventListener::createGDBRegistrationListener())
      layer->registerJITEventListener(*gdb);
    if (perfListener)
      if (auto *perf = llvm::JITEventListener::createPerfJITEventListener())
        layer->registerJITEventListener(*perf);
    return layer;
  };
  // Objects only: LLJIT's IR compile layer is never used.
  auto compiler = [](llvm::orc::JITTargetMachineBuilder)
      -> llvm::Expected<std::unique_ptr<llvm::orc::IRCompileLayer::IRCompiler>> {
    return std::make_unique<NoIRCompiler>();
  };
  // No platform: a kernel has no static constructors or destructors (the
  // lowered module defines none; compileText checks), so there is nothing
  // for LLJIT's initialize / deinitialize to run.
  auto jit = llvm::orc::LLJITBuilder()
                 .setCompileFunctionCreator(compiler)
                 .setObjectLinkingLayerCreator(objectLayer)
                 .setPlatformSetUp(llvm::orc::setUpInactivePlatform)
                 .setDataLayout(dataLayout)
                 .create();
  if (!jit)
    return jit.takeError();
  llvm::orc::JITDylib &main = (*jit)->getMainJITDylib();
  auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      dataLayout.getGlobalPrefix());
  if (!process)
    return process.takeError();
  main.addGenerator(std::move(*process));
  if (llvm::Error error = main.define(llvm::orc::absoluteSymbols(
          runtimeSymbols(llvm::orc::MangleAndInterner(
              main.getExecutionSession(), dataLayout)))))
    return std::move(error);
  return std::move(*jit);
}

/// Two LLVM settings that cut the JIT's compile time without changing the
/// generated code's speed. LLVM exposes both only as command-line options,
/// so they are set once for the process; they affect only code optimized and
/// generated in this process (the JIT's), and an option the user already gave
/// on the command line is left as given.
///
/// - `-disable-lsr`: loop strength reduction took a third of the code
///   generator's time on the kernels (it grows with the number of address
///   uses in a loop, and an unrolled register tile has many) without a
///   measurable effect on their speed: the vector loads already use
///   base + constant-offset addresses.
/// - `-unroll-max-iteration-count-to-analyze=0`: before fully unrolling a
///   loop, the unroller simulates up to 10 iterations of its body to estimate
///   what unrolling would simplify. The kernels' loop bodies are unrolled
///   register tiles of hundreds of instructions, and the simulation took
///   up to 45 % of the `-O2` pipeline (rn9: 100 of 230 ms) and 20 % over
///   the benchmark suite, while the optimized IR stayed identical on all
///   43 of its kernels: the loops the kernels need unrolled are unrolled on
///   their size alone.
void setCodegenOptionsOnce() {
  static std::once_flag flag;
  std::call_once(flag, [] {
    auto &options = llvm::cl::getRegisteredOptions();
    auto set = [&](llvm::StringRef name, llvm::StringRef value) {
      auto it = options.find(name);
      if (it == options.end() || !it->second ||
          it->second->getNumOccurrences() != 0)
        return;
      // Parsed by the option's own parser, whatever its value type.
      (void)it->second->addOccurrence(0, name, value);
    };
    set("disable-lsr", "true");                        // TargetPassConfig.cpp
    set("unroll-max-iteration-count-to-analyze", "0"); // LoopUnrollPass.cpp
  });
}

using Clock = std::chrono::steady_clock;

/// CompileOptions::compileThreads = 0 takes at most this many. Measured
/// with two parts: more parts would move smaller loop nests out of a
/// sequential kernel's function, and small nests moved out (those of
/// modules of 500-1500 instructions split in two) cost some kernels 4-9 %
/// of their speed (docs/Codegen.md).
constexpr unsigned kMaxAutoCompileThreads = 2;

/// Parses, lowers and JIT-compiles `entry` of `text`; the kernel's compile
/// time counts from `start`.
llvm::Expected<std::shared_ptr<const Kernel>>
compileText(llvm::StringRef text, llvm::StringRef entry,
            const CompileOptions &options, Clock::time_point start) {
  initializeLLVMOnce();
  MLIRContext context(compileRegistry(), MLIRContext::Threading::DISABLED);
  DiagnosticCapture diagnostics(&context);

  ParserConfig config(&context);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(text, config, "module");
  if (!module)
    return makeError(diagnostics.text("failed to parse the module"));

  auto func = module->lookupSymbol<func::FuncOp>(entry);
  if (!func)
    return makeError("the module has no func.func @" + entry);
  if (func.isExternal())
    return makeError("func.func @" + entry + " is only a declaration");

  auto kernel = std::make_shared<JitKernel>();
  kernel->source = text.str();
  FunctionType type = func.getFunctionType();
  for (auto [i, t] : llvm::enumerate(type.getInputs())) {
    auto info =
        tensorInfo(t, "argument " + std::to_string(i) + " of @" + entry.str());
    if (!info)
      return info.takeError();
    kernel->ins.push_back(*info);
  }
  for (auto [i, t] : llvm::enumerate(type.getResults())) {
    auto info =
        tensorInfo(t, "result " + std::to_string(i) + " of @" + entry.str());
    if (!info)
      return info.takeError();
    kernel->outs.push_back(*info);
  }
  for (const TensorInfo &info : kernel->ins)
    kernel->descriptorWords += 3 + 2 * info.shape.size();
  for (const TensorInfo &info : kernel->outs)
    kernel->descriptorWords += 3 + 2 * info.shape.size();
  kernel->convOp = findSingleConvOp(func);

  // The caller's input buffers are read-only; a public entry with a C
  // interface.
  func.setPublic();
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    func.setArgAttr(i, bufferization::BufferizationDialect::kWritableAttrName,
                    BoolAttr::get(&context, false));
  func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                UnitAttr::get(&context));

  PassManager pm(&context);
  conv::ConvCPUPipelineOptions pipelineOptions;
  pipelineOptions.zeroInsertionTranspose = options.zeroInsertionTranspose;
  pipelineOptions.transposePerTap = options.transposePerTap;
  pipelineOptions.optimize = options.optimize;
  pipelineOptions.registerTileRows = options.registerTileRows;
  pipelineOptions.registerTileVectors = options.registerTileVectors;
  pipelineOptions.reductionChunk = options.reductionChunk;
  pipelineOptions.l1CacheBytes = options.l1CacheBytes;
  pipelineOptions.l2CacheBytes = options.l2CacheBytes;
  pipelineOptions.l3CacheBytes = options.l3CacheBytes;
  pipelineOptions.prefetch = options.prefetch;
  pipelineOptions.streamingStores = options.streamingStores;
  pipelineOptions.streamingStoresMinBytes = options.streamingStoresMinBytes;
  pipelineOptions.directRows = options.directRows;
  pipelineOptions.dwTapPlanes = options.dwTapPlanes;
  pipelineOptions.winograd = options.winograd;
  auto bf16Dot = parseAutoOnOff<conv::BF16Dot>("bf16-dot", options.bf16Dot);
  if (!bf16Dot)
    return bf16Dot.takeError();
  pipelineOptions.bf16Dot = *bf16Dot;
  auto tapRows =
      parseAutoOnOff<conv::TapRows>("dw-tap-rows", options.dwTapRows);
  if (!tapRows)
    return tapRows.takeError();
  pipelineOptions.dwTapRows = *tapRows;
  pipelineOptions.genericAllocFunctions = true; // BufferCache.h
#ifdef CONV_LIBOMP_PATH
  pipelineOptions.numThreads = options.numThreads;
  // Tiny kernels run sequential code (CompileOptions::minParallelFlops;
  // a quarter of it for transposed convolutions in row parts or in the dot
  // lowering's tile ranges).
  if (kernel->convOp) {
    double minFlops = options.minParallelFlops;
    if (options.optimize &&
        kernel->convOp->kind == SingleConvOp::Kind::Transpose) {
      std::optional<conv::TransposeTaps> taps =
          conv::parseTransposeTaps(options.transposePerTap);
      // The optimized pipeline runs channels-first ops channels last
      // (conv-cpu-channels-last) before lowering them.
      TransposeGeometry g = kernel->convOp->transpose;
      g.layout = DataLayout::ChannelsLast;
      int64_t threads = conv::resolveNumThreads(options.numThreads);
      // So do those of the dot lowering (its tile ranges: one fork a call;
      // docs/Lowering.md §3.11), which runs before the columns lowering.
      std::optional<conv::TransposeDotPlan> dot;
      if (taps && *taps == conv::TransposeTaps::Auto &&
          !options.zeroInsertionTranspose &&
          kernel->convOp->elementType == ElementType::F32)
        dot = conv::planTransposeDot(
            g, Float32Type::get(&context),
            conv::HostVectorInfo::detect().vectorBits / 32, threads);
      if ((dot && dot->parts > 1) ||
          (!dot && taps &&
           conv::transposeRowParts(g, threads,
                                   options.zeroInsertionTranspose
                                       ? conv::TransposeLowering::ZeroInsertion
                                       : conv::TransposeLowering::Phase,
                                   *taps) > 1))
        minFlops /= 4;
    }
    if (kernel->convOp->flops() < minFlops)
      pipelineOptions.numThreads = 1;
  }
#else
  pipelineOptions.numThreads = 1; // no OpenMP runtime to load
#endif
  conv::buildConvCPUPipeline(pm, pipelineOptions);
  // The module is verified once, after the pipeline (below), not after
  // each of its passes: verifying the large unrolled vector IR between
  // passes took a fifth of a first-call compile (DCGAN's 32x32x64 ->
  // 64x64x3 layer: MLIR pipeline 120-130 -> 76-81 ms; the suite's largest
  // compile 229 -> 187 ms, its geomean -14 %). conv-opt and the lit tests
  // keep mlir-opt's verification after every pass; CONVGEN_VERIFY_EACH=1
  // restores it here (the unit and Python tests set it).
  if (!std::getenv("CONVGEN_VERIFY_EACH"))
    pm.enableVerifier(false);
  // Profiling aid: CONVGEN_COMPILE_TIMING=1 prints the compile's stages
  // (and the MLIR pipeline's passes) to stderr.
  const bool timing = std::getenv("CONVGEN_COMPILE_TIMING") != nullptr;
  if (timing)
    pm.enableTiming();
  Clock::time_point parsed = Clock::now();
  if (failed(pm.run(*module)))
    return makeError(diagnostics.text("conv-lower-to-llvm-cpu failed"));
  if (failed(verify(*module)))
    return makeError(diagnostics.text(
        "conv-lower-to-llvm-cpu produced a module that does not verify"));
  Clock::time_point lowered = Clock::now();

  // MLIR -> LLVM IR, with the packed entry point the kernel calls.
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*module, llvmContext);
  if (!llvmModule)
    return makeError(diagnostics.text("translation to LLVM IR failed"));
  auto hostMachine = createHostTargetMachine();
  if (!hostMachine)
    return hostMachine.takeError();
  const llvm::DataLayout dataLayout = (*hostMachine)->createDataLayout();
  llvmModule->setDataLayout(dataLayout);
  llvmModule->setTargetTriple((*hostMachine)->getTargetTriple());
  const std::string features =
      (*hostMachine)->getTargetFeatureString().str();
  // The scheduling model (CompileOptions::tuneCpu).
  std::string tuneCpu =
      options.tuneCpu == "auto" ? hostTuneCpuName() : options.tuneCpu;
  if (!(*hostMachine)->getMCSubtargetInfo()->isCPUStringValid(tuneCpu))
    return makeError("tune-cpu: '" + tuneCpu +
                     "' is not a CPU LLVM knows for " +
                     (*hostMachine)->getTargetTriple().str());
  hostMachine->reset();
  if (llvmModule->getNamedGlobal("llvm.global_ctors") ||
      llvmModule->getNamedGlobal("llvm.global_dtors"))
    return makeError("the lowered module has static constructors or "
                     "destructors, which the kernel JIT does not run");
  const std::string packedEntry = "_mlir_ciface_" + entry.str();
  if (llvm::Error error = addPackedInterface(*llvmModule, packedEntry))
    return std::move(error);
  // Whole-module rewrites first (they may add functions), then the
  // optimization and code generation of each part (ObjectCode.h).
  static const bool hostHasBF16 = conv::HostVectorInfo::detect().bf16Dot;
  // Copies first: their bf16 vectors then no longer count against the
  // dot product's feature (odd lengths).
  moveBF16VectorsAsIntegers(*llvmModule);
  prepareBF16DotProducts(*llvmModule, features, hostHasBF16);
  // The scheduling model of every function, the ones those rewrites added
  // among them (before the optimizer: its cost model reads it too).
  for (llvm::Function &function : *llvmModule)
    if (!function.isDeclaration())
      function.addFnAttr("tune-cpu", tuneCpu);
  // Profiling aid: CONVGEN_DUMP_LLVM=FILE writes the LLVM IR the
  // optimizer gets (to time it alone: `opt -passes='default<O2>'
  // -mcpu=native -vectorize-loops=false -vectorize-slp=false FILE`).
  if (const char *dump = std::getenv("CONVGEN_DUMP_LLVM")) {
    std::error_code ec;
    llvm::raw_fd_ostream os(dump, ec);
    if (!ec)
      llvmModule->print(os, nullptr);
  }
  setCodegenOptionsOnce();
  ObjectCodeOptions objectOptions;
  objectOptions.maxParts =
      options.compileThreads
          ? options.compileThreads
          : std::clamp(std::thread::hardware_concurrency(), 1u,
                       kMaxAutoCompileThreads);
  objectOptions.createTargetMachine = createHostTargetMachine;
  objectOptions.optimize = optimizeKernelModule;
  Clock::time_point translated = Clock::now();
  auto parts = compileToObjectCode(*llvmModule, objectOptions);
  if (!parts)
    return parts.takeError();
  Clock::time_point compiled = Clock::now();

  // Profiling aid: CONVGEN_PERF_JIT=1 writes perf's jit-<pid>.dump so that
  // `perf record -k 1` + `perf inject --jit` name the generated functions.
  auto jit = createLinker(dataLayout, pipelineOptions.numThreads != 1,
                          std::getenv("CONVGEN_PERF_JIT") != nullptr);
  if (!jit)
    return jit.takeError();
  for (ObjectPart &part : *parts)
    if (llvm::Error error = (*jit)->addObjectFile(std::move(part.object)))
      return std::move(error);
  auto fn = (*jit)->lookup("_mlir_" + packedEntry);
  if (!fn)
    return fn.takeError();
  kernel->jit = std::move(*jit);
  kernel->entry = fn->toPtr<void (*)(void **)>();
  kernel->numThreads = pipelineOptions.numThreads;
  kernel->parts = parts->size();

  Clock::time_point done = Clock::now();
  kernel->seconds = std::chrono::duration<double>(done - start).count();
  if (timing) {
    auto ms = [](Clock::time_point a, Clock::time_point b) {
      return 1e3 * std::chrono::duration<double>(b - a).count();
    };
    llvm::errs() << llvm::formatv(
        "convgen compile @{0}: {1:F1} ms = setup+parse {2:F1}, MLIR "
        "pipeline {3:F1}, LLVM IR translation {4:F1}, optimization+code "
        "generation {5:F1}, link {6:F1}\n",
        entry, ms(start, done), ms(start, parsed), ms(parsed, lowered),
        ms(lowered, translated), ms(translated, compiled), ms(compiled, done));
    for (auto [i, part] : llvm::enumerate(*parts))
      llvm::errs() << llvm::formatv(
          "  part {0}: {1} functions, {2} instructions: optimization {3:F1} "
          "ms, code generation {4:F1} ms\n",
          i, part.functions, part.instructions, 1e3 * part.optimizeSeconds,
          1e3 * part.codegenSeconds);
  }
  return std::shared_ptr<const Kernel>(std::move(kernel));
}

std::string specKey(const BackpropFilterSpec &s) {
  std::string key = "backprop_filter;";
  key += stringify(s.elementType);
  key += s.attrs.layout == DataLayout::ChannelsLast ? ";last" : ";first";
  key += ";n=" + (s.dataFormatSpatialDims
                      ? std::to_string(*s.dataFormatSpatialDims)
                      : std::string("-"));
  key += ";input=" + joined(s.inputShape);
  key += ";filter=" + joined(s.filterShape);
  key += ";out_backprop=" + joined(s.outBackpropShape);
  key += ";strides=" + joined(s.attrs.strides);
  key += ";dilations=" + joined(s.attrs.dilations);
  key += std::string(";padding=") + stringify(s.attrs.padding);
  key += ";explicit=" + joined(s.attrs.explicitPaddings);
  return key;
}

std::string specKey(const TransposeSpec &s) {
  std::string key = "transpose;";
  key += stringify(s.elementType);
  key += s.attrs.layout == DataLayout::ChannelsLast ? ";last" : ";first";
  key += ";input=" + joined(s.inputShape);
  key += ";kernel=" + joined(s.kernelShape);
  key += ";strides=" + joined(s.attrs.strides);
  key += ";dilations=" + joined(s.attrs.dilations);
  key += std::string(";padding=") + stringify(s.attrs.padding);
  key += ";output_padding=" +
         (s.attrs.outputPadding ? joined(*s.attrs.outputPadding) : "None");
  return key;
}

/// A finished compile, shared by everyone who asked for its key.
struct Outcome {
  std::shared_ptr<const Kernel> kernel;
  std::string error;
};

} // namespace

//===----------------------------------------------------------------------===//
// Jit
//===----------------------------------------------------------------------===//

struct Jit::Impl {
  /// One cache slot; `id` tells a slot from a later one with the same key.
  struct Slot {
    uint64_t id;
    std::shared_future<Outcome> future;
  };

  mutable std::mutex mutex;
  std::unordered_map<std::string, Slot> cache;
  uint64_t nextId = 0;
  std::atomic<size_t> compiles{0};

  /// Returns the kernel of `key`, running `compile` once per key (other
  /// threads asking meanwhile wait for that compile); failures are not
  /// cached.
  template <typename CompileFn>
  llvm::Expected<std::shared_ptr<const Kernel>>
  getOrCompile(const std::string &key, CompileFn compile) {
    std::promise<Outcome> promise;
    std::shared_future<Outcome> future;
    uint64_t id = 0;
    bool owner = false;
    {
      std::lock_guard<std::mutex> lock(mutex);
      auto it = cache.find(key);
      if (it != cache.end()) {
        future = it->second.future;
      } else {
        future = promise.get_future().share();
        id = nextId++;
        cache.emplace(key, Slot{id, future});
        owner = true;
      }
    }
    if (owner) {
      ++compiles;
      Outcome outcome;
      llvm::Expected<std::shared_ptr<const Kernel>> kernel = compile();
      if (kernel)
        outcome.kernel = std::move(*kernel);
      else
        outcome.error = llvm::toString(kernel.takeError());
      if (!outcome.kernel) {
        std::lock_guard<std::mutex> lock(mutex);
        auto it = cache.find(key);
        // clearCache() may have dropped or replaced our slot meanwhile.
        if (it != cache.end() && it->second.id == id)
          cache.erase(it);
      }
      promise.set_value(std::move(outcome));
    }
    const Outcome &outcome = future.get();
    if (!outcome.kernel)
      return makeError(outcome.error);
    return outcome.kernel;
  }
};

Jit::Jit() : impl(std::make_unique<Impl>()) {}
Jit::~Jit() = default;

Jit &Jit::global() {
  // Never destroyed: destroying kernels (LLJIT runs JIT
  // deinitializers through LLVM) from exit handlers would race the
  // destruction of LLVM's own statics.
  static Jit *jit = new Jit;
  return *jit;
}

llvm::Expected<std::string> Jit::buildModule(const BackpropFilterSpec &spec) {
  if (auto err = checkSizes("operand 'input'", spec.inputShape))
    return std::move(err);
  if (auto err = checkSizes("operand 'out_backprop'", spec.outBackpropShape))
    return std::move(err);
  if (auto err = checkSizes("result 'filter'", spec.filterShape))
    return std::move(err);
  int64_t n = spec.dataFormatSpatialDims
                  ? *spec.dataFormatSpatialDims
                  : static_cast<int64_t>(spec.inputShape.size()) - 2;
  const BackpropFilterAttrs &a = spec.attrs;
  return buildKernelModule(
      spec.elementType, spec.inputShape, spec.outBackpropShape,
      spec.filterShape,
      [&](OpBuilder &b, Location loc, Type resultType, Value input,
          Value outBackprop) -> Value {
        conv::TFPadding padding = conv::TFPadding::VALID;
        if (a.padding == FilterPadding::Same)
          padding = conv::TFPadding::SAME;
        else if (a.padding == FilterPadding::Explicit)
          padding = conv::TFPadding::EXPLICIT;
        DenseI64ArrayAttr explicitPaddings;
        if (a.padding == FilterPadding::Explicit || !a.explicitPaddings.empty())
          explicitPaddings = b.getDenseI64ArrayAttr(a.explicitPaddings);
        return conv::BackpropFilterOp::create(
            b, loc, resultType, input, outBackprop,
            conv::getTFDataFormat(a.layout, n), padding, explicitPaddings,
            a.strides, a.dilations);
      });
}

llvm::Expected<std::string> Jit::buildModule(const TransposeSpec &spec) {
  if (auto err = checkSizes("operand 'inputs'", spec.inputShape))
    return std::move(err);
  if (auto err = checkSizes("operand 'kernel'", spec.kernelShape))
    return std::move(err);
  const TransposeAttrs &a = spec.attrs;
  // The result type comes from the geometry; when it fails, any type of the
  // operands' rank lets the verifier report the geometry's message.
  Shape resultShape = spec.inputShape;
  auto geometry =
      computeTransposeGeometry(a, spec.inputShape, spec.kernelShape);
  if (geometry)
    resultShape = geometry->outputShape();
  return buildKernelModule(
      spec.elementType, spec.inputShape, spec.kernelShape, resultShape,
      [&](OpBuilder &b, Location loc, Type resultType, Value inputs,
          Value kernel) -> Value {
        DenseI64ArrayAttr outputPadding;
        if (a.outputPadding)
          outputPadding = b.getDenseI64ArrayAttr(*a.outputPadding);
        return conv::TransposeOp::create(
            b, loc, resultType, inputs, kernel,
            a.layout == DataLayout::ChannelsLast
                ? conv::KerasDataFormat::channels_last
                : conv::KerasDataFormat::channels_first,
            a.padding == TransposePadding::Same ? conv::KerasPadding::same
                                                : conv::KerasPadding::valid,
            a.strides, a.dilations, outputPadding);
      });
}

llvm::Expected<std::shared_ptr<const Kernel>>
Jit::compile(const BackpropFilterSpec &spec, const CompileOptions &options) {
  std::string key = specKey(spec) + "|" + options.str() + "|" + hostTargetKey();
  return impl->getOrCompile(
      key, [&]() -> llvm::Expected<std::shared_ptr<const Kernel>> {
        auto start = Clock::now();
        auto text = buildModule(spec);
        if (!text)
          return text.takeError();
        return compileText(*text, "kernel", options, start);
      });
}

llvm::Expected<std::shared_ptr<const Kernel>>
Jit::compile(const TransposeSpec &spec, const CompileOptions &options) {
  std::string key = specKey(spec) + "|" + options.str() + "|" + hostTargetKey();
  return impl->getOrCompile(
      key, [&]() -> llvm::Expected<std::shared_ptr<const Kernel>> {
        auto start = Clock::now();
        auto text = buildModule(spec);
        if (!text)
          return text.takeError();
        return compileText(*text, "kernel", options, start);
      });
}

llvm::Expected<std::shared_ptr<const Kernel>>
Jit::compileModule(llvm::StringRef moduleText, llvm::StringRef entry,
                   const CompileOptions &options) {
  std::string key = "module;entry=" + entry.str() + ";" + options.str() + "|" +
                    hostTargetKey() + "|" + moduleText.str();
  return impl->getOrCompile(key, [&] {
    return compileText(moduleText, entry, options, Clock::now());
  });
}

size_t Jit::cacheSize() const {
  std::lock_guard<std::mutex> lock(impl->mutex);
  return impl->cache.size();
}

size_t Jit::numCompiles() const { return impl->compiles.load(); }

void Jit::clearCache() {
  std::lock_guard<std::mutex> lock(impl->mutex);
  impl->cache.clear();
}

} // namespace convgen
