"""rope_qk's NineToothed cases under the interpreter: the hidden shapes and a few small Llama-like ones (the
interpreter runs every program in Python; the GPU tests take the full named set), head groups, camp tables."""

from __future__ import annotations

from tests.kernels.ninetoothed_checks import OpCases, hidden_and, numerics_cases
from tests.kernels.ninetoothed_interpreter import Case

# Llama-like sizes with few tokens: the interpreter is slow.
SMALL_SHAPES = {"small/1x9x32x8x64": (1, 9, 32, 8, 64), "small/2x3x32x8x128": (2, 3, 32, 8, 128)}
# The slowest shape under the interpreter, in bf16 only: it took 41/39/22 s in bf16/fp16/fp32 on a 2-core
# machine under load. Its tails (tokens, heads, a half of 48) are index math, the same in every dtype; each
# dtype's loads, casts and rounding run on every other shape, d80 and d96 included.
ONE_DTYPE = {"hidden/seq120-7q-7kv-d96"}
# rope_qk's head groups: 8 q and 4 kv heads in 1, 2 and 4 groups (4 groups: one kv head per program),
# 17 tokens in tiles of 4 (the last one partial).
HEAD_GROUPS = [
    Case(
        f"rope_qk/groups{groups}-bf16",
        "rope_qk",
        (1, 17, 8, 4, 64),
        "bf16",
        config={"head_groups": groups, "block_tokens": 4},
    )
    for groups in (1, 2, 4)
]
# The MetaX camp's calling convention: tables in the model's dtype, sliced [:seq] from longer ones.
CAMP_TABLES = [
    Case(f"rope_qk/camp-tables-{tables}-{dtype}", "rope_qk", (2, 7, 4, 2, 64), dtype, seed=4, tables=tables)
    for dtype in ("bf16", "fp16")
    for tables in (f"{dtype}+0", f"{dtype}+13", "fp32+13")
]

CASES = OpCases(
    numerics=numerics_cases("rope_qk", hidden_and("rope_qk", SMALL_SHAPES), one_dtype=ONE_DTYPE),
    allocates=Case("rope_qk/allocates", "rope_qk", (2, 9, 6, 2, 64), "fp16", seed=1, out="none"),
    poisoned=Case("rope_qk/nan-out", "rope_qk", (1, 7, 6, 3, 96), "bf16", seed=2),
    empty=Case("rope_qk/empty", "rope_qk", (1, 0, 4, 2, 64), "bf16"),
    noncontiguous=Case("rope_qk/noncontiguous", "rope_qk", (2, 5, 3, 1, 64), "bf16", layout="noncontiguous"),
    extra=[*HEAD_GROUPS, *CAMP_TABLES],
)
