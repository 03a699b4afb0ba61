"""What the TileLang lowering tests share: every named and hidden shape in every dtype, lowered on the CPU.

No GPU and no nvcc: `tilelang.lower` inside a CUDA target context. One program serves many shapes
(token counts are dynamic), so each test file caches its lowering per program.
"""

from __future__ import annotations

import pytest
import torch

from kernels.spec import OpSpec, dtype_name

DTYPES = [torch.bfloat16, torch.float16, torch.float32]


def lowering_cases(spec: OpSpec) -> list:
    return [
        pytest.param(shape, dtype, id=f"{shape.name}-{dtype_name(dtype)}")
        for shape in (*spec.shapes, *spec.hidden_shapes)
        for dtype in DTYPES
    ]
