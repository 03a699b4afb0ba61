"""The silu_mul operator: spec plus one kernel file per backend (imported lazily by the registry)."""

from kernels.silu_mul.spec import SPEC

__all__ = ["SPEC"]
