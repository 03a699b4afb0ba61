"""The rope_qk operator: spec plus one kernel file per backend (imported lazily by the registry)."""

from kernels.rope_qk.spec import SPEC

# Where the op stands in tables, the CLI and test parameters (kernels/registry.py sorts by it).
ORDER = 2

__all__ = ["ORDER", "SPEC"]
