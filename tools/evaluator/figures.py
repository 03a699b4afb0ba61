"""A shape's figures from its seats' batch times: per-call times, paired ratios, and the copy's bounds.

Per scope: each seat's batch times less the judge's own round trip (a null seat's batch, on a GPU),
per call; the candidate's ratio to each rival, paired round by round where both were timed in every
round; its bandwidth against the copy of the same bytes timed the same way. A figure above the
device's copy bandwidth, or faster than the copy beyond the op's `copy_bound`, is a measurement error.
"""

from __future__ import annotations

import statistics

from tools.evaluator import stats
from tools.evaluator.records import RIVALS, Ratio, ScopeResult, ShapeBenchmark
from tools.evaluator.seats import Seat
from tools.evaluator.stages import StageFailed
from workbench.kernels.spec import OpSpec

# On the CPU the copy bound holds where a batch of the candidate took at least this many times the judge's round
# trip (a batch of its null seat): below, both figures are mostly that round trip and its noise on a loaded machine.
CPU_WORK_FACTOR = 2.0
# A result above the device's large-copy bandwidth by more than this is a measurement error; not 1.05,
# as read-heavy ops outrun a copy's half-and-half mix (benchmarks/probes/copy.md).
ROOFLINE_SLACK = 1.15


def scope_results(
    record: ShapeBenchmark, seats: list[Seat], counts: dict[str, int], notes: list[str], spec: OpSpec, cuda: bool
) -> None:
    """`record`'s scopes from the seats' batch times (`counts`: the scopes timed); what is off goes into `notes`."""
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
            base = statistics.median(nulls) if nulls and cuda else 0.0
            if seat.name == "candidate" and statistics.median(seat.totals[scope]) < 1.25 * base:
                notes.append(
                    f"{scope}: the batches were mostly the judge's own round trip "
                    f"({1e3 * base:.2f} of {1e3 * statistics.median(seat.totals[scope]):.2f} ms): a rough figure"
                )
            values = [max(total - base, 1e-3 * total) / count * 1e6 for total in seat.totals[scope]]
            per_call[seat.name] = values
            method = "graph" if scope == "graph" else ("eager" if cuda else "wall")
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
                f"{scope}: {result.gbps:.0f} GB/s is above the device's copy bandwidth ({record.ceiling_gbps:.0f} GB/s)"
            )
        bound = spec.copy_bound
        nulls = null.totals.get(scope) if null else None
        round_trip = statistics.median(nulls) if nulls else 0.0
        mostly_work = cuda or statistics.median(candidate.totals[scope]) >= CPU_WORK_FACTOR * round_trip
        if not mostly_work and (result.fraction_of_copy or 0) > bound:
            notes.append(
                f"{scope}: {result.fraction_of_copy:.2f}x a copy's speed, not held to the bound of {bound:.2f}: "
                "the batches were mostly the judge's round trip (a loaded CPU)"
            )
        elif beyond_the_copy(result, per_call, bound, cuda):
            record.status = "measurement_error"
            notes.append(
                f"{scope}: {result.fraction_of_copy:.2f}x the speed of a copy of the same bytes timed the same "
                f"way, above {spec.name}'s bound of {bound:.2f}: no call moves its bytes that much faster "
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


def _unpaired(slower: list[float], faster: list[float]) -> Ratio:
    """A ratio of medians where rounds could not be paired (a contestant missed some)."""
    return Ratio(median=statistics.median(slower) / statistics.median(faster), rounds=min(len(slower), len(faster)))
