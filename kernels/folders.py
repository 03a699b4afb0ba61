"""The op folders under kernels/, found by their layout alone: nothing is imported (no torch), so the command
line can offer the ops' names at once. kernels/registry.py checks each folder's SPEC when it loads them.

An op folder is a package `kernels/<op>/` with a `spec.py`; they are ordered by the `ORDER = N` in its
`__init__.py` (a folder without one comes after those with one, by name).
"""

from __future__ import annotations

import ast
from pathlib import Path

KERNELS = Path(__file__).resolve().parent


def _order(init: Path) -> float:
    """The folder's `ORDER = N`, read from its __init__.py's source; infinity without one."""
    for node in ast.parse(init.read_text(), str(init)).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "ORDER" for t in node.targets):
            if isinstance(node.value, ast.Constant) and isinstance(node.value.value, int | float):
                return float(node.value.value)
    return float("inf")


def op_folders() -> tuple[str, ...]:
    """The op folders' names, in ORDER, then by name."""
    found = [
        (_order(spec.parent / "__init__.py"), spec.parent.name)
        for spec in KERNELS.glob("*/spec.py")
        if (spec.parent / "__init__.py").is_file()  # not a package: nothing could import it as kernels.<op>
    ]
    return tuple(op for _, op in sorted(found))
