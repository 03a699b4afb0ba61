"""Fused residual add + RMSNorm spec, as a Llama decoder layer computes it.

    add_rms_norm(x, residual, weight, eps, *, out=None) -> (sum, normed)
    x        [..., hidden]   bf16 / fp16 / fp32: the sublayer's output
    residual [..., hidden]   same shape and dtype as x: the residual stream
    weight   [hidden]        same dtype as x
    out      None, or a (sum, normed) pair of buffers shaped like x; the op writes both and
             returns that pair (without out=, two new tensors)
    sum    = x + residual, rounded to x's dtype
    normed = sum * rsqrt(mean(sum**2, -1) + eps) * weight, from the rounded sum

Numerics. The sum is the residual stream that the next layer reads, so it must be what
Hugging Face stores: `hidden_states = residual + hidden_states` in the model dtype, i.e.
x + residual in fp32 rounded once to x's dtype. Its tolerance is exact (0 ulp). The
normalisation then reads that rounded sum (not the fp32 one), as HF's LlamaRMSNorm does,
and computes it as this repo's rms_norm does: fp32 variance and math, eps inside the
rsqrt, the result rounded once to x's dtype. HF rounds the normalised sum to the model
dtype before multiplying by the weight and rounds that product again (two roundings, up
to about 1.5 ulp off); the normed tolerance, rms_norm's, admits 1-2 ulp and no more.
A kernel that normalises the unrounded fp32 sum is off by at most about half an ulp of the
sum before its final rounding, which that tolerance cannot tell apart; write the rounded one.
"""

from __future__ import annotations

import torch

from workbench.kernels.llama import DECODE_BATCHES, MODELS, PREFILL_TOKENS
from workbench.kernels.rms_norm.spec import HIDDEN_SHAPES, LLAMA_EPS, random_hidden_shape
from workbench.kernels.spec import ONE_ROUNDING, ChainLink, NamedShape, OpSpec, Tolerance, hazard_rows
from workbench.kernels.validation import (
    SUPPORTED_DTYPES,
    check_out_pair,
    require_contiguous,
    require_cuda,
    require_dtype,
    require_same_device,
    require_tensor,
)

OUTPUTS = ("sum", "normed")


def reference(
    x: torch.Tensor, residual: torch.Tensor, weight: torch.Tensor, eps: float
) -> tuple[torch.Tensor, torch.Tensor]:
    """(sum, normed) in fp32; the sum already holds x.dtype values (rounded once), normed is left for the caller."""
    summed = (x.float() + residual.float()).to(x.dtype).float()
    variance = summed.pow(2).mean(-1, keepdim=True)
    return summed, summed * torch.rsqrt(variance + eps) * weight.float()


def make_inputs(dims: tuple[int, ...], dtype: torch.dtype, seed: int, device: str = "cpu") -> tuple:
    """x and residual ~ N(0, 1), each with its own per-row scale; weight ~ 1 + 0.1 N(0, 1)."""
    # Drawn on the target device: generating 100+ MB on the CPU would dominate an evaluation.
    gen = torch.Generator(device=device).manual_seed(seed)
    rows, hidden = dims
    x_scale = torch.exp(torch.randn((rows, 1), generator=gen, device=device))
    residual_scale = torch.exp(torch.randn((rows, 1), generator=gen, device=device))
    x = (torch.randn(dims, generator=gen, device=device) * x_scale).to(dtype)
    residual = (torch.randn(dims, generator=gen, device=device) * residual_scale).to(dtype)
    weight = (1.0 + 0.1 * torch.randn((hidden,), generator=gen, device=device)).to(dtype)
    return x, residual, weight, LLAMA_EPS


def bytes_moved(dims: tuple[int, ...], dtype: torch.dtype) -> int:
    """Reads x, residual and weight, writes sum and normed: (4 * rows * hidden + hidden) elements."""
    rows, hidden = dims
    element = torch.empty((), dtype=dtype).element_size()
    return (4 * rows * hidden + hidden) * element


def check_inputs(x, residual, weight, eps, out=None, *, require_gpu: bool = True) -> None:
    require_tensor("x", x)
    require_tensor("residual", residual)
    require_tensor("weight", weight)
    if isinstance(eps, bool) or not isinstance(eps, (int, float)):
        raise TypeError(f"eps must be a float, got {type(eps).__name__}")
    if not eps > 0:
        raise ValueError(f"eps must be positive, got {eps}")
    if x.dim() < 1:
        raise ValueError("x must have at least one dimension (the one normalised)")
    if residual.shape != x.shape:
        raise ValueError(f"residual must have x's shape {tuple(x.shape)}; got {tuple(residual.shape)}")
    if weight.dim() != 1 or weight.shape[0] != x.shape[-1]:
        raise ValueError(
            f"weight must be [hidden] = [{x.shape[-1]}] for x of shape {tuple(x.shape)}; got {tuple(weight.shape)}"
        )
    require_dtype("x", x, SUPPORTED_DTYPES)
    for name, tensor in (("residual", residual), ("weight", weight)):
        if tensor.dtype != x.dtype:
            raise ValueError(f"{name} has dtype {tensor.dtype} but x has {x.dtype}; cast one of them")
    require_same_device({"x": x, "residual": residual, "weight": weight})
    if require_gpu:
        require_cuda("x", x)
    require_contiguous("x", x)
    require_contiguous("residual", residual)
    require_contiguous("weight", weight)
    # Messages call the buffers sum and normed, and what each must match x.
    check_out_pair(out, (x, x), OUTPUTS, ("x", "x"), "(sum, normed)")


def hazards(x, residual, weight, eps):
    """Rows of zeros in both, rows up to 1e4 and of 1e-4, and a row where x = -residual (the sum is exactly 0)."""
    x, residual = hazard_rows(x, 1e4), hazard_rows(residual, 1e4)
    if x.shape[0] > 3:
        x[3] = -residual[3]
    return x, residual, weight, eps


def _shapes() -> tuple[NamedShape, ...]:
    shapes = []
    for model, dims in MODELS.items():
        for tokens in (*PREFILL_TOKENS, 32768):
            shapes.append(NamedShape(f"{model}/prefill{tokens}", (tokens, dims.hidden)))
        for batch in DECODE_BATCHES:
            shapes.append(NamedShape(f"{model}/decode{batch}", (batch, dims.hidden)))
    return tuple(shapes)


# The normalised output: rms_norm's tolerances (1-2 ulp of the result).
TOLERANCES = ONE_ROUNDING
# The sum: exactly the rounded x + residual, in every dtype.
EXACT = {dtype: Tolerance(atol=0.0, rtol=0.0) for dtype in TOLERANCES}

SPEC = OpSpec(
    name="add_rms_norm",
    signature="add_rms_norm(x, residual, weight, eps, *, out=None) -> (sum, normed)",
    description=__doc__,
    reference=reference,
    make_inputs=make_inputs,
    bytes_moved=bytes_moved,
    check_inputs=check_inputs,
    shapes=_shapes(),
    hidden_shapes=HIDDEN_SHAPES,
    tolerances=TOLERANCES,
    random_hidden_shape=random_hidden_shape,
    # As a decoder layer calls it: the next call's residual begins with half of this call's sum; x is fresh.
    chain=(ChainLink(arg=1, output=0),),
    copy_bound=1.10,
    hazards=hazards,
    outputs=OUTPUTS,
    output_tolerances={"sum": EXACT},
)
