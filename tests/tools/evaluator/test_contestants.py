"""The trusted yardsticks' own bookkeeping (tools/evaluator/contestants.py)."""

from __future__ import annotations

import torch

from tools.evaluator.contestants import binding_key


def test_a_liger_binding_is_per_shape_not_per_address():
    # The next shape's buffers can start at the last one's address: its binding must not be reused.
    arena = torch.zeros(512 * 64)
    small, large = arena[: 8 * 64].view(8, 64), arena.view(512, 64)
    assert small.data_ptr() == large.data_ptr()
    assert binding_key((small, 1e-6)) != binding_key((large, 1e-6))
    assert binding_key((small, 1e-6)) != binding_key((small.view(torch.int32), 1e-6))
    assert binding_key((small, 1e-6)) == binding_key((arena[: 8 * 64].view(8, 64), 1e-6))
