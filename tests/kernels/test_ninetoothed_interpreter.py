"""The interpreter set-up itself (tests/kernels/ninetoothed_interpreter.py), apart from any op.

Each op's NineToothed cases are in tests/kernels/<op>/test_ninetoothed.py; this checks a patch
that no shipped kernel needs (constexpr parameters, as ntops-style kernels have them).
"""

from __future__ import annotations

import pytest
import torch

from tests.kernels.ninetoothed_checks import ran, run_op_cases
from tests.kernels.ninetoothed_interpreter import Case, Outcome

PROBE = Case("probe/constexpr", "probe_constexpr", (37,))


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Outcome]:
    return run_op_cases([PROBE], tmp_path_factory)


def test_interpreter_runs_constexpr_parameters(outcomes: dict[str, Outcome]) -> None:
    outcome = ran(outcomes, PROBE)
    expected = torch.arange(PROBE.dims[0], dtype=torch.float32) + 1
    assert torch.equal(outcome.output, expected)
