"""The benchmark stage: per shape and dtype, rounds of timed batches of every contestant, in two scopes.

A batch is N calls chained as a model chains them: call i+1's input begins with call i's output
(`workbench.kernels.spec.ChainLink`, tools/evaluator/layout.py), so no call can do a later call's work. Fresh
values are refilled outside the window; the judge says go, the runner calls back to back and
answers, the judge stops it and waits for its own probe kernel on the GPU (tools/evaluator/timer.py).
The outputs are copied out after the clock, every call is checked for NaN and a sample drawn by the
judge (never shown to a runner) against the reference computed from the inputs each call saw
(tools/evaluator/verify.py). Two scopes: eager (the calls themselves, host cost included) and graph
(a CUDA graph of them the runner captured once, replayed). Every round times each contestant once per
scope, in a random order. The figures are tools/evaluator/figures.py's.
"""

from __future__ import annotations

import os
import random
import statistics
import time
from collections.abc import Callable

import torch

from tools.evaluator import rule, stats
from tools.evaluator.clock import DeviceClock
from tools.evaluator.figures import scope_results
from tools.evaluator.first_calls import IncumbentWarmup
from tools.evaluator.layout import OUTPUT_ARENA
from tools.evaluator.lineup import Lineup
from tools.evaluator.options import EvalOptions
from tools.evaluator.process import RunnerFailed
from tools.evaluator.records import ShapeBenchmark, StageResult
from tools.evaluator.seating import Seating, seats_of, sets_for
from tools.evaluator.seats import Seat, fail_seat, live, op_layout
from tools.evaluator.stages import PhaseClock, StageFailed, brief_error, out_of_memory
from tools.evaluator.timer import BatchTimer
from tools.evaluator.verify import Verifier, sample_calls
from workbench.kernels.spec import NamedShape, OpSpec, parse_dtype

# Against an incumbent, a shape's rounds go on past `batches` (the candidate, incumbent and null seats
# only) while the graph scope's paired ratio is known less well than this and not yet beyond noise,
# up to EXTRA_ROUNDS_FACTOR x batches and SHAPE_BUDGET_S of rounds per shape.
RATIO_HALF_WIDTH = 0.01
EXTRA_ROUNDS_FACTOR = 3
SHAPE_BUDGET_S = 4.0
# Trusted yardsticks (ours) are checked in their first round only; a third party's (liger) in every round.
VERIFIED_EVERY_ROUND = ("candidate", "liger")
# The incumbent is checked against the reference in its first round, and for unwritten (NaN) outputs in
# every round: a wrong incumbent can only make a candidate look slower, never get one accepted, and it
# passed every round as a candidate. With this and compare's one-sync pass, a full 18-shape rms_norm
# iteration's verify phase read 2.5 s on the H200 (tilelang), against 4.1-4.4 s before (ninetoothed).
NAN_CHECKED_EVERY_ROUND = ("incumbent",)
# Calls per shape the candidate makes on tensors allocated as a model allocates them (ordinary torch
# allocations, no arena in sight), chained and verified like a timed batch but untimed.
FRESH_CALLS = 4
# Against an incumbent the decision is the pair's: the yardsticks (torch, compiled, liger, copy) are shown
# only, and timed in the first this many rounds.
YARDSTICK_ROUNDS = 5


def slower_beyond_noise(bench: ShapeBenchmark, cases: int) -> str | None:
    """'SHAPE (scope) 0.93x' where the candidate is slower than the incumbent beyond noise, as decide.py tests.

    In the scope that decides only (graph where there is one): the eager scope measures host cost, with
    noise of several percent on a VM, and is shown, never decisive.
    """
    confidence = rule.shape_confidence(cases)
    scope = rule.deciding_scope(bench)
    speedups = rule.shape_ratios(bench, scope) if scope else None
    if speedups and rule.beyond_noise(speedups, confidence) == "slower":
        return f"{bench.shape} ({scope}, {statistics.median(speedups):.3f}x)"
    return None


