"""Known designs per operator and backend, as CONFIG presets with the reason each might win.

The search policy tries these after the neighbours of the best configuration
run dry. Each is a point in the kernel's SEARCH_SPACE chosen for a reason a
kernel developer would give, not a grid cell. They live in the operator's
folder (kernels/<op>/designs.py), which the registry finds.
"""

from __future__ import annotations

from kernels.design import Design
from kernels.registry import OPERATORS, op_file


def _discover() -> dict[tuple[str, str], list[Design]]:
    found = {}
    for op in OPERATORS:
        module = op_file(op, "designs")
        if module is not None:
            found |= {(op, backend): list(designs) for backend, designs in module.DESIGNS.items()}
    return found


CATALOGUE: dict[tuple[str, str], list[Design]] = _discover()


def designs(op: str, backend: str) -> list[Design]:
    return CATALOGUE.get((op, backend), [])
