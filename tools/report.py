"""Human-readable views of evaluation records: terminal tables and markdown."""

from __future__ import annotations

from collections import defaultdict

from tools.records import EvalRecord, ShapeBenchmark, ShapeCorrectness


def _fmt(value: float | None, spec: str, suffix: str = "") -> str:
    return "-" if value is None else f"{value:{spec}}{suffix}"


def shape_rows(record: EvalRecord) -> list[dict[str, str]]:
    """One row per (shape, dtype): status, worst error over seeds, timing and ratios."""
    checks: dict[tuple[str, str], list[ShapeCorrectness]] = defaultdict(list)
    for c in record.correctness:
        checks[(c.shape, c.dtype)].append(c)
    bench: dict[tuple[str, str], ShapeBenchmark] = {(b.shape, b.dtype): b for b in record.benchmark}
    keys = list(dict.fromkeys([*checks, *bench]))
    rows = []
    for key in keys:
        runs = checks.get(key, [])
        b = bench.get(key)
        if runs and not all(r.ok for r in runs):
            status = "WRONG"
        elif b is not None and b.status != "ok":
            status = b.status.upper()
        else:
            status = "ok" if runs or b else "-"
        rows.append(
            {
                "shape": key[0],
                "dtype": key[1],
                "status": status,
                "max_err": _fmt(max((r.max_abs_err for r in runs), default=None), ".1e"),
                "median_us": _fmt(b.candidate.median_us if b else None, ".1f"),
                "graph_us": _fmt(b.graph.median_us if b and b.graph else None, ".2f"),
                "gbps": _fmt(b.gbps if b else None, ".0f"),
                "of_copy": _fmt(100 * b.fraction_of_copy if b and b.fraction_of_copy else None, ".0f", "%"),
                "vs_eager": _fmt(b.speedup_vs_eager if b else None, ".2f", "x"),
                "vs_compile": _fmt(b.speedup_vs_compiled if b else None, ".2f", "x"),
            }
        )
    return rows


COLUMNS = {
    "shape": "shape",
    "dtype": "dtype",
    "status": "status",
    "max_err": "max err",
    "median_us": "median us",
    "graph_us": "graph us/call",
    "gbps": "GB/s",
    "of_copy": "% of copy",
    "vs_eager": "vs eager",
    "vs_compile": "vs compile",
}


def bench_markdown(op: str, records: list[EvalRecord]) -> str:
    """A markdown table comparing backends per shape, plus the environment it was measured in."""
    env = next((r.environment for r in records if r.environment), None)
    lines = [f"# {op}: benchmark", ""]
    if env:
        versions = ", ".join(
            f"{k} {v}" for k, v in env.versions.items() if k in {"torch", "triton", "tilelang", "ninetoothed"}
        )
        lines += [f"Device: {env.device or 'CPU'} (driver {env.driver or '-'}); {versions}.", ""]
    lines += [
        "Median of L2-flushed calls (CUDA events); GB/s from bytes_moved; % of copy = fraction of a "
        "device-to-device copy of the same bytes timed the same way; speedups are within one run.",
        "",
    ]
    for record in records:
        lines.append(f"## {op}[{record.backend}]: {record.status}")
        lines.append("")
        lines.append(f"{record.message}")
        lines.append("")
        rows = shape_rows(record)
        if not rows:
            continue
        lines.append("| " + " | ".join(COLUMNS.values()) + " |")
        lines.append("|" + "---|" * len(COLUMNS))
        for row in rows:
            lines.append("| " + " | ".join(row[k] for k in COLUMNS) + " |")
        lines.append("")
    return "\n".join(lines)
