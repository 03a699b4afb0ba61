"""rope_qk on Liger-Kernel: the same `liger_rotary_pos_emb` as rope, on our q and k in Hugging Face's layout."""

from __future__ import annotations

from collections.abc import Callable

from workbench.kernels.liger_support import LigerCall
from workbench.kernels.rope.liger import LIGER_MODULE, LIGER_NAME, hf_layout, hf_tables, refill

__all__ = ["LIGER_MODULE", "LIGER_NAME", "bind"]


def bind(fn: Callable, args: tuple) -> LigerCall:
    q, k, sin, cos = args
    # Liger's RoPE is this op: q and k in one launch. Copies in HF's layout (Liger writes in place, and
    # q and k must stay unchanged) and full-width tables, made here, outside the timed region.
    q_hf, k_hf = hf_layout(q), hf_layout(k)
    cos_full, sin_full = hf_tables(sin, cos)
    return LigerCall(
        run=lambda: fn(q_hf, k_hf, cos_full, sin_full),
        outputs=lambda result: (result[0].transpose(1, 2), result[1].transpose(1, 2)),
        refresh=lambda: refill((q_hf, k_hf), (q, k), (cos_full, sin_full), sin, cos),
    )
