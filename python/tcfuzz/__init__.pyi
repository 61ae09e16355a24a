# Types of the tcfuzz module (the extension _tcfuzz and this package), for mypy --strict: each
# submodule below is an attribute of the extension, typed in its own stub file.
from typing import Any, Sequence

import numpy as np
import numpy.typing as npt

from . import emulate as emulate
from . import numerics as numerics
from . import smem as smem
from . import sparse as sparse
from . import zcm as zcm

__version__: str

def rules() -> list[dict[str, Any]]: ...

class MmaAnswer:
    @property
    def d(self) -> npt.NDArray[np.uint32]: ...
    @property
    def backing(self) -> str: ...
    @property
    def row(self) -> str: ...

def mma(
    a: npt.ArrayLike,
    b: npt.ArrayLike,
    c: npt.ArrayLike | None = None,
    *,
    arch: str,
    instr: str,
    types: Sequence[str],
    k_step: int | None = None,
    allow_unconfirmed: bool = False,
) -> MmaAnswer: ...

__all__ = ["smem", "zcm", "sparse", "numerics", "rules", "emulate", "mma", "MmaAnswer"]
