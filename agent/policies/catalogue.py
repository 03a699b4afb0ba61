"""Known designs per operator and backend, as CONFIG presets with the reason each might win.

The search policy tries these after the neighbours of the best configuration
run dry. Each is a point in the kernel's SEARCH_SPACE chosen for a reason a
kernel developer would give, not a grid cell. They live in the operator's
folder (kernels/<op>/designs.py); this module finds them there.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from kernels.design import Design

KERNELS = Path(__file__).resolve().parents[2] / "kernels"


def _discover() -> dict[tuple[str, str], list[Design]]:
    found = {}
    for path in sorted(KERNELS.glob("*/designs.py")):
        module = importlib.import_module(f"kernels.{path.parent.name}.designs")
        found |= {(path.parent.name, backend): list(designs) for backend, designs in module.DESIGNS.items()}
    return found


CATALOGUE: dict[tuple[str, str], list[Design]] = _discover()


def designs(op: str, backend: str) -> list[Design]:
    return CATALOGUE.get((op, backend), [])
