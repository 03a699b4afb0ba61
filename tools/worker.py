"""The child process that runs a candidate: compile -> correctness -> benchmark.

    python -m tools.worker REQUEST.json EVENTS.jsonl

It appends one JSON line per event to EVENTS.jsonl and flushes each, so when
the candidate hangs, segfaults or calls os._exit, the parent still knows which
stage was running and what had finished. Exceptions from candidate code become
a failed stage; nothing here trusts the candidate to return, or to return honestly.
"""

from __future__ import annotations

import json
import os
import sys
import time
import traceback
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import torch

from kernels import target as targets
from kernels.registry import spec as op_spec
from kernels.registry import torch_implementation
from kernels.spec import NamedShape, OpSpec, parse_dtype
from tools import liger
from tools.candidate import load_candidate
from tools.records import (
    CompileInfo,
    EvalRequest,
    KernelSource,
    LigerStatus,
    ShapeBenchmark,
    ShapeCorrectness,
    StageResult,
    Timing,
)

# Shapes at most this big (bytes moved) are also timed as CUDA-graph replays.
GRAPH_MAX_BYTES = 8 * 2**20
# The size-matched copy is the yardstick (% of copy), but torch's copy_ is not at the limit at
# every size: on the H200 correct one-pass rms_norm kernels beat it at 4 MB (1274 vs 1179 GB/s),
# 17 MB (1719 vs 1366) and 134 MB (3506 vs 3321). Beating it is noted; a result is rejected as a
# measurement error only above the device's large-copy bandwidth (unreachable from DRAM; an
# unflushed replay of a 32 MB RoPE read 5.1-5.5 TB/s there), with this much slack for noise.
ROOFLINE_SLACK = 1.05
# Backends whose first calls (the JIT) may run on several threads at once: TileLang documents
# thread-parallel compilation. Triton's JIT is left serial.
PARALLEL_FIRST_CALL_BACKENDS = ("tilelang",)
MAX_COMPILE_THREADS = 8


class Events:
    def __init__(self, path: Path):
        self.file = open(path, "a", buffering=1)

    def emit(self, event: str, **payload) -> None:
        self.file.write(json.dumps({"event": event, "time": time.time(), **payload}) + "\n")
        self.file.flush()
        os.fsync(self.file.fileno())


def _error_text(err: BaseException) -> str:
    lines = traceback.format_exception_only(type(err), err)
    return "".join(lines).strip()[-2000:]


