"""`workbench.kernels.spec.compare`: the judge's quick form (one sync on a pass) agrees with the measured one."""

from __future__ import annotations

import math

import pytest
import torch

from workbench.kernels.spec import Tolerance, compare

TOL = Tolerance(atol=1e-2, rtol=1e-2)


def _pair():
    ref = torch.linspace(-3, 3, 64).reshape(8, 8)
    return ref.to(torch.bfloat16), ref


def test_a_pass_is_a_pass_in_both_forms_and_the_quick_one_measures_nothing():
    out, ref = _pair()
    full, quick = compare(out, ref, TOL), compare(out, ref, TOL, detail=False)
    assert full.ok and quick.ok
    assert full.max_abs_err > 0 and math.isnan(quick.max_abs_err) and math.isnan(quick.max_rel_err)


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf"), 5.0])
def test_a_failure_is_described_alike_in_both_forms(bad):
    out, ref = _pair()
    out[3, 4] = bad
    full, quick = compare(out, ref, TOL), compare(out, ref, TOL, detail=False)
    assert not full.ok and not quick.ok
    assert quick.message == full.message and quick.first_bad_index == full.first_bad_index == (3, 4)


def test_an_infinite_reference_is_matched_alike_in_both_forms():
    out, ref = _pair()
    ref[0, 0], out[0, 0] = float("inf"), 1.0  # |1 - inf| <= atol + rtol * inf: both forms let it pass
    assert compare(out, ref, TOL).ok == compare(out, ref, TOL, detail=False).ok
