"""Human-readable views of evaluation records: terminal tables and markdown, every timing with its scope.

Two scopes per shape (tools/evaluator/records.py): `eager` (host launch cost included) and `graph` (CUDA-graph
replay: device time). A row shows both per-call times and says which one bounds the call; bandwidth,
fraction of copy and speedups are of the record's decision scope, named in the column titles.
"""

from __future__ import annotations

import re
from collections import defaultdict

from tools.evaluator.records import EvalRecord, ShapeBenchmark, ShapeCorrectness

# Columns only a GPU fills: CUDA-graph replay, host/device bound (eager against graph), the copy roofline, and
# the torch.compile and Liger baselines (tools/evaluator/judge.py times those on a GPU only).
GPU_ONLY = ("graph_us", "bound", "of_copy", "vs_compile", "vs_liger")

CPU_NOTE = (
    "CPU run: these timings are the judge's wall clock on the CPU, with runners sharing its cores. They check "
    "the evaluator; they are not performance figures."
)
GPU_ONLY_NOTE = "Left out, as only a GPU measures them: graph µs/call, bound, % of copy, vs compile, vs liger."
ERROR_NOTE = (
    "max err (/tol): the largest |out - ref| of any check (seeds, hazard rows of huge and tiny values), so it grows "
    "with the values; in brackets, the largest |out - ref| / |ref| over the dtype's relative tolerance (bf16 2^-7, "
    "fp16 2^-10, fp32 1e-5), where 1 is the limit: 0.50 is one rounding of the exact result."
)


def _fmt(value: float | None, spec: str, suffix: str = "") -> str:
    return "-" if value is None else f"{value:{spec}}{suffix}"


def gbps_text(value: float | None) -> str:
    """GB/s to three significant figures (a whole number from 100 up): 4823, 47.7, 0.0234."""
    if value is None:
        return "-"
    return f"{value:.0f}" if value >= 100 else f"{value:.3g}"


def _us(b: ShapeBenchmark | None, scope: str) -> str:
    result = b.scope(scope) if b else None
    if result is None or result.candidate is None:
        return "-"
    t = result.candidate
    noise = t.half_width
    return f"{t.median_us:.2f}" + (f" ±{100 * noise:.0f}%" if noise is not None and noise >= 0.005 else "")


def _vs(b: ShapeBenchmark | None, scope: str | None, against: str) -> str:
    if b is None or scope is None:
        return "-"
    if against == "liger" and b.liger_status in ("wrong", "failed"):
        return f"liger {b.liger_status}"
    result = b.scope(scope)
    ratio = getattr(result, f"speedup_vs_{against}", None) if result else None
    return _fmt(ratio.median if ratio else None, ".2f", "x")


def relative_tolerance(op: str, dtype: str) -> float | None:
    """The loosest relative tolerance of the op's outputs in `dtype` (kernels/spec.py); None for an unknown op."""
    from workbench.kernels import registry
    from workbench.kernels.spec import DTYPES

    try:
        spec = registry.spec(op)
        torch_dtype = DTYPES[dtype]
        return max(spec.tolerance(torch_dtype, output).rtol for output in spec.outputs) or None
    except (KeyError, ValueError):
        return None


def error_over_tolerance(checks: list[ShapeCorrectness], rtol: float | None) -> str:
    """The worst check's relative error as a fraction of the tolerance, `0.42`; `-` without both.

    The spec admits |out - ref| <= atol + rtol * |ref|, and the record keeps max |out - ref| / max(|ref|, atol):
    over rtol, that is never below the fraction of the tolerance used, so up to 1.00 is within it.
    """
    errors = [c.max_rel_err for c in checks if c.max_rel_err == c.max_rel_err]  # NaN: not measured
    if not errors or not rtol:
        return "-"
    worst = max(errors) / rtol
    return "inf" if worst == float("inf") else f"{worst:.2f}" if worst < 100 else f"{worst:.1e}"


def _error(checks: list[ShapeCorrectness], rtol: float | None) -> str:
    """'1.8e+01 (0.50)': the worst absolute error, and in brackets the worst relative one against the tolerance."""
    worst = _fmt(max((c.max_abs_err for c in checks), default=None), ".1e")
    fraction = error_over_tolerance(checks, rtol)
    return worst if fraction == "-" else f"{worst} ({fraction})"