def more_rounds(seats: list[Seat], rounds: int, started: float, *, cuda: bool, batches: int, cases: int) -> bool:
    """Past `batches`: another round of the candidate and incumbent while their ratio is not yet known well."""
    by_name = {s.name: s for s in live(seats)}
    if not cuda:  # CPU timings are no performance figures: no rounds spent narrowing them
        return False
    if "incumbent" not in by_name or "candidate" not in by_name:
        return False
    if rounds >= EXTRA_ROUNDS_FACTOR * batches or time.monotonic() - started > SHAPE_BUDGET_S:
        return False
    # The graph scope only: eager batches follow the host's speed, which more rounds narrow too slowly to
    # pay for (benchmarks/probes/timing_noise.md).
    if "graph" not in by_name["candidate"].counts:
        return False
    mine, theirs = by_name["candidate"].totals["graph"], by_name["incumbent"].totals["graph"]
    if len(mine) != len(theirs) or len(mine) < 3:
        return False
    speedups = stats.per_round_ratios(theirs, mine)
    if rule.beyond_noise(speedups, rule.shape_confidence(cases)):
        return False  # this shape's verdict is in, as tools/evaluator/decide.py will take it
    median, low, high = stats.median_interval(speedups)
    return (high - low) / 2 / median > RATIO_HALF_WIDTH


def _group_of(pid: int) -> int | None:
    try:
        return os.getpgid(pid)
    except (ProcessLookupError, PermissionError):
        return None


