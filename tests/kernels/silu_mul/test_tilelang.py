"""silu_mul's TileLang kernel on a GPU, and its lowering to CUDA source on the CPU."""

from __future__ import annotations

import functools

import pytest
import torch

import workbench.kernels.silu_mul.tilelang as silu_mul_tl
from tests.kernels.gpu_checks import cases, check
from tests.kernels.lowering import lowering_cases
from tests.kernels.silu_mul.gpu_promises import (
    check_empty_allocating_and_leading_dims,
    check_small_tiles_on_ragged_shapes,
)
from workbench.kernels.silu_mul.spec import SPEC as SILU_SPEC
from workbench.kernels.tilelang_support import access_widths, lower_to_source

pytest.importorskip("tilelang")


@pytest.mark.gpu
@pytest.mark.parametrize(("shape", "dtype"), cases(SILU_SPEC))
def test_matches_the_reference_on_a_gpu(shape, dtype):
    check(SILU_SPEC, silu_mul_tl.silu_mul, shape, dtype)


@pytest.mark.gpu
def test_empty_allocating_and_leading_dims():
    check_empty_allocating_and_leading_dims(silu_mul_tl)


@pytest.mark.gpu
def test_small_tiles_on_ragged_shapes(monkeypatch: pytest.MonkeyPatch):
    check_small_tiles_on_ragged_shapes(silu_mul_tl, monkeypatch)


# ---------------------------------------------------------------------------------------------- lowering


@functools.cache
def silu_mul_source(intermediate: int, dtype: str, config: tuple = ()) -> str:
    return lower_to_source(silu_mul_tl.build(intermediate, dtype, **{**silu_mul_tl.CONFIG, **dict(config)}))


@pytest.mark.parametrize(("shape", "dtype"), lowering_cases(SILU_SPEC, lambda shape: shape.dims[1]))
def test_silu_mul_lowers_to_cuda(shape, dtype):
    source = silu_mul_source(shape.dims[1] // 2, dtype)
    assert "silu_mul_kernel_kernel(" in source
    assert "expf(" in source  # the sigmoid, in fp32
    assert "< rows" in source  # the tail guard for token counts that are not a multiple of block_rows


def test_silu_mul_program_is_the_one_the_op_compiles():
    dims = SILU_SPEC.shape("llama3-8b/decode8").dims
    program = silu_mul_tl.program(dims, torch.bfloat16)
    assert program.script() == silu_mul_tl.build(14336, "bfloat16", **silu_mul_tl.CONFIG).script()


def test_silu_mul_vectorises_only_where_the_up_half_is_aligned():
    # I = 8192: gate and up both start on 16 bytes, 8 bf16 per load; I = 4097: up starts at an odd element.
    assert "uint4" in silu_mul_source(8192, torch.bfloat16)
    assert "uint4" not in silu_mul_source(4097, torch.bfloat16)


def test_silu_mul_masks_columns_only_when_the_last_tile_is_partial():
    def guards(source: str) -> list[str]:
        return [line for line in source.splitlines() if line.strip().startswith("if (")]

    assert 8192 % silu_mul_tl.CONFIG["block_cols"] == 0 and 1000 % silu_mul_tl.CONFIG["block_cols"] != 0
    whole = guards(silu_mul_source(8192, torch.float32))
    assert whole and all("< rows" in g and "&" not in g for g in whole)  # the row guard alone
    ragged = guards(silu_mul_source(1000, torch.float32))
    assert ragged and all("< rows" in g and "&" in g for g in ragged)  # rows and columns


@pytest.mark.parametrize("intermediate", [14336, 1000])
def test_silu_mul_catalogue_designs_lower(intermediate):
    from agent.policies.catalogue import designs

    for design in designs("silu_mul", "tilelang"):
        source = silu_mul_source(intermediate, torch.bfloat16, tuple(sorted(design.config.items())))
        assert "silu_mul_kernel_kernel(" in source, design.name


@pytest.mark.parametrize("hidden", [2048, 4096])
def test_moves_16_bytes_per_bf16_access(hidden):
    silu = silu_mul_source(4 * hidden, torch.bfloat16)
    assert all(access_widths(silu, b) == {"uint4"} for b in ("X", "Out"))


@pytest.mark.parametrize("key", sorted(silu_mul_tl.SEARCH_SPACE))
def test_silu_mul_config_values_are_in_the_search_space(key):
    assert silu_mul_tl.CONFIG[key] in silu_mul_tl.SEARCH_SPACE[key]


def test_refuses_cpu_tensors_with_a_clear_error():
    with pytest.raises(ValueError, match="runs on a GPU"):
        silu_mul_tl.silu_mul(*SILU_SPEC.make_inputs((4, 64), torch.bfloat16, seed=0))
