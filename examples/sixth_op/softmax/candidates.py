"""softmax candidates for the evaluator's tests: one honest torch-backend file, one wrong on purpose."""

from __future__ import annotations

GOOD_SOFTMAX = """
import torch


def softmax(x, *, out=None):
    result = torch.softmax(x.float(), dim=-1)
    if out is None:
        return result.to(x.dtype)
    out.copy_(result)
    return out
"""
# Normalises over the wrong dim: right only where a tensor has one row (no shape the evaluator checks).
OVER_THE_ROWS = GOOD_SOFTMAX.replace("dim=-1", "dim=0")
