//===- Main.cpp - GoogleTest main of the unit tests -----------------------===//
//
// GoogleTest's main, plus LLVM's crash handler: a test that crashes (a
// signal such as SIGSEGV) prints the running test's name and a symbolized
// stack trace before the process dies, so that a rare crash in a CI log
// (ctest --output-on-failure; the tests run with --gtest_brief=1, which
// prints no "[ RUN ]" lines) says where it happened.
//
//===----------------------------------------------------------------------===//

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Signals.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace {

void printRunningTest(void *) {
  const ::testing::TestInfo *info =
      ::testing::UnitTest::GetInstance()->current_test_info();
  if (info)
    std::fprintf(stderr, "crashed in test %s.%s\n", info->test_suite_name(),
                 info->name());
  else
    std::fprintf(stderr, "crashed outside a test\n");
  std::fflush(stderr);
}

} // namespace

int main(int argc, char **argv) {
  llvm::sys::PrintStackTraceOnErrorSignal(argv[0]);
  llvm::sys::AddSignalHandler(printRunningTest, nullptr);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
