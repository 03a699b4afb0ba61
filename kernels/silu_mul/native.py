"""torch's own ops for silu_mul in the model dtype, as a user would write them: the `native` baseline.

Not the reference (the spec's fp32 math rounded once): this is what a Hugging Face Llama computes, so its speed is
what a user gives up by not using a kernel (`agent infer --backend native`, the judge's `native` contestant).
"""

from __future__ import annotations

import torch
import torch.nn.functional as F


def silu_mul(x: torch.Tensor) -> torch.Tensor:
    gate, up = x.chunk(2, dim=-1)
    return F.silu(gate) * up
