"""docs/library.md's test, run as written and type-checked against the package's stubs: what the
page tells a kernel author to copy must pass, and must pass `mypy --strict`."""
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "library.md"


def example():
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 1, "library.md has one python block: the test to copy"
    return blocks[0]


def test_the_example_passes(tmp_path):
    path = tmp_path / "test_kernel_lib.py"
    path.write_text(example(), encoding="utf-8")
    namespace = {}
    exec(compile(path.read_text(), str(path), "exec"), namespace)
    tests = [f for name, f in namespace.items() if name.startswith("test_")]
    assert len(tests) == 3
    for test in tests:
        test()


def test_the_example_is_typed(tmp_path):
    if subprocess.run([sys.executable, "-m", "mypy", "--version"],
                      capture_output=True).returncode != 0:
        pytest.skip("mypy is not installed (scripts/setup.sh installs it)")
    path = tmp_path / "test_kernel_lib.py"
    path.write_text(example(), encoding="utf-8")
    # mypy reads the package's stubs wherever `import tcfuzz` finds it (the source tree's
    # python/tcfuzz in ctest, a venv's own site-packages in python.wheel_install and
    # python.sdist_builds_a_wheel).
    import tcfuzz
    package_root = pathlib.Path(tcfuzz.__file__).resolve().parents[1]
    env = dict(os.environ)
    if package_root.name != "site-packages":  # an installed package mypy finds by itself
        env["MYPYPATH"] = str(package_root)
    out = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                          "--cache-dir", str(tmp_path / "cache"), str(path)],
                         capture_output=True, text=True, env=env, cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_stubs_name_what_the_module_has():
    """Every public function of each submodule is in its stub and every stubbed one exists: the
    types cannot drift from the extension unnoticed."""
    import ast

    import tcfuzz
    stubs = pathlib.Path(__file__).resolve().parents[1] / "tcfuzz"
    for sub in ["smem", "zcm", "sparse", "numerics", "emulate"]:
        tree = ast.parse((stubs / (sub + ".pyi")).read_text(encoding="utf-8"))
        stubbed = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
        runtime = {n for n in dir(getattr(tcfuzz, sub)) if not n.startswith("_")}
        assert stubbed == runtime, sub