class Worker:
    def __init__(self, request: EvalRequest, events: Events):
        self.request = request
        self.events = events
        self.spec: OpSpec = op_spec(request.op)
        self.device = torch.device(request.device)
        self.dtypes = [parse_dtype(d) for d in request.dtypes]
        self.shapes = [self.spec.shape(n) for n in request.shapes]
        hidden = [self.spec.shape(n) for n in request.hidden_shapes]
        if request.random_hidden_dims:
            hidden.append(NamedShape("hidden/random", tuple(request.random_hidden_dims)))
        self.hidden = hidden
        self.fn: Callable | None = None
        self.incumbent: Callable | None = None
        self.module = None

    def sync(self) -> None:
        if self.device.type == "cuda":
            torch.cuda.synchronize(self.device)

    def progress(self, stage: str, done: int, total: int, label: str) -> None:
        self.events.emit("progress", stage=stage, done=done, total=total, label=label)

    # -- stages ---------------------------------------------------------------------------------

    def compile(self) -> tuple[StageResult, dict]:
        info = CompileInfo()
        start = time.perf_counter()
        self.fn, self.module = load_candidate(self.request.op, self.request.backend, self.request.candidate)
        info.import_seconds = time.perf_counter() - start
        if self.request.incumbent:
            # The current best, timed beside the candidate so their ratio comes from one process.
            self.incumbent, _ = load_candidate(
                self.request.op, self.request.backend, self.request.incumbent, name="incumbent"
            )
        cases = [(s, d) for d in self.dtypes for s in (*self.shapes, *self.hidden)]
        if self.request.backend in PARALLEL_FIRST_CALL_BACKENDS and self.device.type == "cuda":
            self._first_calls_in_parallel(cases, info)
        for i, (shape, dtype) in enumerate(cases):
            self.progress("compile", i, len(cases), shape.name)
            key = f"{shape.name}:{self.dtype_label(dtype)}"
            if key in info.first_call_seconds:
                continue
            info.first_call_seconds[key] = self._first_call(shape, dtype)
        generated = getattr(self.module, "generated_source", None)
        if callable(generated):
            language = {"tilelang": "cuda", "ninetoothed": "triton"}.get(self.request.backend, "text")
            info.sources = [KernelSource(key=k, language=language, text=v) for k, v in generated().items()]
        seconds = time.perf_counter() - start
        slowest = max(info.first_call_seconds.values(), default=0.0)
        message = f"imported in {info.import_seconds:.2f} s; slowest first call {slowest:.2f} s"
        return StageResult(name="compile", status="ok", message=message, seconds=seconds), {
            "compile": info.model_dump()
        }

    def _first_call(self, shape: NamedShape, dtype: torch.dtype) -> float:
        args = self.spec.make_inputs(shape.dims, dtype, 0, self.request.device)
        t0 = time.perf_counter()
        self.fn(*args, out=self.spec.empty_out(args))
        self.sync()
        return time.perf_counter() - t0

    def _first_calls_in_parallel(self, cases: list[tuple[NamedShape, torch.dtype]], info: CompileInfo) -> None:
        """First calls on threads, one group of likely-shared programs per thread.

        A new config means a fresh JIT of every program the shapes need (rope: ~45 s on an
        H200 for the named and hidden shapes, one after another). TileLang's lowering releases
        the GIL and nvcc is a subprocess, so threads compile side by side (TileLang's own
        `par_compile` does the same). Cases of one layout (`_layout`: the dims left when the
        token counts are dropped) usually share one program, so they stay on one thread and
        the second finds it cached instead of compiling it twice. An error here is left for the ordered pass below
        to raise, with the shape that caused it.
        """
        groups: dict[tuple, list[tuple[NamedShape, torch.dtype]]] = {}
        for shape, dtype in cases:
            groups.setdefault((dtype, _layout(shape.dims)), []).append((shape, dtype))
        workers = min(len(groups), os.cpu_count() or 1, MAX_COMPILE_THREADS)
        if workers < 2:
            return

        def run(group: list[tuple[NamedShape, torch.dtype]]) -> dict[str, float]:
            seconds = {}
            for shape, dtype in group:
                seconds[f"{shape.name}:{self.dtype_label(dtype)}"] = self._first_call(shape, dtype)
            return seconds

        self.progress("compile", 0, len(cases), f"{len(groups)} groups on {workers} threads")
        with ThreadPoolExecutor(workers, thread_name_prefix="first-call") as pool:
            for future in [pool.submit(run, group) for group in groups.values()]:
                try:
                    info.first_call_seconds.update(future.result())
                except Exception:  # re-raised by the ordered pass with its shape
                    continue

    def dtype_label(self, dtype: torch.dtype) -> str:
        return self.request.dtypes[self.dtypes.index(dtype)]

    def check_once(self, shape: NamedShape, dtype: torch.dtype, seed: int, hidden: bool) -> ShapeCorrectness:
        args = self.spec.make_inputs(shape.dims, dtype, seed, self.request.device)
        snapshot = [a.clone() if isinstance(a, torch.Tensor) else a for a in args]
        out = self.spec.empty_out(args, fill=float("nan"))  # poisoned: every element must be written
        result = self.fn(*args, out=out)
        self.sync()
        # For several outputs, `out` and the result are tuples: each buffer returned, in order.
        wrote_into_out = self.spec.returned_out(result, out)
        unchanged = all(torch.equal(a, s) for a, s in zip(args, snapshot, strict=True) if isinstance(a, torch.Tensor))
        checked = result if _is_result(self.spec, result) else out
        comparison = self.spec.compare(checked, args, dtype)
        ok = comparison.ok and unchanged and wrote_into_out
        message = comparison.message
        unwritten = [
            name
            for name, buffer in zip(self.spec.outputs, self.spec.as_outputs(out), strict=True)
            if buffer.numel() and bool(torch.isnan(buffer).all())
        ]
        if unwritten and self.spec.multi_output:
            names = ", ".join(f"`{name}`" for name in unwritten)
            message = f"never wrote output(s) {names} (still NaN-poisoned); " + message
        if not wrote_into_out:
            what = "the `out` buffer it was given"
            if self.spec.multi_output:
                got = type(result).__name__ + (f" of {len(result)}" if isinstance(result, (tuple, list)) else "")
                what += f" (a tuple: {', '.join(self.spec.outputs)}); it returned a {got}"
            message = f"did not return {what}; " + message
        if not unchanged:
            message = "modified its inputs; " + message
        return ShapeCorrectness(
            shape=shape.name,
            dims=list(shape.dims),
            dtype=self.dtype_label(dtype),
            seed=seed,
            hidden=hidden,
            ok=ok,
            max_abs_err=comparison.max_abs_err,
            max_rel_err=comparison.max_rel_err,
            first_bad_index=list(comparison.first_bad_index) if comparison.first_bad_index else None,
            inputs_unchanged=unchanged,
            wrote_into_out=wrote_into_out,
            message=message,
        )

    def correctness(self) -> tuple[StageResult, dict]:
        start = time.perf_counter()
        cases = [
            (shape, dtype, seed, hidden)
            for dtype in self.dtypes
            for shapes, hidden in ((self.shapes, False), (self.hidden, True))
            for shape in shapes
            for seed in self.request.seeds
        ]
        results = []
        for i, case in enumerate(cases):
            self.progress("correctness", i, len(cases), case[0].name)
            results.append(self.check_once(*case))
        failures = [r for r in results if not r.ok]
        if failures:
            first = failures[0]
            shapes = sorted({f.shape for f in failures})
            message = (
                f"wrong on {len(shapes)} shape(s) ({', '.join(shapes[:5])}{'...' if len(shapes) > 5 else ''}); "
                f"first: {first.shape} {first.dtype} seed {first.seed}: {first.message}"
            )
            status = "failed"
        else:
            message = f"{len(results)} checks passed ({len(self.shapes) + len(self.hidden)} shapes)"
            status = "ok"
        result = StageResult(name="correctness", status=status, message=message, seconds=time.perf_counter() - start)
        return result, {"correctness": [r.model_dump() for r in results]}

    def benchmark(self) -> tuple[StageResult, dict]:
        start = time.perf_counter()
        bench = GpuBench(self) if self.device.type == "cuda" else CpuBench(self)
        cases = [(s, d) for d in self.dtypes for s in self.shapes]
        results = []
        for i, (shape, dtype) in enumerate(cases):
            self.progress("benchmark", i, len(cases), shape.name)
            results.append(bench.run(shape, dtype))
        bad = [r for r in results if r.status != "ok"]
        if bad:
            status = "failed"
            message = "; ".join(f"{r.shape} {r.dtype}: {r.status} ({r.note})" for r in bad[:5])
        else:
            status = "ok"
            message = f"{len(results)} shapes timed"
        result = StageResult(name="benchmark", status=status, message=message, seconds=time.perf_counter() - start)
        return result, {"benchmark": [r.model_dump() for r in results]}


