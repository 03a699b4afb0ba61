"""Hugging Face's Llama (`LlamaForCausalLM`) with the workbench's kernels, patched in one call as Liger does it.

    from tools.llama.hf import patch_llama

    patch = patch_llama("tilelang", model=model)   # a loaded model: its modules only
    patch = patch_llama("tilelang")                # before loading: the classes, so every Llama
    print(patch.report.describe())                 # what was replaced, how often, by which op
    patch.unpatch()                                # or: with patch_llama(...): ...

Liger's `apply_liger_kernel_to_llama(rope=..., rms_norm=..., swiglu=..., model=...)` is the convention: one
flag per replacement, and a `model` whose instances are patched in place. Each replacement calls a torch
custom op (kernels/custom_ops.py), so the patched model compiles with `torch.compile(fullgraph=True)` and
runs under CUDA graphs. What is replaced, in transformers' `modeling_llama`:

- `LlamaRMSNorm.forward`                 rms_norm (every norm: the layers' two and the final one)
- `apply_rotary_pos_emb`                 rope_qk (q and k in one call; a module function, so process-wide)
- `LlamaMLP.forward`                     silu_mul, on [gate; up] from one matmul when the model is given
- `LlamaDecoderLayer.forward`            add_rms_norm: the residual add after attention with the norm after it

The residual add after the MLP stays in torch: its norm is the next layer's input_layernorm (or the final
norm), across the layer boundary, and `LlamaDecoderLayer` returns one tensor, so fusing it would mean
rewriting `LlamaModel.forward` (masks, cache, output capture), not patching a layer. Patching the classes
(no model) cannot fuse gate and up, whose weights are not loaded yet: the MLP then concatenates their two
outputs (a copy of [..., 2I] per call); pass the loaded model, after moving it to its device and dtype.
"""

from __future__ import annotations

import copy
import inspect
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import torch
import torch.nn.functional as F

from workbench.kernels.custom_ops import CustomOp, register
from workbench.kernels.registry import check_backend

# The registered ops a full patch calls: an end-to-end check of another op on this model would not run it.
PATCHED_OPS = ("rms_norm", "rope_qk", "add_rms_norm", "silu_mul")
# The buffer a patched MLP keeps its [gate_proj; up_proj] weight in (gate and up become views of it).
GATE_UP = "workbench_gate_up"
_MARK = "_workbench_patched"  # set on what a patch holds, so a second patch of it is refused


def modeling_llama():
    """transformers' `modeling_llama` module."""
    try:
        from transformers.models.llama import modeling_llama as module
    except ImportError as err:
        raise RuntimeError(f"Hugging Face's Llama needs transformers (pip install transformers): {err}") from err
    return module


@dataclass(frozen=True)
class Replacement:
    """One thing the patch replaced."""

    target: str  # e.g. "LlamaRMSNorm.forward", "apply_rotary_pos_emb"
    op: str  # the registered op it now calls
    custom_op: str  # e.g. "workbench::rms_norm_tilelang"
    status: str  # native, or torch_fallback where the backend cannot run here
    count: int | None  # modules patched in the given model; None: a class or module function (every Llama)


@dataclass(frozen=True)
class PatchReport:
    backend: str
    scope: str  # "model" (one loaded model's modules) or "classes" (every Llama of this process)
    replaced: tuple[Replacement, ...]
    kept: tuple[str, ...] = ()  # what the patch leaves to Hugging Face's code, and why

    def describe(self) -> str:
        lines = [f"patched Hugging Face's Llama ({self.scope}) with the {self.backend} backend:"]
        for r in self.replaced:
            where = "every Llama in this process" if r.count is None else f"{r.count} module(s)"
            lines.append(f"  {r.target:<28} -> {r.custom_op} ({r.status}), {where}")
        lines += [f"  kept: {reason}" for reason in self.kept]
        return "\n".join(lines)


KEPT_ADD = (
    "the residual add after each MLP: its norm is in the next layer (or the final norm), across the layer "
    "boundary, which a decoder layer's forward cannot fuse"
)


@dataclass
class LlamaPatch:
    """A patch in force: its report, and what `unpatch` puts back (last change first)."""

    report: PatchReport
    _undo: list[Callable[[], None]] = field(default_factory=list, repr=False)

    def unpatch(self) -> None:
        while self._undo:
            self._undo.pop()()

    def __enter__(self) -> PatchReport:
        return self.report

    def __exit__(self, *exc: object) -> None:
        self.unpatch()


