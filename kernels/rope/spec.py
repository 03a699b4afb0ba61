"""RoPE spec: rotate-half (GPT-NeoX) rotary embedding as Llama applies it.

    rope(x, sin, cos, *, out=None) -> out
    x   [batch, seq, heads, head_dim]   bf16 / fp16 / fp32
    sin [rows >= seq, head_dim // 2]    fp32 / bf16 / fp16 (the first seq rows are used)
    cos [rows >= seq, head_dim // 2]    the same shape and dtype as sin
    out[..., :h] = x1 * cos - x2 * sin,  out[..., h:] = x2 * cos + x1 * sin   (h = head_dim // 2)

Numerics. Tables are the fp32 outer product of positions and
inv_freq = theta ** (-2i / head_dim) (theta 500000, Llama 3), as Hugging Face
builds them, kept in fp32 here; a model may build them in its own dtype (the MetaX camp's
Llama does, and slices them from longer ones), so tables of bf16 or fp16 and longer than
seq are accepted and read as fp32. The reference does all math in fp32 and the result
is rounded once to x's dtype. Hugging Face's `apply_rotary_pos_emb` instead
rounds cos and sin to bf16, rounds each product and then the sum: up to four
bf16 roundings, so where x1*cos and x2*sin nearly cancel it can be many ulp
off relative to the (small) result. A fused kernel rounds once; the tolerance
below admits 1-2 bf16 ulp of the result and no more. Llama-3.2's "llama3"
long-context frequency scaling changes only the tables, which are inputs here.
"""

from __future__ import annotations

import random

import torch

from workbench.kernels.llama import DECODE_BATCHES, FAMILY, FAMILY_TOKENS, MODELS, PREFILL_TOKENS, family_shapes
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

ROPE_THETA = 500000.0
TABLE_DTYPES = (torch.float32, torch.bfloat16, torch.float16)


def inv_freq(head_dim: int, theta: float = ROPE_THETA) -> torch.Tensor:
    """Hugging Face's default inverse frequencies, fp32, [head_dim // 2]."""
    exponents = torch.arange(0, head_dim, 2, dtype=torch.int64).float() / head_dim
    return 1.0 / (theta**exponents)  # computed on the CPU, as Hugging Face does at init


def rope_tables(positions: torch.Tensor, head_dim: int, theta: float = ROPE_THETA) -> tuple[torch.Tensor, ...]:
    """(sin, cos), each fp32 [len(positions), head_dim // 2], from an fp32 outer product."""
    freqs = torch.outer(positions.float(), inv_freq(head_dim, theta).to(positions.device))
    return freqs.sin(), freqs.cos()


def reference(x: torch.Tensor, sin: torch.Tensor, cos: torch.Tensor) -> torch.Tensor:
    """fp32 rotate-half RoPE; the caller rounds once to the output dtype."""
    half, seq = x.shape[-1] // 2, x.shape[1]
    xf = x.float()
    x1, x2 = xf[..., :half], xf[..., half:]
    s = sin[:seq].float()[None, :, None, :]
    c = cos[:seq].float()[None, :, None, :]
    return torch.cat((x1 * c - x2 * s, x2 * c + x1 * s), dim=-1)


def term_scale(x: torch.Tensor, sin: torch.Tensor, cos: torch.Tensor) -> tuple[torch.Tensor]:
    """|x1 cos| + |x2 sin| for both halves: what each output element's two products sum to before cancelling."""
    half, seq = x.shape[-1] // 2, x.shape[1]
    xf = x.float().abs()
    x1, x2 = xf[..., :half], xf[..., half:]
    s = sin[:seq].float().abs()[None, :, None, :]
    c = cos[:seq].float().abs()[None, :, None, :]
    return (torch.cat((x1 * c + x2 * s, x2 * c + x1 * s), dim=-1),)


def make_inputs(dims: tuple[int, ...], dtype: torch.dtype, seed: int, device: str = "cpu") -> tuple:
    """x ~ N(0, 1); tables for `seq` consecutive positions starting at a seeded offset."""
    _batch, seq, _heads, head_dim = dims
    # Drawn on the target device: generating 100+ MB on the CPU would dominate an evaluation.
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(dims, generator=gen, dtype=torch.float32, device=device).to(dtype)
    start = int(torch.randint(0, 8192, (1,), generator=gen, device=device))
    sin, cos = rope_tables(torch.arange(start, start + seq, device=device), head_dim)
    return x, sin, cos