@dataclass
class Measured:
    """Everything timed for one (shape, dtype) in this process, before the derived numbers."""

    candidate: Timing
    eager: Timing | None = None
    compiled: Timing | None = None
    liger: Timing | None = None
    liger_status: LigerStatus | None = None
    incumbent: Timing | None = None
    copy: Timing | None = None
    graph: Timing | None = None
    graph_eager: Timing | None = None
    ceiling_gbps: float | None = None
    notes: list[str] = field(default_factory=list)


class CpuBench:
    """Wall-clock timing on the CPU: the stage logic runs, but there is no roofline."""

    def __init__(self, worker: Worker):
        self.worker = worker
        self.eager_fn = torch_implementation(worker.request.op)

    def run(self, shape: NamedShape, dtype: torch.dtype) -> ShapeBenchmark:
        from tools.timing import time_wall_alternating

        w = self.worker
        args = w.spec.make_inputs(shape.dims, dtype, w.request.seeds[0] + 1, "cpu")
        out = w.spec.empty_out(args)
        scratch = w.spec.empty_out(args)
        fns = [lambda: w.fn(*args, out=out)]
        if w.incumbent is not None:
            fns.append(lambda: w.incumbent(*args, out=scratch))
        if "eager" in w.request.baselines:
            fns.append(lambda: self.eager_fn(*args, out=scratch))
        # Fresh garbage in `out` before every timed candidate call: see GpuBench.run.
        timings = iter(time_wall_alternating(fns, before_first=lambda: _scribble(w.spec.as_outputs(out))))
        measured = Measured(candidate=next(timings))
        measured.incumbent = next(timings) if w.incumbent is not None else None
        measured.eager = next(timings) if "eager" in w.request.baselines else None
        if "liger" in w.request.baselines:
            try:
                liger.load(w.request.op)
                reason = "needs a CUDA GPU (its kernels are Triton)"
            except liger.LigerUnavailable as err:
                reason = str(err)
            measured.liger_status = "unavailable"
            measured.notes.append(f"liger baseline: {reason}")
        return finish(w, shape, dtype, args, out, measured)


