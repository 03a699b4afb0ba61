"""The ops a user would write in torch instead of ours: the baseline `agent infer --backend native` runs.

Not the registry's `torch` backend (kernels/registry.torch_implementation), which is the fp32
reference rounded once, the yardstick of correctness. These compute in the model dtype as a
Hugging Face Llama does: `F.rms_norm`, rotate-half RoPE with the tables cast to the model dtype,
and `F.silu(gate) * up`, so their speed is what a user gives up by not using a kernel.
"""

from __future__ import annotations

from collections.abc import Callable

import torch
import torch.nn.functional as F


def rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    return F.rms_norm(x, (x.shape[-1],), weight, eps)


def add_rms_norm(
    x: torch.Tensor, residual: torch.Tensor, weight: torch.Tensor, eps: float
) -> tuple[torch.Tensor, torch.Tensor]:
    total = x + residual
    return total, rms_norm(total, weight, eps)


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


def rope_qk(
    q: torch.Tensor, k: torch.Tensor, sin: torch.Tensor, cos: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    return rope(q, sin, cos), rope(k, sin, cos)


def silu_mul(x: torch.Tensor) -> torch.Tensor:
    gate, up = x.chunk(2, dim=-1)
    return F.silu(gate) * up


OPS: dict[str, Callable] = {
    "rms_norm": rms_norm,
    "add_rms_norm": add_rms_norm,
    "rope": rope,
    "rope_qk": rope_qk,
    "silu_mul": silu_mul,
}
