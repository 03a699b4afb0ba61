"""rope_qk's TileLang kernel: on TileLang's C target (CPU, fp32) and on a GPU, and its lowering to CUDA source."""

from __future__ import annotations

import functools

import pytest
import torch

import workbench.kernels.rope_qk.tilelang as rope_qk_tl
from tests.kernels.gpu_checks import cases, check
from tests.kernels.lowering import lowering_cases
from tests.kernels.rope_qk.gpu_promises import check_empty_and_allocating, check_head_groups
from tests.kernels.tilelang_devices import DEVICES, HALF, on_c_target, run_and_check
from workbench.kernels.rope_qk.spec import SPEC as ROPE_QK_SPEC
from workbench.kernels.rope_qk.spec import head_groups
from workbench.kernels.tilelang_support import access_widths, lower_to_source

pytest.importorskip("tilelang")


@pytest.fixture(params=DEVICES)
def device(request, monkeypatch: pytest.MonkeyPatch, tmp_path) -> str:
    if request.param == "cpu":
        on_c_target(monkeypatch, tmp_path, rope_qk_tl)
    return request.param


@pytest.fixture
def on_cpu(monkeypatch: pytest.MonkeyPatch, tmp_path):
    on_c_target(monkeypatch, tmp_path, rope_qk_tl)
    return monkeypatch


ROPE_QK_DIMS = [s.dims for s in ROPE_QK_SPEC.hidden_shapes if "long-" not in s.name] + [
    (8, 1, 32, 8, 128),
    (1, 40, 32, 8, 64),
]
ROPE_QK_CONFIGS = {
    "shipped": {},
    "copied tiles": {"copy_tiles": True, "rows": False},
    "one group, copied": {"head_groups": 1, "block_tokens": 2, "threads": 256, "copy_tiles": True, "rows": False},
    "odd token tile": {"head_groups": 2, "block_tokens": 3, "threads": 64, "copy_tiles": False, "rows": False},
    "rows, copied": {"rows": True, "block_rows": 16, "threads": 64, "copy_tiles": True},
    "rows, direct loop": {"rows": True, "block_rows": 3, "threads": 32},
}

# The other tilings on fewer shapes: each (heads, head_dim) is one more program to lower and compile
# (about 2.5 CPU-seconds on the C target). These keep a token tail, a ragged half (40) in a decode
# call, and two kv groups of four q heads each.
OTHER_TILING_DIMS = [(1, 17, 3, 1, 64), (5, 1, 9, 3, 80), (3, 33, 8, 2, 128)]
assert set(OTHER_TILING_DIMS) <= set(ROPE_QK_DIMS)


@pytest.mark.parametrize("config", [pytest.param(c, id=f"rope_qk-{name}") for name, c in ROPE_QK_CONFIGS.items()])
def test_matches_the_reference_on_the_c_target(on_cpu, config):
    for key, value in config.items():  # both size classes: OTHER_TILING_DIMS are all decode-sized
        on_cpu.setitem(rope_qk_tl.CONFIG, key, value)
        on_cpu.setitem(rope_qk_tl.CONFIG, "small_" + key, value)
    for dims in ROPE_QK_DIMS if not config else OTHER_TILING_DIMS:
        run_and_check(ROPE_QK_SPEC, rope_qk_tl.rope_qk, dims)


@pytest.mark.gpu
@pytest.mark.parametrize(("shape", "dtype"), cases(ROPE_QK_SPEC))
def test_matches_the_reference_on_a_gpu(shape, dtype):
    check(ROPE_QK_SPEC, rope_qk_tl.rope_qk, shape, dtype)


@pytest.mark.gpu
@pytest.mark.parametrize("config", [pytest.param(c, id=name) for name, c in ROPE_QK_CONFIGS.items() if c])
def test_other_tilings_match_the_reference_on_a_gpu(config, monkeypatch: pytest.MonkeyPatch):
    """Each tiling in both size classes on every hidden shape, in bf16 as the sweeps time them (each head
    layout is one more compile, a few seconds on the H200 host)."""
    for key, value in config.items():
        monkeypatch.setitem(rope_qk_tl.CONFIG, key, value)
        monkeypatch.setitem(rope_qk_tl.CONFIG, "small_" + key, value)
    for shape in ROPE_QK_SPEC.hidden_shapes:
        check(ROPE_QK_SPEC, rope_qk_tl.rope_qk, shape, torch.bfloat16)


