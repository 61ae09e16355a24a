# tcfuzz.numerics: tensor-core arithmetic, bit for bit, and the operand formats' codecs.
from typing import Any, Sequence

import numpy as np
import numpy.typing as npt

def dot(
    arch: str,
    instr: str,
    ab: str,
    cd: str,
    a: Sequence[int],
    b: Sequence[int],
    c: int,
    allow_unconfirmed: bool = False,
) -> int: ...
def backing(arch: str, instr: str, ab: str, cd: str) -> dict[str, str]: ...
def encode(values: npt.ArrayLike, fmt: str, round: str = "nearest") -> npt.NDArray[Any]: ...
def decode(patterns: npt.ArrayLike, fmt: str) -> npt.NDArray[np.float64]: ...
