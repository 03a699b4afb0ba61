"""add_rms_norm's NineToothed cases under the interpreter: the hidden shapes and a few small Llama-like ones
(the interpreter runs every program in Python; the GPU tests take the full named set)."""

from __future__ import annotations

from tests.kernels.ninetoothed_checks import OpCases, hidden_and, numerics_cases
from tests.kernels.ninetoothed_interpreter import Case

# Llama-like sizes with few tokens: the interpreter is slow.
SMALL_SHAPES = {"small/5x2048": (5, 2048), "small/3x4096": (3, 4096)}

CASES = OpCases(
    numerics=numerics_cases("add_rms_norm", hidden_and("add_rms_norm", SMALL_SHAPES)),
    allocates=Case("add_rms_norm/allocates", "add_rms_norm", (4, 1000), "fp16", seed=1, out="none"),
    poisoned=Case("add_rms_norm/nan-out", "add_rms_norm", (7, 1000), "bf16", seed=2),
    empty=Case("add_rms_norm/empty", "add_rms_norm", (0, 2048), "bf16"),
    noncontiguous=Case("add_rms_norm/noncontiguous", "add_rms_norm", (4, 1000), "bf16", layout="noncontiguous"),
)
