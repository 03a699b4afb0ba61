"""rope's TileLang kernel: on TileLang's C target (CPU, fp32) and on a GPU, and its lowering to CUDA source."""

from __future__ import annotations

import functools

import pytest
import torch

import workbench.kernels.rope.tilelang as rope_tl
from tests.kernels.gpu_checks import cases, check
from tests.kernels.lowering import lowering_cases
from tests.kernels.tilelang_devices import DEVICES, HALF, on_c_target, run_and_check
from workbench.kernels.rope.spec import SPEC as ROPE_SPEC
from workbench.kernels.tilelang_support import lower_to_source

pytest.importorskip("tilelang")


@pytest.fixture(params=DEVICES)
def device(request, monkeypatch: pytest.MonkeyPatch, tmp_path) -> str:
    if request.param == "cpu":
        on_c_target(monkeypatch, tmp_path, rope_tl)
    return request.param


@pytest.fixture
def on_cpu(monkeypatch: pytest.MonkeyPatch, tmp_path):
    on_c_target(monkeypatch, tmp_path, rope_tl)
    return monkeypatch


# The hidden shapes (tails everywhere, halves of 40 and 48), a decode call (the small_* class)
# and prefill-sized token counts past SMALL_TOKENS (the other class) on both models' head layouts.
# Without the long prompt: the C target would take minutes on it; the GPU tests and the evaluator cover it.
ROPE_DIMS = [s.dims for s in ROPE_SPEC.hidden_shapes if "long-" not in s.name] + [
    (8, 1, 32, 128),
    (1, 300, 8, 64),
    (1, 257, 3, 128),
]
ROPE_CONFIGS = {
    "shipped": {},
    "copied tiles": {"copy_tiles": True, "small_copy_tiles": True},
    "split head, copied": {"block_cols": 16, "copy_tiles": True, "small_block_cols": 8, "small_copy_tiles": True},
    "small blocks": {"block_rows": 8, "threads": 64, "small_block_rows": 4, "small_threads": 32},
}

# The other tilings on fewer shapes: each (heads, head_dim) is one more program to lower and compile
# (about 2.5 CPU-seconds on the C target). These keep a row tail and a ragged half (40) in the small
# class, and a half of 48 and a token count past SMALL_TOKENS in the large one.
OTHER_TILING_DIMS = [(1, 17, 3, 64), (5, 1, 9, 80), (1, 1000, 7, 96), (1, 257, 3, 128)]
assert set(OTHER_TILING_DIMS) <= set(ROPE_DIMS)


@pytest.mark.parametrize("config", [pytest.param(c, id=f"rope-{name}") for name, c in ROPE_CONFIGS.items()])
def test_matches_the_reference_on_the_c_target(on_cpu, config):
    for key, value in config.items():
        on_cpu.setitem(rope_tl.CONFIG, key, value)
    for dims in ROPE_DIMS if not config else OTHER_TILING_DIMS:
        run_and_check(ROPE_SPEC, rope_tl.rope, dims)


@pytest.mark.gpu
@pytest.mark.parametrize(("shape", "dtype"), cases(ROPE_SPEC))
def test_matches_the_reference_on_a_gpu(shape, dtype):
    check(ROPE_SPEC, rope_tl.rope, shape, dtype)


def test_empty_inputs_return_empty_outputs(device):
    x, sin, cos = ROPE_SPEC.make_inputs((1, 0, 8, 64), HALF[device], 0, device)
    assert rope_tl.rope(x, sin, cos).shape == (1, 0, 8, 64)


def test_allocates_output_when_none_given(device):
    dtype = torch.float16 if device == "cuda" else torch.float32
    args = ROPE_SPEC.make_inputs((2, 9, 3, 64), dtype, 1, device)
    assert ROPE_SPEC.compare(rope_tl.rope(*args), args, dtype).ok


def test_tables_longer_than_seq_use_their_first_rows(device):
    """The camp's Llama slices [:seq] from longer tables; passing the longer ones must give the same result."""
    x, sin, cos = ROPE_SPEC.make_inputs((2, 9, 4, 64), HALF[device], 5, device)
    longer = [torch.cat((table, torch.randn(23, table.shape[1], device=device))) for table in (sin, cos)]
    assert torch.equal(rope_tl.rope(x, *longer), rope_tl.rope(x, sin, cos))


def test_a_wrong_program_fails_here(on_cpu):
    # The check can fail: the tables of the wrong position (pos + 1) are caught on the CPU.
    source_build = rope_tl.build

    def off_by_one(heads, *args, **kwargs):
        return source_build(heads + 1, *args, **kwargs)  # the kernel then maps rows to the wrong positions

    on_cpu.setattr(rope_tl, "build", off_by_one)
    args = ROPE_SPEC.make_inputs((1, 9, 4, 64), torch.float32, 0, "cpu")
    assert not ROPE_SPEC.compare(rope_tl.rope(*args), args, torch.float32).ok


# ---------------------------------------------------------------------------------------------- lowering


@functools.cache
def rope_source(heads: int, head_dim: int, dtype: str) -> str:
    return lower_to_source(rope_tl.build(heads, head_dim, dtype, **rope_tl.tiling(1 << 20)))


@pytest.mark.parametrize(("shape", "dtype"), lowering_cases(ROPE_SPEC, lambda shape: shape.dims[2:]))
def test_rope_lowers_to_cuda(shape, dtype):
    _, _, heads, head_dim = shape.dims
    source = rope_source(heads, head_dim, dtype)
    assert "__global__ void __launch_bounds__(" in source
    # The shipped prefill tiling copies its tiles, except where a column block would run past the half.
    half = head_dim // 2
    copied = rope_tl.CONFIG["copy_tiles"] and half % min(rope_tl.CONFIG["block_cols"], half) == 0
    assert ("rope_kernel_copied_kernel(" if copied else "rope_kernel_kernel(") in source
    assert "< rows" in source  # the tail guard for row counts that are not a multiple of block_rows


@pytest.mark.parametrize("tables", ["bfloat16", "float16"])
@pytest.mark.parametrize("copy_tiles", [False, True])
def test_rope_programs_read_model_dtype_tables(tables, copy_tiles):
    """The camp's Llama passes sin/cos in the model's dtype: the programs load them as that type."""
    ctype = {"bfloat16": "bfloat16_t", "float16": "half_t"}[tables]
    rope = lower_to_source(
        rope_tl.build(32, 64, "bfloat16", block_rows=8, threads=128, copy_tiles=copy_tiles, table_dtype=tables)
    )
    assert f"{ctype}* __restrict__ Sin" in rope and f"{ctype}* __restrict__ Cos" in rope, rope[:2000]


@pytest.mark.parametrize("key", sorted(rope_tl.SEARCH_SPACE))
def test_rope_config_values_are_in_the_search_space(key):
    assert rope_tl.CONFIG[key] in rope_tl.SEARCH_SPACE[key]


def test_refuses_cpu_tensors_with_a_clear_error():
    x, sin, cos = ROPE_SPEC.make_inputs((1, 4, 2, 64), torch.bfloat16, seed=0)
    with pytest.raises(ValueError, match="runs on a GPU"):
        rope_tl.rope(x, sin, cos)
