"""rope_qk spec: RoPE on q and k in one call, as a Llama attention layer applies it.

    rope_qk(q, k, sin, cos, *, out=None) -> (q_out, k_out)
    q   [batch, seq, q_heads, head_dim]    bf16 / fp16 / fp32
    k   [batch, seq, kv_heads, head_dim]   q's dtype; batch, seq and head_dim as q's
    sin [seq, head_dim // 2]               fp32
    cos [seq, head_dim // 2]               fp32
    out None, or a (q_out, k_out) pair of buffers shaped like q and k; the op writes both
        and returns that pair (without out=, two new tensors)
    each output is rope(x, sin, cos) of its input: the rotate-half rotation of the rope op

Why an op of its own. Llama rotates q and k with the same tables right after the
projections. Two rope calls read the tables twice and pay two launches; at decode sizes
the launch is most of the time (8B decode1 reads 10 KB of q and k). One kernel reads each
table row once for all q_heads + kv_heads heads of a token and launches once.

Numerics as rope's: fp32 tables and math, one rounding to the input dtype; the same
tolerance (1-2 ulp of the result) for both outputs.

The shape `dims` of a named shape is (batch, seq, q_heads, kv_heads, head_dim).
"""

from __future__ import annotations

import math
import random

import torch

from workbench.kernels.llama import DECODE_BATCHES, FAMILY, FAMILY_TOKENS, MODELS, PREFILL_TOKENS, family_shapes
from workbench.kernels.rope.spec import camp_tables, rope_tables
from workbench.kernels.rope.spec import check_inputs as check_rope_inputs
from workbench.kernels.rope.spec import reference as rope_reference
from workbench.kernels.rope.spec import term_scale as rope_term_scale
from workbench.kernels.spec import ONE_ROUNDING, ChainLink, NamedShape, OpSpec, hazard_rows
from workbench.kernels.validation import check_out_pair

OUTPUTS = ("q", "k")


def reference(q: torch.Tensor, k: torch.Tensor, sin: torch.Tensor, cos: torch.Tensor) -> tuple[torch.Tensor, ...]:
    """(q, k) rotated in fp32; the caller rounds each once to the output dtype."""
    return rope_reference(q, sin, cos), rope_reference(k, sin, cos)


def term_scale(q: torch.Tensor, k: torch.Tensor, sin: torch.Tensor, cos: torch.Tensor) -> tuple[torch.Tensor, ...]:
    """Per output, the magnitude of the two products each element sums (rope's, for q and for k)."""
    return rope_term_scale(q, sin, cos) + rope_term_scale(k, sin, cos)


def output_shapes(
    q: torch.Tensor, k: torch.Tensor, sin: torch.Tensor, cos: torch.Tensor
) -> tuple[tuple[int, ...], ...]:
    return tuple(q.shape), tuple(k.shape)


def head_groups(q_heads: int, kv_heads: int, wanted: int) -> int:
    """The largest number of head groups, at most `wanted`, that splits both head counts evenly.

    The kernels of both backends split a token's heads into such groups (q_heads / groups of q
    with kv_heads / groups of k, sharing the token's table row), one group per program or block.
    """
    common = math.gcd(q_heads, kv_heads)
    return max(g for g in range(1, max(1, min(wanted, common)) + 1) if common % g == 0)


def make_inputs(dims: tuple[int, ...], dtype: torch.dtype, seed: int, device: str = "cpu") -> tuple:
    """q, k ~ N(0, 1); tables for `seq` consecutive positions starting at a seeded offset."""
    batch, seq, q_heads, kv_heads, head_dim = dims
    # Drawn on the target device: generating 100+ MB on the CPU would dominate an evaluation.
    gen = torch.Generator(device=device).manual_seed(seed)
    q = torch.randn((batch, seq, q_heads, head_dim), generator=gen, device=device).to(dtype)
    k = torch.randn((batch, seq, kv_heads, head_dim), generator=gen, device=device).to(dtype)
    start = int(torch.randint(0, 8192, (1,), generator=gen, device=device))
    sin, cos = rope_tables(torch.arange(start, start + seq, device=device), head_dim)
    return q, k, sin, cos


