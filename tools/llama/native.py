"""torch's own ops per operator, as the op folders define them (`kernels/<op>/native.py`), by op name.

The native baseline's lookup for the judge; model code and new readers take `kernels.registry.native_op(op)`.
"""

from __future__ import annotations

from collections.abc import Callable

from kernels.registry import OPERATORS, native_op

OPS: dict[str, Callable] = {op: fn for op in OPERATORS if (fn := native_op(op)) is not None}
