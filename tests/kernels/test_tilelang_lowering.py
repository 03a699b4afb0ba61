"""Every TileLang kernel lowers to CUDA source on the CPU, for every spec shape and dtype.

No GPU and no nvcc: `tilelang.lower` inside a CUDA target context. One program
serves many shapes (token counts are dynamic), so lowering is cached per program.
"""

from __future__ import annotations

import functools

import pytest
import torch

import kernels.add_rms_norm.tilelang as add_rms_norm_tl
import kernels.rms_norm.tilelang as rms_norm_tl
import kernels.rope.tilelang as rope_tl
import kernels.rope_qk.tilelang as rope_qk_tl
import kernels.silu_mul.tilelang as silu_mul_tl
from kernels.add_rms_norm.spec import SPEC as ADD_RMS_SPEC
from kernels.rms_norm.spec import SPEC as RMS_SPEC
from kernels.rope.spec import SPEC as ROPE_SPEC
from kernels.rope_qk.spec import SPEC as ROPE_QK_SPEC
from kernels.rope_qk.spec import head_groups
from kernels.silu_mul.spec import SPEC as SILU_SPEC
from kernels.spec import dtype_name
from kernels.tilelang_support import access_widths, lower_to_source

DTYPES = [torch.bfloat16, torch.float16, torch.float32]


@functools.cache
def rope_source(heads: int, head_dim: int, dtype: str) -> str:
    return lower_to_source(rope_tl.build(heads, head_dim, dtype, **rope_tl.tiling(1 << 20)))


@functools.cache
def rope_qk_source(q_heads: int, kv_heads: int, head_dim: int, dtype: str, config: tuple = ()) -> str:
    settings = {**rope_qk_tl.CONFIG, **dict(config)}
    groups = head_groups(q_heads, kv_heads, settings["head_groups"])
    tiling = {key: settings[key] for key in ("block_tokens", "threads", "copy_tiles")}
    return lower_to_source(rope_qk_tl.build(q_heads, kv_heads, head_dim, dtype, groups=groups, **tiling))


@functools.cache
def rms_norm_source(hidden: int, dtype: str) -> str:
    return lower_to_source(rms_norm_tl.build(hidden, dtype, **rms_norm_tl.CONFIG))


@functools.cache
def add_rms_norm_source(hidden: int, dtype: str) -> str:
    return lower_to_source(add_rms_norm_tl.build(hidden, dtype, **add_rms_norm_tl.CONFIG))


@functools.cache
def silu_mul_source(intermediate: int, dtype: str, config: tuple = ()) -> str:
    return lower_to_source(silu_mul_tl.build(intermediate, dtype, **{**silu_mul_tl.CONFIG, **dict(config)}))


def cases(spec):
    return [
        pytest.param(shape, dtype, id=f"{shape.name}-{dtype_name(dtype)}")
        for shape in (*spec.shapes, *spec.hidden_shapes)
        for dtype in DTYPES
    ]


@pytest.mark.parametrize(("shape", "dtype"), cases(ROPE_SPEC))
def test_rope_lowers_to_cuda(shape, dtype):
    _, _, heads, head_dim = shape.dims
    source = rope_source(heads, head_dim, dtype)
    assert "__global__ void __launch_bounds__(" in source
    # The shipped prefill tiling copies its tiles, except where a column block would run past the half.
    half = head_dim // 2
    copied = rope_tl.CONFIG["copy_tiles"] and half % min(rope_tl.CONFIG["block_cols"], half) == 0
    assert ("rope_kernel_copied_kernel(" if copied else "rope_kernel_kernel(") in source
    assert "< rows" in source  # the tail guard for row counts that are not a multiple of block_rows


@pytest.mark.parametrize(("shape", "dtype"), cases(ROPE_QK_SPEC))
def test_rope_qk_lowers_to_cuda(shape, dtype):
    _, _, q_heads, kv_heads, head_dim = shape.dims
    source = rope_qk_source(q_heads, kv_heads, head_dim, dtype)
    assert "rope_qk_kernel_kernel(" in source
    # The tail guard for token counts that are not a multiple of block_tokens (with one token per block
    # the grid is exactly the token count and the guard folds away).
    tiled = rope_qk_source(q_heads, kv_heads, head_dim, dtype, (("block_tokens", 4),))
    assert "< tokens" in tiled


