"""The add_rms_norm operator: spec plus one kernel file per backend (imported lazily by the registry)."""

from kernels.add_rms_norm.spec import SPEC

__all__ = ["SPEC"]
