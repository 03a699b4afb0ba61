"""rope_qk candidates for the evaluator's tests: one honest torch-backend file, two wrong on purpose.

Two outputs of different shapes (q's and k's), each with rope's tolerance; each wrong one gets k wrong.
"""

from __future__ import annotations

GOOD_ROPE_QK = """
import torch


def _rotate(x, sin, cos):
    half = x.shape[-1] // 2
    xf = x.float()
    s, c = sin[: x.shape[1], None, :].float(), cos[: x.shape[1], None, :].float()  # first seq rows
    return torch.cat((xf[..., :half] * c - xf[..., half:] * s, xf[..., half:] * c + xf[..., :half] * s), -1)


def rope_qk(q, k, sin, cos, *, out=None):
    if out is None:
        out = (torch.empty_like(q), torch.empty_like(k))
    out[0].copy_(_rotate(q, sin, cos))
    out[1].copy_(_rotate(k, sin, cos))
    return out
"""

COPIES_K_UNROTATED = GOOD_ROPE_QK.replace("    out[1].copy_(_rotate(k, sin, cos))\n", "    out[1].copy_(k)\n")
# k rotated with the first position's tables for every token: right where seq is 1, wrong wherever seq > 1.
K_AT_THE_FIRST_POSITION = GOOD_ROPE_QK.replace(
    "out[1].copy_(_rotate(k, sin, cos))", "out[1].copy_(_rotate(k, sin[:1], cos[:1]))"
)
