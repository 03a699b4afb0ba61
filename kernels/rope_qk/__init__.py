"""The rope_qk operator: spec plus one kernel file per backend (imported lazily by the registry)."""

from kernels.rope_qk.spec import SPEC

__all__ = ["SPEC"]