def test_each_size_class_runs_its_own_tiling(on_cpu):
    """Calls of up to SMALL_TOKENS tokens take the small_* tiling, longer ones the rest; both are right."""
    on_cpu.setitem(rope_qk_tl.CONFIG, "block_tokens", 4)
    on_cpu.setitem(rope_qk_tl.CONFIG, "head_groups", 1)
    on_cpu.setattr(rope_qk_tl, "SMALL_TOKENS", 8)  # a prefill class the C target runs in a moment
    for dims in ((1, 8, 6, 2, 64), (1, 9, 6, 2, 64)):
        run_and_check(ROPE_QK_SPEC, rope_qk_tl.rope_qk, dims)
    tilings = {dict(key[-1])["block_tokens"] for key in rope_qk_tl._kernels if key[:3] == (6, 2, 64)}
    assert tilings == {rope_qk_tl.CONFIG["small_block_tokens"], 4}


def test_allocated_outputs_are_shaped_like_q_and_k(device):
    args = ROPE_QK_SPEC.make_inputs((2, 5, 6, 2, 64), HALF[device], 1, device)
    q_out, k_out = rope_qk_tl.rope_qk(*args)
    assert (q_out.shape, k_out.shape) == ((2, 5, 6, 64), (2, 5, 2, 64))
    assert ROPE_QK_SPEC.compare((q_out, k_out), args, HALF[device]).ok


def test_tables_longer_than_seq_use_their_first_rows(device):
    """The camp's Llama slices [:seq] from longer tables; passing the longer ones must give the same result."""
    q, k, sin, cos = ROPE_QK_SPEC.make_inputs((2, 9, 6, 2, 64), HALF[device], 6, device)
    longer = [torch.cat((table, torch.randn(23, table.shape[1], device=device))) for table in (sin, cos)]
    for got, want in zip(rope_qk_tl.rope_qk(q, k, *longer), rope_qk_tl.rope_qk(q, k, sin, cos), strict=True):
        assert torch.equal(got, want)


@pytest.mark.gpu
def test_empty_and_allocating():
    check_empty_and_allocating(rope_qk_tl)


@pytest.mark.gpu
@pytest.mark.parametrize("groups", [1, 2, 4, 8])
def test_head_groups(groups, monkeypatch: pytest.MonkeyPatch):
    check_head_groups(rope_qk_tl, groups, monkeypatch)


# ---------------------------------------------------------------------------------------------- lowering


@functools.cache
def rope_qk_source(q_heads: int, kv_heads: int, head_dim: int, dtype: str, config: tuple = ()) -> str:
    settings = {**rope_qk_tl.CONFIG, **dict(config)}
    groups = head_groups(q_heads, kv_heads, settings["head_groups"])
    tiling = {key: settings[key] for key in ("block_tokens", "threads", "copy_tiles", "rows", "block_rows")}
    return lower_to_source(rope_qk_tl.build(q_heads, kv_heads, head_dim, dtype, groups=groups, **tiling))


@pytest.mark.parametrize(("shape", "dtype"), lowering_cases(ROPE_QK_SPEC, lambda shape: shape.dims[2:]))
def test_rope_qk_lowers_to_cuda(shape, dtype):
    _, _, q_heads, kv_heads, head_dim = shape.dims
    source = rope_qk_source(q_heads, kv_heads, head_dim, dtype)
    assert ("rope_qk_rows_kernel(" if rope_qk_tl.CONFIG["rows"] else "rope_qk_kernel_kernel(") in source
    # The heads design's tail guard for token counts that are not a multiple of block_tokens (with one token
    # per block the grid is exactly the token count and the guard folds away): index math, the same in every
    # dtype, so one dtype per head layout (each lowering is about a CPU-second).
    if dtype == torch.bfloat16:
        tiled = rope_qk_source(
            q_heads, kv_heads, head_dim, dtype, (("block_tokens", 4), ("copy_tiles", False), ("rows", False))
        )
        assert "rope_qk_kernel_kernel(" in tiled and "< tokens" in tiled


