//===- ObjectCodeTest.cpp - Split compilation of LLVM modules -------------===//

#include "conv/Runtime/ObjectCode.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <mutex>
#include <string>
#include <vector>

using namespace convgen;

namespace {

/// `define i64 @name(i64 %x)` with `adds` dependent adds (adds + 1
/// instructions).
std::string chain(const std::string &name, int adds) {
  std::string ir = "define i64 @" + name + "(i64 %x) {\n";
  std::string last = "%x";
  for (int i = 0; i < adds; ++i) {
    std::string v = "%v" + std::to_string(i);
    ir += "  " + v + " = add i64 " + last + ", " + std::to_string(i + 1) + "\n";
    last = v;
  }
  return ir + "  ret i64 " + last + "\n}\n";
}

std::unique_ptr<llvm::Module> parse(const std::string &ir,
                                    llvm::LLVMContext &context) {
  llvm::SMDiagnostic error;
  auto module = llvm::parseAssemblyString(ir, error, context);
  EXPECT_TRUE(module) << error.getMessage().str();
  return module;
}

ObjectCodeOptions splitOptions(unsigned parts) {
  ObjectCodeOptions options;
  options.maxParts = parts;
  options.minSplitInstructions = 0;
  options.createTargetMachine =
      []() -> llvm::Expected<std::unique_ptr<llvm::TargetMachine>> {
    auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
    if (!builder)
      return builder.takeError();
    return builder->createTargetMachine();
  };
  return options;
}

void initializeTarget() {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
}

TEST(ObjectCode, PartitionsTheLargestFunctionsFirst) {
  llvm::LLVMContext context;
  auto module = parse(chain("a", 100) + chain("b", 60) + chain("c", 50) +
                          "declare i64 @external(i64)\n",
                      context);
  // Declarations are not listed; a to part 0, b to part 1, c to the
  // lighter part 1 (61 < 101).
  EXPECT_EQ(partitionFunctions(*module, splitOptions(2)),
            (llvm::SmallVector<unsigned>{0, 1, 1}));
  EXPECT_EQ(partitionFunctions(*module, splitOptions(3)),
            (llvm::SmallVector<unsigned>{0, 1, 2}));
  EXPECT_EQ(partitionFunctions(*module, splitOptions(1)),
            (llvm::SmallVector<unsigned>{0, 0, 0}));
}

TEST(ObjectCode, SmallUnbalancedOrUnsplittableModulesStayWhole) {
  llvm::LLVMContext context;
  auto module = parse(chain("a", 100) + chain("b", 60), context);
  ObjectCodeOptions options = splitOptions(2);
  options.minSplitInstructions = 1000;
  EXPECT_EQ(partitionFunctions(*module, options),
            (llvm::SmallVector<unsigned>{0, 0}));
  // b is 61 of 162 instructions: a 38 % gain, not 50 %.
  options = splitOptions(2);
  options.minSplitGain = 0.5;
  EXPECT_EQ(partitionFunctions(*module, options),
            (llvm::SmallVector<unsigned>{0, 0}));
  // A mutable global would be defined by two parts.
  auto withGlobal =
      parse("@counter = internal global i64 0\n" + chain("a", 100) +
                chain("b", 60),
            context);
  EXPECT_EQ(partitionFunctions(*withGlobal, splitOptions(2)),
            (llvm::SmallVector<unsigned>{0, 0}));
  // Local constants are copied into each part.
  auto withConstant = parse(
      "@table = private constant [2 x i64] [i64 1, i64 2]\n" +
          chain("a", 100) + chain("b", 60),
      context);
  EXPECT_EQ(partitionFunctions(*withConstant, splitOptions(2)),
            (llvm::SmallVector<unsigned>{0, 1}));
}

/// Two loop nests in one function (a sequential kernel's shape), a private
/// function called directly and through its address, and a private constant
/// used by both halves.
constexpr const char *kTwoNests = R"(
@scale = private constant i64 3

define internal i64 @twice(i64 %v) {
  %r = shl i64 %v, 1
  ret i64 %r
}

define void @work(ptr %a, ptr %b, i64 %n) {
entry:
  br label %first
first:
  %i = phi i64 [ 0, %entry ], [ %i.next, %first ]
  %pa = getelementptr i64, ptr %a, i64 %i
  %va = load i64, ptr %pa
  %s = load i64, ptr @scale
  %m = mul i64 %va, %s
  %m1 = add i64 %m, 1
  %m2 = xor i64 %m1, 5
  %m3 = add i64 %m2, %i
  %m4 = mul i64 %m3, 7
  %m5 = sub i64 %m4, %va
  %m6 = call i64 @twice(i64 %m5)
  store i64 %m6, ptr %pa
  %i.next = add i64 %i, 1
  %c = icmp ult i64 %i.next, %n
  br i1 %c, label %first, label %between
between:
  br label %second
second:
  %j = phi i64 [ 0, %between ], [ %j.next, %second ]
  %qa = getelementptr i64, ptr %a, i64 %j
  %qb = getelementptr i64, ptr %b, i64 %j
  %wa = load i64, ptr %qa
  %wb = load i64, ptr %qb
  %f = select i1 true, ptr @twice, ptr null
  %t = call i64 %f(i64 %wb)
  %u = add i64 %wa, %t
  %u1 = xor i64 %u, 9
  %u2 = mul i64 %u1, 5
  %u3 = sub i64 %u2, %j
  %u4 = add i64 %u3, 11
  store i64 %u4, ptr %qb
  %j.next = add i64 %j, 1
  %d = icmp ult i64 %j.next, %n
  br i1 %d, label %second, label %exit
exit:
  ret void
}
)";

