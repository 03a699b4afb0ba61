"""What the ops' Liger-Kernel adapters (`kernels/<op>/liger.py`) share: the bound call they return.

Each op folder's `liger.py` names Liger's function for the op (`LIGER_MODULE`, `LIGER_NAME`) and
binds it to one set of our inputs (`bind(fn, args) -> LigerCall`); tools/liger.py imports Liger,
finds the adapter through the op folder and checks the bound call against the spec. Nothing here
imports liger_kernel: an adapter is plain torch on our inputs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import torch

# Llama's RMSNorm: only the inverse RMS in fp32, the weight multiply in the input dtype (Liger's docs).
CASTING_MODE = "llama"


@dataclass(frozen=True)
class LigerCall:
    """Liger bound to one set of inputs: `run` is what is timed, `outputs` maps its result to the op's outputs."""

    run: Callable[[], object]
    outputs: Callable[[object], torch.Tensor | tuple[torch.Tensor, ...]]
    # Redoes the layout preparation in place from the inputs' current values: the judge refills the inputs
    # with fresh values before every batch, and Liger must compute on those. None: `run` reads the inputs.
    refresh: Callable[[], None] | None = None