@pytest.mark.parametrize("tables", ["bfloat16", "float16"])
@pytest.mark.parametrize("copy_tiles", [False, True])
def test_rope_programs_read_model_dtype_tables(tables, copy_tiles):
    """The camp's Llama passes sin/cos in the model's dtype: the programs load them as that type."""
    ctype = {"bfloat16": "bfloat16_t", "float16": "half_t"}[tables]
    rope = lower_to_source(
        rope_tl.build(32, 64, "bfloat16", block_rows=8, threads=128, copy_tiles=copy_tiles, table_dtype=tables)
    )
    assert f"{ctype}* __restrict__ Sin" in rope and f"{ctype}* __restrict__ Cos" in rope, rope[:2000]
    qk = lower_to_source(
        rope_qk_tl.build(
            32, 8, 64, "bfloat16", block_tokens=1, groups=8, threads=128, copy_tiles=copy_tiles, table_dtype=tables
        )
    )
    assert f"{ctype}* __restrict__ Sin" in qk and f"{ctype}* __restrict__ Cos" in qk


def test_rope_qk_program_is_the_one_the_op_compiles():
    dims = ROPE_QK_SPEC.shape("llama3-8b/prefill512").dims
    program = rope_qk_tl.program(dims, torch.bfloat16)
    groups = head_groups(32, 8, rope_qk_tl.CONFIG["head_groups"])
    config = {
        "block_tokens": rope_qk_tl.CONFIG["block_tokens"],
        "groups": groups,
        "threads": rope_qk_tl.CONFIG["threads"],
    }
    assert program.script() == rope_qk_tl.build(32, 8, 128, "bfloat16", **config).script()


@pytest.mark.parametrize("heads", [(32, 8, 128), (9, 3, 80)])
def test_rope_qk_catalogue_designs_lower(heads):
    from agent.policies.catalogue import designs

    for design in designs("rope_qk", "tilelang"):
        source = rope_qk_source(*heads, torch.bfloat16, tuple(sorted(design.config.items())))
        # Copied or, where the tiles have no register layout, the direct loop (tested below).
        assert "rope_qk_kernel_kernel(" in source or "rope_qk_kernel_copied_kernel(" in source, design.name


