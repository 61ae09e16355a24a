"""The Python module against the CLI: the same answers on generated cases.

Each case is drawn from a fixed seed (printed by pytest on failure through the case's values);
the CLI's answer comes from `tcfuzz explain batch` / `tcfuzz oracle dot`, one process for all.
"""
import json
import os
import random
import subprocess

import pytest

import tcfuzz

TCFUZZ = os.environ.get("TCFUZZ_BIN", "tcfuzz")
SEED = 20261124


def cli(args, lines):
    out = subprocess.run([TCFUZZ, *args], input="".join(json.dumps(l) + "\n" for l in lines),
                         capture_output=True, text=True, check=True)
    return [json.loads(l) for l in out.stdout.splitlines()]


def test_smem_explain_equals_the_cli():
    rng = random.Random(SEED)
    views = [("sm_90a", "a", "k", "f16", 64, 32), ("sm_90a", "b", "mn", "bf16", 128, 32),
             ("sm_100a", "a", "k", "e4m3", 128, 32), ("sm_100a", "b", "mn", "tf32", 64, 64)]
    cases = []
    for _ in range(300):
        arch, operand, major, dtype, rows, kbytes = rng.choice(views)
        # Mostly plausible descriptors (small fields, any swizzle), some raw 64-bit words.
        desc = rng.getrandbits(64) if rng.random() < 0.3 else (
            rng.getrandbits(14) | rng.getrandbits(6) << 16 | rng.getrandbits(8) << 32
            | rng.getrandbits(3) << 49 | rng.getrandbits(3) << 61 | (1 << 46))
        cases.append(dict(kind="smem", arch=arch, operand=operand, major=major, dtype=dtype,
                          rows=rows, kbytes=kbytes, desc=hex(desc)))
    answers = cli(["explain", "batch"], cases)
    assert len(answers) == len(cases)
    for case, want in zip(cases, answers):
        got = tcfuzz.smem.explain(int(case["desc"], 16), case["arch"], case["operand"],
                                  case["major"], case["dtype"], case["rows"], case["kbytes"])
        assert got["legal"] == want["legal"], case
        assert got["violations"] == [v["rule"] for v in want["violations"]], case
        assert got["addresses"] == want["addresses"], case
        assert got["backing"] == want["backing"], case  # each reading, and how it is backed


def test_smem_encode_equals_the_cli():
    layout = "Swizzle<1,4,3> o ((8,2,2),(8,2)):((1,8,128),(16,256))"
    want = cli(["encode", "batch"], [dict(kind="smem", arch="sm_90a", dtype="f16",
                                          layout=layout, start=1024)])[0]
    got = tcfuzz.smem.encode("sm_90a", "f16", layout, 1024)
    assert hex(got["desc"]) == hex(int(want["desc"], 16))
    assert (got["lbo"], got["sbo"], got["swizzle"]) == (want["lbo"], want["sbo"], want["swizzle"])
    with pytest.raises(ValueError, match="dtype"):
        tcfuzz.smem.encode("sm_90a", "f17", layout)


def test_zero_column_masks_equal_the_cli():
    rng = random.Random(SEED + 1)
    cases = [dict(kind="zcm", m=rng.choice([32, 64, 128]), n=rng.choice([8, 64, 200, 256]),
                  desc=hex(rng.getrandbits(64))) for _ in range(300)]
    answers = cli(["explain", "batch"], cases)
    assert len(answers) == len(cases)
    for case, want in zip(cases, answers):
        desc = int(case["desc"], 16)
        assert tcfuzz.zcm.expand(desc, case["m"], case["n"]) == int(want["mask"], 16), case
        v = tcfuzz.zcm.validate(desc, case["m"], case["n"])
        assert v["violations"] == [x["rule"] for x in want["violations"]], case
        assert v["backing"] == want["backing"], case


