//===- OmpThreadLoops.cpp - conv-omp-thread-loops -------------------------===//
//
// The worksharing loop of an omp.parallel that holds nothing else becomes a
// loop over the calling thread's share of the iterations, found from
// libomp's thread number and team size with the runtime's default static
// schedule: the same iterations on the same threads, without
// __kmpc_for_static_init / _fini and the loop's implied barrier (the
// region's join barrier remains). See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "conv/Codegen/Passes.h"

#include "mlir/Dialect/OpenMP/OpenMPDialect.h"

namespace mlir::conv {
#define GEN_PASS_DEF_CONVOMPTHREADLOOPSPASS
#include "conv/Codegen/Passes.h.inc"
} // namespace mlir::conv

using namespace mlir;

namespace {

// libomp's entry points, not omp_get_thread_num / omp_get_num_threads: in a
// process that also has GNU libgomp loaded (conv-bench, through oneDNN)
// the JIT resolved those to libgomp's, which know nothing of libomp's
// teams. The ident_t argument may be null.
constexpr llvm::StringLiteral kGlobalThreadNum = "__kmpc_global_thread_num";
constexpr llvm::StringLiteral kBoundThreadNum = "__kmpc_bound_thread_num";
constexpr llvm::StringLiteral kBoundNumThreads = "__kmpc_bound_num_threads";

/// The loop nest of `wsloop` when the pass applies to it: the only
/// operation (besides the terminator) of an omp.parallel, no clauses, one
/// omp.loop_nest with exclusive bounds whose body is one block.
omp::LoopNestOp rewritableNest(omp::WsloopOp wsloop) {
  auto parallel = dyn_cast<omp::ParallelOp>(wsloop->getParentOp());
  if (!parallel || !parallel.getRegion().hasOneBlock() ||
      &parallel.getRegion().front().front() != wsloop.getOperation() ||
      !isa<omp::TerminatorOp>(wsloop->getNextNode()))
    return nullptr;
  if (wsloop->getNumOperands() != 0 || wsloop.getScheduleKind() ||
      wsloop.getOrderedAttr() || wsloop.getOrder() || wsloop.getNowait())
    return nullptr;
  if (!wsloop.getRegion().hasOneBlock())
    return nullptr;
  Block &body = wsloop.getRegion().front();
  auto nest = dyn_cast<omp::LoopNestOp>(body.front());
  if (!nest || body.getOperations().size() != 1 || nest.getLoopInclusive() ||
      !nest.getRegion().hasOneBlock())
    return nullptr;
  auto yield = dyn_cast<omp::YieldOp>(nest.getRegion().front().back());
  if (!yield || yield->getNumOperands() != 0)
    return nullptr;
  return nest;
}

/// The type of a runtime query: `(!llvm.ptr[, i32]) -> i32` (the ident_t
/// pointer, and the global thread number for the bound queries).
FunctionType runtimeQueryType(MLIRContext *ctx, bool withGtid) {
  Builder b(ctx);
  SmallVector<Type> params = {LLVM::LLVMPointerType::get(ctx)};
  if (withGtid)
    params.push_back(b.getI32Type());
  return b.getFunctionType(params, {b.getI32Type()});
}

/// Whether `module` has a symbol `name` other than a func.func of `type`
/// (e.g. an llvm.func from an earlier OpenMP translation).
bool nameTaken(ModuleOp module, StringRef name, FunctionType type) {
  Operation *existing = module.lookupSymbol(name);
  auto f = dyn_cast_or_null<func::FuncOp>(existing);
  return existing && !(f && f.getFunctionType() == type);
}

/// The declaration `private @name` of `type` in `module`, created if
/// missing (`name` not taken by anything else).
func::FuncOp declareRuntimeQuery(ModuleOp module, StringRef name,
                                 FunctionType type) {
  if (auto f = module.lookupSymbol<func::FuncOp>(name))
    return f;
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  auto f = func::FuncOp::create(b, module.getLoc(), name, type);
  f.setPrivate();
  return f;
}

struct RuntimeQueries {
  func::FuncOp globalThreadNum, boundThreadNum, boundNumThreads;
};

void rewrite(omp::WsloopOp wsloop, omp::LoopNestOp nest,
             const RuntimeQueries &rt) {
  Location loc = wsloop.getLoc();
  OpBuilder b(wsloop);
  auto index = [&](Value v) -> Value {
    if (v.getType().isIndex())
      return v;
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
  };
  auto cst = [&](int64_t c) -> Value {
    return arith::ConstantIndexOp::create(b, loc, c);
  };
  Value zero = cst(0), one = cst(1);
  // Trip counts (clamped at 0) and their product.
  SmallVector<Value> lbs, steps, trips;
  Value total = one;
  for (auto [lb, ub, step] :
       llvm::zip(nest.getLoopLowerBounds(), nest.getLoopUpperBounds(),
                 nest.getLoopSteps())) {
    Value l = index(lb), u = index(ub), s = index(step);
    Value span = arith::SubIOp::create(b, loc, u, l);
    Value trip = arith::CeilDivSIOp::create(b, loc, span, s);
    trip = arith::MaxSIOp::create(b, loc, trip, zero);
    lbs.push_back(l);
    steps.push_back(s);
    trips.push_back(trip);
    total = arith::MulIOp::create(b, loc, total, trip);
  }
  // The balanced static split: thread t of n runs total / n iterations,
  // one more for the first total % n threads.
  Value ident =
      LLVM::ZeroOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext()));
  Value gtid =
      func::CallOp::create(b, loc, rt.globalThreadNum, ValueRange{ident})
          .getResult(0);
  Value tid = index(
      func::CallOp::create(b, loc, rt.boundThreadNum, ValueRange{ident, gtid})
          .getResult(0));
  Value nth = index(
      func::CallOp::create(b, loc, rt.boundNumThreads, ValueRange{ident, gtid})
          .getResult(0));
  Value chunk = arith::DivUIOp::create(b, loc, total, nth);
  Value extra = arith::RemUIOp::create(b, loc, total, nth);
  Value begin =
      arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, tid, chunk),
                            arith::MinUIOp::create(b, loc, tid, extra));
  Value more = arith::SelectOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, tid, extra), one,
      zero);
  Value end = arith::AddIOp::create(b, loc, begin,
                                    arith::AddIOp::create(b, loc, chunk, more));
  auto loop = scf::ForOp::create(b, loc, begin, end, one);
  b.setInsertionPointToStart(loop.getBody());
  // Row-major delinearization (the last loop of the nest varies fastest).
  Block &nestBody = nest.getRegion().front();
  Value rest = loop.getInductionVar();
  for (int64_t d = static_cast<int64_t>(trips.size()) - 1; d >= 0; --d) {
    Value i = rest;
    if (d > 0) {
      i = arith::RemUIOp::create(b, loc, rest, trips[d]);
      rest = arith::DivUIOp::create(b, loc, rest, trips[d]);
    }
    Value iv = arith::AddIOp::create(
        b, loc, lbs[d], arith::MulIOp::create(b, loc, i, steps[d]));
    Value arg = nestBody.getArgument(d);
    if (!arg.getType().isIndex())
      iv = arith::IndexCastOp::create(b, loc, arg.getType(), iv);
    arg.replaceAllUsesWith(iv);
  }
  // Move (not clone) the body: worksharing loops nested in it stay the
  // same operations, still to be rewritten.
  Block *target = loop.getBody();
  target->getOperations().splice(target->getTerminator()->getIterator(),
                                 nestBody.getOperations(), nestBody.begin(),
                                 std::prev(nestBody.end()));
  wsloop.erase();
}

struct OmpThreadLoops
    : public conv::impl::ConvOmpThreadLoopsPassBase<OmpThreadLoops> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<std::pair<omp::WsloopOp, omp::LoopNestOp>> work;
    module.walk([&](omp::WsloopOp wsloop) {
      if (omp::LoopNestOp nest = rewritableNest(wsloop))
        work.push_back({wsloop, nest});
    });
    if (work.empty())
      return;
    // Leave the module alone when a name is taken by something else.
    MLIRContext *ctx = module.getContext();
    std::pair<StringRef, FunctionType> queries[] = {
        {kGlobalThreadNum, runtimeQueryType(ctx, /*withGtid=*/false)},
        {kBoundThreadNum, runtimeQueryType(ctx, /*withGtid=*/true)},
        {kBoundNumThreads, runtimeQueryType(ctx, /*withGtid=*/true)}};
    for (auto [name, type] : queries)
      if (nameTaken(module, name, type))
        return;
    auto declare = [&](int i) {
      return declareRuntimeQuery(module, queries[i].first, queries[i].second);
    };
    RuntimeQueries rt{declare(0), declare(1), declare(2)};
    for (auto [wsloop, nest] : work)
      rewrite(wsloop, nest, rt);
  }
};

} // namespace