def bytes_moved(dims: tuple[int, ...], dtype: torch.dtype) -> int:
    batch, seq, heads, head_dim = dims
    element = torch.empty((), dtype=dtype).element_size()
    tables = 2 * seq * (head_dim // 2) * 4
    return 2 * batch * seq * heads * head_dim * element + tables


def check_inputs(
    x, sin, cos, out=None, *, require_gpu: bool = True, name: str = "x", tables_checked: bool = False
) -> None:
    """Raises with what to change; `name` is what messages call x (rope_qk checks its q and k with it).

    `tables_checked`: sin and cos already passed for another input of the same seq and head_dim (rope_qk's
    k after its q), so only x's own checks run: each costs the host a call's worth of attribute reads.
    """
    require_tensor(name, x)
    if not tables_checked:
        require_tensor("sin", sin)
        require_tensor("cos", cos)
    if x.dim() != 4:
        raise ValueError(f"{name} must be [batch, seq, heads, head_dim]; got shape {tuple(x.shape)}")
    head_dim = x.shape[-1]
    if head_dim % 2:
        raise ValueError(f"head_dim must be even for rotate-half RoPE; got {head_dim}")
    if tables_checked:
        require_dtype(name, x, SUPPORTED_DTYPES)
        if require_gpu:
            require_cuda(name, x)
        require_contiguous(name, x)
        return
    seq, half = x.shape[1], head_dim // 2
    for label, table in (("sin", sin), ("cos", cos)):
        if table.dim() != 2 or table.shape[1] != half or table.shape[0] < seq:
            raise ValueError(
                f"{label} must be [seq, head_dim // 2] = {[seq, half]} (or have more rows, of which the first "
                f"{seq} are used) for {name} of shape {tuple(x.shape)}; got {tuple(table.shape)}"
            )
        require_dtype(label, table, TABLE_DTYPES)
    if sin.shape != cos.shape or sin.dtype != cos.dtype:
        raise ValueError(
            f"sin and cos must have one shape and dtype; got sin {tuple(sin.shape)} {sin.dtype}, "
            f"cos {tuple(cos.shape)} {cos.dtype}"
        )
    require_dtype(name, x, SUPPORTED_DTYPES)
    require_same_device({name: x, "sin": sin, "cos": cos})
    if require_gpu:
        require_cuda(name, x)
    for label, value in ((name, x), ("sin", sin), ("cos", cos)):
        require_contiguous(label, value)
    check_out(out, x)


def _shapes() -> tuple[NamedShape, ...]:
    shapes = []
    for model, dims in MODELS.items():
        heads = (("q", dims.q_heads), ("k", dims.kv_heads))
        for tokens in PREFILL_TOKENS:
            for tag, n in heads:
                shapes.append(NamedShape(f"{model}/prefill{tokens}/{tag}", (1, tokens, n, dims.head_dim)))
        for batch in DECODE_BATCHES:
            for tag, n in heads:
                shapes.append(NamedShape(f"{model}/decode{batch}/{tag}", (batch, 1, n, dims.head_dim)))
    return tuple(shapes)


# Odd sizes the agent never sees: tails in every dimension, head_dim whose half
# is not a power of two, more than one batch with seq > 1.
HIDDEN_SHAPES = (
    NamedShape("hidden/17tok-3heads", (1, 17, 3, 64)),
    NamedShape("hidden/batch3-seq33-5heads-d128", (3, 33, 5, 128)),
    NamedShape("hidden/seq1000-d96", (1, 1000, 7, 96)),
    NamedShape("hidden/decode5-d80", (5, 1, 9, 80)),
    # A prompt longer than every named one and no power of two: a kernel right only up to 16384 tokens fails.
    NamedShape("hidden/long-prompt-17417", (1, 17417, 2, 64)),
    # Positions up to Llama-3's 131072-token context: a kernel with 16-bit position arithmetic is wrong
    # past 32767 (one head keeps it small: the table index is what is tested).
    NamedShape("hidden/long-context-131071", (1, 131071, 1, 64)),
    # Every head count and head dim of the Llama 3 family (kernels/llama.py), q and k, a few tokens each: up to
    # 405B's 128 query heads.
    *family_shapes(lambda dims: (1, FAMILY_TOKENS, dims.q_heads, dims.head_dim), "/q"),
    *family_shapes(lambda dims: (1, FAMILY_TOKENS, dims.kv_heads, dims.head_dim), "/k"),
)

# (heads, head_dim) of every q and k of the family, and an odd one.
HEAD_LAYOUTS = (
    *sorted({(d.q_heads, d.head_dim) for d in FAMILY.values()} | {(d.kv_heads, d.head_dim) for d in FAMILY.values()}),
    (3, 64),
)


def hazards(x, sin, cos):
    """Rows of x of zeros, of |x| up to 1e4 (in range for fp16 after the rotation) and of 1e-4."""
    return hazard_rows(x, 1e4), sin, cos


CAMP_EXTRA_ROWS = 61  # tables built for a longer context, sliced by the op (not a multiple of any tile)


def camp_tables(x: torch.Tensor, seq: int, head_dim: int) -> tuple[torch.Tensor, torch.Tensor]:
    """sin/cos as the camp's Llama builds them: in x's dtype, for more positions than this call's seq."""
    sin, cos = rope_tables(torch.arange(seq + CAMP_EXTRA_ROWS, device=x.device), head_dim)
    return sin.to(x.dtype), cos.to(x.dtype)


def camp_inputs(x, sin, cos):
    return (x, *camp_tables(x, x.shape[1], x.shape[-1]))


def random_hidden_shape(rng: random.Random) -> NamedShape:
    """Odd token counts on the family's head layouts (and an odd one), drawn per evaluation."""
    if rng.random() < 0.25:  # a long context: table rows past 32767, on one head
        return NamedShape("hidden/random", (1, rng.randint(32769, 131072), 1, rng.choice([64, 128])))
    heads, head_dim = rng.choice(HEAD_LAYOUTS)
    dims = (rng.randint(1, 3), rng.randint(1, 300), heads, head_dim)
    return NamedShape("hidden/random", dims)


# atol covers results that nearly cancel.
TOLERANCES = ONE_ROUNDING

SPEC = OpSpec(
    name="rope",
    signature="rope(x, sin, cos, *, out=None) -> Tensor",
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
    camp_inputs=camp_inputs,
    term_scale=term_scale,
    chain=(ChainLink(arg=0, output=0),),  # the next call rotates half of this call's output, then fresh rows
    copy_bound=1.10,
)
