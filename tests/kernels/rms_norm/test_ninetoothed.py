"""rms_norm's NineToothed kernel: on the CPU under Triton's interpreter, and on a GPU, against the fp32 reference.

On the CPU all cases run once, in a child process (tests/kernels/ninetoothed_checks.py); the
interpreter runs every program in Python, so the shapes are the hidden ones plus a few small
Llama-like ones rather than the full named set, which the GPU tests cover.
"""

from __future__ import annotations

import pytest
import torch

import kernels.rms_norm.ninetoothed as rms_norm_nt
from kernels.rms_norm.spec import SPEC
from kernels.spec import NamedShape, dtype_name
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

# Llama-like sizes with few tokens: the interpreter is slow.
SMALL_SHAPES = {"small/5x2048": (5, 2048), "small/3x4096": (3, 4096)}
NUMERICS = numerics_cases("rms_norm", hidden_and("rms_norm", SMALL_SHAPES))
ALLOCATES = Case("rms_norm/allocates", "rms_norm", (4, 1000), "fp16", seed=1, out="none")
POISONED = Case("rms_norm/nan-out", "rms_norm", (7, 1000), "bf16", seed=2)
EMPTY = Case("rms_norm/empty", "rms_norm", (0, 2048), "bf16")
NONCONTIGUOUS = Case("rms_norm/noncontiguous", "rms_norm", (4, 1000), "bf16", layout="noncontiguous")
# Rows of 1000 and 5120 on the chunked kernel: 2 and 10 chunks of 512, the last one partial.
CHUNKED = {"max_single_pass_block": 256, "block_n": 512}
CHUNKED_SHAPES = {"hidden/3x1000": (3, 1000), "hidden/1x5120": (1, 5120)}
NUMERICS += [
    Case(f"rms_norm/chunked/{name}-{dtype_name(dtype)}", "rms_norm", dims, dtype_name(dtype), config=CHUNKED)
    for name, dims in CHUNKED_SHAPES.items()
    for dtype in SPEC.dtypes
]
LEADING_DIMS = Case("rms_norm/leading-dims", "rms_norm", (6, 1000), "bf16", layout="leading_dims")
ALL_CASES = [*NUMERICS, ALLOCATES, POISONED, EMPTY, NONCONTIGUOUS, LEADING_DIMS]


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Outcome]:
    return run_op_cases(ALL_CASES, tmp_path_factory)


@pytest.mark.parametrize("case", NUMERICS, ids=lambda case: case.id)
def test_matches_reference(outcomes: dict[str, Outcome], case: Case) -> None:
    check_matches_reference(outcomes, case)


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


def test_rms_norm_flattens_leading_dims(outcomes: dict[str, Outcome]) -> None:
    outcome = ran(outcomes, LEADING_DIMS)
    assert tuple(outcome.output.shape) == (2, 3, 1000)
    check_numerics(LEADING_DIMS, outcome)


# ---------------------------------------------------------------------------------------------- on a GPU


@pytest.mark.gpu
@pytest.mark.parametrize(("shape", "dtype"), cases(SPEC))
def test_matches_the_reference_on_a_gpu(shape: NamedShape, dtype: torch.dtype) -> None:
    check(SPEC, rms_norm_nt.rms_norm, shape, dtype)


@pytest.mark.gpu
def test_rms_norm_chunked_path_for_long_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    # Force rows of 4097 onto the chunked kernel (Llama's rows all fit the single-pass one).
    monkeypatch.setitem(rms_norm_nt.CONFIG, "max_single_pass_block", 1024)
    check(SPEC, rms_norm_nt.rms_norm, SPEC.shape("hidden/129x4097"), torch.bfloat16)
    assert any(key.startswith("rms_norm_chunked[") for key in rms_norm_nt.generated_source())


@pytest.mark.gpu
def test_empty_inputs_return_empty_outputs_on_a_gpu() -> None:
    x, w, eps = SPEC.make_inputs((0, 2048), torch.bfloat16, 0, "cuda")
    assert rms_norm_nt.rms_norm(x, w, eps).shape == (0, 2048)


@pytest.mark.gpu
def test_rms_norm_accepts_leading_batch_dims_on_a_gpu() -> None:
    x, w, eps = SPEC.make_inputs((6, 2048), torch.bfloat16, 2, "cuda")
    out = rms_norm_nt.rms_norm(x.view(2, 3, 2048), w, eps)
    assert out.shape == (2, 3, 2048)
    assert SPEC.compare(out.view(6, 2048), (x, w, eps), torch.bfloat16).ok
