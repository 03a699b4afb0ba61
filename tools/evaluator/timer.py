"""One timed batch of one seat, on the judge's clock, and the blame for a GPU left busy.

The window runs from go to the judge's own probe kernel done after the answer: on one GPU the probe
runs after work the runner left queued, within a time slice; a GPU still busy after that is the
runner's doing and fails it. Inputs are refilled and outputs poisoned before the window; the outputs
are copied out for the checks after it: the judge pays for its own checks outside the figure it reports.
"""

from __future__ import annotations

import time

import torch

from tools.evaluator import confine
from tools.evaluator.clock import QUIET_WAIT_S, DeviceClock
from tools.evaluator.layout import OUTPUT_ARENA
from tools.evaluator.process import RunnerFailed
from tools.evaluator.records import HostUse
from tools.evaluator.seats import Batch, Seat, fail_seat
from tools.evaluator.stages import Deadlines, PhaseClock, crash_hint

# Contestants whose inputs are copies in another layout (Liger's RoPE and SwiGLU), redone from the refilled
# inputs before each batch, untimed: without it they computed on the first batch's values.
PREPARED_EVERY_BATCH = ("liger",)
# Yardsticks whose API returns a fresh result (contestants.Delivered): timed computing it, then written into
# the judge's buffers after the clock. Timing their copy into out= had doubled Liger rms_norm's bytes. Their
# results reach the buffers only after the batch, so their calls cannot be chained: each computes on a set
# of its own (trusted code, timed for comparison only).
DELIVERED = ("torch", "liger", "native")


class BatchTimer:
    """Times batches on `clock`, phases into `phases`; `notes` are the evaluation's (a busy GPU is said there)."""

    def __init__(
        self,
        clock: DeviceClock,
        phases: PhaseClock,
        deadlines: Deadlines,
        notes: list[str],
        timing_core: int | None,
    ) -> None:
        self.clock = clock
        self.phases = phases
        self.deadlines = deadlines
        self.notes = notes
        self.timing_core = timing_core
        self.last_seat: Seat | None = None
        self._snapshots: dict[tuple, torch.Tensor] = {}

    def forget_snapshots(self) -> None:
        """The output copies of a shape's seats, freed once the shape is done."""
        self._snapshots = {}

    def settle(self, seat: Seat) -> None:
        """After an untimed request: GPU work a contestant's runner left running is found, and blamed, now.

        On the H200 a cheat that spun once during a graph capture went unblamed: the next batch's quiet
        check followed another seat's turn.
        """
        self.last_seat = seat
        if self.clock.cuda and not seat.trusted and not seat.dropped:
            self.quiet()

    def quiet(self) -> None:
        """Wait for the GPU to be idle; one that stays busy after a runner's turn is that runner's doing."""
        if self.clock.wait_quiet():
            return
        last = self.last_seat
        why = f"left work running on the GPU after its answer (still busy {QUIET_WAIT_S * 1e3:.0f} ms later)"
        if last is not None and not last.trusted and not last.dropped:
            fail_seat(last, why, [])
            if last.name != "candidate":
                self.notes.append(f"{last.name} {why}")
        else:
            self.notes.append("the GPU was busy before a batch with work from outside this evaluation")

    def batch(self, seat: Seat, scope: str, count: int, regions: list) -> Batch:
        """Fill, poison, time one batch, copy its outputs out (no reply: the seat failed or was dropped)."""
        null = seat.name == "null"
        phase = self.phases.phase
        with phase("refill"):
            if not null:
                layout, arenas = seat.layout, seat.tensors()
                if seat.name != "copy":
                    for slot, region in zip(layout.inputs, regions, strict=True):
                        if slot.is_tensor:
                            layout.input_region(arenas, slot, count).copy_(region[:count])
                layout.poison(arenas[OUTPUT_ARENA], count)
            self.clock.flush()
            self.clock.sync()
        if seat.name in PREPARED_EVERY_BATCH:
            with phase("prepare"):
                self._prepare(seat, seat.graph_calls if scope == "graph" else count)
            if seat.dropped:
                return Batch()
        if self.clock.cuda:
            with phase("quiet"):
                self.quiet()
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
        core = self.timing_core if watch else None
        stolen = confine.steal_ns(core) if core is not None else None
        runner.resume()
        start = time.perf_counter()
        try:
            runner.send(message)
            reply = runner.receive(self.deadlines.overall, f"a timed {scope} batch")
        except (RunnerFailed, OSError) as err:
            runner.pause()
            fail_seat(seat, crash_hint(str(err)), [])
            return Batch()
        runner.pause()
        self.clock.stop()
        total = time.perf_counter() - start
        self.phases.seconds["window"] += time.perf_counter() - window
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
        if self.clock.cuda and not seat.trusted and self.clock.busy():
            fail_seat(
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
                reply_out = runner.ask({"op": "deliver", "plan": seat.plan, "scope": scope}, self.deadlines.overall)
            except RunnerFailed as err:
                fail_seat(seat, str(err), [])
                return Batch()
            if not reply_out.ok:
                fail_seat(seat, f"raised delivering its results: {reply_out.error}", [])
                return Batch()
        with phase("copy-out"):
            snapshot = self.snapshot_buffer(seat)
            outputs = seat.arenas[OUTPUT_ARENA].tensor
            for slot in seat.layout.outputs:  # the outputs as they are now: nothing the runner does later counts
                end = slot.offset + slot.stride * count
                snapshot[slot.offset : end].copy_(outputs[slot.offset : end])
            self.clock.sync()
        return Batch(total, reply, snapshot, host)

    def _prepare(self, seat: Seat, count: int) -> None:
        """Liger's layouts (copies of the inputs its API wants) redone from the refilled inputs, before the clock."""
        try:
            message = {"op": "prepare", "plan": seat.plan, "count": count}
            reply = seat.runner.ask(message, self.deadlines.overall, what="preparing")
        except RunnerFailed as err:
            fail_seat(seat, str(err), [])
            return
        if not reply.ok:
            fail_seat(seat, f"raised while preparing its inputs: {reply.error}", [])

    def snapshot_buffer(self, seat: Seat) -> torch.Tensor:
        """The judge's buffer for a copy of the seat's outputs (one per seat and size, reused across batches)."""
        key = (seat.name, seat.arenas[OUTPUT_ARENA].nbytes)
        if key not in self._snapshots:
            self._snapshots[key] = torch.empty(key[1], dtype=torch.uint8, device=self.clock.device)
        return self._snapshots[key]
