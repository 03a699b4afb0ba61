"""What add_rms_norm's spec promises beyond the numerics, checked on a GPU on either backend's kernel module."""

from __future__ import annotations

from types import ModuleType

import torch

from workbench.kernels.add_rms_norm.spec import SPEC as ADD_RMS_SPEC


def check_sum_is_bitwise_the_rounded_add(module: ModuleType) -> None:
    for dtype in ADD_RMS_SPEC.dtypes:
        args = ADD_RMS_SPEC.make_inputs((64, 4096), dtype, 3, "cuda")
        summed, _ = module.add_rms_norm(*args)
        assert torch.equal(summed, args[0] + args[1]), dtype


def check_empty_allocating_and_leading_dims(module: ModuleType) -> None:
    add_rms_norm = module.add_rms_norm
    x, residual, w, eps = ADD_RMS_SPEC.make_inputs((0, 2048), torch.bfloat16, 0, "cuda")
    assert [t.shape for t in add_rms_norm(x, residual, w, eps)] == [(0, 2048), (0, 2048)]
    args = ADD_RMS_SPEC.make_inputs((6, 2048), torch.bfloat16, 2, "cuda")
    x, residual, w, eps = args
    summed, normed = add_rms_norm(x.view(2, 3, 2048), residual.view(2, 3, 2048), w, eps)
    assert summed.shape == normed.shape == (2, 3, 2048)
    assert ADD_RMS_SPEC.compare((summed.view(6, 2048), normed.view(6, 2048)), args, torch.bfloat16).ok
