"""The rope operator: spec plus one kernel file per backend (imported lazily by the registry)."""

from kernels.rope.spec import SPEC

__all__ = ["SPEC"]