def _set(patch: LlamaPatch, owner: Any, name: str, value: Any) -> None:
    """owner.name = value, with its undo: the old value back, or the attribute removed if owner had none."""
    had = name in vars(owner)
    old = vars(owner).get(name)
    setattr(owner, name, value)
    patch._undo.append(lambda: setattr(owner, name, old) if had else delattr(owner, name))


# ------------------------------------------------------------------------------------- the patched forwards


def _rms_norm_forward(op: CustomOp) -> Callable:
    def forward(self, hidden_states: torch.Tensor) -> torch.Tensor:
        x = hidden_states.contiguous()
        return op.functional(x, self.weight.to(x.dtype), float(self.variance_epsilon))

    return forward


def _rotary(op: CustomOp, original: Callable) -> Callable:
    def apply_rotary_pos_emb(q, k, cos, sin, unsqueeze_dim=1):
        """Hugging Face's q, k [batch, heads, seq, head_dim] and cos, sin [batch, seq, head_dim] (the half
        repeated), through the op's [batch, seq, heads, head_dim] and [seq, head_dim // 2] tables."""
        if unsqueeze_dim != 1 or cos.dim() != 3:
            return original(q, k, cos, sin, unsqueeze_dim)
        half = cos.shape[-1] // 2
        q_rows, k_rows = q.transpose(1, 2).contiguous(), k.transpose(1, 2).contiguous()
        pairs = []
        # One call per batch row: rows may sit at different positions (left padding), the op's tables are shared.
        for row in range(q.shape[0]):
            table = row if cos.shape[0] > 1 else 0
            pairs.append(
                op.functional(
                    q_rows[row : row + 1],
                    k_rows[row : row + 1],
                    sin[table, :, :half].contiguous(),
                    cos[table, :, :half].contiguous(),
                )
            )
        q_out, k_out = pairs[0] if len(pairs) == 1 else (torch.cat(side) for side in zip(*pairs, strict=True))
        return q_out.transpose(1, 2), k_out.transpose(1, 2)

    return apply_rotary_pos_emb


def _mlp_forward(op: CustomOp) -> Callable:
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        fused = getattr(self, GATE_UP, None)
        if fused is not None:
            gate_up = F.linear(x, fused)
        else:
            gate_up = torch.cat((self.gate_proj(x), self.up_proj(x)), dim=-1)
        return self.down_proj(op.functional(gate_up.contiguous()))

    return forward


# What transformers has called the decoder layer's cache argument: 5.25 says `cache`, 5.17 `past_key_values`.
CACHE_NAMES = ("cache", "past_key_values", "past_key_value")


def _cache_name(attention: type) -> str:
    """The name the installed LlamaAttention.forward takes its cache by: a cache passed by another name is dropped."""
    parameters = inspect.signature(attention.forward).parameters
    return next((name for name in CACHE_NAMES if name in parameters), "past_key_values")


def _decoder_forward(op: CustomOp) -> Callable:
    cache_name = _cache_name(modeling_llama().LlamaAttention)  # once: under torch.compile the forward must not inspect

    def forward(
        self,
        hidden_states: torch.Tensor,
        attention_mask: torch.Tensor | None = None,
        position_ids: torch.LongTensor | None = None,
        cache: Any = None,
        use_cache: bool | None = False,
        position_embeddings: tuple[torch.Tensor, torch.Tensor] | None = None,
        **kwargs: Any,
    ) -> torch.Tensor:
        """transformers' LlamaDecoderLayer.forward, the add after attention fused into the norm after it."""
        for name in CACHE_NAMES[1:]:  # older names of `cache`, whichever the model passed
            if name in kwargs:
                cache = kwargs.pop(name)
        residual = hidden_states
        hidden_states = self.input_layernorm(hidden_states)
        hidden_states, _ = self.self_attn(
            hidden_states=hidden_states,
            attention_mask=attention_mask,
            position_ids=position_ids,
            use_cache=use_cache,
            position_embeddings=position_embeddings,
            **{cache_name: cache},
            **kwargs,
        )
        norm = self.post_attention_layernorm
        # (residual + attention output, its norm): the sum is the residual stream, rounded as HF's add rounds it.
        residual, hidden_states = op.functional(
            hidden_states.contiguous(),
            residual.contiguous(),
            norm.weight.to(hidden_states.dtype),
            float(norm.variance_epsilon),
        )
        hidden_states = self.mlp(hidden_states)
        return residual + hidden_states

    return forward