@pytest.mark.parametrize("tables", ["bfloat16", "float16"])
@pytest.mark.parametrize("copy_tiles", [False, True])
def test_rope_qk_programs_read_model_dtype_tables(tables, copy_tiles):
    """The camp's Llama passes sin/cos in the model's dtype: the programs load them as that type."""
    ctype = {"bfloat16": "bfloat16_t", "float16": "half_t"}[tables]
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
    keys = ("block_tokens", "threads", "copy_tiles", "rows", "block_rows")
    config = {"groups": groups, **{key: rope_qk_tl.CONFIG[key] for key in keys}}
    assert program.script() == rope_qk_tl.build(32, 8, 128, "bfloat16", **config).script()


@pytest.mark.parametrize("heads", [(32, 8, 128), (9, 3, 80)])
def test_rope_qk_catalogue_designs_lower(heads):
    from agent.policies.catalogue import designs

    for design in designs("rope_qk", "tilelang"):
        source = rope_qk_source(*heads, torch.bfloat16, tuple(sorted(design.config.items())))
        # Copied or, where the tiles have no register layout, the direct loop (tested below); or the rows design.
        kernels = ("rope_qk_kernel_kernel(", "rope_qk_kernel_copied_kernel(", "rope_qk_rows_kernel(")
        assert any(name in source for name in kernels), design.name


# The hidden layouts (3 q heads per kv head, head_dim 80, one head per group) made TileLang fail on the
# H200 with "no available layout found" for copied tiles; those tiles now run the direct loop.
@pytest.mark.parametrize("heads", [(32, 8, 128), (9, 3, 80), (3, 1, 64), (7, 7, 96)])
@pytest.mark.parametrize(("block_tokens", "threads"), [(1, 64), (2, 64), (4, 128), (8, 256)])
def test_rope_qk_copied_tiles_lower_on_every_head_layout(heads, block_tokens, threads):
    config = (("block_tokens", block_tokens), ("copy_tiles", True), ("rows", False), ("threads", threads))
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


def test_refuses_cpu_tensors_with_a_clear_error():
    with pytest.raises(ValueError, match="runs on a GPU"):
        rope_qk_tl.rope_qk(*ROPE_QK_SPEC.make_inputs((1, 4, 4, 2, 64), torch.bfloat16, seed=0))


# The shipped prefill tiling, 8 rows per 64-thread block: 8 bf16 per thread and half at head_dim 128, 4 at 64;
# 16 rows give 64 the same 16 bytes (judged slower overall on the H200: 0.936x at 8B prefill512).
@pytest.mark.parametrize(
    ("head_dim", "block_rows", "width"), [(128, 8, "uint4"), (64, 8, "uint2"), (64, 16, "uint4"), (128, 16, "uint4")]
)
def test_rows_design_moves_whole_vectors_of_q_and_k(head_dim, block_rows, width):
    config = (("block_rows", block_rows), ("copy_tiles", True), ("rows", True), ("threads", 64))
    source = rope_qk_source(32, 8, head_dim, torch.bfloat16, config)
    assert "rope_qk_rows_kernel(" in source
    for buffer in ("Q", "K", "QOut", "KOut"):
        assert access_widths(source, buffer) == {width}, buffer


def test_rows_design_falls_back_to_the_direct_loop_where_a_tile_has_no_layout():
    """head_dim 80 (a half of 40) in 64 threads: 10 elements per thread, which _tile_fits refuses."""
    source = rope_qk_source(9, 3, 80, torch.bfloat16, (("copy_tiles", True), ("rows", True), ("threads", 64)))
    assert "rope_qk_rows_kernel(" in source and "uint4" not in source
