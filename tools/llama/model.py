"""Llama-3 forward in plain torch, with its memory-bound operators taken from `workbench.kernels.registry.operator`.

RoPE, the norms (with the residual adds before them) and SwiGLU's silu(gate) * up go through
the registry, so a backend's native kernels run inside a real model and everything else
(projections, attention) is the same torch code for every backend: a speed or token difference
between two backends comes from those kernels. A `ModelPlan` says which operator runs where a
choice exists: q and k rotated together (rope_qk) or one rope call each, and each residual add
fused into the norm after it (add_rms_norm) or done in torch before rms_norm. `agent infer`
runs the fused plan; the end-to-end check of a candidate runs the plan that calls its op
(`plan_for`), so the candidate is what the model runs. Attention is `scaled_dot_product_attention`
with the KV heads repeated to the query heads, as Hugging Face's `repeat_kv` does. Weights keep
Hugging Face's names (`model.layers.0.mlp.up_proj.weight`); gate and up are kept as one
[gate; up] matrix, so one projection gives silu_mul its [..., 2I] input. `Llama.step` is the
decode step of tools/llama/decode.py: one token per row over the cache at full capacity, so it
can be captured once as a CUDA graph.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import torch
import torch.nn.functional as F

from workbench.kernels.llama import FUSED, ModelPlan
from workbench.kernels.registry import model_plan, native_op, operator

# The backend name of torch's own ops in the model dtype (kernels/<op>/native.py): a baseline, not a registry backend.
NATIVE = "native"


@dataclass(frozen=True)
class LlamaConfig:
    """The fields of a Hugging Face `config.json` that the forward pass needs."""

    vocab_size: int
    hidden_size: int
    intermediate_size: int
    num_layers: int
    num_heads: int
    num_kv_heads: int
    head_dim: int
    rms_eps: float = 1e-5
    rope_theta: float = 500000.0
    rope_scaling: dict[str, Any] | None = None
    tie_word_embeddings: bool = False
    max_position_embeddings: int = 131072

    @classmethod
    def from_hf(cls, config: Mapping[str, Any]) -> LlamaConfig:
        """From a parsed `config.json`; transformers < 5 writes rope_theta/rope_scaling, >= 5 rope_parameters."""
        if config.get("model_type", "llama") != "llama":
            raise ValueError(f"expected a Llama config (model_type 'llama'); got {config.get('model_type')!r}")
        if config.get("attention_bias") or config.get("mlp_bias"):
            raise ValueError("attention_bias / mlp_bias are not supported: Llama-3 checkpoints have no biases")
        if config.get("hidden_act", "silu") != "silu":
            raise ValueError(f"only the SwiGLU (silu) MLP is supported; got hidden_act {config['hidden_act']!r}")
        params = dict(config.get("rope_parameters") or {})
        scaling = config.get("rope_scaling") or params
        theta = config.get("rope_theta", params.get("rope_theta", 500000.0))
        rope_type = (scaling or {}).get("rope_type", (scaling or {}).get("type", "default"))
        if rope_type not in ("default", "llama3"):
            raise ValueError(f"rope_type {rope_type!r} is not supported (only 'default' and 'llama3')")
        heads = config["num_attention_heads"]
        return cls(
            vocab_size=config["vocab_size"],
            hidden_size=config["hidden_size"],
            intermediate_size=config["intermediate_size"],
            num_layers=config["num_hidden_layers"],
            num_heads=heads,
            num_kv_heads=config.get("num_key_value_heads") or heads,
            head_dim=config.get("head_dim") or config["hidden_size"] // heads,
            rms_eps=float(config.get("rms_norm_eps", 1e-5)),
            rope_theta=float(theta),
            rope_scaling=dict(scaling) if rope_type == "llama3" else None,
            tie_word_embeddings=bool(config.get("tie_word_embeddings", False)),
            max_position_embeddings=int(config.get("max_position_embeddings", 131072)),
        )


def inv_freq(config: LlamaConfig) -> torch.Tensor:
    """fp32 [head_dim // 2] inverse frequencies, with Llama-3's long-context scaling when configured.

    Same arithmetic as kernels/rope/spec.inv_freq and transformers' `_compute_llama3_parameters`,
    on the CPU as Hugging Face does at init, so the tables agree bit for bit.
    """
    exponents = torch.arange(0, config.head_dim, 2, dtype=torch.int64).float() / config.head_dim
    base = 1.0 / (config.rope_theta**exponents)
    scaling = config.rope_scaling
    if not scaling:
        return base
    factor = scaling["factor"]
    low, high = scaling["low_freq_factor"], scaling["high_freq_factor"]
    old_context = scaling["original_max_position_embeddings"]
    wavelen = 2 * math.pi / base
    # Long wavelengths are slowed down by `factor`, short ones kept, the band between interpolated.
    scaled = torch.where(wavelen > old_context / low, base / factor, base)
    smooth = (old_context / wavelen - low) / (high - low)
    smoothed = (1 - smooth) * scaled / factor + smooth * scaled
    medium = ~(wavelen < old_context / high) * ~(wavelen > old_context / low)
    return torch.where(medium, smoothed, scaled)


def rope_tables(positions: torch.Tensor, freqs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """(sin, cos), fp32 [len(positions), head_dim // 2], as kernels/rope/spec.rope_tables builds them."""
    angles = torch.outer(positions.float(), freqs.to(positions.device))
    return angles.sin().contiguous(), angles.cos().contiguous()


@dataclass
class KVCache:
    """Keys and values per layer, [batch, kv_heads, capacity, head_dim], filled up to `length`."""

    keys: list[torch.Tensor]
    values: list[torch.Tensor]
    length: int = 0

    @classmethod
    def empty(cls, config: LlamaConfig, batch: int, capacity: int, dtype: torch.dtype, device: torch.device):
        # Preallocated so decode steps write in place instead of concatenating (a copy per token).
        shape = (batch, config.num_kv_heads, capacity, config.head_dim)
        keys = [torch.empty(shape, dtype=dtype, device=device) for _ in range(config.num_layers)]
        values = [torch.empty(shape, dtype=dtype, device=device) for _ in range(config.num_layers)]
        return cls(keys, values)

    @property
    def capacity(self) -> int:
        return self.keys[0].shape[2] if self.keys else 0


# The name under which the model keeps each layer's [gate_proj; up_proj] matrix.
GATE_UP = "gate_up_proj.weight"


def plan_for(op: str | None) -> ModelPlan:
    """The plan whose forward pass runs `op` at every place it can (the op folder's MODEL_PLAN): the end-to-end
    check of a candidate for it. None: the fused plan. Raises for an op the model never calls, whose check would
    pass without running it."""
    if op is None:
        return FUSED
    plan = model_plan(op)
    if plan is None:
        raise ValueError(
            f"the Llama model never calls {op} (kernels/{op}/__init__.py has no MODEL_PLAN), so a check of its "
            "tokens would pass without running the kernel"
        )
    return plan


@dataclass
class Llama:
    """Weights (Hugging Face names; gate and up as one matrix) plus the registered ops of one backend."""

    config: LlamaConfig
    weights: dict[str, torch.Tensor]
    backend: str = "torch"
    plan: ModelPlan = FUSED
    ops: dict[str, Callable[..., Any]] = field(init=False, repr=False)
    freqs: torch.Tensor = field(init=False, repr=False)

    def __post_init__(self) -> None:
        missing = [name for name in expected_weight_names(self.config) if name not in self.weights]
        if missing:
            raise ValueError(f"checkpoint lacks {len(missing)} weight(s), e.g. {missing[:3]}")
        self.weights = dict(self.weights)  # the caller's dict keeps its gate and up matrices
        for i in range(self.config.num_layers):
            prefix = f"model.layers.{i}.mlp."
            gate = self.weights.pop(prefix + "gate_proj.weight")
            up = self.weights.pop(prefix + "up_proj.weight")
            self.weights[prefix + GATE_UP] = torch.cat((gate, up))  # [2I, hidden]: gate rows, then up rows
        source = native_op if self.backend == NATIVE else (lambda op: operator(op, self.backend))
        self.ops = {op: source(op) for op in self.plan.operators}
        self.freqs = inv_freq(self.config)

    @property
    def device(self) -> torch.device:
        return self.weights["model.embed_tokens.weight"].device

    @property
    def dtype(self) -> torch.dtype:
        return self.weights["model.embed_tokens.weight"].dtype

    def w(self, name: str) -> torch.Tensor:
        return self.weights[name]

    def _attention(
        self, i: int, x: torch.Tensor, sin, cos, cache: KVCache | None, slot=None, mask=None
    ) -> torch.Tensor:
        """Self-attention of layer i; with `slot` (a device tensor: the position of a one-token step) and
        `mask` (which of the cache's positions it sees), the cache is written and read at full capacity."""
        c = self.config
        batch, seq, _ = x.shape
        prefix = f"model.layers.{i}.self_attn."
        # [batch, seq, heads, head_dim]: the layout the rope op takes, contiguous straight from the matmul.
        q = F.linear(x, self.w(prefix + "q_proj.weight")).view(batch, seq, c.num_heads, c.head_dim)
        k = F.linear(x, self.w(prefix + "k_proj.weight")).view(batch, seq, c.num_kv_heads, c.head_dim)
        v = F.linear(x, self.w(prefix + "v_proj.weight")).view(batch, seq, c.num_kv_heads, c.head_dim)
        if self.plan.rope == "rope_qk":
            q, k = self.ops["rope_qk"](q, k, sin, cos)
        else:
            q, k = self.ops["rope"](q, sin, cos), self.ops["rope"](k, sin, cos)
        q, k = q.transpose(1, 2), k.transpose(1, 2)
        v = v.transpose(1, 2)
        groups = c.num_heads // c.num_kv_heads
        if slot is not None:
            cache.keys[i].index_copy_(2, slot, k)
            cache.values[i].index_copy_(2, slot, v)
            k = cache.keys[i].repeat_interleave(groups, dim=1)
            v = cache.values[i].repeat_interleave(groups, dim=1)
            out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
            return F.linear(out.transpose(1, 2).reshape(batch, seq, -1), self.w(prefix + "o_proj.weight"))
        past = 0
        if cache is not None:
            past = cache.length
            cache.keys[i][:, :, past : past + seq] = k
            cache.values[i][:, :, past : past + seq] = v
            k = cache.keys[i][:, :, : past + seq]
            v = cache.values[i][:, :, : past + seq]
        k = k.repeat_interleave(groups, dim=1)
        v = v.repeat_interleave(groups, dim=1)
        if past == 0:
            out = F.scaled_dot_product_attention(q, k, v, is_causal=seq > 1)
        elif seq == 1:
            out = F.scaled_dot_product_attention(q, k, v)  # one new token sees every cached one
        else:
            # A chunk after a prefix: query j sees keys up to past + j (is_causal would align top-left).
            mask = torch.ones(seq, past + seq, dtype=torch.bool, device=x.device).tril(diagonal=past)
            out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        out = out.transpose(1, 2).reshape(batch, seq, c.num_heads * c.head_dim)
        return F.linear(out, self.w(prefix + "o_proj.weight"))

    def _mlp(self, i: int, x: torch.Tensor) -> torch.Tensor:
        prefix = f"model.layers.{i}.mlp."
        gate_up = F.linear(x, self.w(prefix + GATE_UP))  # [..., 2I]: gate then up, silu_mul's input
        return F.linear(self.ops["silu_mul"](gate_up), self.w(prefix + "down_proj.weight"))

    def _add_norm(self, y: torch.Tensor | None, h: torch.Tensor, weight: str) -> tuple[torch.Tensor, torch.Tensor]:
        """(h + y, rms_norm(h + y)) as Hugging Face computes them: the sum rounded to the model dtype, then normed.

        y None: no residual add (the embeddings before layer 0). The fused plan makes one add_rms_norm call.
        """
        eps = self.config.rms_eps
        if y is None:
            return h, self.ops["rms_norm"](h, self.w(weight), eps)
        if self.plan.norm == "add_rms_norm":
            return self.ops["add_rms_norm"](y, h, self.w(weight), eps)
        h = h + y
        return h, self.ops["rms_norm"](h, self.w(weight), eps)

    @torch.inference_mode()
    def forward(self, ids: torch.Tensor, cache: KVCache | None = None, last_only: bool = False) -> torch.Tensor:
        """Logits [batch, seq (or 1 with last_only), vocab] in the model dtype; appends to `cache` if given."""
        if ids.dim() != 2:
            raise ValueError(f"ids must be [batch, seq]; got shape {tuple(ids.shape)}")
        seq = ids.shape[1]
        past = cache.length if cache is not None else 0
        if cache is not None and past + seq > cache.capacity:
            raise ValueError(f"KV cache holds {cache.capacity} positions; {past} used, {seq} more asked for")
        positions = torch.arange(past, past + seq, device=self.device)
        # Tables for the positions of this chunk only: the rope op pairs row s of sin/cos with x[:, s].
        sin, cos = rope_tables(positions, self.freqs)
        h, y = self._layers(ids, sin, cos, cache)
        if cache is not None:
            cache.length = past + seq
        if last_only:
            h, y = h[:, -1:].contiguous(), y[:, -1:].contiguous() if y is not None else None
        return self._logits(h, y)

    __call__ = forward

    def step(self, ids: torch.Tensor, cache: KVCache, slot: torch.Tensor, sin, cos, mask) -> torch.Tensor:
        """Logits [batch, 1, vocab] of one token per row at position `slot` (a 1-element device tensor).

        Nothing here reads a host value that changes from step to step (the cache is read at full
        capacity, `mask` hides what is not written yet), so one CUDA graph serves every decode step.
        `cache.length` is not kept: the caller's position tensor is the count. It runs in the caller's
        grad mode (tools/llama/decode.py: inference_mode, or no_grad where torch.compile traces it).
        """
        h, y = self._layers(ids, sin, cos, cache, slot, mask)
        return self._logits(h, y)

    def _layers(self, ids, sin, cos, cache, slot=None, mask=None) -> tuple[torch.Tensor, torch.Tensor | None]:
        """(residual stream, last sublayer's output not yet added to it) after every layer."""
        h = F.embedding(ids, self.w("model.embed_tokens.weight"))
        y = None  # the output of the last sublayer, not yet added to the residual stream h
        for i in range(self.config.num_layers):
            prefix = f"model.layers.{i}."
            h, normed = self._add_norm(y, h, prefix + "input_layernorm.weight")
            y = self._attention(i, normed, sin, cos, cache, slot, mask)
            h, normed = self._add_norm(y, h, prefix + "post_attention_layernorm.weight")
            y = self._mlp(i, normed)
        return h, y

    def _logits(self, h: torch.Tensor, y: torch.Tensor | None) -> torch.Tensor:
        _, h = self._add_norm(y, h, "model.norm.weight")
        head = self.w("model.embed_tokens.weight" if self.config.tie_word_embeddings else "lm_head.weight")
        return F.linear(h, head)


def expected_weight_names(config: LlamaConfig) -> list[str]:
    names = ["model.embed_tokens.weight", "model.norm.weight"]
    if not config.tie_word_embeddings:
        names.append("lm_head.weight")
    for i in range(config.num_layers):
        p = f"model.layers.{i}."
        names += [p + "input_layernorm.weight", p + "post_attention_layernorm.weight"]
        names += [p + f"self_attn.{n}_proj.weight" for n in "qkvo"]
        names += [p + f"mlp.{n}_proj.weight" for n in ("gate", "up", "down")]
    return names


@dataclass
class Generation:
    """Greedy tokens of one run and the wall time of its two phases."""

    tokens: list[list[int]]
    prefill_s: float
    decode_s: float
    decode_steps: int


class Stopwatch:
    """Seconds between start() and stop(): CUDA events on a GPU (device time), perf_counter on the CPU."""

    def __init__(self, device: torch.device) -> None:
        self.cuda = device.type == "cuda"

    def start(self) -> None:
        if self.cuda:
            self.begin = torch.cuda.Event(enable_timing=True)
            self.begin.record()
        else:
            self.begin_s = time.perf_counter()

    def stop(self) -> float:
        if self.cuda:
            end = torch.cuda.Event(enable_timing=True)
            end.record()
            end.synchronize()
            return self.begin.elapsed_time(end) / 1e3
        return time.perf_counter() - self.begin_s


@torch.inference_mode()
def generate(model: Llama, prompt: torch.Tensor, max_new_tokens: int) -> Generation:
    """Greedy decoding with the KV cache: one prefill over the prompt, then one forward per new token.

    The prefill interval ends with the first token picked (its argmax included); the decode interval
    covers the remaining max_new_tokens - 1 steps.
    """
    if max_new_tokens < 1:
        raise ValueError(f"max_new_tokens must be at least 1; got {max_new_tokens}")
    device = model.device
    batch, prompt_len = prompt.shape
    cache = KVCache.empty(model.config, batch, prompt_len + max_new_tokens, model.dtype, device)
    watch = Stopwatch(device)
    if device.type == "cuda":
        torch.cuda.synchronize(device)  # nothing queued before the start event may count
    watch.start()
    token = model(prompt, cache, last_only=True)[:, -1].argmax(-1, keepdim=True)
    prefill_s = watch.stop()
    tokens = [token]
    watch.start()
    for _ in range(max_new_tokens - 1):
        token = model(token, cache)[:, -1].argmax(-1, keepdim=True)
        tokens.append(token)
    decode_s = watch.stop()
    return Generation(torch.cat(tokens, dim=1).tolist(), prefill_s, decode_s, max_new_tokens - 1)


@torch.inference_mode()
def generate_without_cache(model: Llama, prompt: torch.Tensor, max_new_tokens: int) -> list[list[int]]:
    """Greedy tokens by recomputing the whole sequence each step: the check on the KV cache path."""
    ids = prompt
    for _ in range(max_new_tokens):
        token = model(ids)[:, -1].argmax(-1, keepdim=True)
        ids = torch.cat([ids, token], dim=1)
    return ids[:, prompt.shape[1] :].tolist()
