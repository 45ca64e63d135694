#!/usr/bin/env bash
# ctest packaging.install-consumer: `cmake --install` the build tree into a
# temporary prefix, check the layout, then configure, build and run
# consumer/ (a separate CMake project: find_package(ConvGen), C++ JIT and
# C API) against that prefix.
#   install-consumer.sh <ConvGen build dir> <consumer source dir>
set -euo pipefail
BUILD="$1"
CONSUMER="$2"
TMP="$(mktemp -d "${TMPDIR:-/tmp}/convgen-install.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
PREFIX="$TMP/prefix"
export CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-2}"

cmake --install "$BUILD" --prefix "$PREFIX" > "$TMP/install.log"

fail() { echo "install-consumer: $*" >&2; exit 1; }
for f in lib/cmake/ConvGen/ConvGenConfig.cmake \
         lib/cmake/ConvGen/ConvGenConfigVersion.cmake \
         lib/cmake/ConvGen/ConvGenTargets.cmake \
         include/conv/Runtime/Jit.h include/conv-c/ConvGen.h \
         include/conv/Dialect/Conv/IR/ConvOps.h.inc \
         lib/libConvRuntime.a lib/libConvGenC.so bin/conv-opt bin/conv-run; do
  [ -e "$PREFIX/$f" ] || fail "missing $f in the installed tree"
done
# The installed shared library and tools find libMLIR/libLLVM by RUNPATH.
for f in lib/libConvGenC.so bin/conv-opt; do
  ldd "$PREFIX/$f" | grep -q "not found" && fail "$f: unresolved libraries: $(ldd "$PREFIX/$f" | grep 'not found')"
done
echo 'func.func @f() { return }' | "$PREFIX/bin/conv-opt" > /dev/null \
  || fail "the installed conv-opt does not run"

# The consumer finds ConvGen (and through it MLIR/LLVM) by CMAKE_PREFIX_PATH
# alone.
cmake -S "$CONSUMER" -B "$TMP/consumer" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$PREFIX" > "$TMP/configure.log" \
  || { cat "$TMP/configure.log"; fail "configuring the consumer failed"; }
cmake --build "$TMP/consumer" > "$TMP/build.log" \
  || { cat "$TMP/build.log"; fail "building the consumer failed"; }
"$TMP/consumer/consumer-cpp"
"$TMP/consumer/consumer-c"
