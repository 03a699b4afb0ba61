"""Known designs per operator and backend, as CONFIG presets with the reason each might win.

The search policy tries these after the neighbours of the best configuration
run dry, in kernel files of the shipped convention only. Each is a point in the
kernel's SEARCH_SPACE chosen for a reason a kernel developer would give, not a
grid cell. They live in the operator's folder (kernels/<op>/designs.py), which
the registry finds; nothing is read until a policy asks.
"""

from __future__ import annotations

from workbench.kernels.design import Design
from workbench.kernels.registry import OPERATORS, op_file


def designs(op: str, backend: str) -> list[Design]:
    """The designs of `op` for `backend` ([] where its folder has none)."""
    module = op_file(op, "designs")
    return list(module.DESIGNS.get(backend, [])) if module is not None else []


def catalogue() -> dict[tuple[str, str], list[Design]]:
    """Every (op, backend) that has designs, with them."""
    found = {}
    for op in OPERATORS:
        module = op_file(op, "designs")
        if module is not None:
            found |= {(op, backend): list(items) for backend, items in module.DESIGNS.items() if items}
    return found
