"""add_rms_norm candidates for the evaluator's tests: one honest, the rest wrong on purpose.

Torch-backend files (they run on the CPU). Each wrong one gets one of the two outputs wrong in its
own way (one left unwritten, one not returned, the sum rounded the wrong way), which the evaluator
must catch output by output.
"""

from __future__ import annotations

GOOD_ADD_RMS_NORM = """
import torch


def add_rms_norm(x, residual, weight, eps, *, out=None):
    summed = (x.float() + residual.float()).to(x.dtype)
    h = summed.float()
    normed = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + eps) * weight.float()
    if out is None:
        out = (torch.empty_like(x), torch.empty_like(x))
    out[0].copy_(summed)
    out[1].copy_(normed)
    return out
"""


def _with(old: str, new: str) -> str:
    if GOOD_ADD_RMS_NORM.count(old) != 1:
        raise ValueError(f"{old!r} is not one line of GOOD_ADD_RMS_NORM")
    return GOOD_ADD_RMS_NORM.replace(old, new)


WRITES_ONLY_SUM = _with("    out[1].copy_(normed)\n", "")
WRITES_ONLY_NORMED = _with("    out[0].copy_(summed)\n", "")
RETURNS_ONLY_NORMED = _with("    return out\n", "    return out[1]\n")
# Rounds the sum toward zero (drops the low 16 bits of the fp32 sum) instead of to nearest.
TRUNCATES_THE_SUM = _with(
    "    summed = (x.float() + residual.float()).to(x.dtype)\n",
    "    exact = (x.float() + residual.float()).contiguous()\n"
    "    summed = (exact.view(torch.int32) & -65536).view(torch.float32).to(x.dtype)\n",
)