int64_t first(int64_t a, int64_t i) {
  return 2 * (((((a * 3 + 1) ^ 5) + i) * 7) - a);
}
int64_t second(int64_t a, int64_t b, int64_t j) {
  return (((a + 2 * b) ^ 9) * 5) - j + 11;
}

TEST(ObjectCode, SplitsLoopNestsIntoPartsThatLinkTogether) {
  initializeTarget();
  llvm::LLVMContext context;
  auto module = parse(kTwoNests, context);
  ObjectCodeOptions options = splitOptions(2);
  // The functions each part defines, seen by its optimizer (the parts
  // run on two threads).
  std::mutex mutex;
  std::vector<std::string> defined;
  options.optimize = [&](llvm::Module &part, llvm::TargetMachine &) {
    std::lock_guard<std::mutex> lock(mutex);
    for (const llvm::Function &f : part)
      if (!f.isDeclaration())
        defined.push_back(f.getName().str());
    return llvm::Error::success();
  };
  auto parts = compileToObjectCode(*module, options);
  ASSERT_TRUE(bool(parts)) << llvm::toString(parts.takeError());
  ASSERT_EQ(parts->size(), 2u);
  unsigned functions = 0;
  for (const ObjectPart &part : *parts) {
    EXPECT_GT(part.functions, 0u);
    EXPECT_TRUE(part.object);
    functions += part.functions;
  }
  // work, twice, and at least one loop nest moved out of work; every
  // function is defined by exactly one part.
  EXPECT_GE(functions, 3u);
  EXPECT_EQ(defined.size(), functions);
  llvm::sort(defined);
  EXPECT_EQ(std::adjacent_find(defined.begin(), defined.end()), defined.end());
  EXPECT_EQ(llvm::count(defined, "work"), 1);
  EXPECT_EQ(llvm::count(defined, "twice"), 1);

  auto jit = llvm::orc::LLJITBuilder().create();
  ASSERT_TRUE(bool(jit)) << llvm::toString(jit.takeError());
  for (ObjectPart &part : *parts)
    ASSERT_FALSE(bool((*jit)->addObjectFile(std::move(part.object))));
  auto work = (*jit)->lookup("work");
  ASSERT_TRUE(bool(work)) << llvm::toString(work.takeError());
  constexpr int64_t n = 37;
  std::vector<int64_t> a(n), b(n), a0(n), b0(n);
  for (int64_t i = 0; i < n; ++i) {
    a[i] = a0[i] = 5 * i - 40;
    b[i] = b0[i] = 100 - 3 * i;
  }
  work->toPtr<void (*)(int64_t *, int64_t *, int64_t)>()(a.data(), b.data(),
                                                         n);
  for (int64_t i = 0; i < n; ++i) {
    EXPECT_EQ(a[i], first(a0[i], i)) << i;
    EXPECT_EQ(b[i], second(a[i], b0[i], i)) << i;
  }
}

