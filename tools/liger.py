"""Liger-Kernel as an optional baseline: one adapter per op, from our spec's inputs to Liger's API and back.

Liger-Kernel (linkedin/Liger-Kernel) is pure Python + Triton. When it is importable the
benchmark times its kernel for the op beside the candidate, under the same protocol
(`time_events`, L2 flushed), after checking its output against the op's spec with the same
`spec.compare` the candidate passes: a mis-adapted baseline shows as wrong, never as a speedup.
Without it, the baseline is skipped with a note; it never fails the candidate.

Written against liger-kernel 0.8.5 (the wheel's source was read; `LIGER_VERSION` below):

- rope_qk: the same function on our q and k, copied into Hugging Face's layout.
- rms_norm: `liger_kernel.ops.LigerRMSNormFunction.apply(X, W, eps, offset, casting_mode)`;
  nothing to prepare.
- add_rms_norm: `liger_kernel.ops.LigerFusedAddRMSNormFunction.apply(X, R, W, eps, offset,
  casting_mode)` -> (Y, S), Liger's fused residual add + RMSNorm; reordered to our (sum, normed).
- silu_mul: `liger_kernel.ops.LigerSiLUMulFunction.apply(a, b)` on gate and up; x is split into
  two contiguous halves.
- rope: `liger_kernel.transformers.rope.liger_rotary_pos_emb(q, k, cos, sin)`; x's heads are split
  into a q and a k in Hugging Face's layout, and the tables widened to HF's full-width cos/sin.

Each adapter does its preparation (copies, layout and tables) when it is bound to a set of
inputs, outside the timed region; the timed call is Liger's public function alone, so Liger
pays for nothing our API asks and its own does not. What each one does is said at the adapter.
Liger returns fresh tensors (it has no `out=`), so its timed calls also include the caching
allocator's handing out of its outputs, as the torch.compile baseline's do.

Numerics. Liger's "llama" casting mode (the one a Llama model patched by Liger runs) rounds the
normalised row to the input dtype before the weight multiply, and its SwiGLU rounds silu(gate)
before multiplying by up: HF's two roundings, which the specs' 1-2 ulp tolerances admit (see
each spec). Its RoPE does fp32 math on fp32 tables and rounds once, as our reference does.
"""

from __future__ import annotations

import importlib
import importlib.metadata
from collections.abc import Callable
from dataclasses import dataclass

import torch

from kernels.spec import Comparison, OpSpec

# The release whose source the adapters below were written against.
LIGER_VERSION = "0.8.5"
# Llama's RMSNorm: only the inverse RMS in fp32, the weight multiply in the input dtype (Liger's docs).
CASTING_MODE = "llama"


class LigerUnavailable(Exception):
    """The Liger baseline cannot run here; the message says why (it becomes the record's note)."""


@dataclass(frozen=True)
class LigerCall:
    """Liger bound to one set of inputs: `run` is what is timed, `outputs` maps its result to the op's outputs."""

    run: Callable[[], object]
    outputs: Callable[[object], torch.Tensor | tuple[torch.Tensor, ...]]


@dataclass(frozen=True)
class Adapter:
    """How one of our ops maps onto Liger: the function to import and how to call it on our inputs."""

    op: str
    module: str
    name: str
    bind: Callable[[Callable, tuple], LigerCall]

    @property
    def api(self) -> str:
        return f"{self.module}.{self.name}"


# ---------------------------------------------------------------------------------------------- rope