def _patch_forward(
    patch: LlamaPatch,
    model: torch.nn.Module | None,
    cls: type,
    forward: Callable,
    prepare: Callable[[torch.nn.Module], None] | None = None,
) -> int | None:
    """`forward` in place of `cls.forward`: on the class (no model: every model built later), or on each of the
    model's modules of that class, `prepare`d first; how many modules were patched (None: the class)."""
    if model is None:
        _set(patch, cls, "forward", forward)
        return None
    modules = [m for m in model.modules() if isinstance(m, cls)]
    for module in modules:
        if prepare is not None:
            prepare(module)
        _set(patch, module, "forward", forward.__get__(module))
    return len(modules)


def _fuse_gate_up(patch: LlamaPatch, mlp: torch.nn.Module) -> None:
    """[gate_proj; up_proj] in one buffer, gate and up made views of it: one matmul gives silu_mul its input."""
    gate, up = mlp.gate_proj, mlp.up_proj
    if gate.bias is not None or up.bias is not None:
        return  # Llama-3 has no MLP bias; one with a bias keeps two matmuls and the concatenation
    old_gate, old_up = gate.weight, up.weight
    fused = torch.cat((old_gate.detach(), old_up.detach()))
    rows = old_gate.shape[0]
    gate.weight = torch.nn.Parameter(fused[:rows], requires_grad=old_gate.requires_grad)
    up.weight = torch.nn.Parameter(fused[rows:], requires_grad=old_up.requires_grad)
    mlp.register_buffer(GATE_UP, fused, persistent=False)

    def undo() -> None:
        mlp._buffers.pop(GATE_UP, None)
        gate.weight, up.weight = old_gate, old_up

    patch._undo.append(undo)


# ----------------------------------------------------------------------------------------------- the patch


def patch_llama(
    backend: str = "torch",
    model: torch.nn.Module | None = None,
    *,
    rms_norm: bool = True,
    rope: bool = True,
    swiglu: bool = True,
    add_rms_norm: bool = True,
) -> LlamaPatch:
    """Replace Hugging Face Llama's RMSNorm, rotary application, SwiGLU and post-attention add+norm with the
    `backend`'s kernels as custom ops; with `model`, that model's modules, else the classes (every Llama).

    Returns the patch: its `report` says what was replaced; `unpatch()` (or leaving `with`) restores it.
    """
    check_backend(backend)
    hf = modeling_llama()
    if model is not None:
        base = getattr(model, "model", model)
        if not isinstance(getattr(base, "layers", None), torch.nn.ModuleList) or not isinstance(
            getattr(base, "norm", None), hf.LlamaRMSNorm
        ):
            raise TypeError(
                f"patch_llama takes a transformers LlamaForCausalLM or LlamaModel; got {type(model).__name__}"
            )
        holder: Any = model
    else:
        holder = hf.LlamaDecoderLayer
    if vars(holder).get(_MARK):
        raise RuntimeError(f"{getattr(holder, '__name__', type(holder).__name__)} is patched already: unpatch it first")

    scope = "model" if model is not None else "classes"
    patch = LlamaPatch(PatchReport(backend, scope, ()))
    replaced: list[Replacement] = []

    def record(target: str, op: CustomOp, count: int | None) -> None:
        replaced.append(Replacement(target, op.op, op.name, op.status, count))

    layers = list(base.layers) if model is not None else []
    if rms_norm:
        op = register("rms_norm", backend)
        record("LlamaRMSNorm.forward", op, _patch_forward(patch, model, hf.LlamaRMSNorm, _rms_norm_forward(op)))
    if rope:
        op = register("rope_qk", backend)
        # A module function the attention's forward looks up per call: one model cannot have it alone.
        _set(patch, hf, "apply_rotary_pos_emb", _rotary(op, hf.apply_rotary_pos_emb))
        record("apply_rotary_pos_emb", op, None)
    if swiglu:
        op = register("silu_mul", backend)
        fuse = partial(_fuse_gate_up, patch)
        record("LlamaMLP.forward", op, _patch_forward(patch, model, hf.LlamaMLP, _mlp_forward(op), fuse))
    if add_rms_norm:
        op = register("add_rms_norm", backend)
        forward = _decoder_forward(op)
        if model is None:
            _set(patch, hf.LlamaDecoderLayer, "forward", forward)
            record("LlamaDecoderLayer.forward", op, None)
        else:
            for layer in layers:
                _set(patch, layer, "forward", forward.__get__(layer))
            record("LlamaDecoderLayer.forward (add + post_attention_layernorm)", op, len(layers))
    _set(patch, holder, _MARK, True)
    patch.report = PatchReport(backend, scope, tuple(replaced), (KEPT_ADD,) if add_rms_norm else ())
    return patch


