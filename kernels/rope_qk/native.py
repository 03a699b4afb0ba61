"""torch's own ops for rope_qk in the model dtype, as a user would write them: the `native` baseline.

Not the reference (the spec's fp32 math rounded once): this is what a Hugging Face Llama computes, so its speed is
what a user gives up by not using a kernel (`agent infer --backend native`, the judge's `native` contestant).
"""

from __future__ import annotations

import torch

from workbench.kernels.rope.native import rope


def rope_qk(
    q: torch.Tensor, k: torch.Tensor, sin: torch.Tensor, cos: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    return rope(q, sin, cos), rope(k, sin, cos)
