"""The module from source: pip builds the sdist (python/make_sdist.py: this file at its root,
beside the oracle's and the emulator's sources) or ./python in a checkout, offline with
--no-build-isolation (setuptools, pybind11-dev and a C++20 compiler from Debian), compiling the
oracle's sources and the module into one extension. A CMake build makes the wheel without a
second compile (python/make_wheel.py)."""
import atexit
import glob
import os
import re
import shutil
import tempfile

from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))
# An sdist holds the sources beside this file; a checkout has it in python/.
ROOT = HERE if os.path.isdir(os.path.join(HERE, "oracle")) else os.path.dirname(HERE)
PY = os.path.join(ROOT, "python")
ORACLE = sorted(glob.glob(os.path.join(ROOT, "oracle", "**", "*.cc"), recursive=True))
# The built-in emulator behind tcfuzz.emulate (its steps only: no backend table, no plug-in entry).
EMULATOR = [os.path.join(ROOT, "harness", "emulator", name + ".cc")
            for name in ("accumulate", "mutant", "smem_mma_emulator", "warp_mma_emulator")]


def project_version():
    """The version of CMakeLists.txt's project(): the one `tcfuzz --version` prints."""
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        return re.search(r"project\(tcfuzz VERSION ([0-9.]+)", f.read()).group(1)


VERSION = project_version()


def unity_source():
    """The oracle's and the emulator's sources as one translation unit (a third of the compile
    time: their headers are parsed once; both keep their file-local names apart, which the
    add_subdirectory consumer of ctest package.install_relocated builds the same way)."""
    folder = tempfile.mkdtemp(prefix="tcfuzz-unity-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    out = os.path.join(folder, "oracle_unity.cc")
    with open(out, "w", encoding="utf-8") as f:
        for src in ORACLE + EMULATOR:
            f.write('#include "%s"\n' % os.path.relpath(src, ROOT))
    return out


setup(
    name="tcfuzz",
    version=VERSION,
    description="tcfuzz's oracle and emulator for tensor-core operands",
    packages=["tcfuzz"],
    package_data={"tcfuzz": ["py.typed", "*.pyi"]},  # the types, for mypy
    package_dir={"tcfuzz": os.path.relpath(os.path.join(PY, "tcfuzz"), HERE)},
    ext_modules=[
        Extension(
            "tcfuzz._tcfuzz",
            sources=[os.path.relpath(os.path.join(PY, name), HERE)
                     for name in ("tcfuzz_module.cc", "emulate_module.cc", "codec_module.cc",
                                 "mma_module.cc", "numerics_choice.cc")]
            + [unity_source()],
            include_dirs=[ROOT, os.path.join(ROOT, "include")],
            language="c++",
            extra_compile_args=["-std=c++20", "-O2", '-DTCFUZZ_VERSION="%s"' % VERSION],
        )
    ],
)