def rope_inputs(
    x: torch.Tensor, sin: torch.Tensor, cos: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """Our x [batch, seq, heads, head_dim] and half-width fp32 tables as Liger's (q, k, cos, sin).

    Liger's RoPE rotates a q and a k in one launch, one program per token, and writes them in
    place. Our op rotates one tensor, so its heads are split: the first ceil(heads / 2) become
    q, the rest k, each copied into a contiguous [batch, seq, h, head_dim] buffer and passed as
    the [batch, h, seq, head_dim] view Hugging Face passes (a transpose, as in LlamaAttention);
    Liger transposes it back and finds it contiguous, so it copies nothing. Together they are
    exactly x's bytes, so Liger moves what our op moves in one launch, as in a Llama layer
    (q and k together). Its in-place writes land in these copies, never in x.
    The tables become Hugging Face's full-width [1, seq, head_dim] fp32 `cat(freqs, freqs)`
    cos and sin; Liger's kernel reads only their first half, as our kernels read ours.
    All of this is done once per binding, outside the timed region.
    """
    heads = x.shape[2]
    if heads < 2:
        raise ValueError(f"the Liger RoPE adapter splits the heads into q and k; x has {heads} head(s)")
    q_heads = (heads + 1) // 2
    return (_hf_layout(x[:, :, :q_heads]), _hf_layout(x[:, :, q_heads:]), *_hf_tables(sin, cos))


def _hf_layout(x: torch.Tensor) -> torch.Tensor:
    """A contiguous copy of x [batch, seq, h, head_dim] seen as HF's [batch, h, seq, head_dim] (Liger writes it)."""
    return x.clone(memory_format=torch.contiguous_format).transpose(1, 2)


def _hf_tables(sin: torch.Tensor, cos: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Our half-width fp32 tables as HF's full-width [1, seq, head_dim] (cos, sin)."""
    cos_full = torch.cat((cos, cos), dim=-1).float().unsqueeze(0).contiguous()
    sin_full = torch.cat((sin, sin), dim=-1).float().unsqueeze(0).contiguous()
    return cos_full, sin_full


def rope_output(q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    """Liger's rotated (q, k), [batch, h, seq, head_dim] each, back to our [batch, seq, heads, head_dim]."""
    return torch.cat((q.transpose(1, 2), k.transpose(1, 2)), dim=2)


def _bind_rope(fn: Callable, args: tuple) -> LigerCall:
    x, sin, cos = args
    q, k, cos_full, sin_full = rope_inputs(x, sin, cos)
    # Timed: Liger's call alone. It rotates q and k in place, so repeated timed calls rotate
    # rotated data (the same work; rotations keep the values bounded); the correctness check
    # uses a binding of its own, called once.
    return LigerCall(run=lambda: fn(q, k, cos_full, sin_full), outputs=lambda result: rope_output(*result))


def _bind_rope_qk(fn: Callable, args: tuple) -> LigerCall:
    q, k, sin, cos = args
    # Liger's RoPE is this op: q and k in one launch. Copies in HF's layout (Liger writes in place, and
    # q and k must stay unchanged) and full-width tables, made here, outside the timed region.
    q_hf, k_hf = _hf_layout(q), _hf_layout(k)
    cos_full, sin_full = _hf_tables(sin, cos)
    return LigerCall(
        run=lambda: fn(q_hf, k_hf, cos_full, sin_full),
        outputs=lambda result: (result[0].transpose(1, 2), result[1].transpose(1, 2)),
    )


# ---------------------------------------------------------------------------------------------- rms_norm


def _bind_rms_norm(fn: Callable, args: tuple) -> LigerCall:
    x, weight, eps = args
    # No preparation: Liger takes x [..., hidden] and weight [hidden] as they are. offset 0.0 (Llama;
    # Gemma uses 1.0). It returns a fresh Y and also writes 4 bytes of 1/rms per row for its backward.
    return LigerCall(run=lambda: fn(x, weight, eps, 0.0, CASTING_MODE), outputs=lambda y: y)


# ---------------------------------------------------------------------------------------------- add_rms_norm


def _bind_add_rms_norm(fn: Callable, args: tuple) -> LigerCall:
    x, residual, weight, eps = args
    # No preparation. Liger computes S = X + R in the input dtype (the rounded sum HF stores, as our
    # spec requires) and normalises S; it returns (Y, S), ours is (sum, normed): reordered, untimed.
    return LigerCall(
        run=lambda: fn(x, residual, weight, eps, 0.0, CASTING_MODE),
        outputs=lambda result: (result[1], result[0]),
    )


# ---------------------------------------------------------------------------------------------- silu_mul


def silu_mul_inputs(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Our x [..., 2I] (gate then up) as Liger's (a, b): two contiguous [..., I] tensors.

    Liger's SwiGLU wraps its forward in `ensure_contiguous`, so the strided halves of x would be
    copied inside the timed call (3x the bytes of the op). In a Hugging Face Llama MLP gate and up
    come from two projections, already contiguous; the copies are made here, outside the timed
    region, so Liger reads 2I and writes I per token as our op does.
    """
    half = x.shape[-1] // 2
    return x[..., :half].contiguous(), x[..., half:].contiguous()


def _bind_silu_mul(fn: Callable, args: tuple) -> LigerCall:
    gate, up = silu_mul_inputs(args[0])
    return LigerCall(run=lambda: fn(gate, up), outputs=lambda c: c)


def _apply(function: Callable) -> Callable:
    """An autograd.Function's `apply` (Liger's ops are autograd Functions; the forward is what runs here)."""
    return function.apply


ADAPTERS: dict[str, Adapter] = {
    "rope": Adapter("rope", "liger_kernel.transformers.rope", "liger_rotary_pos_emb", _bind_rope),
    "rope_qk": Adapter("rope_qk", "liger_kernel.transformers.rope", "liger_rotary_pos_emb", _bind_rope_qk),
    "rms_norm": Adapter("rms_norm", "liger_kernel.ops", "LigerRMSNormFunction", _bind_rms_norm),
    "add_rms_norm": Adapter("add_rms_norm", "liger_kernel.ops", "LigerFusedAddRMSNormFunction", _bind_add_rms_norm),
    "silu_mul": Adapter("silu_mul", "liger_kernel.ops", "LigerSiLUMulFunction", _bind_silu_mul),
}


def installed_version() -> str | None:
    """liger-kernel's version, or None when it is not installed."""
    try:
        return importlib.metadata.version("liger_kernel")
    except importlib.metadata.PackageNotFoundError:
        return None


def load(op: str) -> tuple[Adapter, Callable]:
    """The op's adapter and Liger's function for it; raises LigerUnavailable with the reason otherwise."""
    adapter = ADAPTERS.get(op)
    if adapter is None:
        raise LigerUnavailable(f"Liger-Kernel has no kernel for {op}")
    try:
        importlib.import_module("liger_kernel")
    except ModuleNotFoundError as err:
        if err.name == "liger_kernel":
            raise LigerUnavailable("liger-kernel not installed") from None
        raise LigerUnavailable(f"import liger_kernel failed: {err}") from None
    except Exception as err:  # a broken install is a missing baseline, never a failed candidate
        raise LigerUnavailable(f"import liger_kernel failed: {type(err).__name__}: {err}") from None
    try:
        module = importlib.import_module(adapter.module)
        function = getattr(module, adapter.name)
    except (ImportError, AttributeError) as err:
        version = installed_version() or "?"
        raise LigerUnavailable(
            f"liger-kernel {version} has no {adapter.api} (adapters written against {LIGER_VERSION}): {err}"
        ) from None
    except Exception as err:
        raise LigerUnavailable(f"import {adapter.module} failed: {type(err).__name__}: {err}") from None
    return adapter, _apply(function) if isinstance(function, type) else function


def check(call: LigerCall, spec: OpSpec, args: tuple, dtype: torch.dtype) -> Comparison:
    """Run Liger once on `args` and compare what it gives back with the op's fp32 reference (the spec's check)."""
    return spec.compare(call.outputs(call.run()), args, dtype)
