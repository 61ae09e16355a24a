#!/bin/sh
# ctest python.wheel_install and python.sdist_builds_a_wheel: a wheel installed as docs/library.md
# says (a venv over Debian's NumPy and pytest, pip offline), then the package's tests run with
# tcfuzz imported from that venv alone.
#   check_install.sh PYTHON WORK_DIR WHEEL_FILE_OR_SDIST TESTS_DIR
# An sdist (*.tar.gz) is first built into a wheel by pip, from the archive alone.
set -eu
python=$1 work=$2 package=$3 tests=$4
rm -rf "$work" && mkdir -p "$work" && cd "$work"
case "$package" in
  *.tar.gz)
    "$python" -m pip wheel -q --no-build-isolation --no-index --no-deps -w wheel "$package"
    package=$(ls "$work"/wheel/tcfuzz-*.whl) ;;
esac
"$python" -m venv --system-site-packages venv
venv/bin/pip install -q --no-index --no-deps "$package"
cd / && PYTHONPATH= PIP_DISABLE_PIP_VERSION_CHECK=1 "$work/venv/bin/python" -m pytest -q \
  -p no:cacheprovider "$tests"
