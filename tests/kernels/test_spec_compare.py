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


def _exact_rope(x: torch.Tensor, sin: torch.Tensor, cos: torch.Tensor) -> torch.Tensor:
    """Rope in fp64, rounded once to fp32: what a perfect fp32 kernel (or one FMA per product pair) returns."""
    half, seq = x.shape[-1] // 2, x.shape[1]
    xd, s, c = x.double(), sin[:seq].double()[None, :, None, :], cos[:seq].double()[None, :, None, :]
    x1, x2 = xd[..., :half], xd[..., half:]
    return torch.cat((x1 * c - x2 * s, x2 * c + x1 * s), dim=-1).float()


def _hazard_rope_inputs(seed: int):
    from workbench.kernels.rope.spec import make_inputs

    x, sin, cos = make_inputs((1, 256, 8, 128), torch.float32, seed)
    return x / x.abs().amax(-1, keepdim=True) * 1e4, sin, cos  # every row a hazard row of magnitude 1e4


@pytest.mark.parametrize("seed", range(4))
def test_an_exactly_rounded_fp32_rope_passes_where_its_large_terms_cancel(seed):
    from workbench.kernels.rope.spec import SPEC

    args = _hazard_rope_inputs(seed)
    exact = _exact_rope(*args)
    ref = SPEC.reference(*args)
    # Without the terms' scale the fp32 reference's own rounding rejects the better answer (so this can fail).
    assert not compare(exact, ref, SPEC.tolerance(torch.float32)).ok
    assert SPEC.compare(exact, args, torch.float32).ok


def test_the_terms_allowance_admits_no_error_past_a_few_ulps_of_the_terms():
    from workbench.kernels.rope.spec import SPEC

    args = _hazard_rope_inputs(0)
    exact = _exact_rope(*args)
    assert not SPEC.compare(exact * (1 + 3e-5), args, torch.float32).ok
    x, sin, cos = args
    normal = (x / 1e4, sin, cos)  # at N(0, 1)-like magnitudes the allowance is far under atol
    assert not SPEC.compare(_exact_rope(*normal) + 2e-5, normal, torch.float32).ok


def test_rope_qk_allows_the_terms_of_each_output():
    from workbench.kernels.rope_qk.spec import SPEC

    q, sin, cos = _hazard_rope_inputs(1)
    k = q[:, :, :2].contiguous()
    out = (_exact_rope(q, sin, cos), _exact_rope(k, sin, cos))
    assert SPEC.compare(out, (q, k, sin, cos), torch.float32).ok
    assert not SPEC.compare((out[0], out[1] * (1 + 3e-5)), (q, k, sin, cos), torch.float32).ok
