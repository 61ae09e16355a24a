# tcfuzz.zcm: the tcgen05 zero-column mask descriptor.
from typing import Any

def expand(desc: int, m: int, n: int) -> int: ...
def validate(
    desc: int, m: int, n: int, sparse: bool = False, idesc: int | None = None
) -> dict[str, Any]: ...
