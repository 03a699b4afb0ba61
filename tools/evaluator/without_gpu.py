"""What the judge can do for a GPU kernel file on a machine without a GPU: lint it, compile it, lower it.

No correctness and no timing: those need the device. The lint is the static check's; a C++ backend's
file is compiled without a launch (its SOURCE and CONFIG literals parsed, never imported: the compiler
alone sees the candidate); TileLang's programs are lowered to CUDA source in a runner, which needs no
GPU. Nothing here is a record: no stage ran on the device.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import torch

from tools.evaluator.options import EvalOptions
from tools.evaluator.process import RunnerFailed, RunnerProcess
from tools.evaluator.records import KernelSource
from tools.evaluator.static_check import check_file
from tools.paths import sha256_file
from workbench.kernels.backends import backend as backend_of
from workbench.kernels.registry import spec as op_spec


def needs_a_gpu(backend: str, device: str) -> bool:
    """Whether `backend`'s kernels cannot run here: no GPU visible to PyTorch, and the CPU was not asked for."""
    return backend != "torch" and device != "cpu" and not torch.cuda.is_available()


@dataclass
class WithoutGpu:
    """What was done for a kernel file without a GPU."""

    candidate: Path
    static_ok: bool
    static_message: str
    build_error: str | None = None  # the compile without a GPU failed: why
    library: str | None = None  # the compile without a GPU: what it built
    build_seconds: float = 0.0
    sources: list[KernelSource] = field(default_factory=list)  # TileLang's programs lowered to CUDA source
    lowered_cases: tuple[int, int] = (0, 0)  # (shapes, dtypes) the lowering covered

    @property
    def ok(self) -> bool:
        return self.static_ok and self.build_error is None


def check_without_gpu(op: str, backend: str, candidate: Path, options: EvalOptions) -> WithoutGpu:
    """Lint `candidate`, then compile it without a launch or lower it, as its backend allows."""
    report = check_file(candidate, op)
    done = WithoutGpu(candidate=candidate, static_ok=report.ok, static_message=report.message)
    if not report.ok:
        return done
    kind = backend_of(backend)
    if kind.build is not None:
        from workbench.kernels.cpp_support import CompileError

        start = time.perf_counter()
        try:
            done.library = kind.build(candidate, op)
        except CompileError as err:
            done.build_error = str(err)
            return done
        done.build_seconds = time.perf_counter() - start
    if kind.lower is not None:
        shapes = op_spec(op).select(options.shapes)
        cases = [(s.dims, d) for s in shapes for d in options.dtypes]
        lowered = lower_without_gpu(op, candidate.resolve(), cases, allow_unconfined=options.allow_unconfined)
        done.sources = [KernelSource(key=k, language=kind.language, text=v) for k, v in lowered.items()]
        done.lowered_cases = (len(shapes), len(options.dtypes))
    return done


def lower_without_gpu(
    op: str, path: Path, cases: list[tuple[tuple[int, ...], str]], timeout_s: float = 600.0, allow_unconfined=False
) -> dict:
    """TileLang kernels lowered to CUDA source in a runner (no GPU needed): {program: source}."""
    from tools.evaluator.evaluate import require_confinement

    require_confinement(allow_unconfined)
    runner = RunnerProcess(
        "candidate",
        {"kind": "file", "path": str(path), "op": op, "module": f"workbench.kernels.{op}.tilelang"},
        device="cpu",
        target="auto",
        cache_key=f"lower-{sha256_file(path)[:24]}",
    )
    try:
        deadline = time.monotonic() + timeout_s
        hello = runner.wait_hello(deadline)
        if not hello.ok:
            raise RunnerFailed(hello.error or "the kernel file failed to import")
        reply = runner.ask({"op": "lower", "cases": [[list(d), t] for d, t in cases]}, deadline, what="lowering")
        if not reply.ok:
            raise RunnerFailed(reply.error or "lowering failed")
        return reply.sources
    finally:
        runner.close()
