# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "CONVGEN"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.conv_obj_root, "test")
config.excludes = ["Inputs", "CMakeLists.txt", "README.md", "lit.cfg.py",
                   "lit.site.cfg.py"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%conv_src_root", config.conv_src_root))
config.substitutions.append(("%conv_tools_dir", config.conv_tools_dir))
config.environment["FILECHECK_OPTS"] = "--enable-var-scope"

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

tool_dirs = [config.conv_tools_dir, config.llvm_tools_dir]
tools = ["conv-opt", "conv-run", "mlir-opt", "mlir-runner", "mlir-translate"]
llvm_config.add_tool_substitutions(tools, tool_dirs)
config.substitutions.append(
    ("%conv_capi_test", os.path.join(config.conv_tools_dir, "conv-capi-test")))
# Python with numpy (the repository's venv) for tests that make .npy files.
_venv_python = os.path.join(config.conv_src_root, ".venv", "bin", "python")
config.substitutions = [s for s in config.substitutions if s[0] != "%python"]
config.substitutions.append(
    ("%python", _venv_python if os.path.exists(_venv_python) else "python3"))
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

# Runtime libraries for mlir-runner execution tests.
config.substitutions.append(
    ("%mlir_runner_utils",
     os.path.join(config.mlir_lib_dir, "libmlir_runner_utils.so")))
config.substitutions.append(
    ("%mlir_c_runner_utils",
     os.path.join(config.mlir_lib_dir, "libmlir_c_runner_utils.so")))

# Hosts with AVX-512 (the tests of host-dependent lowerings that only run
# there, e.g. conv-cpu-streaming-stores in the CPU pipeline).
try:
    with open("/proc/cpuinfo") as _cpuinfo:
        if any(line.startswith("flags") and " avx512f" in line
               for line in _cpuinfo):
            config.available_features.add("avx512")
except OSError:
    pass
