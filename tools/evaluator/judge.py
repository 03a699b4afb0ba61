"""The trusted side of an evaluation: it never imports a candidate, a baseline it times, or their files.

The judge holds the op's spec and fp32 reference, draws the seeds (after the runners have started),
generates every input, owns every buffer a runner computes into, and times runners with its own
clock. Its stages (each a typed result, stopping at the first failure):

- compile: start the runners (tools/evaluator/process.py), then one first call per named and hidden
  shape (the JIT compiles here; TileLang's in threads, one per group of shapes likely to share a
  program).
- correctness: every named and hidden shape, each seed and one input set with rows of zeros and of
  extreme magnitudes: inputs written into the runner's read-only arena, outputs NaN-filled, the
  result compared in the judge's own copy against the fp32 reference; inputs checked unchanged. The
  same sets again on tensors the runner allocates as a model would (no arena in sight), and once as
  strided views (which the op may refuse with its own error); in bf16 and fp16 the mean signed error
  must be that of round-to-nearest.
- benchmark: tools/evaluator/benchmark.py (rounds of timed batches in two scopes).
- dtypes: the correctness checks in every dtype the op serves that was not timed, on the hidden
  shapes and the smallest named ones, for a candidate that may still be accepted.
"""

from __future__ import annotations

import hashlib
import math
import os
import random
import secrets
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import torch

from kernels.backends import backend as backend_of
from kernels.registry import native_op
from kernels.spec import NamedShape, OpSpec, dtype_name, parse_dtype, rounding_bias
from tools.evaluator import confine, sandbox
from tools.evaluator.benchmark import QUIET_FACTOR, QUIET_SLACK_US, BenchmarkStage, Seat, StageFailed
from tools.evaluator.layout import Layout
from tools.evaluator.process import RunnerFailed, RunnerProcess, exception_line
from tools.evaluator.records import (
    CompileInfo,
    Confinement,
    KernelSource,
    ShapeCorrectness,
    StageResult,
)

SEEDS_PER_SHAPE = 3
# A case larger than this many elements (the long-context and long-prompt hidden shapes) is checked on one
# seed, and again off the judge's buffers on that one: it is there for index arithmetic, which one seed shows.
LARGE_CASE_ELEMENTS = 2**22
MAX_COMPILE_THREADS = 16
DECODE_TOKENS = 256  # the kernel files' decode/prefill split (SMALL_TOKENS): programs differ across it


@dataclass
class JudgeRequest:
    op: str
    backend: str
    candidate: Path | None  # None: the torch reference is the candidate
    shapes: tuple[NamedShape, ...]
    hidden: tuple[NamedShape, ...]
    dtypes: tuple[str, ...]
    device: str
    target: str = "auto"
    incumbent: Path | None = None
    baselines: tuple[str, ...] = ("eager",)
    graph: bool = True
    batches: int = 10
    timeout_s: float = 900.0
    stage_timeouts: dict[str, float] = field(default_factory=dict)
    # Against an incumbent: stop timing at the first shape slower beyond noise, which alone rejects.
    stop_when_slower: bool = False


