"""The trusted side of an evaluation: it never imports a candidate, a baseline it times, or their files.

The judge holds the op's spec and fp32 reference, draws the seeds (after the runners have started),
generates every input, owns every buffer a runner computes into, and times runners with its own
clock. It is made of collaborators, each readable alone and given what it needs:

- the lineup (tools/evaluator/lineup.py): which runners start, on which cores, their arenas;
- the clock (tools/evaluator/clock.py) and the limits (tools/evaluator/stages.py: Deadlines);
- first calls (tools/evaluator/first_calls.py): where a candidate's JIT compiles;
- correctness (tools/evaluator/correctness.py);
- the benchmark (tools/evaluator/benchmark.py), with its seating, timer, verifier and figures.

Its stages, each a typed result, stopping at the first failure (tools/evaluator/evaluate.py runs them):

- compile: start the runners, then one first call per named and hidden shape (the JIT compiles here;
  TileLang's in threads, one per group of shapes likely to share a program).
- correctness: every named and hidden shape, each seed and one input set of hazards.
- benchmark: rounds of timed batches in two scopes.
- dtypes: the correctness checks in every dtype the op serves that was not timed, on the hidden
  shapes and the smallest named ones, for a candidate that may still be accepted.
"""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import torch

from tools.evaluator import confine
from tools.evaluator.benchmark import Benchmark
from tools.evaluator.clock import DeviceClock
from tools.evaluator.correctness import Correctness, verdict
from tools.evaluator.first_calls import FirstCalls, IncumbentWarmup
from tools.evaluator.lineup import Lineup, wanted_contestants
from tools.evaluator.options import EvalOptions
from tools.evaluator.process import RunnerFailed
from tools.evaluator.records import (
    CompileInfo,
    Confinement,
    KernelSource,
    ShapeBenchmark,
    ShapeCorrectness,
    StageResult,
)
from tools.evaluator.stages import Deadlines, StageFailed
from tools.evaluator.zygote import Zygotes
from workbench.kernels.backends import backend as backend_of
from workbench.kernels.spec import NamedShape, OpSpec, dtype_name

SEEDS_PER_SHAPE = 3


@dataclass(frozen=True)
class JudgeRequest:
    """What the judge evaluates, as evaluate() resolved it: the files, the shapes, the device, and the options."""

    op: str
    backend: str
    candidate: Path | None  # None: the torch reference is the candidate
    incumbent: Path | None
    shapes: tuple[NamedShape, ...]
    hidden: tuple[NamedShape, ...]
    device: str  # cuda or cpu
    options: EvalOptions

    @property
    def stop_when_slower(self) -> bool:
        """Against an incumbent: stop timing at the first shape slower beyond noise, which alone rejects."""
        asked = self.options.stop_when_slower
        return self.incumbent is not None if asked is None else asked


