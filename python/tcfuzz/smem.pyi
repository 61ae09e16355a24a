# tcfuzz.smem: wgmma / tcgen05 shared-memory matrix descriptors.
from typing import Any

def explain(
    desc: int, arch: str, operand: str, major: str, dtype: str, rows: int, kbytes: int
) -> dict[str, Any]: ...
def encode(arch: str, dtype: str, layout: str, start: int = 0) -> dict[str, Any]: ...
