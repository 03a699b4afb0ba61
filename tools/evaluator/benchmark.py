"""The benchmark stage of the judge (a part of `Judge`, tools/evaluator/judge.py), and the seats it times.

Per shape and dtype, rounds of batches. A batch is N calls chained as a model chains them: call
i+1's input begins with call i's output (`kernels.spec.ChainLink`, tools/evaluator/layout.py), so no
call can do a later call's work. Fresh values are refilled outside the window; the judge says go,
the runner calls back to back and answers, the judge stops it and waits for its own probe kernel
on the GPU. The batch's time is go -> probe done, less what the same takes for a runner that does
nothing. A GPU still busy right after the answer fails the runner (work left running is not paid
for otherwise); the outputs are copied out after the clock, every call is checked for NaN and a
sample drawn by the judge (never shown to a runner) against the reference computed from the inputs
each call saw. Two scopes: eager (the calls themselves, host cost included) and graph (a CUDA graph
of them the runner captured once, replayed). Every round times each contestant once per scope, in
a random order. A figure faster than a copy of the same bytes, timed the same way, beyond the op's
`copy_bound` is a measurement error and fails the candidate.
"""

from __future__ import annotations

import math
import os
import statistics
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import torch

from kernels.registry import native_op
from kernels.spec import ChainLink, NamedShape, parse_dtype
from tools.evaluator import confine, rule, stats
from tools.evaluator.buffers import Arena
from tools.evaluator.layout import OUTPUT_ARENA, Layout, copy_source_bytes
from tools.evaluator.process import RunnerFailed, RunnerProcess, exception_line
from tools.evaluator.records import RIVALS, HostUse, Ratio, ScopeResult, ShapeBenchmark, StageResult

# Work per batch at least: on a GPU 2 ms (about 50x the judge's round trip); on the CPU, where waking a
# stopped process costs far more and varies with load, 20 ms.
BATCH_SECONDS = {"cuda": 2e-3, "cpu": 2e-2}
# An eager batch of the candidate and the incumbent; every other contestant's is sized to its own speed.
EAGER_BATCH_SECONDS = {"cuda": 5e-3, "cpu": 2e-2}
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
# Seats whose eager batches have the candidate's calls (a per-round ratio pairs them; the reference of a
# batch's sample is computed once per count).
PAIRED_EAGER_CALLS = ("candidate", "incumbent", "liger")
# Contestants whose inputs are copies in another layout (Liger's RoPE and SwiGLU), redone from the refilled
# inputs before each batch, untimed: without it they computed on the first batch's values.
PREPARED_EVERY_BATCH = ("liger",)
# Yardsticks whose API returns a fresh result (contestants.Delivered): timed computing it, then written into
# the judge's buffers after the clock. Timing their copy into out= had doubled Liger rms_norm's bytes. Their
# results reach the buffers only after the batch, so their calls cannot be chained: each computes on a set
# of its own (trusted code, timed for comparison only).
DELIVERED = ("torch", "liger", "native")
# Calls per shape the candidate makes on tensors allocated as a model allocates them (ordinary torch
# allocations, no arena in sight), chained and verified like a timed batch but untimed.
FRESH_CALLS = 4
# Against an incumbent the decision is the pair's: the yardsticks (torch, compiled, liger, copy) are shown
# only, and timed in the first this many rounds.
YARDSTICK_ROUNDS = 5
# A graph's calls per batch come from a probe graph of this many calls, replayed on the runner's clock
# (sizing only): every set made batches of 4-6 ms for calls at launch speed (H200: rope decode, 1024 sets).
GRAPH_PROBE_CALLS = 64
L2_MULTIPLE = 3  # the sets of a batch together exceed the L2 this many times, where MAX_SETS allow
MAX_SETS = 1024
ARENA_CAP_BYTES = {"cuda": 8 * 2**30, "cpu": 2**30}
# Every call's outputs are checked for NaN (a skipped call is caught); against the reference, the
# calls of a sample the judge draws after the answer: all of them up to VERIFY_CALLS, and no more
# outputs than VERIFY_BYTES (at least one call). Why a sample: benchmarks/probes/judge_time.md.
VERIFY_CALLS = 16
VERIFY_BYTES = 64 * 2**20
# A GPU that takes longer than this to run the judge's tiny probe kernel is busy with someone's work.
QUIET_FACTOR, QUIET_SLACK_US = 4.0, 300.0
QUIET_WAIT_S = 0.2
# Quiet means the median of this many probes in a row is fast: under time-slicing one probe can land at
# the start of the judge's slice while another process's kernel still runs.
QUIET_PROBES = 5
# On the CPU the copy bound holds where a batch of the candidate took at least this many times the judge's round
# trip (a batch of its null seat): below, both figures are mostly that round trip and its noise on a loaded machine.
CPU_WORK_FACTOR = 2.0
# A result above the device's large-copy bandwidth by more than this is a measurement error; not 1.05,
# as read-heavy ops outrun a copy's half-and-half mix (benchmarks/probes/copy.md).
ROOFLINE_SLACK = 1.15


class StageFailed(Exception):
    """A stage's verdict against the candidate; the message is the record's."""


class PhaseClock:
    """Wall seconds per phase of a stage, so a slow evaluation says where its time went."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)

    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[name] += time.perf_counter() - start

    def summary(self, total: float) -> str:
        parts = sorted(self.seconds.items(), key=lambda kv: -kv[1])
        return ", ".join(f"{name} {seconds:.1f} s" for name, seconds in parts if seconds >= 0.05 * total)


@dataclass
class Batch:
    """One timed batch: seconds from go to the outputs copied out, the runner's reply, the outputs, host use."""

    seconds: float = 0.0
    reply: object | None = None  # None: the seat failed or was dropped before it answered
    snapshot: torch.Tensor | None = None
    host: HostUse | None = None  # eager batches only: where the runner's CPU time went


