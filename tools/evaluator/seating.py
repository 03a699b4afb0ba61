"""Seating a shape: each contestant's seat, its arenas filled, warmed up, its graph captured, its calls per batch.

Before a shape's rounds: the candidate, the incumbent and every yardstick get arenas of their own
(chained as the op is, or separate sets for a yardstick that returns a fresh result, a copy layout for
the copy), one untimed call to warm up, on a GPU a CUDA graph sized by a probe graph, and a count of
calls per batch per scope from an untimed estimate. Nothing here is a figure of the record.
"""

from __future__ import annotations

import math
import time

import torch

from tools.evaluator.clock import DeviceClock
from tools.evaluator.layout import Layout, copy_source_bytes
from tools.evaluator.lineup import Lineup
from tools.evaluator.process import RunnerFailed
from tools.evaluator.seats import Seat, fail_seat, live, op_layout
from tools.evaluator.stages import PhaseClock
from tools.evaluator.timer import DELIVERED, BatchTimer
from workbench.kernels.spec import ChainLink, OpSpec

# Work per batch at least: on a GPU 2 ms (about 50x the judge's round trip); on the CPU, where waking a
# stopped process costs far more and varies with load, 20 ms.
BATCH_SECONDS = {"cuda": 2e-3, "cpu": 2e-2}
# An eager batch of the candidate and the incumbent; every other contestant's is sized to its own speed.
EAGER_BATCH_SECONDS = {"cuda": 5e-3, "cpu": 2e-2}
# Seats whose eager batches have the candidate's calls (a per-round ratio pairs them; the reference of a
# batch's sample is computed once per count).
PAIRED_EAGER_CALLS = ("candidate", "incumbent", "liger")
# A graph's calls per batch come from a probe graph of this many calls, replayed on the runner's clock
# (sizing only): every set made batches of 4-6 ms for calls at launch speed (H200: rope decode, 1024 sets).
GRAPH_PROBE_CALLS = 64
L2_MULTIPLE = 3  # the sets of a batch together exceed the L2 this many times, where MAX_SETS allow
MAX_SETS = 1024
ARENA_CAP_BYTES = {"cuda": 8 * 2**30, "cpu": 2**30}


def seats_of(lineup: Lineup, builtin_candidate: bool) -> list[Seat]:
    """A seat per contestant: the reference runner hosts several (torch, native, copy, null)."""
    seats = []
    for role, runner in lineup.runners.items():
        if role == "reference":
            names = [n for n in ("torch", "native", "copy", "null") if n in runner.contestant["names"]]
            seats += [Seat(name, runner, fn=name) for name in names]
        elif role == "candidate" and builtin_candidate:
            seats.append(Seat("candidate", runner, fn="torch"))
        else:
            seats.append(Seat(role, runner, fn=role if role in ("compiled", "liger") else "main"))
    return seats


