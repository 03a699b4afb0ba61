"""torch's own ops for add_rms_norm in the model dtype, as a user would write them: the `native` baseline.

Not the reference (the spec's fp32 math rounded once): this is what a Hugging Face Llama computes, so its speed is
what a user gives up by not using a kernel (`agent infer --backend native`, the judge's `native` contestant).
"""

from __future__ import annotations

import torch

from workbench.kernels.rms_norm.native import rms_norm


def add_rms_norm(
    x: torch.Tensor, residual: torch.Tensor, weight: torch.Tensor, eps: float
) -> tuple[torch.Tensor, torch.Tensor]:
    total = x + residual
    return total, rms_norm(total, weight, eps)
