"""What only rope_qk's NineToothed kernel does: head groups, and the camp's calling convention.

What every op's kernel must do is tests/kernels/test_ninetoothed.py, on the cases in ninetoothed_cases.py.
"""

from __future__ import annotations

import pytest

import workbench.kernels.rope_qk.ninetoothed as rope_qk_nt
from tests.kernels.ninetoothed_checks import check_numerics, ran
from tests.kernels.ninetoothed_interpreter import Case, Outcome
from tests.kernels.rope_qk.gpu_promises import check_empty_and_allocating, check_head_groups
from tests.kernels.rope_qk.ninetoothed_cases import CAMP_TABLES, HEAD_GROUPS


@pytest.mark.parametrize("case", CAMP_TABLES, ids=lambda case: case.id)
def test_model_dtype_and_longer_tables(outcomes: dict[str, Outcome], case: Case) -> None:
    outcome = ran(outcomes, case)
    assert outcome.returned_out and outcome.inputs_unchanged
    check_numerics(case, outcome)


@pytest.mark.parametrize("case", HEAD_GROUPS, ids=lambda case: case.id)
def test_rope_qk_head_groups(outcomes: dict[str, Outcome], case: Case) -> None:
    outcome = ran(outcomes, case)
    assert outcome.returned_out
    check_numerics(case, outcome)


# ---------------------------------------------------------------------------------------------- on a GPU


@pytest.mark.gpu
def test_empty_and_allocating_on_a_gpu() -> None:
    check_empty_and_allocating(rope_qk_nt)


@pytest.mark.gpu
@pytest.mark.parametrize("groups", [1, 2, 4, 8])
def test_head_groups_on_a_gpu(groups: int, monkeypatch: pytest.MonkeyPatch) -> None:
    check_head_groups(rope_qk_nt, groups, monkeypatch)
