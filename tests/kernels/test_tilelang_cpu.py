"""TileLang kernels run on the CPU through TileLang's C target, in fp32, against the reference.

`KW_TILELANG_TARGET=c` (kernels/tilelang_support.py) makes the kernel files compile
for the C target and accept CPU tensors, so the op functions run as they ship: their
views, tilings and size classes, on top of the program's index math, tail masks and
tiles. The C target has no bf16 and cannot lower reductions over fragments, so this
covers the elementwise kernels (rope, rope_qk) in fp32; the bf16/fp16 programs differ
only in the element type, and the GPU tests run every dtype. Each test swaps in an
empty kernel cache, so no GPU-compiled kernel is ever reused here or left behind, and keeps the
C compiler's temporary files in its tmp_path.
"""

from __future__ import annotations

import tempfile

import pytest
import torch

import kernels.rope.tilelang as rope_tl
import kernels.rope_qk.tilelang as rope_qk_tl
from kernels.rope.spec import SPEC as ROPE_SPEC
from kernels.rope_qk.spec import SPEC as ROPE_QK_SPEC
from kernels.spec import OpSpec
from kernels.tilelang_support import CPU_TARGET_ENV

pytest.importorskip("tilelang")


@pytest.fixture
def on_cpu(monkeypatch: pytest.MonkeyPatch, tmp_path):
    monkeypatch.setenv(CPU_TARGET_ENV, "c")
    # TileLang's C target compiles each program from a tmpXXXX.cpp into a .so in the temp directory and
    # never removes either (tilelang/jit/adapter/libgen.py): here they go into the test's own tmp_path.
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(rope_tl, "_kernels", {})
    monkeypatch.setattr(rope_qk_tl, "_kernels", {})
    return monkeypatch


def run_and_check(spec: OpSpec, op, dims: tuple[int, ...], seed: int = 3) -> None:
    """NaN-poisoned out=, the op's own function, then: the buffers returned, all written, inputs intact, numerics."""
    args = spec.make_inputs(dims, torch.float32, seed, "cpu")
    before = [a.clone() for a in args]
    out = spec.empty_out(args, fill=float("nan"))
    result = op(*args, out=out)
    assert spec.returned_out(result, out)
    assert all(torch.equal(a, b) for a, b in zip(args, before, strict=True)), "inputs were modified"
    comparison = spec.compare(result, args, torch.float32)
    assert comparison.ok, f"{dims}: {comparison.message}"


# Rope: the hidden shapes (tails everywhere, halves of 40 and 48), a decode call (the small_* class)
# and prefill-sized token counts past SMALL_TOKENS (the other class) on both models' head layouts.
# Without the long prompt: the C target would take minutes on it; the GPU tests and the evaluator cover it.
ROPE_DIMS = [s.dims for s in ROPE_SPEC.hidden_shapes if "long-prompt" not in s.name] + [
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


ROPE_QK_DIMS = [s.dims for s in ROPE_QK_SPEC.hidden_shapes if "long-prompt" not in s.name] + [
    (8, 1, 32, 8, 128),
    (1, 40, 32, 8, 64),
]
ROPE_QK_CONFIGS = {
    "shipped": {},
    "copied tiles": {"copy_tiles": True},
    "one group, copied": {"head_groups": 1, "block_tokens": 2, "threads": 256, "copy_tiles": True},
    "odd token tile": {"head_groups": 2, "block_tokens": 3, "threads": 64},
}
# (kernel module, its spec, its op function's name, the dims to run) per op.
OPS = {
    "rope": (rope_tl, ROPE_SPEC, "rope", ROPE_DIMS),
    "rope_qk": (rope_qk_tl, ROPE_QK_SPEC, "rope_qk", ROPE_QK_DIMS),
}
CASES = [
    pytest.param(op, config, id=f"{op}-{name}")
    for op, configs in (("rope", ROPE_CONFIGS), ("rope_qk", ROPE_QK_CONFIGS))
    for name, config in configs.items()
]


@pytest.mark.parametrize(("op", "config"), CASES)
def test_matches_the_reference(on_cpu, op, config):
    module, spec, name, dims_list = OPS[op]
    for key, value in config.items():
        on_cpu.setitem(module.CONFIG, key, value)
    for dims in dims_list:
        run_and_check(spec, getattr(module, name), dims)


def test_empty_inputs_and_allocated_outputs(on_cpu):
    x, sin, cos = ROPE_SPEC.make_inputs((1, 0, 8, 64), torch.float32, 0, "cpu")
    assert rope_tl.rope(x, sin, cos).shape == (1, 0, 8, 64)
    args = ROPE_QK_SPEC.make_inputs((2, 5, 6, 2, 64), torch.float32, 1, "cpu")
    q_out, k_out = rope_qk_tl.rope_qk(*args)
    assert (q_out.shape, k_out.shape) == ((2, 5, 6, 64), (2, 5, 2, 64))
    assert ROPE_QK_SPEC.compare((q_out, k_out), args, torch.float32).ok


def test_tables_longer_than_seq_use_their_first_rows(on_cpu):
    """The camp's Llama slices [:seq] from longer tables; passing the longer ones must give the same result."""
    x, sin, cos = ROPE_SPEC.make_inputs((2, 9, 4, 64), torch.float32, 5, "cpu")
    longer = [torch.cat((table, torch.randn(23, table.shape[1]))) for table in (sin, cos)]
    assert torch.equal(rope_tl.rope(x, *longer), rope_tl.rope(x, sin, cos))
    q, k, sin, cos = ROPE_QK_SPEC.make_inputs((2, 9, 6, 2, 64), torch.float32, 6, "cpu")
    longer = [torch.cat((table, torch.randn(23, table.shape[1]))) for table in (sin, cos)]
    for got, want in zip(rope_qk_tl.rope_qk(q, k, *longer), rope_qk_tl.rope_qk(q, k, sin, cos), strict=True):
        assert torch.equal(got, want)


def test_a_wrong_program_fails_here(on_cpu):
    # The check can fail: the tables of the wrong position (pos + 1) are caught on the CPU.
    source_build = rope_tl.build

    def off_by_one(heads, *args, **kwargs):
        return source_build(heads + 1, *args, **kwargs)  # the kernel then maps rows to the wrong positions

    on_cpu.setattr(rope_tl, "build", off_by_one)
    args = ROPE_SPEC.make_inputs((1, 9, 4, 64), torch.float32, 0, "cpu")
    assert not ROPE_SPEC.compare(rope_tl.rope(*args), args, torch.float32).ok
