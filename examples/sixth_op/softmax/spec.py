"""Softmax spec: over the last dim, as a sampler turns Llama's logits into probabilities.

    softmax(x, *, out=None) -> out
    x    [rows, cols]   bf16 / fp16 / fp32 (any leading dims; the last one is softmaxed)
    out  the shape and dtype of x
    out[r, j] = exp(x[r, j] - max_k x[r, k]) / sum_k exp(x[r, k] - max_k x[r, k])

Numerics. The reference subtracts the row max, exponentiates and sums in fp32 and rounds once
to x's dtype; the tolerance admits 1-2 ulp of the result. Every output lies in [0, 1], and atol
covers the probabilities near zero.

Shapes. `dims` is x's shape, [rows, cols]: the named ones are decode batches over Llama 3's
vocabulary of 128256 tokens.
"""

from __future__ import annotations

import random

import torch

from workbench.kernels.llama import DECODE_BATCHES, MODELS
from workbench.kernels.spec import ONE_ROUNDING, NamedShape, OpSpec
from workbench.kernels.validation import (
    SUPPORTED_DTYPES,
    check_out,
    require_contiguous,
    require_cuda,
    require_dtype,
    require_tensor,
)

VOCAB = 128256  # Llama 3's (and 3.2's) vocabulary


def reference(x: torch.Tensor) -> torch.Tensor:
    """fp32 softmax over the last dim; the caller rounds once to the output dtype."""
    return torch.softmax(x.float(), dim=-1)


def make_inputs(dims: tuple[int, ...], dtype: torch.dtype, seed: int, device: str = "cpu") -> tuple:
    """Logits ~ N(0, 3^2): rows with a few dominant entries and a long tail of near-zero probabilities."""
    gen = torch.Generator(device=device).manual_seed(seed)
    return ((3.0 * torch.randn(dims, generator=gen, device=device)).to(dtype),)


def bytes_moved(dims: tuple[int, ...], dtype: torch.dtype) -> int:
    """x read once, out written once."""
    rows, cols = dims
    return 2 * rows * cols * torch.empty((), dtype=dtype).element_size()


def check_inputs(x, out=None, *, require_gpu: bool = True) -> None:
    require_tensor("x", x)
    if x.dim() < 1 or x.shape[-1] == 0:
        raise ValueError(f"x must be [..., cols] with cols >= 1; got shape {tuple(x.shape)}")
    require_dtype("x", x, SUPPORTED_DTYPES)
    if require_gpu:
        require_cuda("x", x)
    require_contiguous("x", x)
    check_out(out, x)


def _shapes() -> tuple[NamedShape, ...]:
    return tuple(NamedShape(f"{model}/decode{batch}", (batch, VOCAB)) for model in MODELS for batch in DECODE_BATCHES)


# Row lengths that are no power of two and no multiple of a vector width; small, so Triton's
# interpreter runs them on a CPU in seconds.
HIDDEN_SHAPES = (
    NamedShape("hidden/3x1000", (3, 1000)),
    NamedShape("hidden/17x257", (17, 257)),
    NamedShape("hidden/1x4097", (1, 4097)),
    NamedShape("hidden/5x1", (5, 1)),
)


def random_hidden_shape(rng: random.Random) -> NamedShape:
    """A few rows of an odd length, drawn per evaluation."""
    return NamedShape("hidden/random", (rng.randint(1, 8), rng.choice([100, 1000, 3001, 5000])))


SPEC = OpSpec(
    name="softmax",
    signature="softmax(x, *, out=None) -> Tensor",
    description=__doc__,
    reference=reference,
    make_inputs=make_inputs,
    bytes_moved=bytes_moved,
    check_inputs=check_inputs,
    shapes=_shapes(),
    hidden_shapes=HIDDEN_SHAPES,
    tolerances=ONE_ROUNDING,
    random_hidden_shape=random_hidden_shape,
)
