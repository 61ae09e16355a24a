"""tcfuzz.mma, the tile-level D = A x B + C: golden values from an exact sum (every product and
partial sum representable in f32, so any correct tensor core gives the exact result), operands
encoded by hand from the OCP FP8 definition and D read with NumPy's own float32, not tcfuzz's
codec; the chain of instructions along K held to its definition through numerics.dot; the
backing of each answer; and the refusals."""
import numpy as np
import pytest

import tcfuzz

# e4m3 by hand (OCP 8-bit floating point, E4M3: bias 7, 3 mantissa bits): s eeee mmm.
E4M3 = {0.0: 0x00, 0.5: 0x30, 1.0: 0x38, 1.5: 0x3C, 2.0: 0x40, 3.0: 0x44}


def e4m3(values):
    return np.array([[E4M3[abs(v)] | (0x80 if v < 0 else 0) for v in row] for row in values],
                    dtype=np.uint8)


def f32_bits(x):
    return np.asarray(x, dtype=np.float32).view(np.uint32)


def test_an_exact_tile_is_the_exact_sum():
    rng = np.random.default_rng(20261127)
    choices = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, -0.5, -1.0, -1.5, -2.0, -3.0]
    a = rng.choice(choices, size=(4, 64))
    b = rng.choice(choices, size=(64, 3))
    c = rng.choice([0.25, -4.0, 100.0], size=(4, 3))
    want = a @ b + c  # float64: exact for these (|sum| < 2^10 in quarters)
    for arch, instr in [("sm_90", "wgmma"), ("sm_89", "mma"), ("sm_90", "mma")]:
        got = tcfuzz.mma(e4m3(a), e4m3(b), f32_bits(c), arch=arch, instr=instr,
                         types=("e4m3", "f32"))
        assert got.d.shape == (4, 3) and got.d.dtype == np.uint32
        np.testing.assert_array_equal(got.d, f32_bits(want), err_msg=arch + " " + instr)
        assert got.backing == "hardware"
    # C left out: zeros.
    got = tcfuzz.mma(e4m3(a), e4m3(b), arch="sm_90", instr="wgmma", types=("e4m3", "f32"))
    np.testing.assert_array_equal(got.d, f32_bits(a @ b))


def test_k_is_a_chain_of_instructions():
    # sm_90 mma.sync with fp8 runs as f16 MMAs whose grouping depends on the instruction's K, so
    # where the chain is cut changes D: the default step (32 for fp8) and one of 64 differ.
    rng = np.random.default_rng(7)
    differ = 0
    for _ in range(40):
        a = rng.integers(0, 0x7E, size=(2, 64)).astype(np.uint8)
        b = rng.integers(0, 0x7E, size=(64, 2)).astype(np.uint8) | 0x80
        c = f32_bits(rng.normal(size=(2, 2)) * 1000)
        kw = dict(arch="sm_90", instr="mma", types=("e4m3", "f32"))
        d32 = tcfuzz.mma(a, b, c, **kw).d
        d64 = tcfuzz.mma(a, b, c, k_step=64, **kw).d
        for i in range(2):
            for j in range(2):
                first = tcfuzz.numerics.dot("sm_90", "mma", "e4m3", "f32", a[i, :32].tolist(),
                                            b[:32, j].tolist(), int(c[i, j]))
                chained = tcfuzz.numerics.dot("sm_90", "mma", "e4m3", "f32", a[i, 32:].tolist(),
                                              b[32:, j].tolist(), first)
                whole = tcfuzz.numerics.dot("sm_90", "mma", "e4m3", "f32", a[i].tolist(),
                                            b[:, j].tolist(), int(c[i, j]))
                assert d32[i, j] == chained and d64[i, j] == whole
        differ += int((d32 != d64).any())
    assert differ > 0


def test_an_answer_says_how_it_is_backed():
    a = np.full((1, 32), 0x38, np.uint8)
    b = np.full((32, 1), 0x38, np.uint8)
    # No B200 has confirmed tcgen05's fp8 row: refused, as numerics.dot refuses it ...
    with pytest.raises(ValueError, match="not confirmed on hardware"):
        tcfuzz.mma(a, b, arch="sm_100", instr="tcgen05", types=("e4m3", "f32"))
    with pytest.raises(ValueError, match="not confirmed on hardware"):
        tcfuzz.numerics.dot("sm_100", "tcgen05", "e4m3", "f32", [0x38] * 32, [0x38] * 32, 0)
    # ... answered when asked, and labelled.
    got = tcfuzz.mma(a, b, arch="sm_100", instr="tcgen05", types=("e4m3", "f32"),
                     allow_unconfirmed=True)
    assert got.backing != "hardware" and got.row
    assert got.d[0, 0] == f32_bits(32.0)
    seen = tcfuzz.mma(a, b, arch="sm_90", instr="wgmma", types=("e4m3", "f32"))
    assert seen.backing == "hardware" and seen.row == "R90-wgmma"


def test_bad_arguments_are_value_errors():
    a = np.zeros((2, 32), np.uint8)
    b = np.zeros((32, 2), np.uint8)
    kw = dict(arch="sm_90", instr="wgmma", types=("e4m3", "f32"))
    for call, message in [
        (lambda: tcfuzz.mma(a, np.zeros((16, 2), np.uint8), **kw), "K differ"),
        (lambda: tcfuzz.mma(a, b, k_step=12, **kw), "does not divide"),
        (lambda: tcfuzz.mma(a, b, np.zeros((3, 2), np.uint32), **kw), "c: 2 x 2"),
        (lambda: tcfuzz.mma(np.full((2, 32), 0x1FF), b, **kw), "bits above"),
        (lambda: tcfuzz.mma(a, b, arch="sm_90", instr="wgmma", types=("e4m3",)), "types"),
        (lambda: tcfuzz.mma(a, b, arch="sm_90", instr="dmma", types=("e4m3", "f32")), "instr"),
        (lambda: tcfuzz.mma(a, b, arch="sm_90", instr="wgmma", types=("f32", "f32")), "ab"),
    ]:
        with pytest.raises(ValueError, match=message):
            call()
