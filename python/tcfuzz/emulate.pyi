# tcfuzz.emulate: one instruction from raw operands on the built-in emulator (docs/backends.md).
import numpy as np
import numpy.typing as npt

class Fault(RuntimeError): ...

def warp_mma(
    *,
    instruction: str = "",
    shape: str,
    a_type: str,
    b_type: str,
    cd_type: str,
    sparse: bool = False,
    ordered_metadata: bool = True,
    selector: int = 0,
    satfinite: bool = False,
    warps: int = 1,
    a: npt.ArrayLike | None,
    a_regs: int,
    b: npt.ArrayLike | None,
    b_regs: int,
    c: npt.ArrayLike | None,
    cd_regs: int,
    e: npt.ArrayLike | None = None,
    target: str = "sm_90a",
    mutant: str = "",
) -> npt.NDArray[np.uint32]: ...
def smem_mma(
    *,
    instruction: str = "",
    family: str,
    shape: str = "",
    a_type: str = "",
    b_type: str = "",
    d_type: str = "",
    trans_a: bool = False,
    trans_b: bool = False,
    sparse: bool = False,
    selector: int = 0,
    scale_d: bool = False,
    tiles: int = 1,
    image_bytes: int,
    image: bytes | bytearray | memoryview,
    a_desc: npt.ArrayLike | None,
    b_desc: npt.ArrayLike | None,
    idesc: npt.ArrayLike | None = None,
    zero_column_mask: npt.ArrayLike | None = None,
    e: npt.ArrayLike | None = None,
    d_words: int,
    c: npt.ArrayLike | None = None,
    target: str | None = None,
    mutant: str = "",
) -> npt.NDArray[np.uint32]: ...
