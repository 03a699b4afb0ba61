"""The device a TileLang test runs on, as a parameter: TileLang's C target on the CPU, or a GPU.

On "cpu", `KW_TILELANG_TARGET=c` (kernels/tilelang_support.py) makes the kernel files compile
for the C target and accept CPU tensors, so the op functions run as they ship: their views,
tilings and size classes, on top of the program's index math, tail masks and tiles. The C
target has no bf16 and cannot lower reductions over fragments, so only the elementwise kernels
(rope, rope_qk) run there, in fp32; "cuda" runs every dtype and is marked `gpu` (skipped
without one). Each CPU test swaps in an empty kernel cache, so no GPU-compiled kernel is ever
reused there or left behind, and keeps the C compiler's temporary files in its tmp_path.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from types import ModuleType

import pytest
import torch

from workbench.kernels.tilelang_support import CPU_TARGET_ENV

DEVICES = ["cpu", pytest.param("cuda", marks=pytest.mark.gpu)]
# A half-precision dtype where the device has one: the C target knows fp32 only.
HALF = {"cpu": torch.float32, "cuda": torch.bfloat16}


def on_c_target(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, *modules: ModuleType) -> None:
    """From here on (until monkeypatch undoes it) `modules`' kernels compile for the C target, cache afresh."""
    monkeypatch.setenv(CPU_TARGET_ENV, "c")
    # TileLang's C target compiles each program from a tmpXXXX.cpp into a .so in the temp directory and
    # never removes either (tilelang/jit/adapter/libgen.py): here they go into the test's own tmp_path.
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    for module in modules:
        monkeypatch.setattr(module, "_kernels", {})
        if hasattr(module, "_by_call"):  # a kernel file's second index of the same kernels
            monkeypatch.setattr(module, "_by_call", {})


def run_and_check(spec, op, dims: tuple[int, ...], seed: int = 3) -> None:
    """On the C target, fp32: NaN-poisoned out=, the op's own function, then the buffers returned, all
    written, inputs intact, numerics."""
    args = spec.make_inputs(dims, torch.float32, seed, "cpu")
    before = [a.clone() for a in args]
    out = spec.empty_out(args, fill=float("nan"))
    result = op(*args, out=out)
    assert spec.returned_out(result, out)
    assert all(torch.equal(a, b) for a, b in zip(args, before, strict=True)), "inputs were modified"
    comparison = spec.compare(result, args, torch.float32)
    assert comparison.ok, f"{dims}: {comparison.message}"
