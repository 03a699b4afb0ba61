"""torch's own ops for rope in the model dtype, as a user would write them: the `native` baseline.

Not the reference (the spec's fp32 math rounded once): this is what a Hugging Face Llama computes, so its speed is
what a user gives up by not using a kernel (`agent infer --backend native`, the judge's `native` contestant).
"""

from __future__ import annotations

import torch


def _rotate_half(x: torch.Tensor) -> torch.Tensor:
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


def rope(x: torch.Tensor, sin: torch.Tensor, cos: torch.Tensor) -> torch.Tensor:
    """x [batch, seq, heads, head_dim]; sin/cos [>= seq, head_dim // 2] (the model's tables)."""
    seq = x.shape[1]
    # Hugging Face's layout: each half-table repeated across both halves, in the model dtype.
    cos_full = torch.cat((cos[:seq], cos[:seq]), dim=-1).to(x.dtype)[None, :, None, :]
    sin_full = torch.cat((sin[:seq], sin[:seq]), dim=-1).to(x.dtype)[None, :, None, :]
    return x * cos_full + _rotate_half(x) * sin_full
