"""What silu_mul's spec promises beyond the numerics, checked on a GPU on either backend's kernel module."""

from __future__ import annotations

from types import ModuleType

import pytest
import torch

from tests.kernels.gpu_checks import check
from workbench.kernels.silu_mul.spec import SPEC as SILU_SPEC


def check_empty_allocating_and_leading_dims(module: ModuleType) -> None:
    silu_mul = module.silu_mul
    (x,) = SILU_SPEC.make_inputs((0, 2 * 8192), torch.bfloat16, 0, "cuda")
    assert silu_mul(x).shape == (0, 8192)
    (x,) = SILU_SPEC.make_inputs((6, 2 * 1000), torch.float16, 1, "cuda")
    assert SILU_SPEC.compare(silu_mul(x), (x,), torch.float16).ok
    out = silu_mul(x.view(2, 3, 2000))
    assert out.shape == (2, 3, 1000)
    assert SILU_SPEC.compare(out.view(6, 1000), (x,), torch.float16).ok


def check_small_tiles_on_ragged_shapes(module: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    # Partial tiles in both dims: 17 and 3 rows in tiles of 4, I = 1000 and 4097 in tiles of 256.
    monkeypatch.setitem(module.CONFIG, "block_rows", 4)
    monkeypatch.setitem(module.CONFIG, "block_cols", 256)
    for name in ("hidden/17x2x1000", "hidden/3x2x4097"):
        check(SILU_SPEC, module.silu_mul, SILU_SPEC.shape(name), torch.bfloat16)