def test_dot_products_equal_the_cli():
    # Numerics reference T1 (fp16 -> f32): Hopper keeps 25 fraction bits, 0x3F800001.
    a, b = [0x3C00] + [0x0800] * 5, [0x3C00] + [0x0C00] * 5
    assert tcfuzz.numerics.dot("sm_90", "mma", "f16", "f32", a, b, 0) == 0x3F800001
    rng = random.Random(SEED + 2)
    lines = [dict(a=[f"{rng.getrandbits(16):04x}" for _ in range(16)],
                  b=[f"{rng.getrandbits(16):04x}" for _ in range(16)],
                  c=f"{rng.getrandbits(32):08x}") for _ in range(200)]
    out = subprocess.run([TCFUZZ, "oracle", "dot", "--arch", "sm_90", "--instr", "mma", "--ab",
                          "f16", "--cd", "f32"], input="".join(json.dumps(l) + "\n" for l in lines),
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert len(out) == len(lines)
    for line, want in zip(lines, out):
        got = tcfuzz.numerics.dot("sm_90", "mma", "f16", "f32", [int(x, 16) for x in line["a"]],
                                  [int(x, 16) for x in line["b"]], int(line["c"], 16))
        assert f"{got:08x}" == json.loads(want)["d"], line
    # Bits above the format's width: the CLI and the module both refuse (neither drops them).
    with pytest.raises(ValueError, match="bits above the 16 of f16"):
        tcfuzz.numerics.dot("sm_90", "mma", "f16", "f32", [0x13C00], [0x3C00], 0)
    with pytest.raises(ValueError, match="bits above the 4 of e2m1"):
        tcfuzz.numerics.dot("sm_100", "tcgen05", "e2m1", "f32", [0x12], [0x2], 0,
                            allow_unconfirmed=True)
    refused = subprocess.run([TCFUZZ, "oracle", "dot", "--arch", "sm_100", "--instr", "tcgen05",
                              "--ab", "e2m1", "--allow-unconfirmed"],
                             input='{"a":["12"],"b":["02"],"c":"00000000"}\n',
                             capture_output=True, text=True)
    assert refused.returncode == 2 and "bits above the 4 of e2m1" in refused.stderr, refused


def test_sparse_maps_and_metadata():
    # PTX m16n8k32 f16, ordered metadata: nibble 0x4 (indices 0, 1) in every chunk is legal;
    # 0x0 repeats index 0 and is not.
    ok = [0x44444444] * 32
    good = tcfuzz.sparse.validate("m16n8k32", "f16", ok)
    assert good["legal"]
    # The maps rest on the spec's formulas (SP0) and its bit placement (SP1), each with how
    # it is backed.
    ids = [r["id"] for r in good["backing"]]
    assert ids[:2] == ["SP0", "SP1"], ids
    assert all(r["backing"] in ("hardware", "spec", "hypothesis") for r in good["backing"])
    bad = tcfuzz.sparse.validate("m16n8k32", "f16", [0] * 32)
    assert not bad["legal"] and bad["violations"]
    row, chunk, slot = tcfuzz.sparse.map_a("m16n8k32", "f16", 0, 0, 0)
    assert (row, chunk, slot) == (0, 0, 0)
    with pytest.raises(ValueError):
        tcfuzz.sparse.validate("m16n8k33", "f16", ok)
    for bad_call in (lambda: tcfuzz.sparse.map_a("m16n8k32", "f16", 99, 0, 0),
                     lambda: tcfuzz.sparse.map_b("m16n8k32", "f16", 0, 2**30, 0),
                     lambda: tcfuzz.sparse.map_meta("m16n8k32", "f16", 5, 40, -3)):
        with pytest.raises(ValueError, match="outside"):
            bad_call()


def test_rules_are_the_clis_rules():
    out = subprocess.run([TCFUZZ, "rules", "--json"], capture_output=True, text=True,
                         check=True).stdout
    ids = [r["rule"] for r in json.loads(out)]
    assert [r["rule"] for r in tcfuzz.rules()] == ids
    assert "problem.nz_alignment" in ids


def test_the_version_is_the_clis():
    """One version everywhere (issue 35): the module's is `tcfuzz --version`'s, and pip's
    metadata's where the package was installed with pip."""
    assert tcfuzz.__version__.count(".") == 2, tcfuzz.__version__
    out = subprocess.run([TCFUZZ, "--version"], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "tcfuzz " + tcfuzz.__version__
    try:
        from importlib import metadata
        installed = metadata.version("tcfuzz")
    except Exception:  # the build tree: no distribution metadata
        return
    assert installed == tcfuzz.__version__


def test_encode_and_decode_follow_the_formats():
    """fp8/fp6/fp4/bf16/tf32 bit patterns from values and back (issue 35), golden values from
    the formats' definitions (OCP MX v1.0 for e4m3/e5m2/e3m2/e2m3/e2m1, bias 7/15/3/1/1), chosen
    where a wrong rounding, bias or saturation gives another pattern."""
    import numpy as np
    enc = tcfuzz.numerics.encode
    dec = tcfuzz.numerics.decode
    e4m3 = enc([1.0, -2.0, 448.0, 500.0, 2.0 ** -9, float("nan")], "e4m3")
    assert e4m3.dtype == np.uint8
    assert e4m3.tolist() == [0x38, 0xC0, 0x7E, 0x7E, 0x01, 0x7F]  # 500: satfinite, not NaN
    assert enc([1.0, float("inf"), 57344.0], "e5m2").tolist() == [0x3C, 0x7C, 0x7B]
    # e2m1: 5 is halfway between 4 (0x6) and 6 (0x7): to even gives 4; toward zero too; 5.5 -> 6.
    assert enc([6.0, 0.5, 1.0, 5.0, 5.5], "e2m1").tolist() == [0x7, 0x1, 0x2, 0x6, 0x7]
    assert enc([5.5], "e2m1", round="zero").tolist() == [0x6]
    assert enc([1.0, 28.0], "e3m2").tolist() == [0x0C, 0x1F]
    assert enc([1.0, 7.5], "e2m3").tolist() == [0x08, 0x1F]
    bf16 = enc([1.0, 1 + 2.0 ** -8, 1 + 2.0 ** -8 + 2.0 ** -20], "bf16")
    assert bf16.dtype == np.uint16 and bf16.tolist() == [0x3F80, 0x3F80, 0x3F81]
    tf32 = enc([1.0, 1 + 2.0 ** -11, 1 + 2.0 ** -10], "tf32")
    assert tf32.dtype == np.uint32 and tf32.tolist() == [0x3F800000, 0x3F800000, 0x3F802000]
    # Shapes are kept; decode is exact and ignores tf32's low 13 bits, as the hardware does.
    square = dec(np.array([[0x7E, 0x38], [0xC0, 0x01]], dtype=np.uint8), "e4m3")
    assert square.shape == (2, 2) and square.tolist() == [[448.0, 1.0], [-2.0, 2.0 ** -9]]
    assert np.isnan(dec([0x7F], "e4m3")[0]) and np.isinf(dec([0x7C], "e5m2")[0])
    assert dec([0x3F801FFF], "tf32").tolist() == [1.0]
    for bits, fmt in [(0x100, "e4m3"), (0x40, "e2m3"), (0x10, "e2m1")]:
        with pytest.raises(ValueError, match="bits above"):
            dec([bits], fmt)
    with pytest.raises(ValueError, match="not a float format"):
        enc([1.0], "s8")
    with pytest.raises(ValueError, match="round"):
        enc([1.0], "e4m3", round="up")
