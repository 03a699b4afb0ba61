"""rope's NineToothed cases under the interpreter: the hidden shapes (tails in every dim, head_dim 80/96) and a
few small Llama-like ones (the interpreter runs every program in Python; the GPU tests take the full named set),
its size classes and the camp's tables."""

from __future__ import annotations

from tests.kernels.ninetoothed_checks import OpCases, hidden_and, numerics_cases
from tests.kernels.ninetoothed_interpreter import Case

# Llama-like head sizes with few tokens: the interpreter is slow.
SMALL_SHAPES = {"small/1x17x8x64": (1, 17, 8, 64), "small/2x5x32x128": (2, 5, 32, 128)}
# The slowest shape under the interpreter, in bf16 only: it took 18/27/30 s in bf16/fp16/fp32 on a 2-core
# machine under load. Its tails (tokens, a half of 48) are index math, the same in every dtype; each dtype's
# loads, casts and rounding run on every other shape, d80 and d96 included.
ONE_DTYPE = {"hidden/seq1000-d96"}
# rope's size classes: decode calls (<= 256 tokens) on 1 x 4 tiles, a 260-token call on 32 x 2 tiles.
SIZE_CLASSES = [
    Case(
        f"rope/size-classes/{name}-bf16",
        "rope",
        dims,
        "bf16",
        config={
            "small_block_tokens": 1,
            "small_block_heads": 4,
            "small_num_warps": 2,
            "block_tokens": 32,
            "block_heads": 2,
        },
    )
    for name, dims in (("decode5-9heads-d80", (5, 1, 9, 80)), ("17tok", (1, 17, 8, 64)), ("260tok", (1, 260, 3, 64)))
]
# The MetaX camp's calling convention: tables in the model's dtype, sliced [:seq] from longer ones.
CAMP_TABLES = [
    Case(f"rope/camp-tables-{tables}-{dtype}", "rope", (2, 7, 3, 64), dtype, seed=4, tables=tables)
    for dtype in ("bf16", "fp16")
    for tables in (f"{dtype}+0", f"{dtype}+13", "fp32+13")
]

CASES = OpCases(
    numerics=numerics_cases("rope", hidden_and("rope", SMALL_SHAPES), one_dtype=ONE_DTYPE),
    allocates=Case("rope/allocates", "rope", (2, 9, 3, 64), "fp16", seed=1, out="none"),
    poisoned=Case("rope/nan-out", "rope", (1, 7, 3, 96), "bf16", seed=2),
    empty=Case("rope/empty", "rope", (1, 0, 8, 64), "bf16"),
    noncontiguous=Case("rope/noncontiguous", "rope", (2, 5, 3, 64), "bf16", layout="noncontiguous"),
    extra=[*SIZE_CLASSES, *CAMP_TABLES],
)
