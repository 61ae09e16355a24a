"""The tcfuzz wheel from what CMake built (issue 35: one build of the oracle, no second compile):
python/tcfuzz/ and the _tcfuzz extension module, packed by Debian's `wheel` (python3-wheel),
which writes the RECORD. Run by the CMake target python_wheel:

  python3 make_wheel.py --module _tcfuzz.cpython-311-x86_64-linux-gnu.so --version 0.9.0 --out DIR

prints the wheel's path. `pip install DIR/tcfuzz-*.whl` then needs no compiler and no network."""
import argparse
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def tag():
    """cp311-cp311-linux_x86_64: this interpreter's ABI, for this platform."""
    py = "cp%d%d" % sys.version_info[:2]
    return "%s-%s-%s" % (py, py, sysconfig.get_platform().replace("-", "_").replace(".", "_"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--print-tag", action="store_true", help="print the wheel's tag and stop")
    ap.add_argument("--module", help="the built _tcfuzz extension")
    ap.add_argument("--version")
    ap.add_argument("--out", help="folder for the wheel")
    a = ap.parse_args()
    if a.print_tag:
        print(tag())
        return
    if not (a.module and a.version and a.out):
        ap.error("--module, --version and --out are required")
    with tempfile.TemporaryDirectory(prefix="tcfuzz-wheel-") as stage:
        pkg = os.path.join(stage, "tcfuzz")
        shutil.copytree(os.path.join(HERE, "tcfuzz"), pkg,
                        ignore=shutil.ignore_patterns("__pycache__", "*.so"))
        module = os.path.join(pkg, os.path.basename(a.module))
        shutil.copy2(a.module, module)
        if shutil.which("strip"):  # the build's debug information is a fifth of the size
            subprocess.run(["strip", "--strip-debug", module], check=True)
        info = os.path.join(stage, "tcfuzz-%s.dist-info" % a.version)
        os.mkdir(info)
        with open(os.path.join(info, "METADATA"), "w", encoding="utf-8") as f:
            f.write("Metadata-Version: 2.1\nName: tcfuzz\nVersion: %s\n"
                    "Summary: tcfuzz's oracle and emulator for tensor-core operands\n"
                    "License: Apache-2.0\nRequires-Python: >=%d.%d\nRequires-Dist: numpy\n"
                    % (a.version, *sys.version_info[:2]))
        with open(os.path.join(info, "WHEEL"), "w", encoding="utf-8") as f:
            f.write("Wheel-Version: 1.0\nGenerator: tcfuzz make_wheel.py\n"
                    "Root-Is-Purelib: false\nTag: %s\n" % tag())
        os.makedirs(a.out, exist_ok=True)
        for old in os.listdir(a.out):  # one wheel: the one this build made
            if old.startswith("tcfuzz-") and old.endswith(".whl"):
                os.remove(os.path.join(a.out, old))
        subprocess.run([sys.executable, "-m", "wheel", "pack", "--dest-dir", a.out, stage],
                       check=True, stdout=subprocess.DEVNULL)
    print(os.path.join(a.out, "tcfuzz-%s-%s.whl" % (a.version, tag())))


if __name__ == "__main__":
    main()
