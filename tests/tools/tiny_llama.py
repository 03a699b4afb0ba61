"""A tiny Llama-3 config and checkpoint for the model's CPU tests (milliseconds per forward)."""

from __future__ import annotations

import json
from pathlib import Path

import torch
from safetensors.torch import save_file

from tools.llama.load import random_weights
from tools.llama.model import LlamaConfig

# Small enough for milliseconds per forward; grouped KV heads (4 q, 2 kv) and llama3 rope scaling
# with an original context short enough (16) that the scaling changes the tables of a 40-token prompt.
TINY = {
    "model_type": "llama",
    "vocab_size": 128,
    "hidden_size": 64,
    "intermediate_size": 128,
    "num_hidden_layers": 2,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "head_dim": 16,
    "hidden_act": "silu",
    "rms_norm_eps": 1e-5,
    "rope_theta": 10000.0,
    "rope_scaling": {
        "rope_type": "llama3",
        "factor": 8.0,
        "low_freq_factor": 1.0,
        "high_freq_factor": 4.0,
        "original_max_position_embeddings": 16,
    },
    "max_position_embeddings": 256,
    "tie_word_embeddings": False,
}


def write_tiny_checkpoint(folder: Path) -> Path:
    """A Hugging Face-format directory written without transformers: config.json + model.safetensors.

    The weights are 5x the 0.02 init: at the init scale this tiny model's attention is nearly uniform,
    so its tokens do not depend on RoPE; at 5x the greedy tokens vary and a broken RoPE changes them.
    """
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(json.dumps(TINY))
    config = LlamaConfig.from_hf(TINY)
    weights = {name: t * 5 for name, t in random_weights(config, 0, "cpu", torch.float32).items()}
    save_file(weights, str(folder / "model.safetensors"))
    return folder
