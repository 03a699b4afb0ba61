"""rms_norm candidates for the tests: one honest torch-backend file and one subtly wrong on purpose."""

from __future__ import annotations

GOOD_RMS_NORM = """
import torch


def rms_norm(x, weight, eps, *, out=None):
    xf = x.float()
    result = xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + eps) * weight.float()
    if out is None:
        return result.to(x.dtype)
    out.copy_(result)
    return out
"""
# Subtly wrong: the right direction, 1.5 times the length (the final norm's scale alone would keep the argmax).
RMS_NORM_TIMES_1_5 = GOOD_RMS_NORM.replace("* weight.float()", "* weight.float() * 1.5")