class Judge(BenchmarkStage):
    def __init__(self, spec: OpSpec, request: JudgeRequest, emit: Callable[[dict], None]):
        self.spec = spec
        self.request = request
        self.emit = emit
        self.device = torch.device(request.device)
        self.cuda = self.device.type == "cuda"
        self.started = time.monotonic()
        self.deadline = self.started + request.timeout_s
        self.runners: dict[str, RunnerProcess] = {}
        self.notes: list[str] = []
        self.seeds: list[int] = []
        self.rng = random.Random(secrets.randbits(64))
        self._ids = iter(range(1, 10**9))
        self.last_seat: Seat | None = None
        self._incumbent_warmup: list[Seat] = []  # its first calls' buffers, while the candidate compiles
        self.confinement = self._confinement()
        if self.cuda:
            torch.cuda.init()
            self._probe = torch.zeros(1, device=self.device)
            self._flush = torch.empty(self._l2_bytes() * 2, dtype=torch.uint8, device=self.device)
            self.quiet_limit_us = self._calibrate_quiet()

    # -- set-up ----------------------------------------------------------------------------------

    def _confinement(self) -> Confinement:
        dumpable = not confine.make_non_dumpable()
        self.setup = sandbox.setup()
        return confinement_record(self.setup, dumpable, "device" if self.request.device == "cuda" else "host")

    def _l2_bytes(self) -> int:
        props = torch.cuda.get_device_properties(self.device)
        return int(getattr(props, "L2_cache_size", 0) or 64 * 2**20)

    def _probe_us(self) -> float:
        start = time.perf_counter()
        self._probe.add_(1)
        torch.cuda.synchronize(self.device)
        return (time.perf_counter() - start) * 1e6

    def _calibrate_quiet(self) -> float:
        samples = [self._probe_us() for _ in range(30)]
        quiet = statistics.median(samples)
        return max(QUIET_FACTOR * quiet, quiet + QUIET_SLACK_US)

    def _deadline(self, stage: str) -> float:
        limit = self.request.stage_timeouts.get(stage)
        stage_deadline = self._stage_started + limit if limit else self.deadline
        return min(self.deadline, stage_deadline)

    def _stage_limit_note(self, stage: str) -> str:
        limit = self.request.stage_timeouts.get(stage)
        if limit and time.monotonic() >= self._stage_started + limit - 0.01:
            return f" (past the {limit:g} s limit of its {stage} stage)"
        return ""

    def progress(self, stage: str, done: int, total: int, label: str) -> None:
        self.emit({"event": "progress", "stage": stage, "done": done, "total": total, "label": label})

    # -- runners ---------------------------------------------------------------------------------

    @staticmethod
    def file_contestant(request: JudgeRequest) -> dict:
        """The candidate as a runner imports it: under the module name a user's import of the kernel gets."""
        if request.candidate is None:
            return {"kind": "builtin", "names": ["torch"], "op": request.op, "device": request.device}
        return {
            "kind": "file",
            "path": str(request.candidate),
            "op": request.op,
            "module": f"kernels.{request.op}.{request.backend}",
        }

    @staticmethod
    def cache_key_of(request: JudgeRequest) -> str:
        if request.candidate is None:
            return "builtin-candidate"
        digest = hashlib.sha256(Path(request.candidate).read_bytes()).hexdigest()[:24]
        return f"file-{request.backend}-{digest}"

    def _contestants(self) -> dict[str, dict]:
        r, op = self.request, self.request.op
        wanted: dict[str, dict] = {"candidate": self.file_contestant(r)}
        if r.incumbent is not None:
            wanted["incumbent"] = {"kind": "file", "path": str(r.incumbent), "op": op, "module": "kernel_incumbent"}
        native = "native" in r.baselines and native_op(op) is not None
        if "native" in r.baselines and not native:  # an op folder added without a native.py
            self.notes.append(f"native baseline: kernels/{op}/native.py does not exist")
        # The copy on every device: the acceptance rule decides wherever it is timed, and a figure faster than a
        # copy of the same bytes is a measurement error there too (a CPU run's chain-following cheat passed without).
        reference = ["null"] + (["torch"] if "eager" in r.baselines else []) + (["native"] if native else []) + ["copy"]
        wanted["reference"] = {"kind": "builtin", "names": reference, "op": op, "device": r.device}
        if "compiled" in r.baselines:
            if self.cuda:
                wanted["compiled"] = {"kind": "builtin", "names": ["compiled"], "op": op, "device": r.device}
            else:
                self.notes.append("torch.compile baseline: timed on a GPU only")
        if "liger" in r.baselines:
            if self.cuda:
                wanted["liger"] = {"kind": "builtin", "names": ["liger"], "op": op, "device": r.device}
            else:
                from tools.liger import installed_version

                why = (
                    "needs a CUDA GPU (its kernels are Triton)" if installed_version() else "liger-kernel not installed"
                )
                self.notes.append(f"liger baseline: {why}")
        return wanted

    def _cache_key(self, role: str, contestant: dict) -> str:
        if contestant["kind"] == "file":
            digest = hashlib.sha256(Path(contestant["path"]).read_bytes()).hexdigest()[:24]
            return f"file-{self.request.backend}-{digest}"
        return f"builtin-{role}"

    def start(self) -> None:
        """Start every runner at once; the candidate's failure to import is the compile stage's verdict."""
        contestants = self._contestants()
        self._place_judge()
        keys: dict[str, str] = {}
        for role, contestant in contestants.items():
            key = self._cache_key(role, contestant)
            # The same file twice (an A/A check): the second runner gets a copy, taken before either starts.
            keys[role] = confine.copy_cache(key) if key in keys.values() else key
        for role, contestant in contestants.items():
            self.runners[role] = RunnerProcess(
                role,
                contestant,
                device=self.request.device,
                target=self.request.target,
                cache_key=keys[role],
                setup=self.setup,
                cpus=self._runner_cores,
            )
        # The candidate's hello now (its import is the compile stage's verdict); the others' before the
        # benchmark: a torch.compile runner takes 10+ s to start, which its first calls then overlap.
        self._greet("candidate", self.runners["candidate"])
        for runner in self.runners.values():
            self.confinement.notes.extend(n for n in runner.identity.notes if n not in self.confinement.notes)

    def greet_the_others(self) -> None:
        """Wait for every runner but the candidate to have started (dropping those that failed), then stop it."""
        self._finish_incumbent_warmup()
        for role, runner in list(self.runners.items()):
            if role != "candidate" and runner.hello is None:
                self._greet(role, runner)

    def _greet(self, role: str, runner: RunnerProcess) -> None:
        try:  # the candidate's import is its compile stage's: a file that hangs there fails in that stage's limit
            hello = runner.wait_hello(self._deadline("compile") if role == "candidate" else self.deadline)
        except RunnerFailed as err:
            if role == "candidate":
                raise StageFailed(str(err) + self._stage_limit_note("compile")) from None
            self._drop_runner(role, str(err))
            return
        runner.pause()
        facts = hello.facts
        if role == "candidate":
            if self.setup.isolate_network and facts.get("network") != "isolated":
                self.confinement.network = "open"
                self.confinement.notes.append(f"network isolation failed: {facts.get('network_error')}")
            for part in ("landlock", "seccomp"):  # what the candidate's runner reached (its word, before import)
                if self.setup.runner_policy().get(part) and not str(facts.get(part, "")).startswith(("ABI", "loaded")):
                    self.confinement.notes.append(f"{part} not in force in the candidate's runner: {facts.get(part)}")
        if not hello.ok:
            if role == "candidate":
                raise StageFailed(f"the kernel file failed to import: {brief_error(hello.error)}")
            self._drop_runner(role, hello.error or "failed to start")

    def _place_judge(self) -> None:
        """On a GPU host with cores to spare: the judge on a core of its own, and one core kept for timing.

        Runners start on every other core (a JIT compiles in threads); the benchmark moves them all onto
        the timing core (`pin_runners`). One runs at a time, so on one core a candidate and the incumbent
        meet the same host: on the H200 VM a core ran a whole eager batch up to 3x slower at times.
        """
        available = sorted(os.sched_getaffinity(0))
        self.timing_core: int | None = None
        self._runner_cores: tuple[int, ...] = ()
        if not self.cuda or len(available) < 4:
            return
        self._affinity = set(available)  # given back in close(): the caller's later children get all cores
        os.sched_setaffinity(0, {available[0]})
        self.timing_core = available[1]
        self._runner_cores = tuple(available[1:])

    def pin_runners(self) -> None:
        if self.timing_core is None:
            return
        for runner in self.runners.values():
            confine.pin(runner.pid, self.timing_core)

    def _drop_runner(self, role: str, why: str) -> None:
        runner = self.runners.pop(role, None)
        if runner is not None:
            runner.close()
        last = why.strip().splitlines()[-1] if why.strip() else why
        name = {"reference": "reference runner", "compiled": "torch.compile baseline", "liger": "liger baseline"}
        self.notes.append(f"{name.get(role, role)} unavailable: {last[:300]}")

    def close(self) -> None:
        for runner in self.runners.values():
            runner.close()
        self.runners.clear()
        if getattr(self, "_affinity", None):
            os.sched_setaffinity(0, self._affinity)

    # -- arenas ----------------------------------------------------------------------------------

    def _share(self, seat: Seat, layout: Layout) -> None:
        """Arenas for `layout`, mapped into the seat's runner, and its plan over them."""
        ids, plan = (next(self._ids), next(self._ids)), next(self._ids)
        arenas = seat.runner.share(layout, self.device, ids, plan, self.deadline, seat.fn)
        seat.layout, seat.arenas, seat.arena_ids, seat.plan = layout, arenas, ids, plan

    def _unshare(self, seat: Seat) -> None:
        if seat.arenas is None:
            return
        if seat.runner.proc.poll() is None:
            try:
                seat.runner.ask({"op": "drop", "plans": [seat.plan], "arenas": list(seat.arena_ids)}, self.deadline)
            except RunnerFailed:
                pass
        for arena in seat.arenas:
            arena.close()
        seat.arenas = None

    def _layout(self, args: tuple, sets: int, chain: tuple = ()) -> Layout:
        outs = self.spec.as_outputs(self.spec.empty_out(args))
        return Layout(args, outs, sets, self.spec.multi_output, chain=chain)

    def _sync(self) -> None:
        if self.cuda:
            torch.cuda.synchronize(self.device)

    # -- compile -----------------------------------------------------------------------------------

    def compile(self) -> tuple[StageResult, CompileInfo]:
        self._stage_started = time.monotonic()
        start = time.perf_counter()
        self.emit({"event": "progress", "stage": "compile", "done": 0, "total": 1, "label": "starting runners"})
        phases = {}
        self.start()
        phases["start"] = time.perf_counter() - start
        # The compile limit caps the candidate's first calls (the JIT), not the interpreter's start-up.
        self._stage_started = time.monotonic()
        self.seeds = [self.rng.randrange(2**31) for _ in range(SEEDS_PER_SHAPE)]  # drawn after the start
        candidate = self.runners["candidate"]
        info = CompileInfo(import_seconds=candidate.hello.import_seconds or 0.0)
        self.cases = [
            (shape, dtype, hidden)
            for dtype in self.request.dtypes
            for shapes, hidden in ((self.request.shapes, False), (self.request.hidden, True))
            for shape in shapes
        ]
        buffered = time.perf_counter()
        self.case_seats, signatures = self._case_seats(self.cases, "compile")
        phases["buffers"] = time.perf_counter() - buffered
        groups = self._compile_groups(self.cases, signatures)
        threads = self._compile_threads(groups)
        self._start_incumbent_warmup(groups, threads)
        self._first_calls(self.cases, self.case_seats, groups, threads, info, "compile")
        language = backend_of(self.request.backend).language or "text"
        try:
            sources = candidate.ask({"op": "sources"}, self.deadline).sources
            info.sources = [KernelSource(key=k, language=language, text=v) for k, v in sources.items()]
        except RunnerFailed as err:
            raise StageFailed(str(err)) from None
        slowest = max(info.first_call_seconds.values(), default=0.0)
        message = f"imported in {info.import_seconds:.2f} s; slowest first call {slowest:.2f} s (runner's clock)"
        seconds = time.perf_counter() - start
        phases["first calls"] = seconds - phases["start"] - phases["buffers"]
        phases = {name: round(value, 3) for name, value in phases.items()}
        return StageResult(name="compile", status="ok", message=message, seconds=seconds, phases=phases), info

    def _case_seats(self, cases: list[tuple], stage: str) -> tuple[list[Seat], list[tuple]]:
        """Arenas and a plan per case in the candidate's runner, each filled with one input set.

        Also each case's argument dtypes (the camp's bf16 tables make another program than fp32 ones).
        """
        candidate = self.runners["candidate"]
        seats: list[Seat] = []
        signatures: list[tuple] = []
        for i, (shape, dtype, _hidden) in enumerate(cases):
            seeds = 1 if math.prod(shape.dims) > LARGE_CASE_ELEMENTS else len(self.seeds)
            sets = seeds + (1 if self.spec.hazards else 0)
            self.progress(stage, i, len(cases), f"{shape.name} {dtype} (buffers)")
            seat = Seat("candidate", candidate, fn="torch" if self.request.candidate is None else "main")
            args = self.spec.inputs_for(shape, parse_dtype(dtype), 0, self.request.device)
            signatures.append(tuple(str(a.dtype) for a in args if isinstance(a, torch.Tensor)))
            self._share(seat, self._layout(args, sets))
            self._fill_sets(seat, [args] * sets)
            seats.append(seat)
        self._sync()
        return seats, signatures

    def _compile_threads(self, groups: list[list[int]]) -> int:
        cores = len(self._runner_cores) or os.cpu_count() or 1
        return min(len(groups), cores, MAX_COMPILE_THREADS) if self._parallel_first_calls() else 1

    def _first_calls(self, cases, seats, groups, threads: int, info: CompileInfo | None, stage: str) -> None:
        """The candidate's first call per case (its JIT compiles here), in threads by group where it may."""
        candidate = self.runners["candidate"]
        by_plan = {seat.plan: (shape, dtype) for seat, (shape, dtype, _) in zip(seats, cases, strict=True)}
        # One request per case when serial, so a hang names its shape; one threaded request otherwise.
        batches = [groups] if threads > 1 else [[group] for group in groups]
        for done, batch in enumerate(batches):
            first = cases[batch[0][0]][0].name
            label = f"{len(groups)} groups on {threads} threads" if threads > 1 else first
            self.progress(stage, done, len(batches), f"first calls: {label}")
            what = f"making its first calls ({label})" if threads > 1 else f"making its first call on {first}"
            try:
                reply = candidate.ask(
                    {"op": "warmup", "groups": [[seats[i].plan for i in g] for g in batch], "threads": threads},
                    self._deadline(stage),
                    what=what,
                )
            except RunnerFailed as err:
                raise StageFailed(self._crash_hint(str(err)) + self._stage_limit_note(stage)) from None
            if info is not None:
                for plan, seconds in reply.seconds.items():
                    shape, dtype = by_plan[int(plan)]
                    info.first_call_seconds[f"{shape.name}:{dtype}"] = seconds
            if reply.errors:
                plan, error = next(iter(reply.errors.items()))
                shape, dtype = by_plan[int(plan)]
                raise StageFailed(f"first call on {shape.name} {dtype} raised: {brief_error(error)}")
            if not reply.ok:
                raise StageFailed(brief_error(reply.error or "the first calls failed"))

    def _start_incumbent_warmup(self, groups: list[list[int]], threads: int) -> None:
        """The incumbent's first calls on the timed shapes, run while the candidate compiles.

        Left for the benchmark's warm-up, they took 0.7-3.4 s of an optimize iteration's benchmark on the
        H200, against 0.13-0.2 s for the start evaluation's warm-up (TileLang loading its programs from the
        cache copy, shape by shape). Untimed, so running beside the candidate changes no figure. Its
        reply is collected in `greet_the_others`.
        """
        runner = self.runners.get("incumbent")
        if runner is None:
            return
        self._greet("incumbent", runner)
        if "incumbent" not in self.runners:
            return
        timed = {(shape.name, dtype) for shape in self.request.shapes for dtype in self.request.dtypes}
        seats_by_case: dict[int, Seat] = {}
        try:
            for i, (shape, dtype, hidden) in enumerate(self.cases):
                if hidden or (shape.name, dtype) not in timed:
                    continue
                seat = Seat("incumbent", runner, fn="main")
                args = self.spec.inputs_for(shape, parse_dtype(dtype), 0, self.request.device)
                self._share(seat, self._layout(args, 1))
                seats_by_case[i] = seat
                self._fill_sets(seat, [args])
            plan_groups = [[seats_by_case[i].plan for i in g if i in seats_by_case] for g in groups]
            self._sync()
            runner.resume()
            runner.send({"op": "warmup", "groups": [g for g in plan_groups if g], "threads": threads})
            self._incumbent_warmup = list(seats_by_case.values())
        except (RunnerFailed, OSError) as err:  # send() raises the pipe's own errors
            self._drop_runner("incumbent", str(err))
            for seat in seats_by_case.values():
                self._unshare(seat)

    def _finish_incumbent_warmup(self) -> None:
        seats, self._incumbent_warmup = self._incumbent_warmup, []
        runner = self.runners.get("incumbent")
        if not seats or runner is None:
            return
        try:
            reply = runner.receive(self.deadline, "making its first calls")
        except RunnerFailed as err:
            reply = None
            self._drop_runner("incumbent", str(err))
        else:
            runner.pause()
        for seat in seats:
            self._unshare(seat)
        if reply is None:
            return
        if not reply.ok or reply.errors:
            error = (reply.error or next(iter(reply.errors.values()))).strip().splitlines() or ["no reason given"]
            self._drop_runner("incumbent", f"its first calls raised: {error[-1]}")

    def _parallel_first_calls(self) -> bool:
        return backend_of(self.request.backend).parallel_first_calls and self.cuda

    def _compile_groups(self, cases: list[tuple], signatures: list[tuple]) -> list[list[int]]:
        """Cases likely to share one program, one group each, for one thread each.

        A program is usually per dtype, inner layout, argument dtypes (the camp's bf16 tables are another
        program) and size class (the kernel files tile decode and prefill apart): on the H200 grouping by
        dtype and layout alone put a hidden shape's two programs in one group, 17.8 s of serial first calls.
        """
        if not self._parallel_first_calls():
            return [[i] for i in range(len(cases))]
        groups: dict[tuple, list[int]] = {}
        for i, ((shape, dtype, _), signature) in enumerate(zip(cases, signatures, strict=True)):
            dims = shape.dims
            layout = tuple(dims[-1:]) if len(dims) <= 2 else tuple(dims[2:])
            leading = math.prod(dims[:-1]) if len(dims) <= 2 else math.prod(dims[:2])
            groups.setdefault((dtype, layout, signature, leading <= DECODE_TOKENS), []).append(i)
        return list(groups.values())

    @staticmethod
    def _fill_sets(seat: Seat, sets: list[tuple]) -> None:
        seat.layout.fill(tuple(arena.tensor for arena in seat.arenas), sets)

    # -- correctness ---------------------------------------------------------------------------------

    def correctness(self) -> tuple[StageResult, list[ShapeCorrectness]]:
        self._stage_started = time.monotonic()
        start = time.perf_counter()
        results, crashed = self._check_cases(self.cases, self.case_seats, "correctness")
        self.case_seats = []
        result = self._verdict("correctness", results, crashed, len(self.request.shapes) + len(self.request.hidden))
        result.seconds = time.perf_counter() - start
        return result, results

    def other_dtypes(self) -> tuple[StageResult, list[ShapeCorrectness]]:
        """Correctness in the dtypes the op serves that were not timed: hidden shapes and the smallest named ones.

        A kernel file serves every dtype of its op (`OpSpec.dtypes`) wherever it is adopted, whatever one
        run timed: one accumulating in fp16 must not pass a bf16-only run.
        """
        self._stage_started = time.monotonic()
        start = time.perf_counter()
        others = [dtype_name(d) for d in self.spec.dtypes if dtype_name(d) not in self.request.dtypes]
        if not others:
            return StageResult(name="dtypes", status="skipped", message="every dtype was checked in correctness"), []
        named = [s for s in self.spec.shapes if s.decode][:1] + [s for s in self.spec.shapes if not s.decode][:1]
        cases = [(shape, dtype, shape not in named) for dtype in others for shape in (*named, *self.request.hidden)]
        candidate = self.runners["candidate"]
        if self._runner_cores:  # the benchmark pinned it to the timing core: its JIT may use threads again
            confine.pin(candidate.pid, self._runner_cores)
        seats, signatures = self._case_seats(cases, "dtypes")
        groups = self._compile_groups(cases, signatures)
        try:
            self._first_calls(cases, seats, groups, self._compile_threads(groups), None, "dtypes")
        except StageFailed:
            for seat in seats:
                self._unshare(seat)
            raise
        results, crashed = self._check_cases(cases, seats, "dtypes")
        result = self._verdict("dtypes", results, crashed, len(cases))
        if result.status == "ok":
            result.message += f" in {', '.join(others)}"
        result.seconds = time.perf_counter() - start
        return result, results

    def _check_cases(self, cases, seats, stage: str) -> tuple[list[ShapeCorrectness], str | None]:
        results: list[ShapeCorrectness] = []
        crashed = None
        for i, ((shape, dtype, hidden), seat) in enumerate(zip(cases, seats, strict=True)):
            self.progress(stage, i, len(cases), f"{shape.name} {dtype}")
            try:
                results.extend(self._check_case(seat, shape, dtype, hidden, stage))
            except StageFailed as err:
                crashed = str(err)  # what was found before the runner died is still the record's
                break
            finally:
                self._unshare(seat)
        for seat in seats:
            self._unshare(seat)
        return results, crashed

    @staticmethod
    def _verdict(stage: str, results: list[ShapeCorrectness], crashed: str | None, shapes: int) -> StageResult:
        failures = [r for r in results if not r.ok]
        if crashed:
            earlier = (
                f"; before that: {failures[0].shape} {failures[0].dtype}: {failures[0].message}" if failures else ""
            )
            return StageResult(name=stage, status="failed", message=crashed + earlier)
        if failures:
            # Named shapes first: the ones the user asked for and can run again; the judge's own comparison alone,
            # where the model-allocated and strided calls were wrong the same way (their lines are in the record).
            first = next((f for f in failures if not f.hidden), failures[0])
            named = sorted({f.shape for f in failures if not f.hidden})
            names = named + sorted({f.shape for f in failures if f.hidden} - set(named))
            listed = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")
            detail = first.message.rsplit("; on the judge's buffers: ", 1)[-1]
            message = (
                f"wrong on {len(names)} shape(s) ({listed}); first: {first.shape} {first.dtype} seed {first.seed}"
                f"{' (rows of zeros and extreme magnitudes)' if first.hazards else ''}: {detail}"
            )
            return StageResult(name=stage, status="failed", message=message)
        return StageResult(name=stage, status="ok", message=f"{len(results)} checks passed ({shapes} shapes)")

    def _check_case(
        self, seat: Seat, shape: NamedShape, dtype_label: str, hidden: bool, stage: str = "correctness"
    ) -> list[ShapeCorrectness]:
        spec, dtype, device = self.spec, parse_dtype(dtype_label), self.request.device
        seeds = self.seeds[:1] if math.prod(shape.dims) > LARGE_CASE_ELEMENTS else self.seeds
        sets = [spec.inputs_for(shape, dtype, seed, device) for seed in seeds]
        labels = [(seed, False) for seed in seeds]
        if spec.hazards:
            hazard_seed = self.seeds[0] ^ 0x5A5A5A5
            sets.append(spec.hazards(*spec.inputs_for(shape, dtype, hazard_seed, device)))
            labels.append((hazard_seed, True))
        self._fill_sets(seat, sets)
        layout, (inputs, outputs) = seat.layout, seat.arenas
        layout.poison(outputs.tensor, len(sets))
        self._sync()
        try:
            reply = seat.runner.ask(
                {"op": "run", "plan": seat.plan, "count": len(sets)},
                self._deadline(stage),
                what=f"on {shape.name}",
            )
        except RunnerFailed as err:
            raise StageFailed(self._crash_hint(str(err)) + self._stage_limit_note(stage)) from None
        snapshot = outputs.tensor.clone()  # what the outputs are now; nothing the runner does later counts
        self._sync()
        if not reply.ok:
            raise StageFailed(f"raised on {shape.name} {dtype_label}: {brief_error(reply.error)}")
        refs = [spec.as_outputs(spec.reference(*args)) for args in sets]
        fresh = self._elsewhere(seat, sets[: len(seeds)], refs, dtype, shape, strided=False, stage=stage)
        strided = self._elsewhere(seat, sets[:1], refs, dtype, shape, strided=True, stage=stage)
        bias = self._bias(layout, snapshot, sets, labels, refs, dtype)
        results = []
        for i, (args, (seed, hazards)) in enumerate(zip(sets, labels, strict=True)):
            out = layout.set_outputs(snapshot, i)
            comparison = spec.compare_to(out, refs[i], dtype)
            now = layout.set_args((inputs.tensor, outputs.tensor), i)
            unchanged = all(torch.equal(a, b) for a, b in zip(now, args, strict=True) if isinstance(a, torch.Tensor))
            unwritten = [
                name
                for name, buffer in zip(spec.outputs, spec.as_outputs(out), strict=True)
                if buffer.numel() and bool(torch.isnan(buffer).all())
            ]
            message = comparison.message
            if unwritten and spec.multi_output:
                names = ", ".join(f"`{name}`" for name in unwritten)
                message = f"never wrote output(s) {names} (still NaN-poisoned); " + message
            # What the op returned is the runner's word: it can only add a rejection (a model uses the return value).
            returned = reply.returned_out is not False
            if not returned:
                what = "the `out` buffer it was given"
                if spec.multi_output:
                    what += f" (a tuple: {', '.join(spec.outputs)}); it returned a {reply.returned}"
                message = f"did not return {what}; " + message
            if not unchanged:
                message = "modified its inputs; " + message
            elsewhere = [why for why in (fresh.get(i), strided.get(i)) if why]
            if bias is not None and not bias.ok and not hazards:
                elsewhere.append(bias.message)
            if elsewhere:
                message = "; ".join(elsewhere) + ("" if comparison.ok else f"; on the judge's buffers: {message}")
            results.append(
                ShapeCorrectness(
                    shape=shape.name,
                    dims=list(shape.dims),
                    dtype=dtype_label,
                    seed=seed,
                    hidden=hidden,
                    hazards=hazards,
                    ok=comparison.ok and unchanged and not unwritten and returned and not elsewhere,
                    max_abs_err=comparison.max_abs_err,
                    max_rel_err=comparison.max_rel_err,
                    first_bad_index=list(comparison.first_bad_index) if comparison.first_bad_index else None,
                    inputs_unchanged=unchanged,
                    wrote_into_out=returned,
                    bias_ulps=None if bias is None or hazards else round(bias.toward_zero_ulps, 4),
                    message=message,
                )
            )
        return results

    def _elsewhere(self, seat: Seat, sets: list[tuple], refs, dtype, shape: NamedShape, *, strided: bool, stage: str):
        """{set index: why it is wrong} for the sets run again on tensors the runner allocated as a model would.

        `strided`: as views with a gap between rows; the op may refuse those with its TypeError or
        ValueError (its checks' words are the runner's, and a refusal is no result to check).
        """
        layout, outputs = seat.layout, seat.arenas[1]
        layout.poison(outputs.tensor, len(sets))
        self._sync()
        where = "on strided views (a slice of a wider tensor)" if strided else "on tensors allocated as a model does"
        try:
            reply = seat.runner.ask(
                {"op": "fresh", "plan": seat.plan, "calls": list(range(len(sets))), "strided": strided},
                self._deadline(stage),
                what=f"{where} on {shape.name}",
            )
        except RunnerFailed as err:
            raise StageFailed(f"{where}: {self._crash_hint(str(err))}" + self._stage_limit_note(stage)) from None
        snapshot = outputs.tensor.clone()
        self._sync()
        if not reply.ok:
            return {0: f"{where}: raised {brief_error(reply.error)}"}
        wrong = {}
        for i in range(len(sets)):
            if str(i) in reply.refused:
                continue
            comparison = self.spec.compare_to(layout.set_outputs(snapshot, i), refs[i], dtype)
            if not comparison.ok:
                wrong[i] = f"{where} (not the judge's buffers): {comparison.message}"
        return wrong

    def _bias(self, layout: Layout, snapshot, sets, labels, refs, dtype):
        """The rounding bias over every output element of the case's random sets (not the hazard rows)."""
        outs, expected = [], []
        for i, (_, hazards) in enumerate(labels):
            if hazards:
                continue
            for out, ref in zip(self.spec.as_outputs(layout.set_outputs(snapshot, i)), refs[i], strict=True):
                outs.append(out.reshape(-1))
                expected.append(ref.reshape(-1))
        if not outs:
            return None
        return rounding_bias(torch.cat(outs), torch.cat(expected), dtype)

    # -- benchmark ---------------------------------------------------------------------------------


