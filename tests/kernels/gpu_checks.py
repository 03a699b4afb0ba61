"""What the per-backend GPU test files share: the cases and the check of one case."""

from __future__ import annotations

import pytest
import torch

from workbench.kernels.spec import NamedShape, OpSpec, dtype_name


def cases(spec: OpSpec) -> list:
    """Every named and hidden shape in every dtype (and the camp's form of the hidden ones), with readable ids."""
    return [
        pytest.param(shape, dtype, id=f"{shape.name}-{dtype_name(dtype)}")
        for shape in (*spec.shapes, *spec.hidden_shapes, *spec.camp_shapes())
        for dtype in spec.dtypes
    ]


def check(spec: OpSpec, fn, shape: NamedShape, dtype: torch.dtype, seed: int = 0) -> None:
    """The kernel writes every element of a NaN-poisoned `out` (each buffer of it), within the spec's tolerance."""
    args = spec.inputs_for(shape, dtype, seed, "cuda")
    out = spec.empty_out(args, fill=float("nan"))
    result = fn(*args, out=out)
    torch.cuda.synchronize()
    assert result is out
    comparison = spec.compare(out, args, dtype)
    assert comparison.ok, f"{shape.name} {dtype_name(dtype)}: {comparison.message}"
