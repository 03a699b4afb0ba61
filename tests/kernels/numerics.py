"""Helpers for tests that reason in units in the last place (ulp)."""

from __future__ import annotations

import torch

MANTISSA_BITS = {torch.bfloat16: 7, torch.float16: 10, torch.float32: 23}


def ulp(ref: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    """Spacing of `dtype` values at each element of the fp32 tensor `ref` (normal range)."""
    exponent = torch.floor(torch.log2(ref.abs().clamp_min(torch.finfo(dtype).tiny)))
    return torch.exp2(exponent - MANTISSA_BITS[dtype])


def ulps_off(got: torch.Tensor, ref: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    return (got.float() - ref).abs() / ulp(ref, dtype)
