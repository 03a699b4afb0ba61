"""SiLU-and-multiply (SwiGLU) spec, as Llama's MLP computes `act_fn(gate_proj(x)) * up_proj(x)`.

    silu_mul(x, *, out=None) -> out
    x    [..., 2 * I]   bf16 / fp16 / fp32: gate in x[..., :I], up in x[..., I:]
                        (the fused gate_up projection's output, as vLLM's SiluAndMul takes it)
    out  [..., I]       same dtype as x
    out = silu(gate) * up,   silu(g) = g * sigmoid(g) = g / (1 + exp(-g))

Numerics. The reference computes silu in fp32 and multiplies by up in fp32;
the result is rounded once to x's dtype. Hugging Face's LlamaMLP rounds
silu(gate) to the input dtype and then rounds the product again: two
roundings, up to about 1.5 ulp from the reference. The tolerance admits 1-2
ulp of the result and no more; fp32 leaves room for a fast exp.

Shapes. `dims` is x's shape, [tokens, 2 * intermediate]: Llama-3.2-1B has
intermediate 8192, Llama-3-8B 14336.
"""

from __future__ import annotations

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
    require_tensor,
)


def reference(x: torch.Tensor) -> torch.Tensor:
    """fp32 silu(gate) * up over the two halves of the last dim; the caller rounds once to the output dtype."""
    half = x.shape[-1] // 2
    xf = x.float()
    gate, up = xf[..., :half], xf[..., half:]
    return gate * torch.sigmoid(gate) * up


def output_shape(x: torch.Tensor) -> tuple[int, ...]:
    return (*x.shape[:-1], x.shape[-1] // 2)


def make_inputs(dims: tuple[int, ...], dtype: torch.dtype, seed: int, device: str = "cpu") -> tuple:
    """gate ~ N(0, 2^2), so both tails of the sigmoid are exercised (|g| > 6 in 0.3%); up ~ N(0, 1)."""
    # Drawn on the target device: generating 100+ MB on the CPU would dominate an evaluation.
    gen = torch.Generator(device=device).manual_seed(seed)
    half = dims[-1] // 2
    x = torch.randn(dims, generator=gen, device=device)
    x[:, :half] *= 2.0
    return (x.to(dtype),)


def bytes_moved(dims: tuple[int, ...], dtype: torch.dtype) -> int:
    """Each token reads gate and up (2I) and writes I."""
    rows, width = dims
    element = torch.empty((), dtype=dtype).element_size()
    return (rows * width + rows * (width // 2)) * element


def check_inputs(x, out=None, *, require_gpu: bool = True) -> None:
    require_tensor("x", x)
    if x.dim() < 1:
        raise ValueError("x must have at least one dimension ([..., 2 * intermediate], gate then up)")
    if x.shape[-1] % 2:
        raise ValueError(
            f"x's last dim must be even: gate and up, each [intermediate], concatenated; got shape {tuple(x.shape)}"
        )
    require_dtype("x", x, SUPPORTED_DTYPES)
    if require_gpu:
        require_cuda("x", x)
    require_contiguous("x", x)
    check_out(out, x, shape=output_shape(x))


def _shapes() -> tuple[NamedShape, ...]:
    shapes = []
    for model, dims in MODELS.items():
        width = 2 * dims.intermediate
        for tokens in PREFILL_TOKENS:
            shapes.append(NamedShape(f"{model}/prefill{tokens}", (tokens, width)))
        for batch in DECODE_BATCHES:
            shapes.append(NamedShape(f"{model}/decode{batch}", (batch, width)))
    return tuple(shapes)


# Token counts and intermediate sizes that are not multiples of any block or vector width;
# 4097 also makes the up half start at an odd element, so it is never 16-byte aligned.
HIDDEN_SHAPES = (
    NamedShape("hidden/17x2x1000", (17, 2 * 1000)),
    NamedShape("hidden/3x2x4097", (3, 2 * 4097)),
    NamedShape("hidden/1x2x11008", (1, 2 * 11008)),
    NamedShape("hidden/257x2x64", (257, 2 * 64)),
    # More tokens than every named shape and no power of two.
    NamedShape("hidden/long-prompt-17417", (17417, 2 * 96)),
    # Every intermediate size of the Llama 3 family (kernels/llama.py), a few tokens each: up to 405B's 53248.
    *family_shapes(lambda dims: (FAMILY_TOKENS, 2 * dims.intermediate)),
)


def hazards(x):
    """Rows of zeros, of gate and up up to 80 (the sigmoid saturates both ways; the product fits fp16) and of 1e-4."""
    return (hazard_rows(x, 80.0),)


def random_hidden_shape(rng: random.Random) -> NamedShape:
    """An odd token count on one of the family's (or an odd) intermediate sizes, drawn per evaluation."""
    intermediate = rng.choice([*family_dims("intermediate"), 1000, 4097])
    return NamedShape("hidden/random", (rng.randint(1, 700), 2 * intermediate))


# atol covers results near zero (gate or up near 0, or gate far in the sigmoid's lower tail).
TOLERANCES = ONE_ROUNDING

SPEC = OpSpec(
    name="silu_mul",
    signature="silu_mul(x, *, out=None) -> Tensor",
    description=__doc__,
    reference=reference,
    make_inputs=make_inputs,
    bytes_moved=bytes_moved,
    check_inputs=check_inputs,
    shapes=_shapes(),
    hidden_shapes=HIDDEN_SHAPES,
    tolerances=TOLERANCES,
    random_hidden_shape=random_hidden_shape,
    # The next call's x ends with the first half of this call's output (its first rows * I / 2 elements end
    # the rows * 2I of x); the rest of x is fresh.
    chain=(ChainLink(arg=0, output=0),),
    # Two bytes read for one written: DRAM serves such a mix a little faster than a copy's half and half.
    copy_bound=1.20,
    hazards=hazards,
    output_shapes=lambda x: (output_shape(x),),
)