def shape_rows(record: EvalRecord) -> list[dict[str, str]]:
    """One row per (shape, dtype): status, worst error over seeds, both scopes' times, the decision scope's ratios."""
    checks: dict[tuple[str, str], list[ShapeCorrectness]] = defaultdict(list)
    for c in record.correctness:
        checks[(c.shape, c.dtype)].append(c)
    bench: dict[tuple[str, str], ShapeBenchmark] = {(b.shape, b.dtype): b for b in record.benchmark}
    scope = record.decision_scope()
    rows = []
    for key in dict.fromkeys([*checks, *bench]):
        runs = checks.get(key, [])
        b = bench.get(key)
        if runs and not all(r.ok for r in runs):
            status = "WRONG"
        elif b is not None and b.status != "ok":
            status = b.status.upper()
        else:
            status = "ok" if runs or b else "-"
        result = b.scope(scope) if b and scope else None
        rows.append(
            {
                "shape": key[0],
                "dtype": key[1],
                "status": status,
                "max_err": _error(runs, relative_tolerance(record.op, key[1])),
                "eager_us": _us(b, "eager"),
                "graph_us": _us(b, "graph"),
                "bound": (b.bound() or "-") if b else "-",
                "gbps": gbps_text(result.gbps if result else None),
                "of_copy": _fmt(
                    100 * result.fraction_of_copy if result and result.fraction_of_copy else None, ".0f", "%"
                ),
                "vs_torch": _vs(b, scope, "torch"),
                "vs_compile": _vs(b, scope, "compiled"),
                "vs_liger": _vs(b, scope, "liger"),
                "vs_native": _vs(b, scope, "native"),
                "vs_best": _vs(b, scope, "incumbent"),
            }
        )
    return rows


def columns(record: EvalRecord) -> dict[str, str]:
    """Column titles for `shape_rows`, the decision scope named where a figure depends on it.

    Without timings there is no scope to name; the CPU has only the eager one (no CUDA graphs there)."""
    scope = record.decision_scope() or ("eager" if record.timed_on_cpu() else None)
    titles = {
        "shape": "shape",
        "dtype": "dtype",
        "status": "status",
        "max_err": "max err (/tol)",
        "eager_us": "eager µs/call",
        "graph_us": "graph µs/call",
        "bound": "bound",
        "gbps": f"GB/s ({scope})" if scope else "GB/s",
        "of_copy": f"% of copy ({scope})" if scope else "% of copy",
        "vs_torch": "vs torch",
        "vs_compile": "vs compile",
        "vs_liger": "vs liger",
        "vs_native": "vs native",
        "vs_best": "vs best",
    }
    for key, against in (("vs_best", "incumbent"), ("vs_native", "native")):  # shown where it was timed
        if not scope or not any(
            b.scope(scope) and getattr(b.scope(scope), f"speedup_vs_{against}") for b in record.benchmark
        ):
            titles.pop(key)
    return titles


def proposer_table(record: EvalRecord) -> str:
    """The best version's results as the proposer is shown them (the llm policy's prompt): a markdown row per
    named shape; hidden shapes stay hidden from it."""
    rows = shape_rows(record)
    if not rows:
        return record.message
    keys = ("shape", "dtype", "status", "max_err", "eager_us", "graph_us", "bound", "gbps", "of_copy")
    scope = record.decision_scope() or "graph"
    lines = [
        "| shape | dtype | status | max err | eager µs/call | graph µs/call | bound "
        f"| GB/s ({scope}) | % of copy ({scope}) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    # Hidden shapes stay hidden, the camp's forms of them (camp/hidden/...) included.
    lines += ["| " + " | ".join(r[k] for k in keys) + " |" for r in rows if "hidden/" not in r["shape"]]
    return "\n".join(lines)


def terminal_columns(record: EvalRecord) -> dict[str, str]:
    """`columns` for a terminal: a CPU run without the columns only a GPU fills, all '-' (GPU_ONLY_NOTE says so).

    A results file (tools/results.py) keeps them all: one layout for every device.
    """
    titles = columns(record)
    return {k: t for k, t in titles.items() if k not in GPU_ONLY} if record.timed_on_cpu() else titles


def wrap_name(name: str, width: int) -> str:
    """A shape name on lines of at most `width`: broken after a '/', and inside a longer part after a '-'.

    Filled from the end, so the last parts stay together: `llama3-8b/decode1/q` at 18 is `llama3-8b/` +
    `decode1/q`. A part with neither (longer than `width`) stays whole, for the table to fold.
    """

    def pack(tokens: list[str]) -> list[str]:
        lines: list[str] = []
        for token in reversed(tokens):
            if lines and len(lines[0]) + len(token) <= width:
                lines[0] = token + lines[0]
            else:
                lines.insert(0, token)
        return lines

    lines = []
    for line in pack(re.findall(r"[^/]*/|[^/]+", name)):
        lines += [line] if len(line) <= width else pack(re.findall(r"[^-]*-|[^-]+", line))
    return "\n".join(lines)


def liger_note(record: EvalRecord) -> str | None:
    """Why the Liger baseline is missing from some shapes (not installed, wrong, failed); None when it is not."""
    return missing_liger_note([(b.liger_status, b.note) for b in record.benchmark])


def missing_liger_note(shapes: list[tuple[str | None, str]], limit: int = 3) -> str | None:
    """The note for shapes given as (liger status, note): how many lack Liger and the first `limit` reasons."""
    missed = [note for status, note in shapes if status not in (None, "ok")]
    if not missed:
        return None
    reasons = list(dict.fromkeys(part for note in missed for part in note.split("; ") if "liger" in part.lower()))
    shown = "; ".join(reasons[:limit]) + (f"; and {len(reasons) - limit} more" if len(reasons) > limit else "")
    return f"Liger-Kernel baseline missing on {len(missed)}/{len(shapes)} shape(s): {shown}"
