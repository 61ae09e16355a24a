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
  libcli11-dev                          # command-line parsing
  pybind11-dev python3-dev python3-pytest python3-pip  # the Python module, its tests, its pip install
  python3-venv python3-wheel            # the wheel (python/make_wheel.py) installed into a venv
  python3-numpy                         # tcfuzz.emulate takes and returns NumPy arrays
  mypy                                  # the Python stubs checked with mypy --strict in a test
  pkg-config                            # the installed package's .pc file, checked in a test
)

# Installed where the system's apt has them; their tests skip visibly where not (Ubuntu ships
# chromium only as a snap, so the CUDA images of deploy/Dockerfile have no deb of it).
optional=(
  chromium                              # report/index.html rendered headless in a test
  slurmctld slurmd slurm-client munge   # docs/ci.md's job array on a private Slurm (ctest slurm)
)

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
missing=()
for p in "${packages[@]}"; do installed "$p" || missing+=("$p"); done
missing_optional=()
for p in "${optional[@]}"; do installed "$p" || missing_optional+=("$p"); done

if ((${#missing[@]} + ${#missing_optional[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  for p in "${missing_optional[@]}"; do
    if apt-cache show "$p" 2>/dev/null | grep -q '^Filename:.*\.deb$' &&
      ! apt-cache show "$p" 2>/dev/null | grep -qi 'transitional'; then
      missing+=("$p")
    else
      echo "setup: $p is not a deb in this system's apt sources; the test that needs it will skip"
    fi
  done
  if ((${#missing[@]})); then
    echo "setup: installing ${missing[*]}"
    $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
else
  echo "setup: all packages present"
fi

if [ -x /usr/local/cuda/bin/nvcc ] || command -v nvcc >/dev/null 2>&1; then
  echo "setup: CUDA toolkit found, GPU parts will build"
else
  echo "setup: no CUDA toolkit (nvcc), GPU parts are off and GPU tests will skip"
fi
