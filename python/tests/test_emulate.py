"""tcfuzz.emulate against the emulated worker: the calls a campaign's workers made on the
built-in emulator (recorded with TCFUZZ_RECORD_CALLS, harness/call_record.h) run again through
the Python module must return the same D, or raise where the worker's call failed.

The campaigns are `tcfuzz run --device emulated` of the four suites whose instructions the
emulator executes, seed printed in the assertion messages; at least 1,000 cases per instruction
family (mma, mma.sp, wgmma, tcgen05.mma).
"""
import glob
import json
import os
import shutil
import subprocess

import numpy as np
import pytest

import tcfuzz

TCFUZZ = os.environ.get("TCFUZZ_BIN", "tcfuzz")
SEED = 20261127
SUITES = ["dense-mma", "sparse-mma", "smem-hw", "tcgen05"]
NOT_FIELDS = {"api", "status", "d_out"}


def image_of(rec):
    """The image's bytes from the record's fill byte and runs."""
    img = rec["image"]
    out = bytearray([img["fill"]]) * img["bytes"]
    for offset, text in img["runs"]:
        run = bytes.fromhex(text)
        out[offset:offset + len(run)] = run
    return bytes(out)


def family_of(rec):
    if rec["api"] == "warp_mma":
        return "mma.sp" if rec["sparse"] else "mma"
    return rec["family"]


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("emulate")
    calls = tmp / "calls"
    calls.mkdir()
    env = dict(os.environ, TCFUZZ_RECORD_CALLS=str(calls))
    for suite in SUITES:
        run = subprocess.run([TCFUZZ, "run", "--device", "emulated", "--suite", suite, "--seed",
                              str(SEED), "--cases", "1000", "--no-progress", "--report",
                              str(tmp / suite)], env=env, capture_output=True, text=True)
        assert run.returncode == 0, f"seed {SEED} suite {suite}: {run.stdout}{run.stderr}"
    out = []
    for path in sorted(glob.glob(str(calls / "calls-*.jsonl"))):
        with open(path, encoding="utf-8") as f:
            out.extend(json.loads(line) for line in f)
    shutil.rmtree(tmp)  # about 150 MB: tcgen05's D is 128 lanes of N words a tile
    return out


def test_emulate_returns_what_the_emulated_worker_returned(records):
    cases = {"mma": 0, "mma.sp": 0, "wgmma": 0, "tcgen05": 0}
    for n, rec in enumerate(records):
        args = {k: v for k, v in rec.items() if k not in NOT_FIELDS}
        where = f"seed {SEED}, record {n}: {rec['instruction'][:80]}"
        if rec["api"] == "smem_mma":
            args["image"] = image_of(rec)
            run = tcfuzz.emulate.smem_mma
            units = rec["tiles"]
        else:
            run = tcfuzz.emulate.warp_mma
            units = rec["warps"]
        if rec["status"] != "ok":
            kind = tcfuzz.emulate.Fault if rec["status"].startswith("device fault") else ValueError
            with pytest.raises(kind):
                run(**args)
            continue
        d = run(**args)
        assert d.dtype == np.uint32, where
        assert d.shape[0] == units * (128 if rec["api"] == "smem_mma" else 32), where
        assert d.ravel().tolist() == rec["d_out"], where
        cases[family_of(rec)] += units
    for family, count in cases.items():
        assert count >= 1000, f"seed {SEED}: {count} {family} cases compared"


def test_emulate_plants_a_mutant_and_rejects_bad_arguments(records):
    rec = next(r for r in records if r["api"] == "smem_mma" and r["status"] == "ok"
               and r["family"] == "wgmma" and any(r["d_out"]))
    args = {k: v for k, v in rec.items() if k not in NOT_FIELDS}
    args["image"] = image_of(rec)
    # The whole D zeroed: a planted defect changes what comes back, without rebuilding anything.
    d = tcfuzz.emulate.smem_mma(**args, mutant="result.zero=1")
    assert not d.any()
    with pytest.raises(ValueError, match="no point 'bogus'"):
        tcfuzz.emulate.smem_mma(**args, mutant="bogus=1")
    short = dict(args, image=args["image"][:-1])
    with pytest.raises(ValueError, match="image: .* bytes expected"):
        tcfuzz.emulate.smem_mma(**short)
    with pytest.raises(ValueError, match="a_desc: .* elements expected"):
        tcfuzz.emulate.smem_mma(**dict(args, a_desc=[]))
    with pytest.raises(ValueError, match="d_words: 1..256"):
        tcfuzz.emulate.smem_mma(**dict(args, d_words=2**32 - 1))
    with pytest.raises(ValueError, match="d_words"):
        tcfuzz.emulate.smem_mma(**dict(args, d_words=args["d_words"] + 1))
    with pytest.raises(ValueError, match="family"):
        tcfuzz.emulate.smem_mma(**dict(args, family="hmma"))