/// A reduction loop carries its sum out: extracted, the value would go
/// through memory (a register tile's accumulators, on every iteration), so
/// it stays, and the module is one part. (Its 9 instructions are within
/// the size limits: half of the function's 25.)
TEST(ObjectCode, LoopsWithResultsStayInTheirFunction) {
  initializeTarget();
  llvm::LLVMContext context;
  auto module = parse(R"(
define i64 @sum(ptr %a, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i64 [ 0, %entry ], [ %acc.next, %loop ]
  %p = getelementptr i64, ptr %a, i64 %i
  %v = load i64, ptr %p
  %w = mul i64 %v, %v
  %x = xor i64 %w, %i
  %acc.next = add i64 %acc, %x
  %i.next = add i64 %i, 1
  %c = icmp ult i64 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  %r = mul i64 %acc.next, 3
  %r1 = add i64 %r, 1
  %r2 = xor i64 %r1, 7
  %r3 = add i64 %r2, %n
  %r4 = mul i64 %r3, %r3
  %r5 = xor i64 %r4, 11
  %r6 = add i64 %r5, 13
  %r7 = mul i64 %r6, 17
  %r8 = xor i64 %r7, %r
  %r9 = add i64 %r8, 19
  %r10 = mul i64 %r9, 23
  %r11 = xor i64 %r10, 29
  %r12 = add i64 %r11, %r1
  ret i64 %r12
}
)",
                      context);
  auto parts = compileToObjectCode(*module, splitOptions(2));
  ASSERT_TRUE(bool(parts)) << llvm::toString(parts.takeError());
  EXPECT_EQ(parts->size(), 1u);
  EXPECT_EQ((*parts)[0].functions, 1u);
}

/// A nest of a tenth of the module: moving it out would not balance two
/// parts (at least a fifth must move, ObjectCodeOptions::minSplitGain), so
/// it stays and the module is one part of one function.
TEST(ObjectCode, SmallNestsStayInTheirFunction) {
  initializeTarget();
  std::string ir = R"(
define i64 @mostly_straight(ptr %a, i64 %n, i64 %x) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr i64, ptr %a, i64 %i
  %v = load i64, ptr %p
  %w = mul i64 %v, 3
  store i64 %w, ptr %p
  %i.next = add i64 %i, 1
  %c = icmp ult i64 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
)";
  std::string last = "%x";
  for (int i = 0; i < 60; ++i) {
    std::string v = "%s" + std::to_string(i);
    ir += "  " + v + " = mul i64 " + last + ", " + std::to_string(i + 3) +
          "\n";
    last = v;
  }
  ir += "  ret i64 " + last + "\n}\n";
  llvm::LLVMContext context;
  auto module = parse(ir, context);
  auto parts = compileToObjectCode(*module, splitOptions(2));
  ASSERT_TRUE(bool(parts)) << llvm::toString(parts.takeError());
  EXPECT_EQ(parts->size(), 1u);
  EXPECT_EQ((*parts)[0].functions, 1u);
  // With a lower bar the same nest moves and the module splits.
  llvm::LLVMContext context2;
  auto again = parse(ir, context2);
  ObjectCodeOptions options = splitOptions(2);
  options.minSplitGain = 0.05;
  parts = compileToObjectCode(*again, options);
  ASSERT_TRUE(bool(parts)) << llvm::toString(parts.takeError());
  EXPECT_EQ(parts->size(), 2u);
}

