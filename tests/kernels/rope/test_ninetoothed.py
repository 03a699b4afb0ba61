"""What only rope's NineToothed kernel does: its size classes, and the camp's calling convention.

What every op's kernel must do is tests/kernels/test_ninetoothed.py, on the cases in ninetoothed_cases.py.
"""

from __future__ import annotations

import pytest
import torch

import workbench.kernels.rope.ninetoothed as rope_nt
from tests.kernels.ninetoothed_checks import check_numerics, ran
from tests.kernels.ninetoothed_interpreter import Case, Outcome
from tests.kernels.rope.ninetoothed_cases import CAMP_TABLES, SIZE_CLASSES
from workbench.kernels.rope.spec import SPEC as ROPE_SPEC


@pytest.mark.parametrize("case", CAMP_TABLES, ids=lambda case: case.id)
def test_model_dtype_and_longer_tables(outcomes: dict[str, Outcome], case: Case) -> None:
    outcome = ran(outcomes, case)
    assert outcome.returned_out and outcome.inputs_unchanged
    check_numerics(case, outcome)


@pytest.mark.parametrize("case", SIZE_CLASSES, ids=lambda case: case.id)
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