class Benchmark:
    """Times `shapes` x `options.dtypes` of `spec` in `lineup`'s runners, as `options` say.

    `stop_when_slower`: stop at the first shape slower than the incumbent beyond noise, in a random order;
    `builtin_candidate`: the torch reference is the candidate.
    """

    def __init__(
        self,
        spec: OpSpec,
        shapes: tuple[NamedShape, ...],
        options: EvalOptions,
        lineup: Lineup,
        clock: DeviceClock,
        rng: random.Random,
        progress: Callable[[str, int, int, str], None],
        *,
        stop_when_slower: bool,
        builtin_candidate: bool,
    ) -> None:
        self.spec = spec
        self.shapes = shapes
        self.options = options
        self.lineup = lineup
        self.clock = clock
        self.cuda = clock.cuda
        self.rng = rng
        self.progress = progress
        self.stop_when_slower = stop_when_slower
        self.builtin_candidate = builtin_candidate
        self.deadline = lineup.deadlines.overall
        self.phases = PhaseClock()
        self.timer = BatchTimer(clock, self.phases, lineup.deadlines, lineup.notes, lineup.timing_core)
        self.seating = Seating(spec, lineup, clock, self.timer, self.phases, options.graph)
        self.verifier = Verifier(spec, clock.device, rng)
        self.ceiling_gbps: float | None = None

    def run(self, warmup: IncumbentWarmup) -> tuple[StageResult, list[ShapeBenchmark]]:
        """The stage: every shape timed (or up to the first that fails, or is slower beyond noise)."""
        self.lineup.deadlines.begin()
        start = time.perf_counter()
        with self.phases.phase("runners"):
            warmup.finish()
            self.lineup.greet_the_others()
        self.lineup.pin_runners()
        if self.cuda:  # work the candidate left running in the compile or correctness stage is found here
            self.timer.settle(Seat("candidate", self.lineup.runners["candidate"]))
        self.ceiling_gbps = self.clock.ceiling_gbps() if self.cuda else None
        cases = [(shape, dtype) for dtype in self.options.dtypes for shape in self.shapes]
        order = list(range(len(cases)))
        if self.stop_when_slower:
            self.rng.shuffle(order)  # a loser on one size class is found as soon as in any other order
        timed: dict[int, ShapeBenchmark] = {}
        slower = None
        for n, i in enumerate(order):
            shape, dtype = cases[i]
            self.progress("benchmark", n, len(cases), shape.name)
            timed[i] = self._bench_shape(shape, dtype)
            if timed[i].status == "failed":
                break  # the candidate failed: the other shapes would not change the verdict
            if self.stop_when_slower and (slower := slower_beyond_noise(timed[i], len(cases))):
                break
        results = [timed[i] for i in sorted(timed)]
        bad = [r for r in results if r.status != "ok"]
        if bad:
            message = "; ".join(f"{r.shape} {r.dtype}: {r.status} ({r.note})" for r in bad[:5])
            result = StageResult(name="benchmark", status="failed", message=message)
        else:
            scopes = "eager and graph" if any(r.graph for r in results) else "eager"
            result = StageResult(name="benchmark", status="ok", message=f"{len(results)} shapes timed ({scopes})")
            if slower:
                result.message = (
                    f"{len(results)} of {len(cases)} shapes timed ({scopes}); stopped at {slower}, slower than the "
                    "best beyond noise, which rejects it"
                )
        result.seconds = time.perf_counter() - start
        result.phases = {name: round(seconds, 3) for name, seconds in self.phases.seconds.items()}
        if result.status == "ok" and result.seconds > 0:
            result.message += f"; time in {self.phases.summary(result.seconds)}"
        return result, results

    def _bench_shape(self, shape: NamedShape, dtype_label: str) -> ShapeBenchmark:
        spec, dtype = self.spec, parse_dtype(dtype_label)
        nbytes = spec.bytes_moved(shape.dims, dtype)
        example = spec.make_inputs(shape.dims, dtype, 1, self.clock.device.type)
        sets = sets_for(self.clock, op_layout(spec, example, 1).set_bytes, nbytes)
        record = ShapeBenchmark(
            shape=shape.name,
            dims=list(shape.dims),
            dtype=dtype_label,
            bytes_moved=nbytes,
            ceiling_gbps=self.ceiling_gbps,
        )
        notes: list[str] = list(self.lineup.notes)
        seats = seats_of(self.lineup, self.builtin_candidate)
        phase = self.phases.phase
        try:
            self.seating.prepare(seats, example, sets, nbytes, notes)
            with phase("sizing"):
                counts = self.seating.counts(seats, sets)
            self._rounds(seats, shape, dtype, counts, notes)
            with phase("fresh"):
                self._fresh_batch(seats, shape, dtype, notes)
            scope_results(record, seats, counts, notes, spec, self.cuda)
        except StageFailed as err:
            record.status = "failed"
            notes.append(str(err))
        except torch.OutOfMemoryError as err:  # the judge's own buffers: a contestant can hold the GPU's memory
            record.status = "failed"
            notes.append(out_of_memory(err))
        finally:
            with phase("teardown"):
                for seat in seats:
                    self.lineup.unshare(seat)
                self.timer.forget_snapshots()
        if "liger" in self.options.baselines:
            liger = next((s for s in seats if s.name == "liger"), None)
            if liger is None:
                record.liger_status = "unavailable"
            elif liger.dropped:
                record.liger_status = "wrong" if "is wrong" in liger.dropped else "failed"
            else:
                record.liger_status = "ok"
        record.note = "; ".join(dict.fromkeys(notes))
        return record

    def _rounds(self, seats: list[Seat], shape: NamedShape, dtype: torch.dtype, counts: dict[str, int], notes) -> None:
        candidate_layout = next(s.layout for s in seats if s.name == "candidate")
        started = time.monotonic()
        round_index = 0
        while True:
            extra = round_index >= self.options.batches
            if extra and not more_rounds(
                seats,
                round_index,
                started,
                cuda=self.cuda,
                batches=self.options.batches,
                cases=len(self.shapes) * len(self.options.dtypes),
            ):
                return
            scopes = ["graph"] if extra else self.rng.sample(list(counts), len(counts))  # extra: graph only
            for scope in scopes:
                self._round(seats, shape, dtype, scope, counts[scope], round_index, candidate_layout, notes, extra)
            with self.phases.phase("escapes"):
                self._check_escapes(seats, notes)
            round_index += 1

    def _round(
        self, seats, shape, dtype, scope: str, count: int, round_index: int, candidate_layout, notes, extra: bool
    ):
        """One batch of every seat timed this round in one scope, the candidate's and incumbent's back to back.

        Extra rounds, and against an incumbent the rounds past YARDSTICK_ROUNDS, time the candidate, the
        incumbent and the null seat only. Back to back: on the H200's VM the host ran whole stretches of
        batches up to 2x slower, so a pair's ratio is closest when its two batches are.
        """
        against = any(s.name == "incumbent" for s in live(seats))
        pair_only = extra or (against and round_index >= YARDSTICK_ROUNDS)
        timed = [
            s
            for s in live(seats)
            if not (scope == "graph" and s.graph_error)
            and (not pair_only or s.name in ("candidate", "incumbent", "null"))
        ]
        need = max((s.counts[scope] for s in timed if s.name not in ("copy", "null")), default=count)
        with self.phases.phase("inputs"):
            regions = self.verifier.fresh_inputs(shape, dtype, max(count, need), candidate_layout)
        # By calls per batch: the sets checked (drawn by the judge) and their reference, computed on first need.
        checks: dict[int, tuple[list[int], list]] = {}
        pair = [s for s in timed if s.name in ("candidate", "incumbent")]
        order = [s for s in timed if s.name not in ("candidate", "incumbent")]
        self.rng.shuffle(pair)
        self.rng.shuffle(order)
        at = self.rng.randrange(len(order) + 1)
        order[at:at] = pair
        for seat in order:
            if seat.dropped:
                continue
            if seat.name == "null":
                batch = self.timer.batch(seat, scope, 1, regions)
                if batch.reply is not None and batch.reply.ok:
                    seat.totals[scope].append(batch.seconds)
                continue
            batch = self._checked_batch(
                seat, scope, seat.counts[scope], regions, checks, round_index, dtype, candidate_layout, notes
            )
            if batch is None:
                continue
            seat.totals[scope].append(batch.seconds)
            if batch.host is not None:
                seat.host.append(batch.host)
            if batch.reply.self_us is not None and seat.name == "candidate" and scope == "eager":
                seat.self_us.append(batch.reply.self_us)

    def _checked_batch(self, seat, scope, calls, regions, checks, round_index, dtype, candidate_layout, notes):
        """One timed batch, its outputs verified as the seat's checks say; None if the seat failed."""
        batch = self.timer.batch(seat, scope, calls, regions)
        reply, snapshot = batch.reply, batch.snapshot
        if reply is None:
            return None
        if not reply.ok:
            fail_seat(seat, f"raised in a timed batch ({scope}): {reply.error}", notes)
            return None
        full = seat.name in VERIFIED_EVERY_ROUND or round_index == 0
        if full or seat.name in NAN_CHECKED_EVERY_ROUND:
            if calls not in checks:
                checks[calls] = (sample_calls(self.rng, calls, candidate_layout.set_output_bytes), {})
            sample, shared = checks[calls]
            with self.phases.phase("verify"):
                why = self.verifier.verify(seat, snapshot, calls, regions, shared, sample, dtype, full)
            if why:
                fail_seat(seat, f"{scope} batch {round_index + 1}: {why}", notes)
                return None
        return batch

    def _check_escapes(self, seats: list[Seat], notes: list[str]) -> None:
        """A process of an untrusted runner outside its process group is not stopped between turns: it fails.

        Every process a runner starts stays under its keeper (tools/evaluator/confine.py), double forks and
        new sessions included, so the judge finds them all there.
        """
        for seat in live(seats):
            if seat.trusted:
                continue
            runner = seat.runner
            group = runner.pid
            found = [p for p in runner.processes() if p != group and _group_of(p) not in (group, None)]
            if found:
                fail_seat(
                    seat,
                    f"started {len(found)} process(es) outside its process group (pid {found[0]}), which its stop "
                    "between turns would not reach",
                    notes,
                )

    def _fresh_batch(self, seats: list[Seat], shape: NamedShape, dtype: torch.dtype, notes: list[str]) -> None:
        """A few chained calls of the candidate on tensors allocated as a model allocates them, untimed, verified.

        The runner copies each call's inputs into ordinary torch allocations, calls the op on those and copies
        the results back: a kernel honest only on the judge's buffers (their storage gives them away) fails.
        """
        candidate = next((s for s in live(seats) if s.name == "candidate"), None)
        if candidate is None or candidate.arenas is None:
            return
        count = min(FRESH_CALLS, candidate.layout.sets)
        regions = self.verifier.fresh_inputs(shape, dtype, count, candidate.layout)
        layout, arenas = candidate.layout, candidate.tensors()
        for slot, region in zip(layout.inputs, regions, strict=True):
            if slot.is_tensor:
                layout.input_region(arenas, slot, count).copy_(region[:count])
        layout.poison(arenas[OUTPUT_ARENA], count)
        self.clock.sync()
        try:
            message = {"op": "fresh", "plan": candidate.plan, "calls": list(range(count))}
            reply = candidate.runner.ask(message, self.deadline, what="calling on its own allocations")
        except RunnerFailed as err:
            fail_seat(candidate, str(err), notes)
            return
        self.timer.settle(candidate)
        if not reply.ok:
            fail_seat(
                candidate, f"raised on tensors allocated as a model allocates them: {brief_error(reply.error)}", notes
            )
            return
        snapshot = self.timer.snapshot_buffer(candidate)
        snapshot.copy_(arenas[OUTPUT_ARENA][: snapshot.numel()])
        self.clock.sync()
        why = self.verifier.verify(candidate, snapshot, count, regions, {}, list(range(count)), dtype)
        if why:
            fail_seat(candidate, f"on tensors allocated as a model allocates them: {why}", notes)