def bytes_moved(dims: tuple[int, ...], dtype: torch.dtype) -> int:
    """q and k read and written once each, the two fp32 tables read once."""
    batch, seq, q_heads, kv_heads, head_dim = dims
    element = torch.empty((), dtype=dtype).element_size()
    tables = 2 * seq * (head_dim // 2) * 4
    return 2 * batch * seq * (q_heads + kv_heads) * head_dim * element + tables


def check_inputs(q, k, sin, cos, out=None, *, require_gpu: bool = True) -> None:
    # Each of q and k must be a valid rope input on the same tables; then they must agree. The tables are
    # checked against q; k, which must share q's seq and head_dim, is then checked for what is its own.
    check_rope_inputs(q, sin, cos, require_gpu=require_gpu, name="q")
    check_rope_inputs(k, sin, cos, require_gpu=require_gpu, name="k", tables_checked=True)
    if k.shape[0] != q.shape[0] or k.shape[1] != q.shape[1] or k.shape[3] != q.shape[3]:
        raise ValueError(
            f"k must share q's batch, seq and head_dim: q is {tuple(q.shape)}, k is {tuple(k.shape)} "
            "(only the head counts may differ)"
        )
    if q.shape[2] == 0 or k.shape[2] == 0:
        raise ValueError(f"q and k need at least one head each; got q {tuple(q.shape)}, k {tuple(k.shape)}")
    if k.dtype != q.dtype:
        raise ValueError(f"k has dtype {k.dtype} but q has {q.dtype}; cast one of them")
    if k.device != q.device:
        raise ValueError(f"q is on {q.device} but k is on {k.device}; move them to one device")
    check_out_pair(out, (q, k), OUTPUTS, OUTPUTS, "(q_out, k_out)")


def _shapes() -> tuple[NamedShape, ...]:
    shapes = []
    for model, dims in MODELS.items():
        heads = (dims.q_heads, dims.kv_heads, dims.head_dim)
        for tokens in PREFILL_TOKENS:
            shapes.append(NamedShape(f"{model}/prefill{tokens}", (1, tokens, *heads)))
        for batch in DECODE_BATCHES:
            shapes.append(NamedShape(f"{model}/decode{batch}", (batch, 1, *heads)))
    return tuple(shapes)


# Odd sizes the agent never sees: one kv head, kv_heads not dividing q_heads, equal head counts
# (no GQA), head_dim whose half is not a power of two, several batches with seq > 1.
HIDDEN_SHAPES = (
    NamedShape("hidden/17tok-3q-1kv", (1, 17, 3, 1, 64)),
    NamedShape("hidden/batch3-seq33-8q-2kv-d128", (3, 33, 8, 2, 128)),
    NamedShape("hidden/seq120-7q-7kv-d96", (1, 120, 7, 7, 96)),
    NamedShape("hidden/decode5-9q-3kv-d80", (5, 1, 9, 3, 80)),
    # A prompt longer than every named one and no power of two.
    NamedShape("hidden/long-prompt-17417", (1, 17417, 4, 1, 64)),
    # Table rows past 32767, up to Llama-3's 131072-token context (one head each keeps it small).
    NamedShape("hidden/long-context-131071", (1, 131071, 1, 1, 64)),
    # Every head layout of the Llama 3 family (kernels/llama.py), a few tokens each: up to 405B's 128 q heads.
    *family_shapes(lambda dims: (1, FAMILY_TOKENS, dims.q_heads, dims.kv_heads, dims.head_dim)),
)


def hazards(q, k, sin, cos):
    """Rows of q and k of zeros, of magnitudes up to 1e4 and of 1e-4."""
    return hazard_rows(q, 1e4), hazard_rows(k, 1e4), sin, cos


def random_hidden_shape(rng: random.Random) -> NamedShape:
    """Odd token counts on the family's head layouts (and odd ones), drawn per evaluation."""
    if rng.random() < 0.25:  # a long context: table rows past 32767, one head each
        return NamedShape("hidden/random", (1, rng.randint(32769, 131072), 1, 1, rng.choice([64, 128])))
    layouts = sorted({(d.q_heads, d.kv_heads, d.head_dim) for d in FAMILY.values()})
    q_heads, kv_heads, head_dim = rng.choice([*layouts, (6, 2, 64), (5, 1, 128)])
    dims = (rng.randint(1, 3), rng.randint(1, 300), q_heads, kv_heads, head_dim)
    return NamedShape("hidden/random", dims)


SPEC = OpSpec(
    name="rope_qk",
    signature="rope_qk(q, k, sin, cos, *, out=None) -> (q_out, k_out)",
    description=__doc__,
    reference=reference,
    make_inputs=make_inputs,
    bytes_moved=bytes_moved,
    check_inputs=check_inputs,
    shapes=_shapes(),
    hidden_shapes=HIDDEN_SHAPES,
    tolerances=ONE_ROUNDING,
    random_hidden_shape=random_hidden_shape,
    outputs=OUTPUTS,
    output_shapes=output_shapes,
    hazards=hazards,
    term_scale=term_scale,
    camp_inputs=lambda q, k, sin, cos: (q, k, *camp_tables(q, q.shape[1], q.shape[-1])),
    chain=(ChainLink(arg=0, output=0), ChainLink(arg=1, output=1)),  # half of each output, then fresh rows
    copy_bound=1.10,
)
