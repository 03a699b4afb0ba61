"""A seat: one contestant at one shape, with its runner, arenas, plan and what it has measured so far.

A seat that fails is dropped with its reason in the shape's note; the candidate's seat failing fails
the stage (`fail_seat` raises StageFailed for it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import torch

from tools.evaluator.buffers import Arena
from tools.evaluator.layout import Layout
from tools.evaluator.process import RunnerProcess, exception_line
from tools.evaluator.records import HostUse
from tools.evaluator.stages import StageFailed
from workbench.kernels.spec import ChainLink, OpSpec

LABELS = {
    "torch": "torch eager baseline",
    "compiled": "torch.compile baseline",
    "liger": "liger baseline",
    "native": "native baseline",
}


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

    def tensors(self) -> tuple[torch.Tensor, torch.Tensor]:
        """The (input, output) arenas as tensors, as the layout's fill and region helpers take them."""
        return tuple(arena.tensor for arena in self.arenas)


def live(seats: list[Seat]) -> list[Seat]:
    return [s for s in seats if not s.dropped]


def fail_seat(seat: Seat, why: str, notes: list[str]) -> None:
    """The candidate's failure fails the stage; any other seat is dropped, and `notes` say why."""
    if seat.name == "candidate":
        raise StageFailed(why)
    seat.dropped = brief(why)
    notes.append(f"{LABELS.get(seat.name, seat.name)} not timed: {seat.dropped}"[:400])


def brief(why: str) -> str:
    """A seat's reason in one line: a traceback becomes the context before it and its exception's first line.

    Records keep a baseline's reason short; its head alone ("raised:     handler(message)", the H200's Liger
    failure) said nothing.
    """
    lines = [line.strip() for line in why.splitlines() if line.strip()]
    if len(lines) < 2:
        return why
    return f"{lines[0].split(': ', 1)[0]}: {exception_line(why)}"


def op_layout(spec: OpSpec, args: tuple, sets: int, chain: tuple[ChainLink, ...] = ()) -> Layout:
    """The layout of `sets` calls of the op on arguments like `args` (chained as `chain` says)."""
    outs = spec.as_outputs(spec.empty_out(args))
    return Layout(args, outs, sets, spec.multi_output, chain=chain)