class GpuBench:
    def __init__(self, worker: Worker):
        from tools.timing import CopyRoofline, L2Flusher

        self.worker = worker
        self.flusher = L2Flusher(worker.device)
        self.roofline = CopyRoofline(self.flusher, worker.request.max_reps)
        self.eager_fn = torch_implementation(worker.request.op)
        self.compiled_fns: dict[torch.dtype, Callable] = {}
        # The garbage written into `out` before each timed call comes from a generator of its own:
        # a CUDA-graph capture that fails (a candidate that syncs inside it) can leave the default
        # generator believing it is still captured, and every later normal_() on it then raises
        # "Offset increment outside graph capture" (seen on the H200), failing the shape for the harness's sake.
        self.garbage = torch.Generator(device=worker.device)
        self.garbage.manual_seed(worker.request.seeds[0] + 104729)
        # After one failed capture this process's capture state is not trusted again.
        self.graph_failure: str | None = None
        self.liger_fn: tuple[liger.Adapter, Callable] | liger.LigerUnavailable | None = None

    def compiled(self, dtype: torch.dtype) -> Callable:
        if dtype not in self.compiled_fns:
            # The reference rounded once per output (a tensor, or a tuple for several): what a fused kernel returns.
            spec = self.worker.spec
            self.compiled_fns[dtype] = torch.compile(lambda *a: spec.expected(a, dtype), dynamic=True)
        return self.compiled_fns[dtype]

    def run(self, shape: NamedShape, dtype: torch.dtype) -> ShapeBenchmark:
        from tools.timing import time_events, time_events_alternating

        w = self.worker
        spec = w.spec
        seed = w.request.seeds[0] + 1
        args = spec.make_inputs(shape.dims, dtype, seed, w.request.device)
        out = spec.empty_out(args, fill=float("nan"))
        scratch = spec.empty_out(args)
        reps = w.request.max_reps
        # The candidate and the best so far are timed in turn: their ratio decides acceptance.
        # Fresh garbage in `out` before every timed candidate call (outside the window): a kernel
        # that skips work once its output looks done is caught by the re-check after timing.
        contenders = [lambda: w.fn(*args, out=out)]
        if w.incumbent is not None:
            contenders.append(lambda: w.incumbent(*args, out=scratch))
        timings = time_events_alternating(
            contenders,
            self.flusher,
            before_first=lambda: _scribble(spec.as_outputs(out), self.garbage),
            max_reps=reps,
        )
        measured = Measured(candidate=timings[0], incumbent=timings[1] if w.incumbent is not None else None)
        if "eager" in w.request.baselines:
            measured.eager = time_events(lambda: self.eager_fn(*args, out=scratch), self.flusher, max_reps=reps)
        if "compiled" in w.request.baselines:
            try:
                fn = self.compiled(dtype)
                measured.compiled = time_events(lambda: fn(*args), self.flusher, max_reps=reps)
            except Exception as err:  # the baseline failing must not fail the candidate
                measured.notes.append(f"torch.compile baseline failed: {_error_text(err)[:200]}")
        if "liger" in w.request.baselines:
            self._liger(dtype, args, measured)
        nbytes = spec.bytes_moved(shape.dims, dtype)
        measured.copy = self.roofline.timing(w.device, nbytes)
        if w.request.graph and shape.decode and nbytes <= GRAPH_MAX_BYTES:
            self._graphs(shape, dtype, seed, nbytes, measured)
        measured.ceiling_gbps = self.roofline.ceiling_gbps(w.device)
        return finish(w, shape, dtype, args, out, measured)

    def _liger(self, dtype: torch.dtype, args: tuple, measured: Measured) -> None:
        """Liger-Kernel's kernel for the op, checked against the spec first: a wrong result is never timed.

        Each binding prepares its inputs (tools/liger.py) outside the timed region; the check gets a
        binding of its own, since Liger's RoPE rotates its inputs in place.
        """
        from tools.timing import time_events

        w = self.worker
        if self.liger_fn is None:
            try:
                self.liger_fn = liger.load(w.request.op)
            except liger.LigerUnavailable as err:
                self.liger_fn = err
        if isinstance(self.liger_fn, liger.LigerUnavailable):
            measured.liger_status = "unavailable"
            measured.notes.append(f"liger baseline: {self.liger_fn}")
            return
        adapter, fn = self.liger_fn
        try:
            comparison = liger.check(adapter.bind(fn, args), w.spec, args, dtype)
            if not comparison.ok:
                measured.liger_status = "wrong"
                measured.notes.append(f"liger wrong (not timed): {adapter.api}: {comparison.message}"[:400])
                return
            call = adapter.bind(fn, args)
            measured.liger = time_events(call.run, self.flusher, max_reps=w.request.max_reps)
            measured.liger_status = "ok"
        except Exception as err:  # the baseline failing must not fail the candidate
            measured.liger_status = "failed"
            measured.notes.append(f"liger baseline failed: {adapter.api}: {_error_text(err)[:200]}")

    def _graphs(self, shape: NamedShape, dtype: torch.dtype, seed: int, nbytes: int, measured: Measured) -> None:
        from tools.timing import time_graph

        w = self.worker
        if self.graph_failure is not None:
            measured.notes.append(f"CUDA-graph replay skipped: an earlier capture failed ({self.graph_failure})")
            return
        # Distinct input sets, each read once per replay after a flush: DRAM, not L2.
        sets = min(256, max(8, -(-self.flusher.buffer.numel() // max(nbytes, 1))))
        inputs = [w.spec.make_inputs(shape.dims, dtype, seed + 1 + i, w.request.device) for i in range(sets)]
        outs = [w.spec.empty_out(a) for a in inputs]
        try:
            measured.graph = time_graph(lambda i: lambda: w.fn(*inputs[i], out=outs[i]), sets, self.flusher)
            measured.graph_eager = time_graph(
                lambda i: lambda: self.eager_fn(*inputs[i], out=outs[i]), sets, self.flusher
            )
        except Exception as err:  # capture is optional: some launchers cannot be captured
            self.graph_failure = _error_text(err)[:200]
            measured.notes.append(f"CUDA-graph replay unavailable: {self.graph_failure}")


def _is_result(spec: OpSpec, result: object) -> bool:
    """Whether `result` has the op's output structure (a tensor, or a tuple of one per output)."""
    if not spec.multi_output:
        return isinstance(result, torch.Tensor)
    return isinstance(result, (tuple, list)) and len(result) == len(spec.outputs)


def _scribble(buffers: tuple[torch.Tensor, ...], generator: torch.Generator | None = None) -> None:
    """Fresh garbage in every output buffer."""
    for buffer in buffers:
        buffer.normal_(generator=generator)


def _layout(dims: tuple[int, ...]) -> tuple[int, ...]:
    """The dims a compiled program is usually specialised on: the leading ones count tokens.

    [rows, hidden] -> (hidden,); [batch, seq, heads, head_dim] -> (heads, head_dim);
    rope_qk's [batch, seq, q_heads, kv_heads, head_dim] -> (q_heads, kv_heads, head_dim).
    """
    return tuple(dims[-1:]) if len(dims) <= 2 else tuple(dims[2:])


def judge_bandwidth(gbps: float, copy_gbps: float | None, ceiling_gbps: float | None) -> tuple[bool, str]:
    """(plausible, note): above the device's large-copy bandwidth is a measurement error."""
    if ceiling_gbps is not None and gbps > ceiling_gbps * ROOFLINE_SLACK:
        return False, f"{gbps:.0f} GB/s is above the device's copy bandwidth ({ceiling_gbps:.0f} GB/s)"
    if copy_gbps is not None and gbps > copy_gbps * ROOFLINE_SLACK:
        return True, f"faster than torch's copy of the same bytes ({copy_gbps:.0f} GB/s)"
    return True, ""


def _ratio(baseline: Timing | None, candidate: Timing) -> float | None:
    return baseline.median_us / candidate.median_us if baseline else None


def finish(
    w: Worker, shape: NamedShape, dtype: torch.dtype, args: tuple, out: torch.Tensor, m: Measured
) -> ShapeBenchmark:
    """Derived numbers, the roofline sanity check and the after-timing correctness re-check."""
    notes = list(m.notes)
    nbytes = w.spec.bytes_moved(shape.dims, dtype)
    gbps = nbytes / m.candidate.median_us / 1e3
    status = "ok"
    copy_gbps = nbytes / m.copy.median_us / 1e3 if m.copy else None
    plausible, note = judge_bandwidth(gbps, copy_gbps, m.ceiling_gbps)
    if not plausible:
        status = "measurement_error"
    if note:
        notes.append(note)
    # The output of the timed calls must still be right, and so must a fresh input.
    w.sync()
    after = w.spec.compare(out, args, dtype)
    fresh = w.check_once(shape, dtype, w.request.seeds[-1] + 7919, hidden=False)
    if not (after.ok and fresh.ok):
        status = "wrong_after_timing"
        notes.append(after.message if not after.ok else fresh.message)
    return ShapeBenchmark(
        shape=shape.name,
        dims=list(shape.dims),
        dtype=w.dtype_label(dtype),
        bytes_moved=nbytes,
        candidate=m.candidate,
        eager=m.eager,
        compiled=m.compiled,
        liger=m.liger,
        liger_status=m.liger_status,
        incumbent=m.incumbent,
        copy_roofline=m.copy,
        graph=m.graph,
        graph_eager=m.graph_eager,
        gbps=gbps,
        copy_gbps=copy_gbps,
        ceiling_gbps=m.ceiling_gbps,
        fraction_of_copy=gbps / copy_gbps if copy_gbps else None,
        speedup_vs_eager=_ratio(m.eager, m.candidate),
        speedup_vs_compiled=_ratio(m.compiled, m.candidate),
        speedup_vs_liger=_ratio(m.liger, m.candidate),
        speedup_vs_incumbent=_ratio(m.incumbent, m.candidate),
        status=status,
        note="; ".join(notes),
    )


STAGE_RUNNERS = {"compile": Worker.compile, "correctness": Worker.correctness, "benchmark": Worker.benchmark}


def main(argv: list[str]) -> int:
    request = EvalRequest.model_validate_json(Path(argv[0]).read_text())
    events = Events(Path(argv[1]))
    targets.select(request.target)
    worker = Worker(request, events)
    for stage in request.stages:
        runner = STAGE_RUNNERS.get(stage)
        if runner is None:
            continue
        events.emit("stage_start", stage=stage)
        start = time.perf_counter()
        try:
            result, payload = runner(worker)
        except Exception as err:  # candidate code raised: that stage fails, with the reason
            result = StageResult(
                name=stage, status="failed", message=_error_text(err), seconds=time.perf_counter() - start
            )
            payload = {}
        events.emit("stage_end", stage=stage, result=result.model_dump(), **payload)
        if result.status != "ok":
            return 0
    events.emit("done")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
