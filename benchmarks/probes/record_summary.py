"""Print where an evaluation's time went and how noisy its timings were, from its record(s).

    python benchmarks/probes/record_summary.py RECORD.json [...]

Per record: wall time and each stage's seconds with its phases; per scope the median of the
candidate's confidence-interval half-widths over shapes; for the eager scope the runner's CPU use
per call (main thread, other threads, waiting for a CPU) in the fastest and slowest batch of the
shape whose batches spread most.
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

from tools.evaluator.records import EvalRecord


def summarise(path: Path) -> str:
    record = EvalRecord.model_validate(json.loads(path.read_text()))
    lines = [f"{path.name}: {record.status} in {record.seconds:.1f} s"]
    for stage in record.stages:
        phases = ", ".join(f"{k} {v:.1f}" for k, v in sorted(stage.phases.items(), key=lambda kv: -kv[1]))
        lines.append(f"  {stage.name:<12} {stage.seconds:7.1f} s  {phases}")
    for scope in ("eager", "graph"):
        widths, ratios = [], []
        for bench in record.benchmark:
            result = bench.scope(scope)
            if result is None or result.candidate is None:
                continue
            if result.candidate.half_width is not None:
                widths.append(result.candidate.half_width)
            if result.speedup_vs_incumbent is not None:
                ratios.append(result.speedup_vs_incumbent.median)
        if widths:
            line = f"  {scope}: {len(widths)} shapes, median CI half-width {100 * statistics.median(widths):.1f}%"
            if ratios:
                inside = sum(0.98 <= r <= 1.02 for r in ratios)
                line += f"; vs incumbent {min(ratios):.3f}-{max(ratios):.3f}, {inside}/{len(ratios)} within 0.98-1.02"
            lines.append(line)
    spread = [
        (max(b.eager.candidate.batch_us) / min(b.eager.candidate.batch_us), b)
        for b in record.benchmark
        if b.eager and b.eager.candidate and b.eager.candidate.host and min(b.eager.candidate.batch_us) > 0
    ]
    if spread:
        _spread, bench = max(spread, key=lambda item: item[0])
        timing = bench.eager.candidate
        fast = timing.batch_us.index(min(timing.batch_us))
        slow = timing.batch_us.index(max(timing.batch_us))
        for label, i in (("fastest", fast), ("slowest", slow)):
            h = timing.host[i]
            lines.append(
                f"  eager {bench.shape} {label} batch {timing.batch_us[i]:.1f} µs/call: main thread {h.main_us:.1f}, "
                f"other threads {h.others_us:.1f}, waiting for a CPU {h.waited_us:.1f} µs/call"
            )
    lines += _steal_lines(record)
    return "\n".join(lines)


def _steal_lines(record: EvalRecord) -> list[str]:
    """How much of the candidate's eager batches the hypervisor took, and whether those batches ran slower."""
    hit, clean, stolen, total = [], [], 0.0, 0.0
    for bench in record.benchmark:
        timing = bench.eager.candidate if bench.eager else None
        if not timing or not timing.host or len(timing.host) != len(timing.batch_us):
            continue
        typical = sorted(timing.batch_us)[len(timing.batch_us) // 2]
        for us, host in zip(timing.batch_us, timing.host, strict=True):
            if host.steal_us is None:
                continue
            total += us
            stolen += host.steal_us
            (hit if host.steal_us > 0 else clean).append(us / typical)
    if not total:
        return []
    line = f"  eager steal on the timing core: {100 * stolen / total:.1f}% of the candidate's batch time"
    if hit and clean:
        line += (
            f"; batches with steal ran {sorted(hit)[len(hit) // 2]:.2f}x their shape's median "
            f"({len(hit)}), without {sorted(clean)[len(clean) // 2]:.2f}x ({len(clean)})"
        )
    return [line]


if __name__ == "__main__":
    for name in sys.argv[1:]:
        print(summarise(Path(name)))
