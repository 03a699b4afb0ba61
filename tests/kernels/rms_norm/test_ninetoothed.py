"""What only rms_norm's NineToothed kernel does: leading batch dims, and the chunked path for long rows.

What every op's kernel must do is tests/kernels/test_ninetoothed.py, on the cases in ninetoothed_cases.py.
"""

from __future__ import annotations

import pytest
import torch

import workbench.kernels.rms_norm.ninetoothed as rms_norm_nt
from tests.kernels.gpu_checks import check
from tests.kernels.ninetoothed_checks import check_numerics, ran
from tests.kernels.ninetoothed_interpreter import Outcome
from tests.kernels.rms_norm.ninetoothed_cases import LEADING_DIMS
from workbench.kernels.rms_norm.spec import SPEC


def test_rms_norm_flattens_leading_dims(outcomes: dict[str, Outcome]) -> None:
    outcome = ran(outcomes, LEADING_DIMS)
    assert tuple(outcome.output.shape) == (2, 3, 1000)
    check_numerics(LEADING_DIMS, outcome)


# ---------------------------------------------------------------------------------------------- on a GPU


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
