#!/usr/bin/env bash
# Installs what tcfuzz needs to build and test, with apt, only what is missing (idempotent).
# The CUDA toolkit is not an apt package here: when nvcc is absent the GPU parts are off.
set -euo pipefail

packages=(
  cmake ninja-build g++                 # build
  clang libclang-rt-14-dev              # libFuzzer + ASan/UBSan runtimes (fuzz preset)
  clang-format                          # the style check (ctest style.format)
  libgtest-dev                          # GoogleTest
  librapidcheck-dev                     # RapidCheck, with rapidcheck/gtest.h
  libbenchmark-dev                      # Google Benchmark
  nlohmann-json3-dev                    # JSON reports and --json output
  libxml2-utils                         # xmllint: junit.xml checked against the JUnit schema
  python3-yaml                          # docs/ci.md's YAML examples parsed in a test
  chromium                              # report/index.html rendered headless in a test
  libcli11-dev                          # command-line parsing
  pybind11-dev python3-dev python3-pytest python3-pip  # the Python module, its tests, its pip install
  python3-numpy                         # tcfuzz.emulate takes and returns NumPy arrays
  pkg-config                            # the installed package's .pc file, checked in a test
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "setup: all packages present"
fi

if [ -x /usr/local/cuda/bin/nvcc ] || command -v nvcc >/dev/null 2>&1; then
  echo "setup: CUDA toolkit found, GPU parts will build"
else
  echo "setup: no CUDA toolkit (nvcc), GPU parts are off and GPU tests will skip"
fi