@dataclass
class Seat:
    """One contestant at one shape: its runner, arenas, plan and what it has measured so far."""

    name: str  # candidate, incumbent, torch, compiled, liger, copy, null
    runner: RunnerProcess
    fn: str = "main"
    layout: Layout | None = None
    arenas: tuple[Arena, Arena] | None = None
    arena_ids: tuple[int, int] = (0, 0)
    plan: int = 0
    graph_error: str | None = None
    graph_calls: int = 0  # calls in the seat's captured graph
    totals: dict[str, list[float]] = field(default_factory=lambda: {"eager": [], "graph": []})
    counts: dict[str, int] = field(default_factory=dict)  # calls per batch, by scope
    self_us: list[float] = field(default_factory=list)
    host: list[HostUse] = field(default_factory=list)  # eager batches, in the order of totals["eager"]
    dropped: str | None = None

    @property
    def trusted(self) -> bool:
        return self.name not in ("candidate", "incumbent")


class BenchmarkStage:
    """The judge's benchmark stage; `Judge` supplies the runners, arenas and clocks it uses."""

    def benchmark(self) -> tuple[StageResult, list[ShapeBenchmark]]:
        self._stage_started = time.monotonic()
        start = time.perf_counter()
        self.clock = PhaseClock()
        with self.clock.phase("runners"):
            self.greet_the_others()
        self.pin_runners()
        if self.cuda:  # work the candidate left running in the compile or correctness stage is found here
            self._settle(Seat("candidate", self.runners["candidate"]))
        self.ceiling_gbps = self._ceiling() if self.cuda else None
        cases = [(shape, dtype) for dtype in self.request.dtypes for shape in self.request.shapes]
        order = list(range(len(cases)))
        if self.request.stop_when_slower:
            self.rng.shuffle(order)  # a loser on one size class is found as soon as in any other order
        timed: dict[int, ShapeBenchmark] = {}
        slower = None
        for n, i in enumerate(order):
            shape, dtype = cases[i]
            self.progress("benchmark", n, len(cases), shape.name)
            timed[i] = self._bench_shape(shape, dtype)
            if timed[i].status == "failed":
                break  # the candidate failed: the other shapes would not change the verdict
            if self.request.stop_when_slower and (slower := self._slower_beyond_noise(timed[i], len(cases))):
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
        result.phases = {name: round(seconds, 3) for name, seconds in self.clock.seconds.items()}
        if result.status == "ok" and result.seconds > 0:
            result.message += f"; time in {self.clock.summary(result.seconds)}"
        return result, results

    def _slower_beyond_noise(self, bench: ShapeBenchmark, cases: int) -> str | None:
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

    def _ceiling(self) -> float:
        """The device's large-copy bandwidth (1 GiB moved), the judge's own copy: above it is not DRAM."""
        half = 2**29
        src = torch.empty(half, dtype=torch.uint8, device=self.device).random_()
        dst = torch.empty_like(src)
        times = []
        for _ in range(5):
            self._sync()
            begin, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            begin.record()
            dst.copy_(src)
            end.record()
            end.synchronize()
            times.append(begin.elapsed_time(end) / 1e3)
        del src, dst
        return 2 * half / statistics.median(times) / 1e9

    def _seats(self) -> list[Seat]:
        seats = []
        for role, runner in self.runners.items():
            if role == "reference":
                names = [n for n in ("torch", "native", "copy", "null") if n in runner.contestant["names"]]
                seats += [Seat(name, runner, fn=name) for name in names]
            elif role == "candidate" and self.request.candidate is None:
                seats.append(Seat("candidate", runner, fn="torch"))
            else:
                seats.append(Seat(role, runner, fn=role if role in ("compiled", "liger") else "main"))
        return seats

    def _sets_for(self, layout_bytes: int, nbytes: int) -> int:
        cap = ARENA_CAP_BYTES["cuda" if self.cuda else "cpu"]
        most = max(2, min(MAX_SETS, cap // max(layout_bytes, 1)))
        if not self.cuda:
            return min(most, 256)
        per_call = max(nbytes / 3.5e12, 2e-6)
        wanted = max(
            math.ceil(BATCH_SECONDS["cuda"] / per_call),
            math.ceil(L2_MULTIPLE * self._l2_bytes() / max(layout_bytes, 1)),
        )
        return max(2, min(most, wanted))

    def _bench_shape(self, shape: NamedShape, dtype_label: str) -> ShapeBenchmark:
        spec, dtype = self.spec, parse_dtype(dtype_label)
        nbytes = spec.bytes_moved(shape.dims, dtype)
        example = spec.make_inputs(shape.dims, dtype, 1, self.request.device)
        probe_layout = self._layout(example, 1)
        sets = self._sets_for(probe_layout.set_bytes, nbytes)
        record = ShapeBenchmark(
            shape=shape.name,
            dims=list(shape.dims),
            dtype=dtype_label,
            bytes_moved=nbytes,
            ceiling_gbps=self.ceiling_gbps,
        )
        notes: list[str] = list(self.notes)
        seats = self._seats()
        self._snapshots: dict[tuple, torch.Tensor] = {}
        phase = self.clock.phase
        try:
            self._prepare_seats(seats, example, sets, nbytes, notes)
            with phase("sizing"):
                counts = self._counts(seats, sets)
            self._rounds(seats, shape, dtype, counts, notes)
            with phase("fresh"):
                self._fresh_batch(seats, shape, dtype, notes)
            self._results(record, seats, counts, notes)
        except StageFailed as err:
            record.status = "failed"
            notes.append(str(err))
        except torch.OutOfMemoryError as err:  # the judge's own buffers: a contestant can hold the GPU's memory
            record.status = "failed"
            notes.append(out_of_memory(err))
        finally:
            with phase("teardown"):
                for seat in seats:
                    self._unshare(seat)
                self._snapshots = {}
        if "liger" in self.request.baselines:
            liger = next((s for s in seats if s.name == "liger"), None)
            if liger is None:
                record.liger_status = "unavailable"
            elif liger.dropped:
                record.liger_status = "wrong" if "is wrong" in liger.dropped else "failed"
            else:
                record.liger_status = "ok"
        record.note = "; ".join(dict.fromkeys(notes))
        return record

    def _prepare_seats(self, seats: list[Seat], example: tuple, sets: int, nbytes: int, notes: list[str]) -> None:
        chained = self._layout(example, sets, chain=self.spec.chain)
        separate = self._layout(example, sets)
        half = copy_source_bytes(nbytes)
        # The copy is chained as the op is (its next call copies what this one wrote): the same traffic.
        copy_layout = Layout(
            (torch.empty(half, dtype=torch.uint8),),
            (torch.empty(half, dtype=torch.uint8),),
            sets,
            False,
            chain=(ChainLink(arg=0, output=0),),
        )
        phase = self.clock.phase
        with phase("share"):
            for seat in seats:
                if seat.name == "null":
                    continue
                layout = copy_layout if seat.name == "copy" else separate if seat.name in DELIVERED else chained
                try:
                    self._share(seat, layout)
                except RunnerFailed as err:
                    self._fail_seat(seat, str(err), notes)
                    continue
                arenas = _tensors(seat)
                if seat.name == "copy":
                    layout.input_region(arenas, layout.inputs[0], sets).random_(0, 256)
                else:
                    seat.layout.fill_alike(arenas, example)
            null = next((s for s in seats if s.name == "null"), None)
            if null is not None:
                null.layout = Layout((), (), 1, False)
                null.plan = next(self._ids)
                reply = null.runner.ask(null.layout.plan(null.plan, 0, 0, "null"), self.deadline)
                if not reply.ok:
                    raise RunnerFailed(f"the reference runner could not plan its null calls: {reply.error}")
            self._sync()
        with phase("warm"):
            for seat in self._live(seats):
                self._warm(seat, notes)
        if self.cuda and self.request.graph:
            with phase("capture"):
                self._capture_all(seats, sets)

    def _live(self, seats: list[Seat]) -> list[Seat]:
        return [s for s in seats if not s.dropped]

    def _fail_seat(self, seat: Seat, why: str, notes: list[str]) -> None:
        if seat.name == "candidate":
            raise StageFailed(why)
        seat.dropped = _brief(why)
        label = {
            "torch": "torch eager baseline",
            "compiled": "torch.compile baseline",
            "liger": "liger baseline",
            "native": "native baseline",
        }
        notes.append(f"{label.get(seat.name, seat.name)} not timed: {seat.dropped}"[:400])

    def _warm(self, seat: Seat, notes: list[str]) -> None:
        try:
            reply = seat.runner.ask({"op": "run", "plan": seat.plan, "count": 1}, self.deadline, what="warming up")
        except RunnerFailed as err:
            self._fail_seat(seat, str(err), notes)
            return
        if not reply.ok:
            self._fail_seat(seat, f"raised: {reply.error}", notes)
            return
        self._settle(seat)

    def _settle(self, seat: Seat) -> None:
        """After an untimed request: GPU work a contestant's runner left running is found, and blamed, now.

        On the H200 a cheat that spun once during a graph capture went unblamed: the next batch's quiet
        check followed another seat's turn.
        """
        self.last_seat = seat
        if self.cuda and not seat.trusted and not seat.dropped:
            self._quiet(seat)

    def _capture_all(self, seats: list[Seat], sets: int) -> None:
        """Each seat's graph, of as many calls as make BATCH_SECONDS of its work (a probe graph sizes it).

        The candidate and incumbent get the same count, from the faster of them; at least enough sets to
        exceed the L2 L2_MULTIPLE times where the arena holds them, at most every set.
        """
        per_call: dict[str, float] = {}
        probe = min(sets, GRAPH_PROBE_CALLS)
        for seat in self._live(seats):
            if seat.name == "null":
                continue
            measured = self._capture(seat, probe, timed=True)
            if measured is not None:
                per_call[seat.name] = measured
        l2 = self._l2_bytes()
        pair = [per_call[n] for n in ("candidate", "incumbent") if n in per_call]
        for seat in self._live(seats):
            if seat.name == "null":
                self._capture(seat, 1)
                continue
            if seat.name not in per_call:
                continue
            own = min(pair) if seat.name in ("candidate", "incumbent") else per_call[seat.name]
            least = min(sets, max(2, math.ceil(L2_MULTIPLE * l2 / max(seat.layout.set_bytes, 1))))
            wanted = min(sets, max(least, math.ceil(BATCH_SECONDS["cuda"] / max(own * 1e-6, 1e-9))))
            if wanted != seat.graph_calls:
                self._capture(seat, wanted)

    def _capture(self, seat: Seat, count: int, timed: bool = False) -> float | None:
        """Capture `count` calls, replay once untimed; `timed`: then once on the runner's clock, µs per call."""
        try:
            message = {"op": "capture", "plan": seat.plan, "count": count, "keep": seat.name in DELIVERED}
            reply = seat.runner.ask(message, self.deadline, what="capturing")
        except RunnerFailed as err:
            self._fail_seat(seat, str(err), [])
            return None
        if not reply.ok:
            last = (reply.error or "").strip().splitlines()
            seat.graph_error = f"CUDA-graph capture failed: {last[-1] if last else 'no reason given'}"[:400]
            return None
        seat.graph_calls = count
        # A graph's first launch uploads it: one untimed replay, so no round pays
        # (docs/judge_internals.md, "Timing: eager and graph scopes").
        try:
            seat.runner.ask({"op": "replay", "plan": seat.plan}, self.deadline, what="replaying once")
            if timed:
                reply = seat.runner.ask(
                    {"op": "replay", "plan": seat.plan, "self_time": True}, self.deadline, what="sizing its graph"
                )
        except RunnerFailed as err:
            self._fail_seat(seat, str(err), [])
            return None
        self._settle(seat)
        if not timed:
            return None
        value = reply.self_us if reply.ok else None
        return float(value) if isinstance(value, int | float) and value > 0 else None

    def _counts(self, seats: list[Seat], sets: int) -> dict[str, int]:
        """Calls per batch, by scope and seat (`seat.counts`); returns the candidate's.

        Graph: every set. Eager: the candidate and incumbent as many as make EAGER_BATCH_SECONDS of the
        faster of them; each other contestant as many as make that batch of its own calls, at most as many.
        """
        graph = self.cuda and self.request.graph
        probe = min(sets, 16)
        null = next((s for s in seats if s.name == "null" and not s.dropped), None)
        base = (self._time_run(null, 1) or 0.0) if null else 0.0
        per_call: dict[str, float] = {}
        for seat in self._live(seats):
            if seat.name != "null":
                seconds = self._time_run(seat, probe)
                if seconds is not None:
                    per_call[seat.name] = max(max(seconds - base, 0.0) / probe, 1e-7)
        target = EAGER_BATCH_SECONDS["cuda" if self.cuda else "cpu"]
        pair = [per_call[n] for n in ("candidate", "incumbent") if n in per_call]
        eager = max(2, min(sets, math.ceil(target / min(pair, default=target))))
        # On the CPU the copy makes the candidate's count of calls too: nothing is subtracted there, so a batch's
        # round trip shares out over its calls, and a copy of 2 calls beside a candidate of 100 read 5-8x slower.
        paired = PAIRED_EAGER_CALLS if self.cuda else (*PAIRED_EAGER_CALLS, "copy")
        for seat in seats:
            own = eager if seat.name in paired or seat.name not in per_call else None
            if own is None:
                own = max(2, min(eager, math.ceil(target / per_call[seat.name])))
            seat.counts = {"eager": own, **({"graph": seat.graph_calls or sets} if graph else {})}
        pair_graph = [s.graph_calls for s in seats if s.name in ("candidate", "incumbent") and s.graph_calls]
        return {"eager": eager, **({"graph": max(pair_graph, default=sets)} if graph else {})}

    def _time_run(self, seat: Seat, count: int) -> float | None:
        """A rough untimed-window estimate (sizing only, never a result): one run of `count` calls."""
        self._sync()
        start = time.perf_counter()
        reply = seat.runner.ask({"op": "run", "plan": seat.plan, "count": count}, self.deadline, what="sizing")
        seconds = time.perf_counter() - start
        self._settle(seat)
        return seconds if reply.ok else None

    def _fresh_inputs(self, shape: NamedShape, dtype: torch.dtype, count: int, layout: Layout) -> list:
        """`count` input sets with fresh values, made as one input of the op with `count` times the leading dim.

        Per argument: a [count, ...] view of it (arguments whose leading dim is the op's: x, residual,
        q, k), or one tensor shared by every set (tables, weights, which do not depend on it), or a scalar.
        The same one input is what `_reference` computes on, in one call for every set.
        """
        seed = self.rng.randrange(2**31)
        dims = (shape.dims[0] * count, *shape.dims[1:])
        big = self.spec.make_inputs(dims, dtype, seed, self.request.device)
        regions = []
        for slot, value in zip(layout.inputs, big, strict=True):
            if not slot.is_tensor:
                regions.append(value)
            elif tuple(value.shape) == slot.shape:
                regions.append(value.expand(count, *value.shape))  # shared by every set (tables, weights)
            else:
                regions.append(value.view(count, *slot.shape))
        return regions

    def _chained_reference(self, regions: list, layout: Layout, snapshot: torch.Tensor, sample: list[int]) -> tuple:
        """The fp32 reference of sampled calls of a chained batch, from the inputs each call saw.

        A chained argument of call j begins with call j-1's output as the judge copied it out; the judge
        holds every other value itself. A call that wrote its input, or an earlier output, makes the two
        disagree.
        """
        per_call = [layout.chained_args(regions, snapshot, j) for j in sample]
        args = []
        for position, (slot, region) in enumerate(zip(layout.inputs, regions, strict=True)):
            if not slot.is_tensor or region.stride(0) == 0:
                args.append(per_call[0][position])
            else:
                args.append(torch.cat([call[position] for call in per_call], 0))
        return tuple(t.float() for t in self.spec.as_outputs(self.spec.reference(*args)))

    def _reference(self, regions: list, layout: Layout, sample: list[int], count: int, fn=None) -> tuple:
        """The fp32 reference of the sampled sets, in one call: their inputs stacked along the leading dim.

        `fn`: another function of the op's arguments to compute instead (the native baseline's own ops).
        """
        index = None if len(sample) == count else torch.tensor(sample, device=self.device)
        args = []
        for slot, region in zip(layout.inputs, regions, strict=True):
            if not slot.is_tensor:
                args.append(region)
            elif region.stride(0) == 0:  # shared: one tensor for every set
                args.append(region[0])
            else:
                picked = region[:count] if index is None else region.index_select(0, index)
                args.append(picked.reshape(len(sample) * slot.shape[0], *slot.shape[1:]))
        return tuple(t.float() for t in self.spec.as_outputs((fn or self.spec.reference)(*args)))

    def _rounds(self, seats: list[Seat], shape: NamedShape, dtype: torch.dtype, counts: dict[str, int], notes) -> None:
        op_layout = next(s.layout for s in seats if s.name == "candidate")
        started = time.monotonic()
        round_index = 0
        while True:
            extra = round_index >= self.request.batches
            if extra and not self._more_rounds(seats, round_index, started):
                return
            scopes = ["graph"] if extra else self.rng.sample(list(counts), len(counts))  # extra: graph only
            for scope in scopes:
                self._round(seats, shape, dtype, scope, counts[scope], round_index, op_layout, notes, extra)
            with self.clock.phase("escapes"):
                self._check_escapes(seats, notes)
            round_index += 1

    def _more_rounds(self, seats: list[Seat], rounds: int, started: float) -> bool:
        """Past `batches`: another round of the candidate and incumbent while their ratio is not yet known well."""
        by_name = {s.name: s for s in self._live(seats)}
        if not self.cuda:  # CPU timings are no performance figures: no rounds spent narrowing them
            return False
        if "incumbent" not in by_name or "candidate" not in by_name:
            return False
        if rounds >= EXTRA_ROUNDS_FACTOR * self.request.batches or time.monotonic() - started > SHAPE_BUDGET_S:
            return False
        # The graph scope only: eager batches follow the host's speed, which more rounds narrow too slowly to
        # pay for (benchmarks/probes/timing_noise.md).
        if "graph" not in by_name["candidate"].counts:
            return False
        mine, theirs = by_name["candidate"].totals["graph"], by_name["incumbent"].totals["graph"]
        if len(mine) != len(theirs) or len(mine) < 3:
            return False
        speedups = stats.per_round_ratios(theirs, mine)
        confidence = rule.shape_confidence(len(self.request.shapes) * len(self.request.dtypes))
        if rule.beyond_noise(speedups, confidence):
            return False  # this shape's verdict is in, as tools/evaluator/decide.py will take it
        median, low, high = stats.median_interval(speedups)
        return (high - low) / 2 / median > RATIO_HALF_WIDTH

    def _round(self, seats, shape, dtype, scope: str, count: int, round_index: int, op_layout, notes, extra: bool):
        """One batch of every seat timed this round in one scope, the candidate's and incumbent's back to back.

        Extra rounds, and against an incumbent the rounds past YARDSTICK_ROUNDS, time the candidate, the
        incumbent and the null seat only. Back to back: on the H200's VM the host ran whole stretches of
        batches up to 2x slower, so a pair's ratio is closest when its two batches are.
        """
        against = any(s.name == "incumbent" for s in self._live(seats))
        pair_only = extra or (against and round_index >= YARDSTICK_ROUNDS)
        timed = [
            s
            for s in self._live(seats)
            if not (scope == "graph" and s.graph_error)
            and (not pair_only or s.name in ("candidate", "incumbent", "null"))
        ]
        need = max((s.counts[scope] for s in timed if s.name not in ("copy", "null")), default=count)
        with self.clock.phase("inputs"):
            regions = self._fresh_inputs(shape, dtype, max(count, need), op_layout)
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
                batch = self._batch(seat, scope, 1, regions)
                if batch.reply is not None and batch.reply.ok:
                    seat.totals[scope].append(batch.seconds)
                continue
            batch = self._checked_batch(
                seat, scope, seat.counts[scope], regions, checks, round_index, dtype, op_layout, notes
            )
            if batch is None:
                continue
            seat.totals[scope].append(batch.seconds)
            if batch.host is not None:
                seat.host.append(batch.host)
            if batch.reply.self_us is not None and seat.name == "candidate" and scope == "eager":
                seat.self_us.append(batch.reply.self_us)

    def _checked_batch(self, seat, scope, calls, regions, checks, round_index, dtype, op_layout, notes):
        """One timed batch, its outputs verified as the seat's checks say; None if the seat failed."""
        batch = self._batch(seat, scope, calls, regions)
        reply, snapshot = batch.reply, batch.snapshot
        if reply is None:
            return None
        if not reply.ok:
            self._fail_seat(seat, f"raised in a timed batch ({scope}): {reply.error}", notes)
            return None
        full = seat.name in VERIFIED_EVERY_ROUND or round_index == 0
        if full or seat.name in NAN_CHECKED_EVERY_ROUND:
            if calls not in checks:
                checks[calls] = (self._sample(calls, op_layout.set_output_bytes), {})
            sample, shared = checks[calls]
            with self.clock.phase("verify"):
                why = self._verify(seat, snapshot, calls, regions, shared, sample, dtype, full)
            if why:
                self._fail_seat(seat, f"{scope} batch {round_index + 1}: {why}", notes)
                return None
        return batch

    def _check_escapes(self, seats: list[Seat], notes: list[str]) -> None:
        """A process of an untrusted runner outside its process group is not stopped between turns: it fails.

        Every process a runner starts stays under its keeper (tools/evaluator/confine.py), double forks and
        new sessions included, so the judge finds them all there.
        """
        for seat in self._live(seats):
            if seat.trusted:
                continue
            runner = seat.runner
            group = runner.pid
            found = [p for p in runner.processes() if p != group and _group_of(p) not in (group, None)]
            if found:
                self._fail_seat(
                    seat,
                    f"started {len(found)} process(es) outside its process group (pid {found[0]}), which its stop "
                    "between turns would not reach",
                    notes,
                )

    def _sample(self, count: int, set_output_bytes: int) -> list[int]:
        size = max(1, min(count, VERIFY_CALLS, VERIFY_BYTES // max(set_output_bytes, 1)))
        return list(range(count)) if size == count else sorted(self.rng.sample(range(count), size))

    def _quiet(self, seat: Seat) -> None:
        """Wait for the GPU to be idle; one that stays busy after a runner's turn is that runner's doing."""
        waited = time.monotonic()
        while statistics.median([self._probe_us() for _ in range(QUIET_PROBES)]) > self.quiet_limit_us:
            if time.monotonic() - waited > QUIET_WAIT_S:
                last = self.last_seat
                why = f"left work running on the GPU after its answer (still busy {QUIET_WAIT_S * 1e3:.0f} ms later)"
                if last is not None and not last.trusted and not last.dropped:
                    self._fail_seat(last, why, [])
                    if last.name != "candidate":
                        self.notes.append(f"{last.name} {why}")
                else:
                    self.notes.append("the GPU was busy before a batch with work from outside this evaluation")
                return
            time.sleep(0.002)

    def _batch(self, seat: Seat, scope: str, count: int, regions: list) -> Batch:
        """Fill, poison, time one batch, copy its outputs out (no reply: the seat failed or was dropped).

        The window runs from go to the judge's own probe kernel done after the answer: on one GPU the
        probe runs after work the runner left queued, within a time slice; a GPU still busy after that is
        the runner's doing and fails it. Copying the outputs out for the checks happens after the clock:
        the judge pays for its own checks outside the figure it reports.
        """
        null = seat.name == "null"
        phase = self.clock.phase
        with phase("refill"):
            if not null:
                layout, arenas = seat.layout, _tensors(seat)
                if seat.name != "copy":
                    for slot, region in zip(layout.inputs, regions, strict=True):
                        if slot.is_tensor:
                            layout.input_region(arenas, slot, count).copy_(region[:count])
                layout.poison(arenas[OUTPUT_ARENA], count)
            if self.cuda:
                self._flush.zero_()
            self._sync()
        if seat.name in PREPARED_EVERY_BATCH:
            with phase("prepare"):
                self._prepare(seat, seat.graph_calls if scope == "graph" else count)
            if seat.dropped:
                return Batch()
        if self.cuda:
            with phase("quiet"):
                self._quiet(seat)
            if seat.dropped:
                return Batch()
        delivered = seat.name in DELIVERED
        if scope == "graph":
            message = {"op": "replay", "plan": seat.plan}
        else:
            message = {"op": "run", "plan": seat.plan, "count": 1 if null else count, "self_time": True}
            message["keep"] = delivered
        runner = seat.runner
        watch = scope == "eager" and not null  # where host time went (read, never decided on)
        window = time.perf_counter()
        before = confine.cpu_use(runner.pid) if watch else None
        core = getattr(self, "timing_core", None) if watch else None
        stolen = confine.steal_ns(core) if core is not None else None
        runner.resume()
        start = time.perf_counter()
        try:
            runner.send(message)
            reply = runner.receive(self.deadline, f"a timed {scope} batch")
        except (RunnerFailed, OSError) as err:
            runner.pause()
            self._fail_seat(seat, self._crash_hint(str(err)), [])
            return Batch()
        runner.pause()
        if self.cuda:
            self._probe.add_(1)
            self._sync()
        total = time.perf_counter() - start
        self.clock.seconds["window"] += time.perf_counter() - window
        host = None
        if before is not None:
            used = confine.cpu_use(runner.pid).since(before)
            host = HostUse(
                main_us=round(used.main_ns / 1e3 / count, 3),
                others_us=round(used.others_ns / 1e3 / count, 3),
                waited_us=round(used.waited_ns / 1e3 / count, 3),
            )
            if stolen is not None:
                after = confine.steal_ns(core)
                host.steal_us = round((after - stolen) / 1e3 / count, 3) if after is not None else None
        self.last_seat = seat
        if self.cuda and not seat.trusted and self._busy():
            self._fail_seat(
                seat,
                "left work running on the GPU after its answer (the GPU was still busy once the judge's probe "
                "had run): work not done in its timed calls",
                [],
            )
            return Batch()
        if null:
            return Batch(total, reply, None, host)
        if delivered:  # its results into the buffers, off the clock
            try:
                reply_out = runner.ask({"op": "deliver", "plan": seat.plan, "scope": scope}, self.deadline)
            except RunnerFailed as err:
                self._fail_seat(seat, str(err), [])
                return Batch()
            if not reply_out.ok:
                self._fail_seat(seat, f"raised delivering its results: {reply_out.error}", [])
                return Batch()
        with phase("copy-out"):
            snapshot = self._snapshot_buffer(seat)
            outputs = seat.arenas[OUTPUT_ARENA].tensor
            for slot in seat.layout.outputs:  # the outputs as they are now: nothing the runner does later counts
                end = slot.offset + slot.stride * count
                snapshot[slot.offset : end].copy_(outputs[slot.offset : end])
            self._sync()
        return Batch(total, reply, snapshot, host)

    def _busy(self) -> bool:
        """Whether the GPU is busy now: the median of a few of the judge's probe kernels is slow."""
        return statistics.median([self._probe_us() for _ in range(QUIET_PROBES)]) > self.quiet_limit_us

    def _fresh_batch(self, seats: list[Seat], shape: NamedShape, dtype: torch.dtype, notes: list[str]) -> None:
        """A few chained calls of the candidate on tensors allocated as a model allocates them, untimed, verified.

        The runner copies each call's inputs into ordinary torch allocations, calls the op on those and copies
        the results back: a kernel honest only on the judge's buffers (their storage gives them away) fails.
        """
        candidate = next((s for s in self._live(seats) if s.name == "candidate"), None)
        if candidate is None or candidate.arenas is None:
            return
        count = min(FRESH_CALLS, candidate.layout.sets)
        regions = self._fresh_inputs(shape, dtype, count, candidate.layout)
        layout, arenas = candidate.layout, _tensors(candidate)
        for slot, region in zip(layout.inputs, regions, strict=True):
            if slot.is_tensor:
                layout.input_region(arenas, slot, count).copy_(region[:count])
        layout.poison(arenas[OUTPUT_ARENA], count)
        self._sync()
        try:
            message = {"op": "fresh", "plan": candidate.plan, "calls": list(range(count))}
            reply = candidate.runner.ask(message, self.deadline, what="calling on its own allocations")
        except RunnerFailed as err:
            self._fail_seat(candidate, str(err), notes)
            return
        self._settle(candidate)
        if not reply.ok:
            self._fail_seat(candidate, f"raised on tensors allocated as a model allocates them: {reply.error}", notes)
            return
        snapshot = self._snapshot_buffer(candidate)
        snapshot.copy_(arenas[OUTPUT_ARENA][: snapshot.numel()])
        self._sync()
        why = self._verify(candidate, snapshot, count, regions, {}, list(range(count)), dtype)
        if why:
            self._fail_seat(candidate, f"on tensors allocated as a model allocates them: {why}", notes)

    def _prepare(self, seat: Seat, count: int) -> None:
        """Liger's layouts (copies of the inputs its API wants) redone from the refilled inputs, before the clock."""
        try:
            message = {"op": "prepare", "plan": seat.plan, "count": count}
            reply = seat.runner.ask(message, self.deadline, what="preparing")
        except RunnerFailed as err:
            self._fail_seat(seat, str(err), [])
            return
        if not reply.ok:
            self._fail_seat(seat, f"raised while preparing its inputs: {reply.error}", [])

    def _snapshot_buffer(self, seat: Seat) -> torch.Tensor:
        key = (seat.name, seat.arenas[OUTPUT_ARENA].nbytes)
        if key not in self._snapshots:
            self._snapshots[key] = torch.empty(key[1], dtype=torch.uint8, device=self.device)
        return self._snapshots[key]

    @staticmethod
    def _crash_hint(message: str) -> str:
        if "SIGSEGV" in message or "illegal memory access" in message:
            message += " (its inputs are mapped read-only: a write into an input faults)"
        return message

    def _verify(self, seat: Seat, snapshot, count: int, regions, shared: dict, sample: list[int], dtype, full=True):
        """Why the batch's outputs are wrong, or None: every call checked for NaN, the sample against the reference.

        `shared`: the reference of separate (unchained) sets, computed once per round and reused by every
        seat timed on them; a chained seat's calls saw inputs of its own making, so its reference is its own.
        `full` False: the NaN check only.
        """
        if seat.name == "null":
            return None
        layout, spec = seat.layout, self.spec
        if seat.name == "copy":  # chained as the op: each call's copy is its source as the previous copy led it
            sources = [layout.input_region(_tensors(seat), layout.inputs[0], count)]
            copies = layout.region(snapshot, layout.outputs[0], count)
            right = all(torch.equal(copies[j], layout.chained_args(sources, snapshot, j)[0]) for j in sample)
            return None if right else "the copy is wrong"
        for position, slot in enumerate(layout.outputs):
            region = layout.region(snapshot, slot, count).reshape(count, -1)
            unwritten = torch.isnan(region).any(dim=1)
            if bool(unwritten.any()):
                calls = unwritten.nonzero().flatten().tolist()
                return (
                    f"{len(calls)} of {count} calls left output `{spec.outputs[position]}` unwritten "
                    f"(NaN-poisoned) in a timed batch, first call {calls[0]}: the work was not done in the timed calls"
                )
        if not full:
            return None
        if layout.chain:
            refs = self._chained_reference(regions, layout, snapshot, sample)
        elif seat.name == "native":
            # torch's own ops round in the model dtype, more than once: held to what those ops give here, not to
            # the spec's one rounding (the judge computes them itself, on the same sampled sets).
            refs = self._reference(regions, layout, sample, count, fn=native_op(spec.name))
        else:
            key = (count, tuple(sample))
            if key not in shared:
                shared[key] = self._reference(regions, layout, sample, count)
            refs = shared[key]
        index = None if len(sample) == count else torch.tensor(sample, device=self.device)
        outs = []
        for slot in layout.outputs:
            region = layout.region(snapshot, slot, count)
            picked = region if index is None else region.index_select(0, index)
            outs.append(picked.reshape(len(sample) * slot.shape[0], *slot.shape[1:]))
        comparison = spec.compare_to(tuple(outs) if spec.multi_output else outs[0], tuple(refs), dtype, detail=False)
        if comparison.ok:
            return None
        lead = layout.outputs[0].shape[0] or 1
        call = sample[comparison.first_bad_index[0] // lead] if comparison.first_bad_index else sample[0]
        return f"call {call} of a timed batch is wrong: {comparison.message}"

    def _results(self, record: ShapeBenchmark, seats: list[Seat], counts: dict[str, int], notes: list[str]) -> None:
        by_name = {s.name: s for s in seats}
        candidate = by_name["candidate"]
        null = by_name.get("null")
        for scope in counts:
            if candidate.dropped:
                raise StageFailed(candidate.dropped)
            if not candidate.totals[scope]:
                if scope == "graph" and candidate.graph_error:
                    notes.append(candidate.graph_error)
                continue
            result = ScopeResult()
            per_call: dict[str, list[float]] = {}
            for seat in seats:
                if seat.name == "null" or seat.dropped or not seat.totals[scope]:
                    field_name = "roofline" if seat.name == "copy" else seat.name
                    if seat.name != "null" and scope == "graph" and seat.graph_error:
                        result.errors[field_name] = seat.graph_error
                    elif seat.name != "null" and seat.dropped:
                        result.errors[field_name] = seat.dropped[:300]
                    continue
                count = seat.counts[scope]
                nulls = null.totals.get(scope) if null else None
                # On the CPU, waking a stopped process costs milliseconds that vary with load: subtracting its
                # median would leave noise of the size of the work, so CPU figures keep the round trip in them.
                base = statistics.median(nulls) if nulls and self.cuda else 0.0
                if seat.name == "candidate" and statistics.median(seat.totals[scope]) < 1.25 * base:
                    notes.append(
                        f"{scope}: the batches were mostly the judge's own round trip "
                        f"({1e3 * base:.2f} of {1e3 * statistics.median(seat.totals[scope]):.2f} ms): a rough figure"
                    )
                values = [max(total - base, 1e-3 * total) / count * 1e6 for total in seat.totals[scope]]
                per_call[seat.name] = values
                method = "graph" if scope == "graph" else ("eager" if self.cuda else "wall")
                timing = stats.timing(values, count, method)
                if scope == "eager" and len(seat.host) == len(values):
                    timing.host = [h.model_copy() for h in seat.host]
                setattr(result, "roofline" if seat.name == "copy" else seat.name, timing)
            mine = per_call["candidate"]
            for other in RIVALS:
                if other in per_call and len(per_call[other]) == len(mine):
                    setattr(result, f"speedup_vs_{other}", stats.paired_ratio(per_call[other], mine))
                elif other in per_call:
                    setattr(result, f"speedup_vs_{other}", _unpaired(per_call[other], mine))
            median_us = result.candidate.median_us
            result.gbps = record.bytes_moved / median_us / 1e3
            if result.roofline:
                result.copy_gbps = record.bytes_moved / result.roofline.median_us / 1e3
                result.fraction_of_copy = result.gbps / result.copy_gbps
            if candidate.self_us and scope == "eager":
                result.self_reported_us = statistics.median(candidate.self_us)
            setattr(record, scope, result)
            if record.ceiling_gbps and result.gbps > record.ceiling_gbps * ROOFLINE_SLACK:
                record.status = "measurement_error"
                notes.append(
                    f"{scope}: {result.gbps:.0f} GB/s is above the device's copy bandwidth "
                    f"({record.ceiling_gbps:.0f} GB/s)"
                )
            bound = self.spec.copy_bound
            nulls = null.totals.get(scope) if null else None
            round_trip = statistics.median(nulls) if nulls else 0.0
            mostly_work = self.cuda or statistics.median(candidate.totals[scope]) >= CPU_WORK_FACTOR * round_trip
            if not mostly_work and (result.fraction_of_copy or 0) > bound:
                notes.append(
                    f"{scope}: {result.fraction_of_copy:.2f}x a copy's speed, not held to the bound of {bound:.2f}: "
                    "the batches were mostly the judge's round trip (a loaded CPU)"
                )
            elif beyond_the_copy(result, per_call, bound, self.cuda):
                record.status = "measurement_error"
                notes.append(
                    f"{scope}: {result.fraction_of_copy:.2f}x the speed of a copy of the same bytes timed the same "
                    f"way, above {self.spec.name}'s bound of {bound:.2f}: no call moves its bytes that much faster "
                    "than a copy, so its calls did more than one call's work, or the timing failed"
                )


def beyond_the_copy(result: ScopeResult, per_call: dict[str, list[float]], bound: float, cuda: bool) -> bool:
    """Whether the candidate moved its bytes faster than `bound` times a copy of them, timed the same way.

    On a GPU by the medians. On the CPU, whose batches keep the judge's round trip (noise the size of the
    work, and the same in both), only where every round timing both was beyond: an honest file's median
    there stays under the bound (silu_mul, the closest, at 0.85 of the copy at decode), while a call that
    does other calls' work and returns at once is several times faster than a copy call.
    """
    if result.fraction_of_copy is None or result.fraction_of_copy <= bound:
        return False
    if cuda or "copy" not in per_call:
        return True
    copy = per_call["copy"]
    return min(stats.per_round_ratios(copy, per_call["candidate"][: len(copy)])) > bound


def _group_of(pid: int) -> int | None:
    try:
        return os.getpgid(pid)
    except (ProcessLookupError, PermissionError):
        return None


def _tensors(seat: Seat) -> tuple[torch.Tensor, torch.Tensor]:
    """A seat's (input, output) arenas as tensors, as the layout's fill and region helpers take them."""
    return tuple(arena.tensor for arena in seat.arenas)


def out_of_memory(err: BaseException) -> str:
    """The judge's own allocation failed: what a record says (torch's message, first sentences)."""
    return f"the judge ran out of GPU memory: {' '.join(str(err).split())[:300]}"


def _brief(why: str) -> str:
    """A seat's reason in one line: a traceback becomes the context before it and its exception's first line.

    Records keep a baseline's reason short; its head alone ("raised:     handler(message)", the H200's Liger
    failure) said nothing.
    """
    lines = [line.strip() for line in why.splitlines() if line.strip()]
    if len(lines) < 2:
        return why
    return f"{lines[0].split(': ', 1)[0]}: {exception_line(why)}"


def _unpaired(slower: list[float], faster: list[float]) -> Ratio:
    """A ratio of medians where rounds could not be paired (a contestant missed some)."""
    return Ratio(median=statistics.median(slower) / statistics.median(faster), rounds=min(len(slower), len(faster)))
