"""pip install --no-build-isolation ./python  (offline: setuptools, pybind11-dev and a C++20
compiler from Debian). Builds the oracle's sources and the module into one extension."""
import glob
import os

from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ORACLE = sorted(glob.glob(os.path.join(ROOT, "oracle", "**", "*.cc"), recursive=True))

setup(
    name="tcfuzz",
    version="0.2.0",
    description="tcfuzz's oracle for tensor-core operands",
    packages=["tcfuzz"],
    package_dir={"tcfuzz": os.path.join(os.path.relpath(HERE), "tcfuzz")},
    ext_modules=[
        Extension(
            "tcfuzz._tcfuzz",
            sources=[os.path.relpath(p) for p in [os.path.join(HERE, "tcfuzz_module.cc"), *ORACLE]],
            include_dirs=[ROOT],
            language="c++",
            extra_compile_args=["-std=c++20", "-O2", '-DTCFUZZ_VERSION="0.2.0"'],
        )
    ],
)
