"""The Llama models the ops serve: their dimensions and token counts (the named shapes are built from them),
and the plans of its forward pass (which op runs where there is a choice; an op folder's MODEL_PLAN)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class LlamaDims:
    hidden: int
    q_heads: int
    kv_heads: int
    head_dim: int
    intermediate: int  # the MLP's width: gate_proj / up_proj output size
    rope_theta: float = 500000.0
    rms_eps: float = 1e-5


MODELS: dict[str, LlamaDims] = {
    "llama3.2-1b": LlamaDims(hidden=2048, q_heads=32, kv_heads=8, head_dim=64, intermediate=8192),
    "llama3-8b": LlamaDims(hidden=4096, q_heads=32, kv_heads=8, head_dim=128, intermediate=14336),
}

PREFILL_TOKENS = (512, 2048, 8192, 16384)
DECODE_BATCHES = (1, 8, 32, 128)


@dataclass(frozen=True)
class ModelPlan:
    """Which registered operator the Llama forward pass (tools/llama/model.py) runs where there is a choice:
    q and k rotated together (rope_qk) or one rope call each, and each residual add fused into the norm after it
    (add_rms_norm) or done in torch before rms_norm. silu_mul runs in every plan."""

    rope: Literal["rope", "rope_qk"] = "rope_qk"
    norm: Literal["rms_norm", "add_rms_norm"] = "add_rms_norm"

    @property
    def operators(self) -> tuple[str, ...]:
        """The registered ops a forward pass calls, in the order they first run."""
        # The fused plan still calls rms_norm once, on the embeddings (no residual add before it).
        fused = ("add_rms_norm",) if self.norm == "add_rms_norm" else ()
        return ("rms_norm", self.rope, *fused, "silu_mul")

    def describe(self) -> str:
        return ", ".join(self.operators)


# What `agent infer` runs: every choice fused.
FUSED = ModelPlan()
