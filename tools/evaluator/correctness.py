"""The correctness checks: each case's input sets through the runner, compared in the judge's own copy.

Per case (shape, dtype): each seed and one input set with rows of zeros and of extreme magnitudes,
written into the runner's read-only arena, outputs NaN-filled, the result compared in the judge's own
copy against the fp32 reference; inputs checked unchanged. The same sets again on tensors the runner
allocates as a model would (no arena in sight), and once as strided views (which the op may refuse
with its own error); in bf16 and fp16 the mean signed error must be that of round-to-nearest.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import torch

from tools.evaluator.clock import DeviceClock
from tools.evaluator.layout import Layout
from tools.evaluator.lineup import Lineup
from tools.evaluator.process import RunnerFailed
from tools.evaluator.records import ShapeCorrectness, StageResult
from tools.evaluator.seats import Seat
from tools.evaluator.stages import StageFailed, brief_error, crash_hint
from workbench.kernels.spec import NamedShape, OpSpec, parse_dtype, rounding_bias

# A case larger than this many elements (the long-context and long-prompt hidden shapes) is checked on one
# seed, and again off the judge's buffers on that one: it is there for index arithmetic, which one seed shows.
LARGE_CASE_ELEMENTS = 2**22


def seeds_for(shape: NamedShape, seeds: list[int]) -> list[int]:
    """The seeds a case is checked on: one for a large case, every one otherwise."""
    return seeds[:1] if math.prod(shape.dims) > LARGE_CASE_ELEMENTS else seeds


@staticmethod
def verdict(stage: str, results: list[ShapeCorrectness], crashed: str | None, shapes: int) -> StageResult:
    failures = [r for r in results if not r.ok]
    if crashed:
        earlier = f"; before that: {failures[0].shape} {failures[0].dtype}: {failures[0].message}" if failures else ""
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


class Correctness:
    """Checks cases of `spec` on `seeds` in their seats; `progress(stage, done, total, label)` says how far."""

    def __init__(
        self,
        spec: OpSpec,
        seeds: list[int],
        lineup: Lineup,
        clock: DeviceClock,
        progress: Callable[[str, int, int, str], None],
    ) -> None:
        self.spec = spec
        self.seeds = seeds
        self.lineup = lineup
        self.clock = clock
        self.deadlines = lineup.deadlines
        self.progress = progress

    def check_cases(self, cases, seats, stage: str) -> tuple[list[ShapeCorrectness], str | None]:
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
                self.lineup.unshare(seat)
        for seat in seats:
            self.lineup.unshare(seat)
        return results, crashed

    def _check_case(
        self, seat: Seat, shape: NamedShape, dtype_label: str, hidden: bool, stage: str = "correctness"
    ) -> list[ShapeCorrectness]:
        spec, dtype, device = self.spec, parse_dtype(dtype_label), self.clock.device.type
        seeds = seeds_for(shape, self.seeds)
        sets = [spec.inputs_for(shape, dtype, seed, device) for seed in seeds]
        labels = [(seed, False) for seed in seeds]
        if spec.hazards:
            hazard_seed = self.seeds[0] ^ 0x5A5A5A5
            sets.append(spec.hazards(*spec.inputs_for(shape, dtype, hazard_seed, device)))
            labels.append((hazard_seed, True))
        seat.layout.fill(seat.tensors(), sets)
        layout, (inputs, outputs) = seat.layout, seat.arenas
        layout.poison(outputs.tensor, len(sets))
        self.clock.sync()
        try:
            reply = seat.runner.ask(
                {"op": "run", "plan": seat.plan, "count": len(sets)},
                self.deadlines.of(stage),
                what=f"on {shape.name}",
            )
        except RunnerFailed as err:
            raise StageFailed(crash_hint(str(err)) + self.deadlines.note(stage)) from None
        snapshot = outputs.tensor.clone()  # what the outputs are now; nothing the runner does later counts
        self.clock.sync()
        if not reply.ok:
            raise StageFailed(f"raised on {shape.name} {dtype_label}: {brief_error(reply.error)}")
        refs = [spec.as_outputs(spec.reference(*args)) for args in sets]
        fresh = self._elsewhere(seat, sets[: len(seeds)], refs, dtype, shape, strided=False, stage=stage)
        strided = self._elsewhere(seat, sets[:1], refs, dtype, shape, strided=True, stage=stage)
        bias = self._bias(layout, snapshot, sets, labels, refs, dtype)
        results = []
        for i, (args, (seed, hazards)) in enumerate(zip(sets, labels, strict=True)):
            out = layout.set_outputs(snapshot, i)
            comparison = spec.compare_to(out, refs[i], dtype, scales=spec.term_scales(args))
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
        self.clock.sync()
        where = "on strided views (a slice of a wider tensor)" if strided else "on tensors allocated as a model does"
        try:
            reply = seat.runner.ask(
                {"op": "fresh", "plan": seat.plan, "calls": list(range(len(sets))), "strided": strided},
                self.deadlines.of(stage),
                what=f"{where} on {shape.name}",
            )
        except RunnerFailed as err:
            raise StageFailed(f"{where}: {crash_hint(str(err))}" + self.deadlines.note(stage)) from None
        snapshot = outputs.tensor.clone()
        self.clock.sync()
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
