"""What rope_qk's spec promises beyond the numerics, checked on a GPU on either backend's kernel module."""

from __future__ import annotations

from types import ModuleType

import pytest
import torch

from tests.kernels.gpu_checks import check
from workbench.kernels.rope_qk.spec import SPEC as ROPE_QK_SPEC


def check_empty_and_allocating(module: ModuleType) -> None:
    rope_qk = module.rope_qk
    q, k, sin, cos = ROPE_QK_SPEC.make_inputs((1, 0, 32, 8, 64), torch.bfloat16, 0, "cuda")
    assert [t.shape for t in rope_qk(q, k, sin, cos)] == [(1, 0, 32, 64), (1, 0, 8, 64)]
    args = ROPE_QK_SPEC.make_inputs((2, 7, 6, 2, 128), torch.float16, 1, "cuda")
    assert ROPE_QK_SPEC.compare(rope_qk(*args), args, torch.float16).ok


def check_head_groups(module: ModuleType, groups: int, monkeypatch: pytest.MonkeyPatch) -> None:
    for key in ("head_groups", "small_head_groups"):  # TileLang's decode calls have a tiling of their own
        if key in module.CONFIG:
            monkeypatch.setitem(module.CONFIG, key, groups)
    for name in ("llama3-8b/decode8", "hidden/decode5-9q-3kv-d80", "hidden/17tok-3q-1kv"):
        check(ROPE_QK_SPEC, module.rope_qk, ROPE_QK_SPEC.shape(name), torch.bfloat16)
