"""Torch-backend kernel files with a tunable CONFIG whose speed is known in advance.

The loop's tests need candidates whose ranking is certain on a busy 2-core CI
machine: each call sleeps CONFIG["delay_ms"], so smaller is faster by a wide
margin, and the math itself is the (correct) rotate-half RoPE.
"""

from __future__ import annotations

TUNED_ROPE = '''"""A torch RoPE with a deliberate, tunable delay (for the loop's tests)."""

import time

import torch

CONFIG = {"delay_ms": 4}

SEARCH_SPACE = {"delay_ms": [0, 1, 2, 4, 8]}


def rope(x, sin, cos, *, out=None):
    time.sleep(CONFIG["delay_ms"] / 1000)
    half = x.shape[-1] // 2
    xf = x.float()
    s, c = sin[None, :, None, :], cos[None, :, None, :]
    result = torch.cat((xf[..., :half] * c - xf[..., half:] * s, xf[..., half:] * c + xf[..., :half] * s), -1)
    if out is None:
        return result.to(x.dtype)
    out.copy_(result)
    return out
'''

# Wrong for delay 2: the loop must reject it and keep going.
WRONG_AT_TWO = TUNED_ROPE.replace(
    "    out.copy_(result)\n", '    out.copy_(result)\n    if CONFIG["delay_ms"] == 2:\n        out.mul_(2)\n'
)
