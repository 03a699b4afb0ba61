"""silu_mul's NineToothed cases under the interpreter: the hidden shapes and a few small Llama-like ones (the
interpreter runs every program in Python; the GPU tests take the full named set), leading dims, small tiles."""

from __future__ import annotations

from tests.kernels.ninetoothed_checks import OpCases, hidden_and, numerics_cases
from tests.kernels.ninetoothed_interpreter import Case

# Llama-like sizes with few tokens: the interpreter is slow.
SMALL_SHAPES = {"small/5x2x8192": (5, 2 * 8192), "small/3x2x14336": (3, 2 * 14336)}
LEADING_DIMS = Case("silu_mul/leading-dims", "silu_mul", (6, 2 * 1000), "bf16", layout="leading_dims")
# Small tiles: I = 1000 and 4097 end in a partial column tile, 17 and 3 rows in a partial row tile.
SMALL_TILES = [
    Case(f"silu_mul/small-tiles/{name}-bf16", "silu_mul", dims, "bf16", config={"block_rows": 4, "block_cols": 256})
    for name, dims in (("17x2x1000", (17, 2 * 1000)), ("3x2x4097", (3, 2 * 4097)))
]

CASES = OpCases(
    numerics=numerics_cases("silu_mul", hidden_and("silu_mul", SMALL_SHAPES)),
    allocates=Case("silu_mul/allocates", "silu_mul", (4, 2 * 1000), "fp16", seed=1, out="none"),
    poisoned=Case("silu_mul/nan-out", "silu_mul", (7, 2 * 1000), "bf16", seed=2),
    empty=Case("silu_mul/empty", "silu_mul", (0, 2 * 1000), "bf16"),
    noncontiguous=Case("silu_mul/noncontiguous", "silu_mul", (4, 2 * 1000), "bf16", layout="noncontiguous"),
    extra=[LEADING_DIMS, *SMALL_TILES],
)