def sets_for(clock: DeviceClock, layout_bytes: int, nbytes: int) -> int:
    """Input sets in a seat's arenas: enough for a batch's work and to exceed the L2, within the arena cap."""
    cap = ARENA_CAP_BYTES["cuda" if clock.cuda else "cpu"]
    most = max(2, min(MAX_SETS, cap // max(layout_bytes, 1)))
    if not clock.cuda:
        return min(most, 256)
    per_call = max(nbytes / 3.5e12, 2e-6)
    wanted = max(
        math.ceil(BATCH_SECONDS["cuda"] / per_call),
        math.ceil(L2_MULTIPLE * clock.l2_bytes() / max(layout_bytes, 1)),
    )
    return max(2, min(most, wanted))


class Seating:
    """Seats `spec`'s contestants for one shape in `lineup`'s runners; `timer` settles each after its request."""

    def __init__(
        self, spec: OpSpec, lineup: Lineup, clock: DeviceClock, timer: BatchTimer, phases: PhaseClock, graph: bool
    ) -> None:
        self.spec = spec
        self.lineup = lineup
        self.clock = clock
        self.timer = timer
        self.phases = phases
        self.graph = graph and clock.cuda
        self.deadline = lineup.deadlines.overall

    def prepare(self, seats: list[Seat], example: tuple, sets: int, nbytes: int, notes: list[str]) -> None:
        chained = op_layout(self.spec, example, sets, chain=self.spec.chain)
        separate = op_layout(self.spec, example, sets)
        half = copy_source_bytes(nbytes)
        # The copy is chained as the op is (its next call copies what this one wrote): the same traffic.
        copy_layout = Layout(
            (torch.empty(half, dtype=torch.uint8),),
            (torch.empty(half, dtype=torch.uint8),),
            sets,
            False,
            chain=(ChainLink(arg=0, output=0),),
        )
        phase = self.phases.phase
        with phase("share"):
            for seat in seats:
                if seat.name == "null":
                    continue
                layout = copy_layout if seat.name == "copy" else separate if seat.name in DELIVERED else chained
                try:
                    self.lineup.share(seat, layout)
                except RunnerFailed as err:
                    fail_seat(seat, str(err), notes)
                    continue
                arenas = seat.tensors()
                if seat.name == "copy":
                    layout.input_region(arenas, layout.inputs[0], sets).random_(0, 256)
                else:
                    seat.layout.fill_alike(arenas, example)
            null = next((s for s in seats if s.name == "null"), None)
            if null is not None:
                null.layout = Layout((), (), 1, False)
                null.plan = self.lineup.next_id()
                reply = null.runner.ask(null.layout.plan(null.plan, 0, 0, "null"), self.deadline)
                if not reply.ok:
                    raise RunnerFailed(f"the reference runner could not plan its null calls: {reply.error}")
            self.clock.sync()
        with phase("warm"):
            for seat in live(seats):
                self._warm(seat, notes)
        if self.graph:
            with phase("capture"):
                self._capture_all(seats, sets)

    def _warm(self, seat: Seat, notes: list[str]) -> None:
        try:
            reply = seat.runner.ask({"op": "run", "plan": seat.plan, "count": 1}, self.deadline, what="warming up")
        except RunnerFailed as err:
            fail_seat(seat, str(err), notes)
            return
        if not reply.ok:
            fail_seat(seat, f"raised: {reply.error}", notes)
            return
        self.timer.settle(seat)

    def _capture_all(self, seats: list[Seat], sets: int) -> None:
        """Each seat's graph, of as many calls as make BATCH_SECONDS of its work (a probe graph sizes it).

        The candidate and incumbent get the same count, from the faster of them; at least enough sets to
        exceed the L2 L2_MULTIPLE times where the arena holds them, at most every set.
        """
        per_call: dict[str, float] = {}
        probe = min(sets, GRAPH_PROBE_CALLS)
        for seat in live(seats):
            if seat.name == "null":
                continue
            measured = self._capture(seat, probe, timed=True)
            if measured is not None:
                per_call[seat.name] = measured
        l2 = self.clock.l2_bytes()
        pair = [per_call[n] for n in ("candidate", "incumbent") if n in per_call]
        for seat in live(seats):
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
            fail_seat(seat, str(err), [])
            return None
        if not reply.ok:
            last = (reply.error or "").strip().splitlines()
            seat.graph_error = f"CUDA-graph capture failed: {last[-1] if last else 'no reason given'}"[:400]
            return None
        seat.graph_calls = count
        # A graph's first launch uploads it (docs/judge_internals.md): one untimed replay, so no round pays.
        try:
            seat.runner.ask({"op": "replay", "plan": seat.plan}, self.deadline, what="replaying once")
            if timed:
                reply = seat.runner.ask(
                    {"op": "replay", "plan": seat.plan, "self_time": True}, self.deadline, what="sizing its graph"
                )
        except RunnerFailed as err:
            fail_seat(seat, str(err), [])
            return None
        self.timer.settle(seat)
        if not timed:
            return None
        value = reply.self_us if reply.ok else None
        return float(value) if isinstance(value, int | float) and value > 0 else None

    def counts(self, seats: list[Seat], sets: int) -> dict[str, int]:
        """Calls per batch, by scope and seat (`seat.counts`); returns the candidate's.

        Graph: every set. Eager: the candidate and incumbent as many as make EAGER_BATCH_SECONDS of the
        faster of them; each other contestant as many as make that batch of its own calls, at most as many.
        """
        graph = self.graph
        probe = min(sets, 16)
        null = next((s for s in seats if s.name == "null" and not s.dropped), None)
        base = (self._time_run(null, 1) or 0.0) if null else 0.0
        per_call: dict[str, float] = {}
        for seat in live(seats):
            if seat.name != "null":
                seconds = self._time_run(seat, probe)
                if seconds is not None:
                    per_call[seat.name] = max(max(seconds - base, 0.0) / probe, 1e-7)
        target = EAGER_BATCH_SECONDS["cuda" if self.clock.cuda else "cpu"]
        pair = [per_call[n] for n in ("candidate", "incumbent") if n in per_call]
        eager = max(2, min(sets, math.ceil(target / min(pair, default=target))))
        # On the CPU the copy makes the candidate's count of calls too: nothing is subtracted there, so a batch's
        # round trip shares out over its calls, and a copy of 2 calls beside a candidate of 100 read 5-8x slower.
        paired = PAIRED_EAGER_CALLS if self.clock.cuda else (*PAIRED_EAGER_CALLS, "copy")
        for seat in seats:
            own = eager if seat.name in paired or seat.name not in per_call else None
            if own is None:
                own = max(2, min(eager, math.ceil(target / per_call[seat.name])))
            seat.counts = {"eager": own, **({"graph": seat.graph_calls or sets} if graph else {})}
        pair_graph = [s.graph_calls for s in seats if s.name in ("candidate", "incumbent") and s.graph_calls]
        return {"eager": eager, **({"graph": max(pair_graph, default=sets)} if graph else {})}

    def _time_run(self, seat: Seat, count: int) -> float | None:
        """A rough untimed-window estimate (sizing only, never a result): one run of `count` calls."""
        self.clock.sync()
        start = time.perf_counter()
        reply = seat.runner.ask({"op": "run", "plan": seat.plan, "count": count}, self.deadline, what="sizing")
        seconds = time.perf_counter() - start
        self.timer.settle(seat)
        return seconds if reply.ok else None
