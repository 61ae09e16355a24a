# Types of the tcfuzz module (the extension _tcfuzz and this package), for mypy --strict: each
# submodule below is an attribute of the extension, typed in its own stub file.
from typing import Any

from . import emulate as emulate
from . import numerics as numerics
from . import smem as smem
from . import sparse as sparse
from . import zcm as zcm

__version__: str

def rules() -> list[dict[str, Any]]: ...

__all__ = ["smem", "zcm", "sparse", "numerics", "rules", "emulate"]
