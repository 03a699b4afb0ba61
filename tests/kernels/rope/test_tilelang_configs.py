"""The rope TileLang kernel's tilings: the column split (`block_cols`), size classes, copied tiles."""

from __future__ import annotations

import pytest
import torch

import workbench.kernels.rope.tilelang as rope_tl
from workbench.kernels.tilelang_support import access_widths, lower_to_source


def _source(head_dim: int, block_cols: int, **overrides) -> str:
    config = {**rope_tl.tiling(1 << 20), "block_rows": 16, "block_cols": block_cols, **overrides}
    return lower_to_source(rope_tl.build(32, head_dim, "bfloat16", **config))


def test_the_default_keeps_one_block_column():
    # CONFIG's block_cols covers every half head of the named shapes: the grid stays one-dimensional,
    # the kernel the agent's runs started from.
    assert rope_tl.CONFIG["block_cols"] >= 64
    assert "blockIdx.y" not in _source(128, rope_tl.CONFIG["block_cols"])


def test_decode_and_prefill_calls_take_their_own_tiling(monkeypatch):
    monkeypatch.setitem(rope_tl.CONFIG, "small_block_rows", 8)
    monkeypatch.setitem(rope_tl.CONFIG, "small_block_cols", 16)
    small = {"block_rows": 8, "threads": 128, "block_cols": 16, "copy_tiles": False}
    assert rope_tl.tiling(rope_tl.SMALL_TOKENS) == small
    large = {key: rope_tl.CONFIG[key] for key in rope_tl.TILING_KEYS}
    assert rope_tl.tiling(rope_tl.SMALL_TOKENS + 1) == large
    decode = lower_to_source(rope_tl.program((8, 1, 32, 128), torch.bfloat16))
    prefill = lower_to_source(rope_tl.program((1, 2048, 32, 128), torch.bfloat16))
    assert "blockIdx.y" in decode and "blockIdx.y" not in prefill


def test_decode_calls_read_the_small_keys_and_prefill_calls_the_others():
    # The shipped CONFIG differs between the classes (an H200 run tuned prefill only).
    assert rope_tl.tiling(1) == {key: rope_tl.CONFIG[f"small_{key}"] for key in rope_tl.TILING_KEYS}
    assert rope_tl.tiling(1 << 20) == {key: rope_tl.CONFIG[key] for key in rope_tl.TILING_KEYS}


@pytest.mark.parametrize(("head_dim", "block_cols"), [(64, 8), (64, 16), (128, 8), (128, 16), (128, 32)])
def test_splitting_the_half_head_uses_a_second_grid_dimension(head_dim, block_cols):
    assert "blockIdx.y" in _source(head_dim, block_cols)


def test_a_block_as_wide_as_the_half_head_is_not_split():
    assert "blockIdx.y" not in _source(64, 32)


def test_a_ragged_half_masks_its_columns():
    # head_dim 80 (a hidden shape): half 40 is not a multiple of 16, so the last column block is masked.
    source = _source(80, 16)
    assert "blockIdx.y" in source and "< 5)" in source  # 16 rows x 16 cols / 128 threads: 2-wide vectors, 20 of them


def test_the_direct_loop_moves_bf16_8_bytes_at_a_time():
    # One T.Parallel loop is vectorised to one width for all its accesses; 4 lanes of the fp32 tables
    # are 16 bytes, so x and out get 4 bf16 lanes: 8 bytes.
    source = _source(128, 64, block_rows=64, copy_tiles=False)
    assert access_widths(source, "X") == {"uint2"} and access_widths(source, "Cos") == {"float4"}


def test_copied_tiles_move_bf16_16_bytes_at_a_time():
    source = _source(128, 64, block_rows=64, copy_tiles=True)
    assert access_widths(source, "X") == {"uint4"} and access_widths(source, "Out") == {"uint4"}
    assert "< rows" in source  # the copies mask rows past the end


def test_a_ragged_half_keeps_the_direct_loop_even_with_copied_tiles():
    # A copied 16-column tile of a 40-wide half would write past the half, into the other one.
    assert _source(80, 16, copy_tiles=True) == _source(80, 16, copy_tiles=False)