class Judge:
    """One evaluation's stages over its collaborators; `close` stops every runner."""

    def __init__(
        self,
        spec: OpSpec,
        request: JudgeRequest,
        emit: Callable[[dict], None],
        uids: confine.UidPool,
        zygotes: Zygotes,
    ) -> None:
        self.spec = spec
        self.request = request
        self.emit = emit
        self.rng = random.Random(secrets.randbits(64))
        self.deadlines = Deadlines(request.options.timeout_s, request.options.stage_limits())
        self.lineup = Lineup(torch.device(request.device), self.deadlines, uids, zygotes)
        self.clock = DeviceClock(torch.device(request.device))
        self.seeds: list[int] = []
        self.warmup = IncumbentWarmup(spec, self.lineup, self.clock)
        self._cases: list[tuple] = []
        self._case_seats: list = []

    @property
    def confinement(self) -> Confinement:
        return self.lineup.confinement

    def progress(self, stage: str, done: int, total: int, label: str) -> None:
        self.emit({"event": "progress", "stage": stage, "done": done, "total": total, "label": label})

    def _first_calls(self) -> FirstCalls:
        r = self.request
        parallel = backend_of(r.backend).parallel_first_calls and self.clock.cuda
        return FirstCalls(
            self.spec,
            self.seeds,
            self.lineup,
            self.clock,
            self.progress,
            parallel=parallel,
            builtin_candidate=r.candidate is None,
        )

    def compile(self) -> tuple[StageResult, CompileInfo]:
        """Start the runners; the candidate's import and its first call on every case."""
        r, lineup = self.request, self.lineup
        self.deadlines.begin()
        start = time.perf_counter()
        self.emit({"event": "progress", "stage": "compile", "done": 0, "total": 1, "label": "starting runners"})
        phases = {}
        contestants = wanted_contestants(
            r.op, r.backend, r.candidate, r.incumbent, r.options.baselines, r.device, lineup.notes
        )
        lineup.start(contestants, r.backend, r.options.target)
        phases["start"] = time.perf_counter() - start
        # The compile limit caps the candidate's first calls (the JIT), not the interpreter's start-up.
        self.deadlines.begin()
        self.seeds[:] = [self.rng.randrange(2**31) for _ in range(SEEDS_PER_SHAPE)]  # drawn after the start
        candidate = lineup.runners["candidate"]
        info = CompileInfo(import_seconds=candidate.hello.import_seconds or 0.0)
        self._cases = [
            (shape, dtype, hidden)
            for dtype in r.options.dtypes
            for shapes, hidden in ((r.shapes, False), (r.hidden, True))
            for shape in shapes
        ]
        first = self._first_calls()
        buffered = time.perf_counter()
        self._case_seats, signatures = first.case_seats(self._cases, "compile")
        phases["buffers"] = time.perf_counter() - buffered
        groups = first.groups(self._cases, signatures)
        threads = first.threads(groups)
        timed = {(shape.name, dtype) for shape in r.shapes for dtype in r.options.dtypes}
        self.warmup.start(self._cases, timed, groups, threads)
        first.run(self._cases, self._case_seats, groups, threads, info, "compile")
        language = backend_of(r.backend).language or "text"
        try:
            sources = candidate.ask({"op": "sources"}, self.deadlines.overall).sources
            info.sources = [KernelSource(key=k, language=language, text=v) for k, v in sources.items()]
        except RunnerFailed as err:
            raise StageFailed(str(err)) from None
        slowest = max(info.first_call_seconds.values(), default=0.0)
        message = f"imported in {info.import_seconds:.2f} s; slowest first call {slowest:.2f} s (runner's clock)"
        seconds = time.perf_counter() - start
        phases["first calls"] = seconds - phases["start"] - phases["buffers"]
        phases = {name: round(value, 3) for name, value in phases.items()}
        return StageResult(name="compile", status="ok", message=message, seconds=seconds, phases=phases), info

    def correctness(self) -> tuple[StageResult, list[ShapeCorrectness]]:
        """Every case the compile stage seated, checked."""
        self.deadlines.begin()
        start = time.perf_counter()
        check = Correctness(self.spec, self.seeds, self.lineup, self.clock, self.progress)
        results, crashed = check.check_cases(self._cases, self._case_seats, "correctness")
        self._case_seats = []
        result = verdict("correctness", results, crashed, len(self.request.shapes) + len(self.request.hidden))
        result.seconds = time.perf_counter() - start
        return result, results

    def benchmark(self) -> tuple[StageResult, list[ShapeBenchmark]]:
        r = self.request
        timing = Benchmark(
            self.spec,
            r.shapes,
            r.options,
            self.lineup,
            self.clock,
            self.rng,
            self.progress,
            stop_when_slower=r.stop_when_slower,
            builtin_candidate=r.candidate is None,
        )
        return timing.run(self.warmup)

    def other_dtypes(self) -> tuple[StageResult, list[ShapeCorrectness]]:
        """Correctness in the dtypes the op serves that were not timed: hidden shapes and the smallest named ones.

        A kernel file serves every dtype of its op (`OpSpec.dtypes`) wherever it is adopted, whatever one
        run timed: one accumulating in fp16 must not pass a bf16-only run.
        """
        self.deadlines.begin()
        start = time.perf_counter()
        others = [dtype_name(d) for d in self.spec.dtypes if dtype_name(d) not in self.request.options.dtypes]
        if not others:
            return StageResult(name="dtypes", status="skipped", message="every dtype was checked in correctness"), []
        named = [s for s in self.spec.shapes if s.decode][:1] + [s for s in self.spec.shapes if not s.decode][:1]
        cases = [(shape, dtype, shape not in named) for dtype in others for shape in (*named, *self.request.hidden)]
        self.lineup.unpin("candidate")  # the benchmark pinned it to the timing core: its JIT may use threads again
        first = self._first_calls()
        seats, signatures = first.case_seats(cases, "dtypes")
        groups = first.groups(cases, signatures)
        try:
            first.run(cases, seats, groups, first.threads(groups), None, "dtypes")
        except StageFailed:
            for seat in seats:
                self.lineup.unshare(seat)
            raise
        check = Correctness(self.spec, self.seeds, self.lineup, self.clock, self.progress)
        results, crashed = check.check_cases(cases, seats, "dtypes")
        result = verdict("dtypes", results, crashed, len(cases))
        if result.status == "ok":
            result.message += f" in {', '.join(others)}"
        result.seconds = time.perf_counter() - start
        return result, results

    def close(self) -> None:
        self.lineup.close()
