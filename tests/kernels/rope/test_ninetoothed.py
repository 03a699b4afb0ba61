"""rope's NineToothed kernel: on the CPU under Triton's interpreter, and on a GPU, against the fp32 reference.

On the CPU all cases run once, in a child process (tests/kernels/ninetoothed_checks.py); the
interpreter runs every program in Python, so the shapes are the hidden ones (tails in every dim,
head_dim 80/96) plus a few small Llama-like ones rather than the full named set, which the GPU
tests cover.
"""

from __future__ import annotations

import pytest
import torch

import kernels.rope.ninetoothed as rope_nt
from kernels.rope.spec import SPEC as ROPE_SPEC
from kernels.spec import NamedShape
from tests.kernels.gpu_checks import cases, check
from tests.kernels.ninetoothed_checks import (
    check_empty_input_returns_empty_output,
    check_matches_reference,
    check_nan_poisoned_out_is_fully_overwritten,
    check_noncontiguous_input_raises_value_error,
    check_numerics,
    hidden_and,
    numerics_cases,
    ran,
    run_op_cases,
)
from tests.kernels.ninetoothed_interpreter import Case, Outcome

# Llama-like head sizes with few tokens: the interpreter is slow.
SMALL_SHAPES = {"small/1x17x8x64": (1, 17, 8, 64), "small/2x5x32x128": (2, 5, 32, 128)}
# The slowest shape under the interpreter, in bf16 only: it took 18/27/30 s in bf16/fp16/fp32 on a 2-core
# machine under load. Its tails (tokens, a half of 48) are index math, the same in every dtype; each dtype's
# loads, casts and rounding run on every other shape, d80 and d96 included.
NUMERICS = numerics_cases("rope", hidden_and("rope", SMALL_SHAPES), one_dtype={"hidden/seq1000-d96"})
ALLOCATES = Case("rope/allocates", "rope", (2, 9, 3, 64), "fp16", seed=1, out="none")
POISONED = Case("rope/nan-out", "rope", (1, 7, 3, 96), "bf16", seed=2)
EMPTY = Case("rope/empty", "rope", (1, 0, 8, 64), "bf16")
NONCONTIGUOUS = Case("rope/noncontiguous", "rope", (2, 5, 3, 64), "bf16", layout="noncontiguous")
# rope's size classes: decode calls (<= 256 tokens) on 1 x 4 tiles, a 260-token call on 32 x 2 tiles.
ROPE_SIZE_CLASSES = [
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
ALL_CASES = [*NUMERICS, ALLOCATES, POISONED, EMPTY, NONCONTIGUOUS, *ROPE_SIZE_CLASSES, *CAMP_TABLES]


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Outcome]:
    return run_op_cases(ALL_CASES, tmp_path_factory)


@pytest.mark.parametrize("case", NUMERICS, ids=lambda case: case.id)
def test_matches_reference(outcomes: dict[str, Outcome], case: Case) -> None:
    check_matches_reference(outcomes, case)


@pytest.mark.parametrize("case", CAMP_TABLES, ids=lambda case: case.id)
def test_model_dtype_and_longer_tables(outcomes: dict[str, Outcome], case: Case) -> None:
    outcome = ran(outcomes, case)
    assert outcome.returned_out and outcome.inputs_unchanged
    check_numerics(case, outcome)


def test_allocates_output_when_none_given(outcomes: dict[str, Outcome]) -> None:
    check_numerics(ALLOCATES, ran(outcomes, ALLOCATES))


def test_nan_poisoned_out_is_fully_overwritten(outcomes: dict[str, Outcome]) -> None:
    check_nan_poisoned_out_is_fully_overwritten(outcomes, POISONED)


def test_inputs_are_not_modified(outcomes: dict[str, Outcome]) -> None:
    assert ran(outcomes, POISONED).inputs_unchanged


def test_empty_input_returns_empty_output(outcomes: dict[str, Outcome]) -> None:
    check_empty_input_returns_empty_output(outcomes, EMPTY)


def test_noncontiguous_input_raises_value_error(outcomes: dict[str, Outcome]) -> None:
    check_noncontiguous_input_raises_value_error(outcomes, NONCONTIGUOUS)


@pytest.mark.parametrize("case", ROPE_SIZE_CLASSES, ids=lambda case: case.id)
def test_rope_size_classes(outcomes: dict[str, Outcome], case: Case) -> None:
    outcome = ran(outcomes, case)
    assert outcome.returned_out
    check_numerics(case, outcome)


def test_rope_tiling_picks_its_size_class(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(rope_nt.CONFIG, "small_block_tokens", 1)
    assert rope_nt.tiling(rope_nt.SMALL_TOKENS)["block_tokens"] == 1
    assert rope_nt.tiling(rope_nt.SMALL_TOKENS + 1)["block_tokens"] == rope_nt.CONFIG["block_tokens"]
    monkeypatch.undo()
    assert rope_nt.tiling(1) == rope_nt.tiling(1 << 20)  # shipped: one tiling, one kernel


# ---------------------------------------------------------------------------------------------- on a GPU


@pytest.mark.gpu
@pytest.mark.parametrize(("shape", "dtype"), cases(ROPE_SPEC))
def test_matches_the_reference_on_a_gpu(shape: NamedShape, dtype: torch.dtype) -> None:
    check(ROPE_SPEC, rope_nt.rope, shape, dtype)


@pytest.mark.gpu
def test_empty_inputs_return_empty_outputs_on_a_gpu() -> None:
    x, sin, cos = ROPE_SPEC.make_inputs((1, 0, 8, 64), torch.bfloat16, 0, "cuda")
    assert rope_nt.rope(x, sin, cos).shape == (1, 0, 8, 64)


@pytest.mark.gpu
def test_allocates_output_when_none_given_on_a_gpu() -> None:
    args = ROPE_SPEC.make_inputs((2, 9, 3, 64), torch.float16, 1, "cuda")
    assert ROPE_SPEC.compare(rope_nt.rope(*args), args, torch.float16).ok


@pytest.mark.gpu
def test_generated_source_is_triton() -> None:
    rope_nt.rope(*ROPE_SPEC.make_inputs((1, 4, 8, 64), torch.bfloat16, 0, "cuda"))
    sources = rope_nt.generated_source()
    assert sources
    assert all("@triton.jit" in text for text in sources.values())
