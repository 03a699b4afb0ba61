"""The judge asked once about a kernel file: its record and, against another file, the rule's decision.

Where the backend's kernels need a GPU and none is here, the answer is what could be done without one
(tools/evaluator/without_gpu.py) and no record. `agent eval` asks this and prints the answer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tools.evaluator.decide import Decision, decide
from tools.evaluator.options import EvalOptions
from tools.evaluator.records import EvalRecord
from tools.evaluator.without_gpu import WithoutGpu, check_without_gpu, needs_a_gpu
from tools.paths import default_candidate


@dataclass
class Verdict:
    """The record, and the decision against `against` (as the loop would take it); or the work done without a GPU."""

    record: EvalRecord | None = None
    decision: Decision | None = None  # with an incumbent whose batches were paired with the candidate's
    without_gpu: WithoutGpu | None = None

    @property
    def ok(self) -> bool:
        return self.record.status == "ok" if self.record is not None else self.without_gpu.ok


def judge_file(
    op: str,
    backend: str,
    candidate: str | Path | None,
    options: EvalOptions,
    *,
    against: str | Path | None = None,
    on_event: Callable[[dict], None] | None = None,
) -> Verdict:
    """Evaluate `candidate` (default: the backend's file) as `options` say, against `against` if given."""
    if needs_a_gpu(backend, options.device):
        path = Path(candidate) if candidate else default_candidate(op, backend)
        return Verdict(without_gpu=check_without_gpu(op, backend, path, options))
    from tools.evaluator.evaluate import evaluate

    record = evaluate(op, backend, candidate, options, incumbent=against, on_event=on_event)
    paired = any(b.scope(s) and b.scope(s).speedup_vs_incumbent for b in record.benchmark for s in ("graph", "eager"))
    decision = decide(record, against_best=True) if against is not None and paired else None
    return Verdict(record=record, decision=decision)
