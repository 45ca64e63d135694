# Install rules of ConvGen, included last by the top-level CMakeLists.txt.
#
#   cmake --install <build> --prefix <P>
#     <P>/include/conv, <P>/include/conv-c     public headers (+ .td, and the
#                                              generated .h.inc they include)
#     <P>/lib/libConv*.a, libMLIRConvDialect.a the C++ libraries (static)
#     <P>/lib/libConvGenC.so                   the C API
#     <P>/bin/conv-opt, conv-run, conv-bench   the tools (CONVGEN_BUILD_TOOLS)
#     <P>/lib/cmake/ConvGen/                   ConvGenConfig.cmake: for
#                                              find_package(ConvGen), targets
#                                              ConvGen::<name>
#
# With CONVGEN_PYTHON_WHEEL (python/pyproject.toml, scikit-build-core) only
# libConvGenC.so is installed, into convgen/ of the wheel, next to the
# package's Python files (component "python").
#
# Nothing is relocated: the installed libConvGenC.so and tools find libMLIR /
# libLLVM through a RUNPATH to the LLVM they were built against
# (${LLVM_LIBRARY_DIR}, /usr/lib/llvm-22/lib for Debian's packages), and the
# JIT loads libomp from the absolute path found at configure time
# (CONV_LIBOMP_PATH, lib/Runtime/CMakeLists.txt).

# The build tree's binaries have that RUNPATH from the link line; CMake
# replaces it on install by INSTALL_RPATH (add_llvm_executable's default is
# only $ORIGIN/../lib).
set_target_properties(ConvGenC PROPERTIES INSTALL_RPATH "${LLVM_LIBRARY_DIR}")

if(CONVGEN_PYTHON_WHEEL)
  install(TARGETS ConvGenC
    LIBRARY DESTINATION convgen COMPONENT python)
  return()
endif()

include(CMakePackageConfigHelpers)

set(CONVGEN_INSTALL_LIBDIR lib${LLVM_LIBDIR_SUFFIX})
set(CONVGEN_INSTALL_INCLUDEDIR include)
set(CONVGEN_INSTALL_CMAKEDIR ${CONVGEN_INSTALL_LIBDIR}/cmake/ConvGen)

# Every library, in dependency order; the static ones all go to the
# consumer's link line through ConvGen::ConvRuntime's link interface.
set(CONVGEN_INSTALLED_LIBRARIES
  ConvGeometry
  ConvSupport
  ConvReference
  MLIRConvDialect
  ConvToLinalg
  ConvCodegen
  ConvPipelines
  ConvInitAll
  ConvRuntime
  ConvGenC
)
install(TARGETS ${CONVGEN_INSTALLED_LIBRARIES}
  EXPORT ConvGenTargets
  LIBRARY DESTINATION ${CONVGEN_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CONVGEN_INSTALL_LIBDIR}
  RUNTIME DESTINATION bin
  INCLUDES DESTINATION ${CONVGEN_INSTALL_INCLUDEDIR})

if(CONVGEN_BUILD_TOOLS)
  set(CONVGEN_INSTALLED_TOOLS conv-opt conv-run)
  if(TARGET conv-bench)
    list(APPEND CONVGEN_INSTALLED_TOOLS conv-bench)
  endif()
  set_target_properties(${CONVGEN_INSTALLED_TOOLS} PROPERTIES
    INSTALL_RPATH "${LLVM_LIBRARY_DIR}")
  install(TARGETS ${CONVGEN_INSTALLED_TOOLS}
    EXPORT ConvGenTargets
    RUNTIME DESTINATION bin)
endif()

# Headers: the sources' .h (and .td, for projects that build on the conv
# dialect's ODS), and the TableGen output the public headers include.
install(DIRECTORY
    ${PROJECT_SOURCE_DIR}/include/conv
    ${PROJECT_SOURCE_DIR}/include/conv-c
  DESTINATION ${CONVGEN_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/conv
  DESTINATION ${CONVGEN_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h.inc"
  PATTERN "CMakeFiles" EXCLUDE)

install(EXPORT ConvGenTargets
  NAMESPACE ConvGen::
  FILE ConvGenTargets.cmake
  DESTINATION ${CONVGEN_INSTALL_CMAKEDIR})

configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/ConvGenConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/ConvGenConfig.cmake
  INSTALL_DESTINATION ${CONVGEN_INSTALL_CMAKEDIR}
  PATH_VARS CONVGEN_INSTALL_INCLUDEDIR)
# 0.x: a minor version may change the API.
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/ConvGenConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
    ${PROJECT_BINARY_DIR}/cmake/ConvGenConfig.cmake
    ${PROJECT_BINARY_DIR}/cmake/ConvGenConfigVersion.cmake
  DESTINATION ${CONVGEN_INSTALL_CMAKEDIR})
