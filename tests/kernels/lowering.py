"""What the TileLang lowering tests share: every program that the named and hidden shapes need, in every dtype,
lowered on the CPU.

No GPU and no nvcc: `tilelang.lower` inside a CUDA target context. One program serves many shapes (token
counts are dynamic), so a case is one program, named by the shapes it serves: lowering it once per shape
lowered the same program again on the other pytest-xdist worker (about a CPU-second each, 300 cases).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

import pytest
import torch

from workbench.kernels.spec import NamedShape, OpSpec, dtype_name

DTYPES = [torch.bfloat16, torch.float16, torch.float32]


def lowering_cases(spec: OpSpec, program: Callable[[NamedShape], Hashable]) -> list:
    """One case per (program, dtype): `program(shape)` is what the lowered program depends on (its head layout,
    its row length), so two shapes with the same key share one lowering; the id names the shapes it serves."""
    shapes: dict[Hashable, list[NamedShape]] = {}
    for shape in (*spec.shapes, *spec.hidden_shapes):
        shapes.setdefault(program(shape), []).append(shape)
    cases = []
    for served in shapes.values():
        names = served[0].name + (f"+{len(served) - 1}" if len(served) > 1 else "")
        cases += [pytest.param(served[0], dtype, id=f"{names}-{dtype_name(dtype)}") for dtype in DTYPES]
    return cases
