"""The tcfuzz sdist: what building the module anywhere takes (issue 35: the sdist held no oracle
sources, so no wheel could be built from it). setup.py and pyproject.toml at its root, beside
python/ (the module's sources and the package), oracle/ and harness/emulator/ (the sources the
module compiles), include/tcfuzz/backend.h and CMakeLists.txt (the project's version). Run by the
CMake target python_sdist:

  python3 make_sdist.py --version 0.3.0 --out DIR

prints the archive's path; `pip wheel --no-build-isolation --no-index --no-deps ARCHIVE` then
builds the wheel offline with Debian's setuptools and pybind11-dev."""
import argparse
import io
import os
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def members():
    """(path in the archive, path on disk), sorted: every file the build reads."""
    out = [("setup.py", os.path.join(HERE, "setup.py")),
           ("pyproject.toml", os.path.join(HERE, "pyproject.toml")),
           ("CMakeLists.txt", os.path.join(ROOT, "CMakeLists.txt")),
           ("LICENSE", os.path.join(ROOT, "LICENSE")),
           ("include/tcfuzz/backend.h", os.path.join(ROOT, "include", "tcfuzz", "backend.h"))]
    for folder, suffixes in [("oracle", (".h", ".cc")), ("harness/emulator", (".h", ".cc")),
                             ("python", (".h", ".cc", ".py", ".pyi", ".typed"))]:
        for dirpath, dirnames, files in os.walk(os.path.join(ROOT, folder)):
            dirnames[:] = sorted(d for d in dirnames
                                 if d not in ("tests", "build", "__pycache__")
                                 and not d.endswith(".egg-info"))
            for name in files:
                if name.endswith(suffixes) and name not in ("setup.py", "make_sdist.py",
                                                            "make_wheel.py"):
                    path = os.path.join(dirpath, name)
                    out.append((os.path.relpath(path, ROOT), path))
    return sorted(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--version", required=True)
    ap.add_argument("--out", required=True, help="folder for the archive")
    a = ap.parse_args()
    top = "tcfuzz-%s" % a.version
    os.makedirs(a.out, exist_ok=True)
    archive = os.path.join(a.out, top + ".tar.gz")
    partial = archive + ".part"
    pkg_info = ("Metadata-Version: 2.1\nName: tcfuzz\nVersion: %s\n"
                "Summary: tcfuzz's oracle and emulator for tensor-core operands\n"
                "License: Apache-2.0\nRequires-Dist: numpy\n" % a.version).encode()
    with tarfile.open(partial, "w:gz") as tar:
        info = tarfile.TarInfo(top + "/PKG-INFO")
        info.size = len(pkg_info)
        tar.addfile(info, io.BytesIO(pkg_info))
        for name, path in members():
            tar.add(path, arcname=top + "/" + name, recursive=False)
    os.replace(partial, archive)  # whole or not at all
    print(archive)


if __name__ == "__main__":
    main()
