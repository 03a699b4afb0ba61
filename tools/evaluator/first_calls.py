"""First calls: the candidate's first call per case, where its JIT compiles (the compile and dtypes stages).

Each case (shape, dtype) gets arenas and a plan in the candidate's runner; where the backend allows
it on a GPU, cases likely to share one program run in threads, one group each (TileLang's compiles).
The incumbent's first calls on the timed shapes run meanwhile (`IncumbentWarmup`), untimed.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable

import torch

from tools.evaluator.clock import DeviceClock
from tools.evaluator.correctness import seeds_for
from tools.evaluator.lineup import Lineup
from tools.evaluator.process import RunnerFailed
from tools.evaluator.records import CompileInfo
from tools.evaluator.seats import Seat, op_layout
from tools.evaluator.stages import StageFailed, brief_error, crash_hint
from workbench.kernels.spec import OpSpec, parse_dtype

MAX_COMPILE_THREADS = 16
DECODE_TOKENS = 256  # the kernel files' decode/prefill split (SMALL_TOKENS): programs differ across it


class FirstCalls:
    """The candidate's first calls on cases of `spec`, in `lineup`'s candidate runner.

    `parallel`: cases may compile in threads (the backend allows it, on a GPU); `builtin_candidate`: the
    torch reference is the candidate.
    """

    def __init__(
        self,
        spec: OpSpec,
        seeds: list[int],
        lineup: Lineup,
        clock: DeviceClock,
        progress: Callable[[str, int, int, str], None],
        *,
        parallel: bool,
        builtin_candidate: bool,
    ) -> None:
        self.spec = spec
        self.seeds = seeds
        self.lineup = lineup
        self.clock = clock
        self.deadlines = lineup.deadlines
        self.progress = progress
        self.parallel = parallel
        self.builtin_candidate = builtin_candidate

    def case_seats(self, cases: list[tuple], stage: str) -> tuple[list[Seat], list[tuple]]:
        """Arenas and a plan per case in the candidate's runner, each filled with one input set.

        Also each case's argument dtypes (the camp's bf16 tables make another program than fp32 ones).
        """
        candidate = self.lineup.runners["candidate"]
        seats: list[Seat] = []
        signatures: list[tuple] = []
        for i, (shape, dtype, _hidden) in enumerate(cases):
            seeds = len(seeds_for(shape, self.seeds))
            sets = seeds + (1 if self.spec.hazards else 0)
            self.progress(stage, i, len(cases), f"{shape.name} {dtype} (buffers)")
            seat = Seat("candidate", candidate, fn="torch" if self.builtin_candidate else "main")
            args = self.spec.inputs_for(shape, parse_dtype(dtype), 0, self.clock.device.type)
            signatures.append(tuple(str(a.dtype) for a in args if isinstance(a, torch.Tensor)))
            self.lineup.share(seat, op_layout(self.spec, args, sets))
            seat.layout.fill(seat.tensors(), [args] * sets)
            seats.append(seat)
        self.clock.sync()
        return seats, signatures

    def threads(self, groups: list[list[int]]) -> int:
        cores = len(self.lineup.runner_cores) or os.cpu_count() or 1
        return min(len(groups), cores, MAX_COMPILE_THREADS) if self.parallel else 1

    def run(self, cases, seats, groups, threads: int, info: CompileInfo | None, stage: str) -> None:
        """The candidate's first call per case (its JIT compiles here), in threads by group where it may."""
        candidate = self.lineup.runners["candidate"]
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
                    self.deadlines.of(stage),
                    what=what,
                )
            except RunnerFailed as err:
                raise StageFailed(crash_hint(str(err)) + self.deadlines.note(stage)) from None
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

    def groups(self, cases: list[tuple], signatures: list[tuple]) -> list[list[int]]:
        """Cases likely to share one program, one group each, for one thread each.

        A program is usually per dtype, inner layout, argument dtypes (the camp's bf16 tables are another
        program) and size class (the kernel files tile decode and prefill apart): on the H200 grouping by
        dtype and layout alone put a hidden shape's two programs in one group, 17.8 s of serial first calls.
        """
        if not self.parallel:
            return [[i] for i in range(len(cases))]
        groups: dict[tuple, list[int]] = {}
        for i, ((shape, dtype, _), signature) in enumerate(zip(cases, signatures, strict=True)):
            dims = shape.dims
            layout = tuple(dims[-1:]) if len(dims) <= 2 else tuple(dims[2:])
            leading = math.prod(dims[:-1]) if len(dims) <= 2 else math.prod(dims[:2])
            groups.setdefault((dtype, layout, signature, leading <= DECODE_TOKENS), []).append(i)
        return list(groups.values())


class IncumbentWarmup:
    """The incumbent's first calls on the timed shapes, run while the candidate compiles.

    Left for the benchmark's warm-up, they took 0.7-3.4 s of an optimize iteration's benchmark on the
    H200, against 0.13-0.2 s for the start evaluation's warm-up (TileLang loading its programs from the
    cache copy, shape by shape). Untimed, so running beside the candidate changes no figure. Its reply is
    collected in `finish`, before the benchmark.
    """

    def __init__(self, spec: OpSpec, lineup: Lineup, clock: DeviceClock) -> None:
        self.spec = spec
        self.lineup = lineup
        self.clock = clock
        self.seats: list[Seat] = []

    def start(self, cases: list[tuple], timed: set[tuple[str, str]], groups: list[list[int]], threads: int) -> None:
        """Send the first calls of `cases` in `timed` ((shape name, dtype)), grouped as the candidate's."""
        lineup = self.lineup
        if "incumbent" not in lineup.runners:
            return
        lineup.greet("incumbent")
        runner = lineup.runners.get("incumbent")
        if runner is None:
            return
        seats_by_case: dict[int, Seat] = {}
        try:
            for i, (shape, dtype, hidden) in enumerate(cases):
                if hidden or (shape.name, dtype) not in timed:
                    continue
                seat = Seat("incumbent", runner, fn="main")
                args = self.spec.inputs_for(shape, parse_dtype(dtype), 0, self.clock.device.type)
                lineup.share(seat, op_layout(self.spec, args, 1))
                seats_by_case[i] = seat
                seat.layout.fill(seat.tensors(), [args])
            plan_groups = [[seats_by_case[i].plan for i in g if i in seats_by_case] for g in groups]
            self.clock.sync()
            runner.resume()
            runner.send({"op": "warmup", "groups": [g for g in plan_groups if g], "threads": threads})
            self.seats = list(seats_by_case.values())
        except (RunnerFailed, OSError) as err:  # send() raises the pipe's own errors
            lineup.drop("incumbent", str(err))
            for seat in seats_by_case.values():
                lineup.unshare(seat)

    def finish(self) -> None:
        """Collect the reply (dropping an incumbent whose first calls failed) and free the seats."""
        seats, self.seats = self.seats, []
        lineup = self.lineup
        runner = lineup.runners.get("incumbent")
        if not seats or runner is None:
            return
        try:
            reply = runner.receive(lineup.deadlines.overall, "making its first calls")
        except RunnerFailed as err:
            reply = None
            lineup.drop("incumbent", str(err))
        else:
            runner.pause()
        for seat in seats:
            lineup.unshare(seat)
        if reply is None:
            return
        if not reply.ok or reply.errors:
            error = (reply.error or next(iter(reply.errors.values()))).strip().splitlines() or ["no reason given"]
            lineup.drop("incumbent", f"its first calls raised: {error[-1]}")
