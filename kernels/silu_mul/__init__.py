"""The silu_mul operator: spec plus one kernel file per backend (imported lazily by the registry)."""

from kernels.silu_mul.spec import SPEC

# Where the op stands in tables, the CLI and test parameters (kernels/registry.py sorts by it).
ORDER = 5

__all__ = ["ORDER", "SPEC"]
