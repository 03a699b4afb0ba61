"""The add_rms_norm operator: spec plus one kernel file per backend (imported lazily by the registry)."""

from kernels.add_rms_norm.spec import SPEC

# Where the op stands in tables, the CLI and test parameters (kernels/registry.py sorts by it).
ORDER = 4

__all__ = ["ORDER", "SPEC"]
