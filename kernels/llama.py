"""The Llama models the ops serve: their dimensions and token counts (the named shapes are built from them),
and the plans of its forward pass (which op runs where there is a choice; an op folder's MODEL_PLAN)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from workbench.kernels.spec import NamedShape


@dataclass(frozen=True)
class LlamaDims:
    hidden: int
    q_heads: int
    kv_heads: int
    head_dim: int
    intermediate: int  # the MLP's width: gate_proj / up_proj output size
    rope_theta: float = 500000.0
    rms_eps: float = 1e-5


# Every text model of Llama 3, 3.1, 3.2 and 3.3, by its published config.json: 3.1 and 3.3 keep 3's 8B and 70B
# dimensions (3.2's 11B and 90B vision models too, in their text layers). The hidden shapes of every op cover each
# of these dimensions (`family_*` below): a kernel right on the named shapes' two models is checked on the rest.
FAMILY: dict[str, LlamaDims] = {
    "llama3.2-1b": LlamaDims(hidden=2048, q_heads=32, kv_heads=8, head_dim=64, intermediate=8192),
    "llama3.2-3b": LlamaDims(hidden=3072, q_heads=24, kv_heads=8, head_dim=128, intermediate=8192),
    "llama3-8b": LlamaDims(hidden=4096, q_heads=32, kv_heads=8, head_dim=128, intermediate=14336),
    "llama3-70b": LlamaDims(hidden=8192, q_heads=64, kv_heads=8, head_dim=128, intermediate=28672),
    "llama3.1-405b": LlamaDims(hidden=16384, q_heads=128, kv_heads=8, head_dim=128, intermediate=53248),
}

# The models the named shapes (shown to the agent) are built from.
MODELS: dict[str, LlamaDims] = {name: FAMILY[name] for name in ("llama3.2-1b", "llama3-8b")}

# Tokens of a family hidden shape: a few, and odd (no multiple of any tile), so that covering every dimension stays
# cheap to check on the CPU.
FAMILY_TOKENS = 3


def family_dims(field: str) -> tuple[int, ...]:
    """The distinct values of one dimension (`hidden`, `q_heads`, ...) over the family, in ascending order."""
    return tuple(sorted({getattr(dims, field) for dims in FAMILY.values()}))


def family_shapes(dims_of, suffix: str = "") -> tuple[NamedShape, ...]:
    """One hidden shape per model of the family whose dims (`dims_of(model dims)`) no earlier model had.

    `dims_of` gives an op's shape for a model (with FAMILY_TOKENS tokens); a model with the same shape as an
    earlier one (1B and 3B have one intermediate size) adds none. Named `hidden/<model><suffix>`.
    """
    shapes, seen = [], set()
    for model, dims in FAMILY.items():
        shape = tuple(dims_of(dims))
        if shape not in seen:
            seen.add(shape)
            shapes.append(NamedShape(f"hidden/{model}{suffix}", shape))
    return tuple(shapes)


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