# The hidden layouts (3 q heads per kv head, head_dim 80, one head per group) made TileLang fail on the
# H200 with "no available layout found" for copied tiles; those tiles now run the direct loop.
@pytest.mark.parametrize("heads", [(32, 8, 128), (9, 3, 80), (3, 1, 64), (7, 7, 96)])
@pytest.mark.parametrize(("block_tokens", "threads"), [(1, 64), (2, 64), (4, 128), (8, 256)])
def test_rope_qk_copied_tiles_lower_on_every_head_layout(heads, block_tokens, threads):
    config = (("block_tokens", block_tokens), ("copy_tiles", True), ("threads", threads))
    q_heads, kv_heads, head_dim = heads
    groups = head_groups(q_heads, kv_heads, rope_qk_tl.CONFIG["head_groups"])
    tiles = [block_tokens * (n // groups) * (head_dim // 2) for n in (q_heads, kv_heads)]
    copied = all(rope_qk_tl._tile_fits(elements, threads) for elements in tiles)
    source = rope_qk_source(*heads, torch.bfloat16, config)  # raised "no available layout found" before
    assert ("rope_qk_kernel_copied_kernel(" in source) == copied
    assert ("rope_qk_kernel_kernel(" in source) != copied


def test_rope_qk_copied_design_moves_16_bytes_per_access():
    """The catalogue's copied design holds 8 bf16 per thread in every tile: all four accesses uint4 (8B)."""
    from agent.policies.catalogue import designs

    design = next(d for d in designs("rope_qk", "tilelang") if d.config.get("copy_tiles"))
    source = rope_qk_source(32, 8, 128, torch.bfloat16, tuple(sorted(design.config.items())))
    assert "rope_qk_kernel_copied_kernel(" in source
    for buffer in ("Q", "K", "QOut", "KOut"):
        assert access_widths(source, buffer) == {"uint4"}, buffer


@pytest.mark.parametrize(("shape", "dtype"), cases(RMS_SPEC))
def test_rms_norm_lowers_to_cuda(shape, dtype):
    source = rms_norm_source(shape.dims[1], dtype)
    assert "rms_norm_kernel_kernel(" in source
    assert "rsqrtf(" in source


@pytest.mark.parametrize(("shape", "dtype"), cases(ADD_RMS_SPEC))
def test_add_rms_norm_lowers_to_cuda(shape, dtype):
    source = add_rms_norm_source(shape.dims[1], dtype)
    assert "add_rms_norm_kernel_kernel(" in source
    assert "rsqrtf(" in source
    # Five tensors, both outputs written: the sum and the normalised row.
    assert "Sum[" in source or "(Sum + " in source
    assert "Out[" in source or "(Out + " in source


@pytest.mark.parametrize(("block_rows", "threads"), [(2, 64), (4, 128), (8, 1024)])
def test_add_rms_norm_guards_the_row_tail_for_several_rows_per_block(block_rows, threads):
    source = lower_to_source(add_rms_norm_tl.build(1000, "float16", block_rows, threads))
    assert "< rows" in source


def test_add_rms_norm_rounds_the_sum_before_normalising():
    # bf16: fp32 sum -> bf16 (round to nearest) -> fp32, then squared; in fp32 there is nothing to round.
    bf16 = add_rms_norm_source(4096, torch.bfloat16)
    assert "__float22bfloat162_rn" in bf16 and "__bfloat1622float2" in bf16
    assert "uint4" in bf16  # x and residual loaded 16 bytes at a time


def test_half_precision_loads_are_vectorised_to_16_bytes():
    # 8 bf16 per load: the kernels should not fall back to scalar loads on aligned shapes.
    assert "uint4" in rms_norm_source(4096, torch.bfloat16)


@pytest.mark.parametrize("key", sorted(rope_tl.SEARCH_SPACE))
def test_rope_config_values_are_in_the_search_space(key):
    assert rope_tl.CONFIG[key] in rope_tl.SEARCH_SPACE[key]


@pytest.mark.parametrize("key", sorted(rms_norm_tl.SEARCH_SPACE))
def test_rms_norm_config_values_are_in_the_search_space(key):
    assert rms_norm_tl.CONFIG[key] in rms_norm_tl.SEARCH_SPACE[key]


@pytest.mark.parametrize(("shape", "dtype"), cases(SILU_SPEC))
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


@pytest.mark.parametrize("key", sorted(silu_mul_tl.SEARCH_SPACE))
def test_silu_mul_config_values_are_in_the_search_space(key):
    assert silu_mul_tl.CONFIG[key] in silu_mul_tl.SEARCH_SPACE[key]


@pytest.mark.parametrize("key", sorted(add_rms_norm_tl.SEARCH_SPACE))
def test_add_rms_norm_config_values_are_in_the_search_space(key):
    assert add_rms_norm_tl.CONFIG[key] in add_rms_norm_tl.SEARCH_SPACE[key]


def test_tilelang_kernels_refuse_cpu_tensors_with_a_clear_error():
    x, sin, cos = ROPE_SPEC.make_inputs((1, 4, 2, 64), torch.bfloat16, seed=0)
    with pytest.raises(ValueError, match="runs on a GPU"):
        rope_tl.rope(x, sin, cos)
    x, w, eps = RMS_SPEC.make_inputs((4, 64), torch.bfloat16, seed=0)
    with pytest.raises(ValueError, match="runs on a GPU"):
        rms_norm_tl.rms_norm(x, w, eps)
    with pytest.raises(ValueError, match="runs on a GPU"):
        add_rms_norm_tl.add_rms_norm(*ADD_RMS_SPEC.make_inputs((4, 64), torch.bfloat16, seed=0))
    with pytest.raises(ValueError, match="runs on a GPU"):
        silu_mul_tl.silu_mul(*SILU_SPEC.make_inputs((4, 64), torch.bfloat16, seed=0))
    with pytest.raises(ValueError, match="runs on a GPU"):
        rope_qk_tl.rope_qk(*ROPE_QK_SPEC.make_inputs((1, 4, 4, 2, 64), torch.bfloat16, seed=0))


@pytest.mark.parametrize("hidden", [2048, 4096])
def test_the_norms_and_silu_mul_move_16_bytes_per_bf16_access(hidden):
    # A loop that also stores another output (add_rms_norm's sum) or reads fp32 can narrow the accesses to
    # 8 bytes: add_rms_norm stored sum and normed as uint2 until each got a loop of its own.
    add = add_rms_norm_source(hidden, torch.bfloat16)
    assert all(access_widths(add, b) == {"uint4"} for b in ("X", "R", "W", "Sum", "Out"))
    rms = rms_norm_source(hidden, torch.bfloat16)
    assert all(access_widths(rms, b) == {"uint4"} for b in ("X", "W", "Out"))
    silu = silu_mul_source(4 * hidden, torch.bfloat16)
    assert all(access_widths(silu, b) == {"uint4"} for b in ("X", "Out"))
