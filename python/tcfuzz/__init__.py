"""tcfuzz's oracle from Python: shared-memory descriptors, zero-column masks, sparse metadata and
fragment maps, tensor-core arithmetic bit for bit, the rule table (docs/library.md), and one
instruction from raw operands on the built-in emulator (emulate; docs/backends.md)."""

try:  # installed with pip: the extension sits in the package
    from . import _tcfuzz as _ext
except ImportError:  # the build tree (ctest): the extension is on PYTHONPATH beside it
    import _tcfuzz as _ext

smem = _ext.smem
zcm = _ext.zcm
sparse = _ext.sparse
numerics = _ext.numerics
rules = _ext.rules
emulate = _ext.emulate
mma = _ext.mma
MmaAnswer = _ext.MmaAnswer
__version__ = _ext.__version__  # the project's: `tcfuzz --version` prints the same

__all__ = ["smem", "zcm", "sparse", "numerics", "rules", "emulate", "mma", "MmaAnswer"]
