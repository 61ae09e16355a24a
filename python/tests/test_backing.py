"""Every scalar answer's backing, held to docs/doc-vs-hardware.md.

zcm.expand, the sparse fragment maps and numerics.dot return plain numbers; zcm.backing,
sparse.backing and numerics.backing say what each rests on. The expectations are read here from
the document's own table (its "hardware" column), not from the module: a reading the document says
an H100 confirmed is hardware on sm_90 and a hypothesis on a target no run covered; one "not yet
run" is never hardware.
"""
import os
import re

import pytest

import tcfuzz

DOC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "doc-vs-hardware.md")


def hardware_column():
    """id -> the text of the document's "hardware" column for that reading."""
    rows = {}
    with open(DOC, encoding="utf-8") as f:
        for line in f:
            cells = [c.strip() for c in line.split("|")]
            if len(cells) >= 7 and re.fullmatch(r"[A-Z]+[0-9]+", cells[1]):
                rows[cells[1]] = cells[5]
    return rows


def seen_on_h100(text):
    return text.startswith("**H100") or text.startswith("**NVIDIA H100")


def test_sparse_maps_are_hardware_on_sm90_and_hypotheses_elsewhere():
    doc = hardware_column()
    for shape, type_ in [("m16n8k16", "f16"), ("m16n8k32", "bf16"), ("m16n8k64", "s8")]:
        on_h100 = tcfuzz.sparse.backing(shape, type_, ordered=True, gpu="sm_90")
        on_a100 = tcfuzz.sparse.backing(shape, type_, ordered=True, gpu="sm_80")
        ids = [r["id"] for r in on_h100]
        assert ids and ids == [r["id"] for r in on_a100]
        assert any(i.startswith("SP") for i in ids), ids
        for h, a in zip(on_h100, on_a100):
            # The tables' own layouts (SP0: the spec's formulas) have no row; every choice has.
            if h["id"] == "SP0":
                continue
            assert h["id"] in doc, h["id"]
            if seen_on_h100(doc[h["id"]]):
                assert h["backing"] == "hardware", h
                assert a["backing"] == "hypothesis", a  # no run on sm_80 covered it
            else:
                assert h["backing"] != "hardware", h


def test_the_zero_column_mask_rests_on_readings_no_hardware_ran():
    doc = hardware_column()
    readings = tcfuzz.zcm.backing(0x0003028100000000, 64, 128)  # PTX 9.1 §9.7.16.4.3 Example 3
    assert "Z1" in [r["id"] for r in readings]
    for r in readings:
        assert doc[r["id"]].startswith("not yet run") or doc[r["id"]].startswith("not applicable")
        assert r["backing"] != "hardware", r
        assert set(r) == {"id", "backing", "seen_on", "reading", "basis"}
    with pytest.raises(ValueError):
        tcfuzz.zcm.backing(0, 48, 128)


def test_dot_names_its_row_and_how_it_is_backed():
    h100 = tcfuzz.numerics.backing("sm_90", "mma", "f16", "f32")
    assert h100 == {"row": "R90-mma", "backing": "hardware"}
    # tcgen05 has run on no Blackwell here: its row is not hardware, and dot refuses it unasked.
    b200 = tcfuzz.numerics.backing("sm_100", "tcgen05", "f16", "f32")
    assert b200["backing"] in ("spec", "hypothesis"), b200
    with pytest.raises(ValueError):
        tcfuzz.numerics.dot("sm_100", "tcgen05", "f16", "f32", [0x3C00], [0x3C00], 0)
    with pytest.raises(ValueError):
        tcfuzz.numerics.backing("sm_90", "mma", "f17", "f32")