# ------------------------------------------------------------------------------- the model agent infer runs

# How `agent infer --model-code hf` decodes: Hugging Face's generate with its dynamic cache (eager), its static
# cache (static), or the static cache with the step compiled, fullgraph (compile: CUDA graphs on a GPU).
HF_DECODE_MODES = ("eager", "static", "compile")


def load_model(
    config: dict[str, Any] | None, path: str | None, seed: int, device: str, dtype: torch.dtype
) -> torch.nn.Module:
    """Hugging Face's LlamaForCausalLM: from a local directory, or `config` (a config.json dict) with the seeded
    random weights tools/llama/load.py gives our model, so both models hold the same numbers."""
    from tools.llama.load import random_weights
    from tools.llama.model import LlamaConfig

    modeling_llama()
    import transformers

    if path is not None:
        return transformers.LlamaForCausalLM.from_pretrained(path, dtype=dtype).to(device).eval()
    # A copy: LlamaConfig rewrites the rope_scaling dict it is given into its rope_parameters.
    with torch.device(device):  # initialised where it runs: on a GPU in a fraction of the CPU's time
        model = transformers.LlamaForCausalLM(transformers.LlamaConfig(**copy.deepcopy(config)))
    model = model.to(dtype=dtype).eval()
    weights = random_weights(LlamaConfig.from_hf(config), seed, "cpu", dtype)
    missing, unexpected = model.load_state_dict(weights, strict=False)
    tied = {"lm_head.weight"} if model.config.tie_word_embeddings else set()
    if unexpected or set(missing) - tied:
        raise RuntimeError(f"random weights do not fit LlamaForCausalLM: missing {missing}, unexpected {unexpected}")
    return model.to(device)


class _TokenClock:
    """A `generate` streamer that notes when each batch of tokens reaches the host: the prompt first, then one
    per step (generate copies each to the CPU before handing it over, so the mark follows the step's work)."""

    def __init__(self) -> None:
        self.marks: list[float] = []

    def put(self, value: torch.Tensor) -> None:
        self.marks.append(time.perf_counter())

    def end(self) -> None:
        pass


def generator(model: torch.nn.Module, mode: str):
    """A function (prompt, max_new_tokens) -> Generation through Hugging Face's `generate`, greedy.

    Prefill runs from the call to the first new token on the host; decode from there to the last one.
    """
    from transformers import CompileConfig

    from tools.llama.model import Generation

    if mode not in HF_DECODE_MODES:
        raise ValueError(f"Hugging Face's model decodes {', '.join(HF_DECODE_MODES)}; got {mode!r}")
    # Exactly the tokens asked for, as our model generates them: no end-of-sequence stop (eos_token_id=[]), and
    # every prompt token attended (a pad id found in a random prompt would otherwise be masked).
    options: dict[str, Any] = {"do_sample": False, "pad_token_id": 0, "eos_token_id": []}
    if mode in ("static", "compile"):
        options["cache_implementation"] = "static"
    if mode == "static":
        options["disable_compile"] = True
    if mode == "compile":
        on_gpu = model.device.type == "cuda"
        config = CompileConfig(fullgraph=True, mode="reduce-overhead" if on_gpu else "default")
        config._compile_all_devices = True  # generate compiles on accelerators only unless told
        options["compile_config"] = config

    def run(prompt: torch.Tensor, max_new_tokens: int) -> Generation:
        clock = _TokenClock()
        if prompt.device.type == "cuda":
            torch.cuda.synchronize(prompt.device)
        start = time.perf_counter()
        with torch.inference_mode(mode != "compile"), torch.no_grad():
            out = model.generate(
                prompt,
                attention_mask=torch.ones_like(prompt),
                max_new_tokens=max_new_tokens,
                streamer=clock,
                **options,
            )
        first, last = clock.marks[1], clock.marks[-1]  # marks[0]: the prompt, handed over before any work
        tokens = out[:, prompt.shape[1] :].tolist()
        return Generation(tokens, first - start, last - first, max_new_tokens - 1)

    return run