def brief_error(text: str | None) -> str:
    """A runner's error in a line or two: the exception's first line, and where in a kernel file it arose.

    A candidate that imports a missing module shows `ModuleNotFoundError: No module named 'x'` and the file
    and line of its import, not the runner's traceback.
    """
    lines = [line for line in (text or "").strip().splitlines() if line.strip()]
    if not lines:
        return "no reason given"
    last = exception_line(text)
    places = [line.strip() for line in lines if line.strip().startswith('File "')]
    ours = ("tools/evaluator/", "importlib", "<frozen ")
    theirs = [p for p in places if not any(mark in p for mark in ours)]
    if not theirs:
        return last
    where = theirs[-1].removeprefix("File ").replace('", line ', ":").replace('"', "")
    return f"{last} (at {where.split(', in ')[0]})"


def confinement_record(setup: sandbox.Setup, judge_dumpable: bool, transport: str) -> Confinement:
    """What a record says of its runners' confinement (tools/evaluator/sandbox.py)."""
    return Confinement(
        mode=setup.mode,
        parts=sandbox.describe(setup.mechanisms, setup.mode),
        uid_separation=setup.uid_per_runner,
        network=setup.network,
        judge_dumpable=judge_dumpable,
        transport=transport,
        limits=sandbox.limits(),
        unconfined=setup.mode == "none",
        notes=list(setup.notes),
    )
