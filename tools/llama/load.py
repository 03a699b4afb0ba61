"""Weights for tools/llama/model.py: a local Hugging Face directory, or seeded random Llama-3.2-1B weights.

Nothing is downloaded: `load_directory` reads config.json and *.safetensors from disk, and
`random_model` builds the real Llama-3.2-1B shapes with weights drawn from a seeded generator,
so a speed comparison needs no checkpoint (the tokens it produces are meaningless, but
deterministic for a seed, which is all a comparison of two backends needs).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import torch

from tools.llama.model import Llama, LlamaConfig, expected_weight_names
from workbench.kernels.llama import FUSED, ModelPlan

# meta-llama/Llama-3.2-1B's config.json, the fields the forward pass reads.
LLAMA_3_2_1B: dict[str, Any] = {
    "model_type": "llama",
    "vocab_size": 128256,
    "hidden_size": 2048,
    "intermediate_size": 8192,
    "num_hidden_layers": 16,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "head_dim": 64,
    "hidden_act": "silu",
    "rms_norm_eps": 1e-5,
    "rope_theta": 500000.0,
    "rope_scaling": {
        "rope_type": "llama3",
        "factor": 32.0,
        "low_freq_factor": 1.0,
        "high_freq_factor": 4.0,
        "original_max_position_embeddings": 8192,
    },
    "tie_word_embeddings": True,
    "max_position_embeddings": 131072,
}

# Hugging Face's initializer_range for Llama: keeps activations finite through 16 random layers.
INIT_STD = 0.02


def load_directory(path: str | Path, backend: str, device: str, dtype: torch.dtype, plan: ModelPlan = FUSED) -> Llama:
    """A Llama from a local Hugging Face directory (config.json + one or more *.safetensors)."""
    from safetensors.torch import load_file

    folder = Path(path)
    config_file = folder / "config.json"
    if not config_file.is_file():
        raise FileNotFoundError(f"{folder} has no config.json; pass a local Hugging Face Llama directory")
    shards = sorted(folder.glob("*.safetensors"))
    if not shards:
        raise FileNotFoundError(f"{folder} has no *.safetensors files (only safetensors checkpoints are read)")
    config = LlamaConfig.from_hf(json.loads(config_file.read_text()))
    weights: dict[str, torch.Tensor] = {}
    for shard in shards:
        weights.update(load_file(str(shard), device="cpu"))
    weights = {name: t.to(device=device, dtype=dtype) for name, t in weights.items()}
    if config.tie_word_embeddings:
        weights.pop("lm_head.weight", None)  # some tied checkpoints still store a copy; the forward ignores it
    return Llama(config, weights, backend, plan)


def random_weights(config: LlamaConfig, seed: int, device: str, dtype: torch.dtype) -> dict[str, torch.Tensor]:
    """N(0, INIT_STD) matrices and unit norm weights, drawn on the CPU so a seed gives the same model anywhere."""
    gen = torch.Generator().manual_seed(seed)
    c = config
    q_out, kv_out = c.num_heads * c.head_dim, c.num_kv_heads * c.head_dim
    shapes = {
        "self_attn.q_proj.weight": (q_out, c.hidden_size),
        "self_attn.k_proj.weight": (kv_out, c.hidden_size),
        "self_attn.v_proj.weight": (kv_out, c.hidden_size),
        "self_attn.o_proj.weight": (c.hidden_size, q_out),
        "mlp.gate_proj.weight": (c.intermediate_size, c.hidden_size),
        "mlp.up_proj.weight": (c.intermediate_size, c.hidden_size),
        "mlp.down_proj.weight": (c.hidden_size, c.intermediate_size),
    }
    weights: dict[str, torch.Tensor] = {}
    for name in expected_weight_names(config):
        suffix = name.split(".", 3)[-1] if name.startswith("model.layers.") else name
        if name.endswith("norm.weight"):
            weights[name] = torch.ones(c.hidden_size, dtype=dtype, device=device)
            continue
        shape = shapes.get(suffix, (c.vocab_size, c.hidden_size))  # embed_tokens and lm_head
        weights[name] = (torch.randn(shape, generator=gen) * INIT_STD).to(device=device, dtype=dtype)
    return weights


def random_model(
    seed: int,
    backend: str,
    device: str,
    dtype: torch.dtype,
    hf_config: dict | None = None,
    plan: ModelPlan = FUSED,
) -> Llama:
    """Llama-3.2-1B shapes (or `hf_config`) with seeded random weights."""
    config = LlamaConfig.from_hf(hf_config or LLAMA_3_2_1B)
    return Llama(config, random_weights(config, seed, device, dtype), backend, plan)


def load_tokenizer(path: str | Path):
    """The `tokenizers` tokenizer in a model directory (tokenizer.json); a clear error when there is none."""
    try:
        from tokenizers import Tokenizer
    except ImportError as err:
        raise RuntimeError(
            "--prompt needs the `tokenizers` package (pip install tokenizers); or use --prompt-len"
        ) from err
    file = Path(path) / "tokenizer.json"
    if not file.is_file():
        raise FileNotFoundError(
            f"{file} does not exist: --prompt needs a tokenizer.json in --model; or use --prompt-len"
        )
    return Tokenizer.from_file(str(file))
