"""RMSNorm spec, as Llama's `LlamaRMSNorm` computes it.

    rms_norm(x, weight, eps, *, out=None) -> out
    x      [..., hidden]   bf16 / fp16 / fp32, normalised over the last dim
    weight [hidden]        same dtype as x
    out = x * rsqrt(mean(x**2, -1) + eps) * weight

Numerics. fp32 accumulation and math, eps inside the rsqrt, the result rounded
once to x's dtype. Hugging Face rounds the normalised x to the input dtype
before multiplying by the weight, and that product is rounded again: two
roundings, so it can differ from the reference by up to about 1.5 ulp. The
tolerance admits 1-2 ulp of the result and no more.
"""

from __future__ import annotations

import math
import random

import torch

from workbench.kernels.llama import DECODE_BATCHES, FAMILY_TOKENS, MODELS, PREFILL_TOKENS, family_dims, family_shapes
from workbench.kernels.spec import ONE_ROUNDING, ChainLink, NamedShape, OpSpec, hazard_rows
from workbench.kernels.validation import (
    SUPPORTED_DTYPES,
    check_out,
    require_contiguous,
    require_cuda,
    require_dtype,
    require_same_device,
    require_tensor,
)

LLAMA_EPS = 1e-5


def reference(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    """fp32 RMSNorm over the last dim; the caller rounds once to the output dtype."""
    xf = x.float()
    variance = xf.pow(2).mean(-1, keepdim=True)
    return xf * torch.rsqrt(variance + eps) * weight.float()


def make_inputs(dims: tuple[int, ...], dtype: torch.dtype, seed: int, device: str = "cpu") -> tuple:
    """x ~ N(0, 1) with a per-row scale (rows of different norm); weight ~ s (1 + 0.25 N(0, 1)).

    s, one per seed, is 1.5-4 or 1/4-2/3 (log-uniform): a trained model's norm weights are not all near 1, and
    a normalised row times such a weight is far from a row of norm 1, so no output of the op fed back into it
    (the judge's chained batches) is a fixed point of it, which it was with weights near +-1 (`rms_norm(x) * w`
    = `x * w` to 1e-5 there).
    """
    # Drawn on the target device: generating 100+ MB on the CPU would dominate an evaluation.
    gen = torch.Generator(device=device).manual_seed(seed)
    rows, hidden = dims
    scale = torch.exp(torch.randn((rows, 1), generator=gen, device=device))
    x = (torch.randn(dims, generator=gen, device=device) * scale).to(dtype)
    weight = weight_scale(gen, device) * (1.0 + 0.25 * torch.randn((hidden,), generator=gen, device=device))
    return x, weight.to(dtype), LLAMA_EPS


def weight_scale(gen: torch.Generator, device: str) -> float:
    """exp(+-u), u uniform in [ln 1.5, ln 4]: a weight's overall scale at least 1.5x away from 1."""
    u, sign = torch.rand((2,), generator=gen, device=device).tolist()
    magnitude = math.log(1.5) + u * (math.log(4.0) - math.log(1.5))
    return math.exp(magnitude if sign < 0.5 else -magnitude)


def bytes_moved(dims: tuple[int, ...], dtype: torch.dtype) -> int:
    rows, hidden = dims
    element = torch.empty((), dtype=dtype).element_size()
    return (2 * rows * hidden + hidden) * element


def check_inputs(x, weight, eps, out=None, *, require_gpu: bool = True) -> None:
    require_tensor("x", x)
    require_tensor("weight", weight)
    if isinstance(eps, bool) or not isinstance(eps, (int, float)):
        raise TypeError(f"eps must be a float, got {type(eps).__name__}")
    if not eps > 0:
        raise ValueError(f"eps must be positive, got {eps}")
    if x.dim() < 1:
        raise ValueError("x must have at least one dimension (the one normalised)")
    if weight.dim() != 1 or weight.shape[0] != x.shape[-1]:
        raise ValueError(
            f"weight must be [hidden] = [{x.shape[-1]}] for x of shape {tuple(x.shape)}; got {tuple(weight.shape)}"
        )
    require_dtype("x", x, SUPPORTED_DTYPES)
    if weight.dtype != x.dtype:
        raise ValueError(f"weight has dtype {weight.dtype} but x has {x.dtype}; cast one of them")
    require_same_device({"x": x, "weight": weight})
    if require_gpu:
        require_cuda("x", x)
    require_contiguous("x", x)
    require_contiguous("weight", weight)
    check_out(out, x)


def _shapes() -> tuple[NamedShape, ...]:
    shapes = []
    for model, dims in MODELS.items():
        for tokens in (*PREFILL_TOKENS, 32768):
            shapes.append(NamedShape(f"{model}/prefill{tokens}", (tokens, dims.hidden)))
        for batch in DECODE_BATCHES:
            shapes.append(NamedShape(f"{model}/decode{batch}", (batch, dims.hidden)))
    return tuple(shapes)


# Row counts and row lengths that are not multiples of any block or vector width.
HIDDEN_SHAPES = (
    NamedShape("hidden/17x2048", (17, 2048)),
    NamedShape("hidden/3x1000", (3, 1000)),
    NamedShape("hidden/129x4097", (129, 4097)),
    NamedShape("hidden/1x5120", (1, 5120)),
    # More tokens than every named shape (32768) and no power of two.
    NamedShape("hidden/long-prompt-33001", (33001, 128)),
    # A width above 8192 that is no power of two (a kernel that keeps a row in 8192 elements of registers or
    # shared memory fails here).
    NamedShape("hidden/5x12290", (5, 12290)),
    # Every hidden size of the Llama 3 family (kernels/llama.py), a few tokens each: 2048 to 16384 (405B).
    *family_shapes(lambda dims: (FAMILY_TOKENS, dims.hidden)),
)


def hazards(x, weight, eps):
    """Rows of x of zeros (the norm is eps alone), of |x| up to 1e4 and of 1e-4 (below eps)."""
    return hazard_rows(x, 1e4), weight, eps


def random_hidden_shape(rng: random.Random) -> NamedShape:
    """An odd row count on one of the family's (or an odd) hidden sizes, drawn per evaluation."""
    width = rng.choice([*family_dims("hidden"), 1000, rng.randint(8193, 16383)])
    return NamedShape("hidden/random", (rng.randint(1, 700), width))


TOLERANCES = ONE_ROUNDING

SPEC = OpSpec(
    name="rms_norm",
    signature="rms_norm(x, weight, eps, *, out=None) -> Tensor",
    description=__doc__,
    reference=reference,
    make_inputs=make_inputs,
    bytes_moved=bytes_moved,
    check_inputs=check_inputs,
    shapes=_shapes(),
    hidden_shapes=HIDDEN_SHAPES,
    tolerances=TOLERANCES,
    random_hidden_shape=random_hidden_shape,
    hazards=hazards,
    camp_inputs=lambda x, weight, eps: (x.view(1, *x.shape), weight, eps),  # [batch, seq, hidden]
    chain=(ChainLink(arg=0, output=0),),  # the next call normalises half of this call's output, then fresh rows
    copy_bound=1.10,
)
