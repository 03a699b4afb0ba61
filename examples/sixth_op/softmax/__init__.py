"""The softmax operator: spec plus one kernel file per backend (imported lazily by the registry).

An example op folder, kept outside kernels/ so the five shipped ops' tables, benchmarks and GPU
runs stay as they are: copied to kernels/softmax/ it is a sixth op (examples/sixth_op/README.md).
"""

from workbench.kernels.softmax.spec import SPEC

# After the five shipped ops (kernels/registry.py sorts by it; a folder without ORDER comes last anyway).
ORDER = 6

__all__ = ["ORDER", "SPEC"]
