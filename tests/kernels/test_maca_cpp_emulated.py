"""The maca_cpp kernels' C++ run on the CPU under a host-thread emulation (tests/kernels/cuda_emulation.py).

The wrapper of each kernel file runs as shipped (vector-width choice, launch arguments) with its
library swapped for the emulated build and the GPU requirement of the input check lifted. Small
shapes only: every CUDA thread is a host thread. The GPU tests (test_maca_cpp_gpu.py) stay the
authority; this catches index, mask and reduction mistakes in CI.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import shutil
from pathlib import Path

import pytest
import torch

from tests.kernels.cuda_emulation import build_emulated
from workbench.kernels import cpp_support
from workbench.kernels.registry import spec
from workbench.kernels.spec import NamedShape

pytestmark = pytest.mark.skipif(
    shutil.which("nvcc") is None and not Path("/usr/local/cuda/bin/nvcc").is_file(),
    reason="nvcc not found: the emulated maca_cpp kernels are compiled by nvcc as host code",
)

# Per op: shapes with tails (rows not a multiple of the block, lengths not of the vector width).
SHAPES = {
    "rms_norm": [(3, 1000), (5, 2048), (2, 4097)],
    "add_rms_norm": [(3, 1000), (5, 2048), (2, 4097)],
    "silu_mul": [(3, 2 * 1000), (5, 2 * 512), (2, 2 * 4097)],
    "rope": [(1, 17, 3, 64), (3, 5, 2, 80), (2, 3, 4, 128)],
    "rope_qk": [(1, 17, 3, 1, 64), (3, 5, 6, 2, 80), (2, 3, 8, 2, 128)],
}


@pytest.fixture(scope="module")
def build_dir(tmp_path_factory):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TORCH_EXTENSIONS_DIR", str(tmp_path_factory.mktemp("torch_extensions")))
        yield


def _on_cpu(op: str, monkeypatch: pytest.MonkeyPatch):
    """The kernel file's op function, running its C++ emulated on the CPU."""
    module = importlib.import_module(f"workbench.kernels.{op}.maca_cpp")
    library = build_emulated(module, op)
    op_spec = module.SPEC
    lifted = dataclasses.replace(op_spec, check_inputs=functools.partial(op_spec.check_inputs, require_gpu=False))
    monkeypatch.setattr(module, "SPEC", lifted)
    monkeypatch.setattr(module, "_library", lambda: library)
    return getattr(module, op)


def _check(op: str, fn, dims: tuple[int, ...], dtype: torch.dtype, camp: bool = False) -> None:
    op_spec = spec(op)
    shape = NamedShape(("camp/" if camp else "hidden/") + "emulated", dims)
    args = op_spec.inputs_for(shape, dtype, 0, "cpu")
    out = op_spec.empty_out(args, fill=float("nan"))
    assert fn(*args, out=out) is out
    comparison = op_spec.compare(out, args, dtype)
    assert comparison.ok, f"{op} {dims} {dtype}: {comparison.message}"


@pytest.mark.parametrize("op", list(SHAPES))
def test_every_dtype_and_tail_matches_the_reference(op, build_dir, monkeypatch):
    fn = _on_cpu(op, monkeypatch)
    for dims in SHAPES[op]:
        for dtype in (torch.float32, torch.bfloat16, torch.float16):
            _check(op, fn, dims, dtype)


@pytest.mark.parametrize("op", ["rope", "rope_qk"])
def test_camp_tables_in_the_model_dtype_and_longer_than_seq(op, build_dir, monkeypatch):
    fn = _on_cpu(op, monkeypatch)
    for dtype in (torch.bfloat16, torch.float16):
        _check(op, fn, SHAPES[op][0], dtype, camp=True)


@pytest.mark.parametrize("op", list(SHAPES))
def test_scalar_path_and_other_block_shapes(op, build_dir, monkeypatch):
    """vec 1 and a small block with several rows (or tokens) per block: other code paths of the same file."""
    module = importlib.import_module(f"workbench.kernels.{op}.maca_cpp")
    space = module.SEARCH_SPACE
    monkeypatch.setitem(module.CONFIG, "vec", 1)
    monkeypatch.setitem(module.CONFIG, "threads", 64)
    for key in ("rows_per_block", "tokens_per_block"):
        if key in space:
            monkeypatch.setitem(module.CONFIG, key, 4)
    if "cache_packs" in space:
        monkeypatch.setitem(module.CONFIG, "cache_packs", 1)  # most packs read twice: the second loop runs
    fn = _on_cpu(op, monkeypatch)
    for dims in SHAPES[op][:2]:
        _check(op, fn, dims, torch.bfloat16)


def test_an_emulated_launch_error_is_a_launch_error(build_dir, monkeypatch):
    fn = _on_cpu("silu_mul", monkeypatch)
    module = importlib.import_module("workbench.kernels.silu_mul.maca_cpp")
    (x,) = spec("silu_mul").make_inputs((2, 64), torch.float32, 0, "cpu")
    monkeypatch.setitem(module.DTYPE_CODES, torch.float32, 7)  # a dtype code the source does not know
    with pytest.raises(cpp_support.LaunchError):
        fn(x)
