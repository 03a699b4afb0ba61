"""Llama model dimensions and token counts that the named shape sets are built from."""

from __future__ import annotations

from dataclasses import dataclass


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
