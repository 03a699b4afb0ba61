"""Human-readable views of evaluation records: terminal tables and markdown."""

from __future__ import annotations

from collections import defaultdict

from tools.records import EvalRecord, ShapeBenchmark, ShapeCorrectness


def _fmt(value: float | None, spec: str, suffix: str = "") -> str:
    return "-" if value is None else f"{value:{spec}}{suffix}"


def _vs_liger(b: ShapeBenchmark | None) -> str:
    """The speedup over Liger-Kernel; "liger wrong" when its output failed the spec (so it was not timed)."""
    if b is not None and b.liger_status == "wrong":
        return "liger wrong"
    if b is not None and b.liger_status == "failed":
        return "liger failed"
    return _fmt(b.speedup_vs_liger if b else None, ".2f", "x")


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
                "vs_liger": _vs_liger(b),
            }
        )
    return rows


def liger_note(record: EvalRecord, limit: int = 3) -> str | None:
    """Why the Liger baseline is missing from some shapes (not installed, wrong, failed); None when it is not."""
    missed = [b for b in record.benchmark if b.liger_status not in (None, "ok")]
    if not missed:
        return None
    reasons = list(
        dict.fromkeys(part for b in missed for part in b.note.split("; ") if part.startswith(("liger ", "liger:")))
    )
    shown = "; ".join(reasons[:limit]) + (f"; and {len(reasons) - limit} more" if len(reasons) > limit else "")
    return f"Liger-Kernel baseline missing on {len(missed)}/{len(record.benchmark)} shape(s): {shown}"


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
    "vs_liger": "vs liger",
}


def bench_markdown(op: str, records: list[EvalRecord]) -> str:
    """A markdown table comparing backends per shape, plus the environment it was measured in."""
    env = next((r.environment for r in records if r.environment), None)
    lines = [f"# {op}: benchmark", ""]
    if env:
        shown = {"torch", "triton", "tilelang", "ninetoothed", "liger_kernel"}
        versions = ", ".join(f"{k} {v}" for k, v in env.versions.items() if k in shown)
        lines += [f"Device: {env.device or 'CPU'} (driver {env.driver or '-'}); {versions}.", ""]
    lines += [
        "Median of L2-flushed calls (CUDA events); GB/s from bytes_moved; % of copy = fraction of a "
        "device-to-device copy of the same bytes timed the same way; speedups are within one run. "
        "vs liger: over Liger-Kernel's kernel for the op (tools/liger.py), timed only once its output "
        "matched the spec (`liger wrong` otherwise); `-` where it was not installed or has no kernel.",
        "",
    ]
    for record in records:
        lines.append(f"## {op}[{record.backend}]: {record.status}")
        lines.append("")
        lines.append(f"{record.message}")
        lines.append("")
        note = liger_note(record)
        if note:
            lines += [note, ""]
        rows = shape_rows(record)
        if not rows:
            continue
        lines.append("| " + " | ".join(COLUMNS.values()) + " |")
        lines.append("|" + "---|" * len(COLUMNS))
        for row in rows:
            lines.append("| " + " | ".join(row[k] for k in COLUMNS) + " |")
        lines.append("")
    return "\n".join(lines)