/// `define void @blocks(ptr %a, i64 %n, i64 %m)`: `depth - 1` loops around
/// 24 consecutive loops of 9 instructions each (a batch block's phases):
/// the inner loops are at loop depth `depth`.
std::string blocks(int depth) {
  std::string ir = "define void @blocks(ptr %a, i64 %n, i64 %m) {\nentry:\n"
                   "  br label %outer0\n";
  std::string prev = "entry";
  for (int d = 0; d + 1 < depth; ++d) {
    std::string o = std::to_string(d);
    ir += "outer" + o + ":\n  %i" + o + " = phi i64 [ 0, %" + prev +
          " ], [ %i" + o + ".next, %latch" + o + " ]\n  br label %" +
          (d + 2 < depth ? "outer" + std::to_string(d + 1) : "l0") + "\n";
    prev = "outer" + o;
  }
  for (int k = 0; k < 24; ++k) {
    std::string j = std::to_string(k);
    std::string from = k == 0 ? prev : "after" + std::to_string(k - 1);
    ir += "l" + j + ":\n  %j" + j + " = phi i64 [ 0, %" + from + " ], [ %j" +
          j + ".next, %l" + j + " ]\n  %p" + j +
          " = getelementptr i64, ptr %a, i64 %j" + j + "\n  %v" + j +
          " = load i64, ptr %p" + j + "\n  %w" + j + " = mul i64 %v" + j +
          ", " + std::to_string(k + 3) + "\n  %x" + j + " = add i64 %w" + j +
          ", %n\n  store i64 %x" + j + ", ptr %p" + j + "\n  %j" + j +
          ".next = add i64 %j" + j + ", 1\n  %c" + j + " = icmp ult i64 %j" +
          j + ".next, %n\n  br i1 %c" + j + ", label %l" + j +
          ", label %after" + j + "\n" + "after" + j + ":\n  br label %" +
          (k < 23      ? "l" + std::to_string(k + 1)
           : depth > 1 ? "latch" + std::to_string(depth - 2)
                       : "exit") +
          "\n";
  }
  for (int d = depth - 2; d >= 0; --d) {
    std::string o = std::to_string(d);
    ir += "latch" + o + ":\n  %i" + o + ".next = add i64 %i" + o +
          ", 1\n  %ci" + o + " = icmp ult i64 %i" + o + ".next, %m\n" +
          "  br i1 %ci" + o + ", label %outer" + o + ", label %" +
          (d > 0 ? "latch" + std::to_string(d - 1) : "exit") + "\n";
  }
  return ir + "exit:\n  ret void\n}\n";
}

/// Loops of 9 instructions, under an eighth of a part's share (about 225 of
/// 450), inside one loop: the function's share of them moves out (the
/// phases of a batch block), although that is less than a fifth of the
/// module (the other function balances the parts).
TEST(ObjectCode, SmallNestsInsideOneLoopBalanceTheParts) {
  initializeTarget();
  llvm::LLVMContext context;
  auto module = parse(blocks(2) + chain("other", 200), context);
  auto parts = compileToObjectCode(*module, splitOptions(2));
  ASSERT_TRUE(bool(parts)) << llvm::toString(parts.takeError());
  ASSERT_EQ(parts->size(), 2u);
  unsigned functions = 0, instructions = 0;
  for (const ObjectPart &part : *parts) {
    functions += part.functions;
    instructions += part.instructions;
  }
  // blocks, other, and the 3 nests that take blocks under its share.
  EXPECT_EQ(functions, 5u);
  EXPECT_GT(instructions, 400u);
}

/// The same loops inside two loops run many times per call: they stay.
TEST(ObjectCode, SmallNestsDeeperDown) {
  initializeTarget();
  llvm::LLVMContext context;
  auto module = parse(blocks(3) + chain("other", 200), context);
  auto parts = compileToObjectCode(*module, splitOptions(2));
  ASSERT_TRUE(bool(parts)) << llvm::toString(parts.takeError());
  unsigned functions = 0;
  for (const ObjectPart &part : *parts)
    functions += part.functions;
  EXPECT_EQ(functions, 2u);
}

} // namespace
