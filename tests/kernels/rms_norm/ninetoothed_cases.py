"""rms_norm's NineToothed cases under the interpreter: the hidden shapes and a few small Llama-like ones (the
interpreter runs every program in Python; the GPU tests take the full named set), and the chunked path."""

from __future__ import annotations

from tests.kernels.ninetoothed_checks import OpCases, hidden_and, numerics_cases
from tests.kernels.ninetoothed_interpreter import Case
from workbench.kernels.rms_norm.spec import SPEC
from workbench.kernels.spec import dtype_name

# Llama-like sizes with few tokens: the interpreter is slow.
SMALL_SHAPES = {"small/5x2048": (5, 2048), "small/3x4096": (3, 4096)}
# Rows of 1000 and 5120 on the chunked kernel: 2 and 10 chunks of 512, the last one partial.
CHUNKED = {"max_single_pass_block": 256, "block_n": 512}
CHUNKED_SHAPES = {"hidden/3x1000": (3, 1000), "hidden/1x5120": (1, 5120)}
CHUNKED_CASES = [
    Case(f"rms_norm/chunked/{name}-{dtype_name(dtype)}", "rms_norm", dims, dtype_name(dtype), config=CHUNKED)
    for name, dims in CHUNKED_SHAPES.items()
    for dtype in SPEC.dtypes
]
LEADING_DIMS = Case("rms_norm/leading-dims", "rms_norm", (6, 1000), "bf16", layout="leading_dims")

CASES = OpCases(
    numerics=[*numerics_cases("rms_norm", hidden_and("rms_norm", SMALL_SHAPES)), *CHUNKED_CASES],
    allocates=Case("rms_norm/allocates", "rms_norm", (4, 1000), "fp16", seed=1, out="none"),
    poisoned=Case("rms_norm/nan-out", "rms_norm", (7, 1000), "bf16", seed=2),
    empty=Case("rms_norm/empty", "rms_norm", (0, 2048), "bf16"),
    noncontiguous=Case("rms_norm/noncontiguous", "rms_norm", (4, 1000), "bf16", layout="noncontiguous"),
    extra=[LEADING_DIMS],
)
