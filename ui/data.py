"""Load a run folder (docs/run_folder.md) into typed rows for the review UI.

Pure functions over the files the loop writes (run.json, events.jsonl,
iterations/NNNN/): no Streamlit here, so everything is unit-tested on its own.
A run may still be in progress or may have been killed, so every reader
tolerates what is not there yet: run.json without its end-of-run fields, a
half-written last line of events.jsonl, or an iteration without eval.json.

Timings come in scopes (tools/evaluator/records.py): `eager` (per call, host launch cost included) and `graph`
(CUDA-graph replay: device time), both from the judge's clock. Every figure here names its scope; bandwidth,
% of copy and speedups are of the record's decision scope (graph where every shape has one, else eager) unless
a scope is asked for.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import statistics
from dataclasses import dataclass, field
from pathlib import Path

from tools.evaluator.decide import Decision
from tools.evaluator.records import CONTESTANTS, RIVALS, EvalRecord, Ratio, ScopeResult, ShapeBenchmark, Timing, geomean
from tools.runfolder import (
    EVENTS_FILE,
    RUN_FILE,
    RunFolder,
    RunInfo,
    Summary,
    TokenCount,
    candidate_label,
    candidate_suffix,
    list_runs,
)

OUTCOMES = ("baseline", "accepted", "rejected", "failed", "evaluating", "proposed")

# ---------------------------------------------------------------------------------------------- scopes

# The order scopes are shown in (tables, CSV, tabs); decisions prefer graph, then eager.
SCOPES_SHOWN = ("eager", "graph")
DECISION_ORDER = ("graph", "eager")
SCOPE_HELP = {
    "eager": "the runner calls the op back to back: per-call time with the host launch cost included",
    "graph": "the same calls replayed from a CUDA graph: device time",
}
# Who is timed beside the candidate in a scope, as the tables title them.
CONTESTANT_COLUMNS = {
    "incumbent": "best",
    "torch": "torch",
    "compiled": "compile",
    "liger": "liger",
    "native": "native",
    "roofline": "copy",
}
RATIO_COLUMNS = {
    "incumbent": "vs best",
    "torch": "vs torch",
    "compiled": "vs compile",
    "liger": "vs liger",
    "native": "vs native",
}


def scope_label(scope: str | None) -> str:
    """'graph', 'eager'; '-' for none."""
    return scope or "-"


def record_scopes(record: EvalRecord | None) -> list[str]:
    """The scopes any shape of the record was timed in, in the order they are shown."""
    if record is None:
        return []
    return [s for s in SCOPES_SHOWN if any(_result(b, s) for b in record.benchmark)]


def complete_scopes(record: EvalRecord | None) -> list[str]:
    """The scopes every timed shape of the record has: the ones its medians and geomeans can be compared in."""
    if record is None or not record.benchmark:
        return []
    return [s for s in SCOPES_SHOWN if all(_result(b, s) for b in record.benchmark)]


def _result(b: ShapeBenchmark | None, scope: str | None) -> ScopeResult | None:
    """One scope of one shape, only where the candidate was timed in it."""
    result = b.scope(scope) if b is not None and scope else None
    return result if result is not None and result.candidate is not None else None


def _decision_of(record: EvalRecord, b: ShapeBenchmark) -> str | None:
    """The scope a shape's headline figures come from: the record's decision scope, else the shape's own."""
    scope = record.decision_scope()
    return scope if _result(b, scope) else next((s for s in DECISION_ORDER if _result(b, s)), None)


def _speedup(result: ScopeResult | None, against: str) -> float | None:
    return result.speedup(against) if result else None


def half_width_pct(timing: Timing | None) -> float | None:
    """Half the timing's confidence interval, in % of its median (None where it has none)."""
    width = timing.half_width if timing else None
    return 100 * width if width is not None else None


def _info(run_dir: Path) -> RunInfo:
    """run.json, typed; empty while it is missing or being written."""
    return RunFolder(run_dir).info() or RunInfo()


def read_events(run_dir: Path) -> list[dict]:
    """events.jsonl, skipping a line still being appended (it is read complete on the next refresh)."""
    return RunFolder(run_dir).events()


def _read_text(path: Path) -> str | None:
    try:
        return path.read_text()
    except OSError:
        return None


def _median(values: list[float | None]) -> float | None:
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def gbps_of(bytes_moved: int, timing: Timing | None) -> float | None:
    """GB/s for a timing of `bytes_moved` (the same formula as the evaluator's `gbps`)."""
    return bytes_moved / (timing.median_us * 1e3) if timing and timing.median_us else None


def _us(timing: Timing | None) -> float | None:
    return timing.median_us if timing else None


# ---------------------------------------------------------------------------------------------- runs


@dataclass(frozen=True)
class RunRow:
    """One run in the runs table."""

    run_id: str
    path: Path
    op: str | None
    backend: str | None
    policy: str | None
    model: str | None
    started: str | None
    status: str
    iterations: int
    accepted: int
    best_speedup: float | None  # geomean over shapes of the start's median time / the best's (1.0 = no gain)
    best_fraction_of_copy: float | None  # median shape of the best version, in its decision scope
    best_gbps: float | None
    best_iteration: int | None
    stop_reason: str | None
    scope: str | None = None  # the best version's decision scope
    speedup_scope: str | None = None  # the scope `best_speedup` compares in


def _over_start(run: RunInfo) -> tuple[float | None, str | None]:
    """Geomean over shapes of start us / best us, in the first scope both summaries timed, and that scope."""
    start_summary, best_summary = run.start or Summary(), run.best or Summary()
    start, best = start_summary.shapes, best_summary.shapes
    scope = best_summary.scope
    keys = [f"{scope}_us"] if scope in ("eager", "graph") else []
    keys += [k for k in ("graph_us", "eager_us") if k not in keys]
    for key in keys:
        ratios = [
            start[shape][key] / best[shape][key]
            for shape in start
            if shape in best and (start[shape] or {}).get(key) and (best[shape] or {}).get(key)
        ]
        if ratios:
            return geomean(ratios), key.removesuffix("_us")
    return None, None


def run_row(run_dir: Path) -> RunRow:
    """The runs-table row of one run folder, whatever state it is in."""
    run_dir = Path(run_dir)
    folder = RunFolder(run_dir)
    run = folder.info()
    written = run is not None
    run = run or RunInfo()
    config = run.config
    start_event = next((e for e in folder.events() if e["event"] == "run_start"), {})
    # A finished run says how many iterations it ran; a running one has only its events.
    iterations = max(run.iterations, len(folder.decisions()))
    commits = {e.sha for e in folder.commits().values()} | set(run.commits)
    best = run.best or Summary()
    speedup, speedup_scope = _over_start(run)
    return RunRow(
        run_id=run.run_id or run_dir.name,
        path=run_dir,
        op=config.get("op") or start_event.get("op"),
        backend=config.get("backend") or start_event.get("backend"),
        policy=config.get("policy") or start_event.get("policy"),
        model=config.get("model"),
        started=run.created or start_event.get("time"),
        status=run.status or ("starting" if not written else "unknown"),
        iterations=iterations,
        accepted=len(commits - {None}),
        best_speedup=speedup,
        best_fraction_of_copy=best.median_fraction_of_copy,
        best_gbps=best.median_gbps,
        best_iteration=best.iteration,
        stop_reason=run.stop_reason,
        scope=best.scope,
        speedup_scope=speedup_scope,
    )


def run_rows(root: Path) -> list[RunRow]:
    """Every run folder under `root` (tools/runfolder.py: list_runs), newest first; none gives no rows."""
    return sorted((run_row(folder.path) for folder in list_runs(root)), key=_age, reverse=True)


def _age(row: RunRow) -> tuple[float, str]:
    """Sort key, newest largest: `created`, else the run id's UTC stamp, else the folder's mtime."""
    for text, pattern in ((row.started, None), (row.run_id[:15], "%Y%m%d-%H%M%S")):
        if not text:
            continue
        try:
            when = dt.datetime.strptime(text, pattern) if pattern else dt.datetime.fromisoformat(text)
        except ValueError:
            continue
        if when.tzinfo is None:  # run ids are UTC
            when = when.replace(tzinfo=dt.timezone.utc)
        return when.timestamp(), row.run_id
    try:
        return row.path.stat().st_mtime, row.run_id
    except OSError:
        return 0.0, row.run_id


def run_stamp(run_dir: Path) -> int:
    """Changes whenever the loop writes to the run: the newest mtime of run.json, the log and the iteration dirs."""
    run_dir = Path(run_dir)
    paths = [run_dir / RUN_FILE, run_dir / EVENTS_FILE, run_dir / "iterations"]
    if (run_dir / "iterations").is_dir():
        paths += [p for p in (run_dir / "iterations").iterdir() if p.is_dir()]
        paths += list((run_dir / "iterations").glob("*/*"))
    stamps = []
    for path in paths:
        try:
            stamps.append(path.stat().st_mtime_ns)
        except OSError:
            continue
    return max(stamps, default=0) + len(paths)


# ---------------------------------------------------------------------------------------------- iterations


@dataclass(frozen=True)
class IterationRow:
    """One candidate of one iteration (iteration 0 is the starting kernel).

    Speed figures are of `scope`, the record's decision scope; `*_by_scope` hold them per scope it was timed in.
    """

    iteration: int
    index: int  # candidate within the round; 0 unless the run asked for several (--candidates K)
    outcome: str  # one of OUTCOMES
    rationale: str
    reason: str  # the decision's reason, or the evaluation's message before a decision
    rule: str | None  # the rule's name (tools/evaluator/decide.py: Decision.label); None before a decision
    failed_stage: str | None
    model: str | None
    time: str | None
    median_gbps: float | None
    median_fraction_of_copy: float | None
    geomean_vs_best: float | None  # against the best of its time, timed by the judge in the same rounds
    geomean_vs_start: float | None  # against the starting kernel's timings (another evaluation)
    geomean_vs_torch: float | None  # against the torch reference op
    commit: str | None
    scope: str | None = None  # the decision scope of its record: graph or eager
    gbps_by_scope: dict[str, float] = field(default_factory=dict)
    vs_start_by_scope: dict[str, float] = field(default_factory=dict)
    vs_best_by_scope: dict[str, float] = field(default_factory=dict)
    shapes_timed: int = 0  # (shape, dtype) pairs timed in its decision scope
    shapes_planned: int = 0  # (shape, dtype) pairs the run times; more than timed: stopped early
    # The endpoint's tokens for this candidate, its proposal and its reflection together; None where none reported.
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    decision: Decision | None = None  # the acceptance rule's, as its round left it; None before a decision

    @property
    def tokens(self) -> int | None:
        if self.prompt_tokens is None and self.completion_tokens is None:
            return None
        return (self.prompt_tokens or 0) + (self.completion_tokens or 0)

    @property
    def suffix(self) -> str:
        return candidate_suffix(self.index)

    @property
    def partial(self) -> bool:
        """Timed on some of the run's shapes only (stopped at the first shape slower beyond noise, or failed
        there): its medians are of other shapes than a full evaluation's, so they are not shown beside them."""
        return 0 < self.shapes_timed < self.shapes_planned

    @property
    def shapes_text(self) -> str | None:
        """'3 of 18, partial', '18 of 18'; None when nothing was timed."""
        if not self.shapes_timed:
            return None
        return f"{self.shapes_timed} of {self.shapes_planned}" + (", partial" if self.partial else "")

    @property
    def label(self) -> str:
        return candidate_label(self.iteration, self.index)


def median_gbps(record: EvalRecord | None, scope: str | None = None) -> float | None:
    """GB/s of the median shape, in `scope` (None: the record's decision scope)."""
    return record.median_gbps(scope) if record else None


def median_fraction(record: EvalRecord | None, scope: str | None = None) -> float | None:
    return record.median_fraction_of_copy(scope) if record else None


def vs_start(record: EvalRecord | None, start: EvalRecord | None, scope: str | None = None) -> float | None:
    """Geomean over shapes of the start's median time / this record's, both in `scope` (None: the decision scope)."""
    if record is None or start is None:
        return None
    scope = scope or record.decision_scope()
    before = {(b.shape, b.dtype): r.candidate.median_us for b in start.benchmark if (r := _result(b, scope))}
    return geomean(
        [
            before[(b.shape, b.dtype)] / r.candidate.median_us
            for b in record.benchmark
            if (r := _result(b, scope)) and (b.shape, b.dtype) in before and r.candidate.median_us
        ]
    )


def shape_counts(record: EvalRecord | None) -> tuple[int, int]:
    """(shapes timed in the decision scope, shapes planned), both as (shape, dtype) pairs; (0, 0) without a record."""
    if record is None:
        return 0, 0
    scope = record.decision_scope() or next(
        (s for s in DECISION_ORDER if any(_result(b, s) for b in record.benchmark)), None
    )
    timed = len({(b.shape, b.dtype) for b in record.benchmark if _result(b, scope)})
    planned = len(record.shapes) * max(1, len(record.dtypes))
    return timed, max(planned, timed)


def _by_scope(record: EvalRecord | None, value) -> dict[str, float]:
    """`value(record, scope)` for every scope all the record's shapes were timed in, where it is not None.

    A scope only some shapes have (graph capture failed on one) gives no figure: its median would be of
    other shapes than the rest of the run's.
    """
    found = {scope: value(record, scope) for scope in complete_scopes(record)}
    return {scope: v for scope, v in found.items() if v is not None}


def iteration_rows(run_dir: Path, events: list[dict] | None = None) -> list[IterationRow]:
    """Every candidate of every iteration, in order, with its outcome so far."""
    folder = RunFolder(run_dir)
    events = folder.events() if events is None else events
    proposals = {(e.iteration, e.index): e for e in folder.proposals(events)}
    spent: dict[tuple[int, int], TokenCount] = {}
    for e in [*proposals.values(), *folder.reflections(events)]:
        if e.usage:
            spent.setdefault((e.iteration, e.index), TokenCount()).add(e.usage)
    started = {(e["iteration"], e.get("index", 0)) for e in events if e["event"] == "evaluate_start"}
    decisions, commits = folder.decisions(events), folder.commits(events)
    baseline_end = next((e for e in reversed(events) if e["event"] == "baseline_end"), {})
    start = folder.read_record(0)
    rows = []
    for iteration in folder.iterations():
        for index in folder.candidate_indices(iteration) or [0]:
            record = folder.read_record(iteration, index)
            proposal = proposals.get((iteration, index))
            decided = decisions.get(iteration)
            decision = decided.decision(index) if decided else None
            commit, rule = None, None
            rationale = proposal.rationale if proposal else ""
            if iteration == 0:
                outcome = "baseline" if record else "evaluating"
                rationale = "starting kernel"
                reason = record.message if record else baseline_end.get("message", "being evaluated")
                rule = "starting kernel" if record else None
            elif decision is not None:
                rule = decision.label
                outcome = decided.outcome(index)
                if outcome == "accepted" and iteration in commits:
                    commit = commits[iteration].sha
                reason = decision.reason
            else:
                outcome = "evaluating" if record is not None or (iteration, index) in started else "proposed"
                reason = record.message if record else "not evaluated yet"
            timed, planned = shape_counts(record)
            rows.append(
                IterationRow(
                    iteration=iteration,
                    index=index,
                    outcome=outcome,
                    rationale=rationale,
                    reason=reason,
                    rule=rule,
                    failed_stage=record.failed_stage if record else None,
                    model=proposal.model if proposal else None,
                    time=(proposal.time if proposal else None) or (record.started if record else None),
                    median_gbps=median_gbps(record),
                    median_fraction_of_copy=median_fraction(record),
                    geomean_vs_best=decision.geomean_speedup if decision else None,
                    geomean_vs_start=vs_start(record, start),
                    geomean_vs_torch=record.geomean_speedup("torch") if record else None,
                    commit=commit,
                    scope=record.decision_scope() if record else None,
                    gbps_by_scope=_by_scope(record, median_gbps),
                    vs_start_by_scope=_by_scope(record, lambda r, s: vs_start(r, start, s)),
                    vs_best_by_scope=_by_scope(record, lambda r, s: r.geomean_speedup("incumbent", s)),
                    shapes_timed=timed,
                    shapes_planned=planned,
                    prompt_tokens=spent[(iteration, index)].prompt_tokens if (iteration, index) in spent else None,
                    completion_tokens=(
                        spent[(iteration, index)].completion_tokens if (iteration, index) in spent else None
                    ),
                    decision=decision if iteration else None,
                )
            )
    return rows


def tokens_text(run: RunInfo) -> str | None:
    """The run's tokens in a line, with their cost where prices were given; None where no endpoint reported any."""
    tokens = run.tokens
    if tokens is None or not tokens.calls:
        return None
    text = (
        f"Tokens: {tokens.prompt_tokens:,} prompt + {tokens.completion_tokens:,} completion "
        f"({tokens.prompt_tokens + tokens.completion_tokens:,}) in {tokens.calls} calls"
    )
    if tokens.cost is not None:
        text += f"; cost {tokens.cost:.4f} at {tokens.price_in or 0:g} / {tokens.price_out or 0:g} per million"
    return text


def best_row(rows: list[IterationRow], run: RunInfo) -> IterationRow | None:
    """The version the run holds as its best: run.json's `best.iteration`, else the last accepted one."""
    iteration = run.best.iteration if run.best else None
    kept = [r for r in rows if r.outcome in ("baseline", "accepted")]
    if iteration is not None:
        match = [r for r in kept if r.iteration == iteration]
        if match:
            return match[-1]
    return kept[-1] if kept else None


def run_scope(rows: list[IterationRow], start: EvalRecord | None = None) -> str | None:
    """The scope a run is judged in: the starting kernel's decision scope, else the most common one of its rows."""
    if start is not None and start.decision_scope():
        return start.decision_scope()
    scopes = [r.scope for r in rows if r.scope]
    return max(DECISION_ORDER, key=scopes.count) if scopes else None


def chart_scopes(rows: list[IterationRow]) -> list[str]:
    """The scopes any candidate of the run has a speed in, in the order decisions prefer them."""
    return [s for s in DECISION_ORDER if any(s in r.gbps_by_scope for r in rows)]


def common_scope(rows: list[IterationRow]) -> str | None:
    """The decision scope every measured row shares; None when they differ (or nothing was measured)."""
    scopes = {r.scope for r in rows if r.scope}
    return scopes.pop() if len(scopes) == 1 else None


TRIED_CHARS = 140  # what a three-line cell of the iterations table holds


def tried(rationale: str) -> str:
    """What a candidate tried, short: its change and where it came from, without the why that follows
    (the search's "threads 256 -> 512: catalogue design 'wide blocks': 512 threads, ..."); the whole text
    is on the iteration's page."""
    parts = (rationale or "").strip().split(": ")
    text = ": ".join(parts[:2]) if len(parts) > 2 and parts[1].startswith("catalogue design") else parts[0]
    text = text if len(parts) > 1 else (rationale or "").strip()
    text = text.splitlines()[0] if text else ""
    return text if len(text) <= TRIED_CHARS else text[: TRIED_CHARS - 1] + "…"


def iteration_table(rows: list[IterationRow]) -> list[dict]:
    """The run page's iterations: what each tried, what decided it, and its speed, the scope named in the titles.

    `vs best` is what the acceptance rule weighed: the geomean over the shapes timed of the judge's per-round
    ratios against the best of its time. A candidate stopped early (`shapes timed` says partial) has only that:
    its median GB/s, % of copy and ratios to the start and to torch would be of other shapes than the rest.
    """
    scope = common_scope(rows) or "decision scope"
    table = []
    for r in rows:
        full = not r.partial
        table.append(
            {
                "iteration": r.label,
                "outcome": r.outcome,
                "verdict": f"{r.outcome}: {r.rule}" if r.rule and r.outcome in ("rejected", "failed") else r.outcome,
                "what it tried": tried(r.rationale),
                "shapes timed": r.shapes_text,
                f"vs best ({scope})": r.geomean_vs_best,
                f"median GB/s ({scope})": r.median_gbps if full else None,
                f"% of copy ({scope})": 100 * r.median_fraction_of_copy if full and r.median_fraction_of_copy else None,
                f"vs start ({scope})": r.geomean_vs_start if full else None,
                f"vs torch ({scope})": r.geomean_vs_torch if full else None,
                "scope": scope_label(r.scope) if r.scope else None,
                "rule": r.rule,
                "decision": r.reason,
                "tokens": r.tokens,
            }
        )
    return table


# ---------------------------------------------------------------------------------------------- levels for the chart

LEVELS = {"torch": "torch", "torch.compile": "compiled", "Liger-Kernel": "liger", "copy roofline": "roofline"}


def baseline_levels(start: EvalRecord | None, metric: str, scope: str | None = None) -> dict[str, float]:
    """Horizontal rules for the chart: the torch op, torch.compile and Liger-Kernel (when measured), the copy roofline.

    `metric` is "gbps" (median shape, GB/s) or "vs_start" (geomean speedup over the starting kernel).
    Levels come from the starting kernel's evaluation, where every baseline was timed beside it, in
    `scope` (None: the start's decision scope).
    """
    if metric not in ("gbps", "vs_start"):
        raise ValueError(f"metric must be 'gbps' or 'vs_start', not {metric!r}")
    if start is None:
        return {}
    scope = scope or start.decision_scope()
    levels = {}
    for label, contestant in LEVELS.items():
        timed = [
            (b, r.candidate, r.timing(contestant))
            for b in start.benchmark
            if (r := _result(b, scope)) and r.timing(contestant) is not None
        ]
        if not timed:
            continue
        if metric == "gbps":
            value = _median([gbps_of(b.bytes_moved, t) for b, _, t in timed])
        else:
            value = geomean([mine.median_us / t.median_us for _, mine, t in timed if t.median_us])
        if value:
            levels[label] = value
    return levels


# ---------------------------------------------------------------------------------------------- per-shape tables


def _pct(value: float | None) -> float | None:
    return 100 * value if value else None


def best_shape_table(record: EvalRecord, start: EvalRecord | None = None) -> list[dict]:
    """Per (shape, dtype): per-call time in each scope (with its noise), what bounds it, and the decision
    scope's GB/s, % of copy and speedups, the scope named in the column titles.
    """
    scopes = record_scopes(record)
    named = record.decision_scope() or next((s for s in DECISION_ORDER if s in scopes), "decision scope")
    rows = []
    for b in record.benchmark:
        scope = _decision_of(record, b)
        result = _result(b, scope)
        row: dict = {"shape": b.shape, "dtype": b.dtype}
        for name in SCOPES_SHOWN:
            timing = r.candidate if (r := _result(b, name)) else None
            row[f"{name} µs/call"] = _us(timing)
            row[f"{name} ±"] = half_width_pct(timing)
        row["bound"] = b.bound()
        first = start_us(start, b, scope)
        row |= {
            f"GB/s ({named})": result.gbps if result else None,
            f"% of copy ({named})": _pct(result.fraction_of_copy) if result else None,
            f"copy GB/s ({named})": result.copy_gbps if result else None,
            f"vs start ({named})": first / result.candidate.median_us if first and result else None,
            f"vs torch ({named})": _speedup(result, "torch"),
            f"vs compile ({named})": _speedup(result, "compiled"),
            f"vs liger ({named})": _speedup(result, "liger"),
            "status": b.status,
        }
        if scope and scope != named:
            row["note"] = f"{scope} scope: no {named} timing" + (f"; {b.note}" if b.note else "")
        rows.append(row)
    return rows


def start_us(start: EvalRecord | None, b: ShapeBenchmark, scope: str | None) -> float | None:
    """The starting kernel's per-call time on `b`'s (shape, dtype), in `scope`."""
    if start is None:
        return None
    match = next((s for s in start.benchmark if (s.shape, s.dtype) == (b.shape, b.dtype)), None)
    result = _result(match, scope)
    return result.candidate.median_us if result else None


def correctness_table(record: EvalRecord) -> list[dict]:
    """Every (shape, dtype, seed) check; failing ones first, so a reader sees them without scrolling."""
    rows = [
        {
            "ok": c.ok,
            "shape": c.shape,
            "dtype": c.dtype,
            "seed": c.seed,
            "hidden": c.hidden,
            "max abs err": c.max_abs_err,
            "max rel err": c.max_rel_err,
            "first bad index": "" if c.first_bad_index is None else str(tuple(c.first_bad_index)),
            "message": c.message,
            "inputs unchanged": c.inputs_unchanged,
            "wrote into out": c.wrote_into_out,
        }
        for c in record.correctness
    ]
    return sorted(rows, key=lambda r: r["ok"])  # stable: failing first, each group in the evaluator's order


def timing_scopes(record: EvalRecord | None) -> list[str]:
    """The scopes to show a timing table for: those any shape was timed in."""
    return record_scopes(record)


def _errors(result: ScopeResult | None) -> str:
    return "; ".join(f"{who}: {why}" for who, why in (result.errors if result else {}).items())


def timing_table(record: EvalRecord, scope: str | None = None) -> list[dict]:
    """Per (shape, dtype), in one scope (None: the decision scope): the candidate's timing and everything timed
    beside it in the same rounds, the ratios with their interval, and why a contestant has no timing there.
    """
    scope = scope or record.decision_scope() or next(iter(record_scopes(record)), None)
    rows = []
    for b in record.benchmark:
        result = b.scope(scope) if scope else None
        mine = result.candidate if result else None
        row: dict = {
            "shape": b.shape,
            "dtype": b.dtype,
            "status": b.status,
            "candidate us": _us(mine),
            "±": half_width_pct(mine),
            "CI low us": mine.ci_low_us if mine else None,
            "CI high us": mine.ci_high_us if mine else None,
            "batches": mine.batches if mine else None,
            "calls/batch": mine.calls_per_batch if mine else None,
        }
        row["method"] = mine.method if mine else None
        for contestant, title in CONTESTANT_COLUMNS.items():
            row[f"{title} us"] = _us(result.timing(contestant)) if result else None
        row |= {
            "GB/s": result.gbps if result else None,
            "% of copy": _pct(result.fraction_of_copy) if result else None,
            "copy GB/s": result.copy_gbps if result else None,
        }
        for against, title in RATIO_COLUMNS.items():
            ratio: Ratio | None = getattr(result, f"speedup_vs_{against}", None) if result else None
            row[title] = ratio.median if ratio else None
            row[f"{title} low"] = ratio.low if ratio else None
            row[f"{title} high"] = ratio.high if ratio else None
        row["self-reported us"] = result.self_reported_us if result else None
        row["errors"] = _errors(result)
        row["note"] = b.note
        rows.append(row)
    return rows


def stage_table(record: EvalRecord) -> list[dict]:
    return [{"stage": s.name, "status": s.status, "seconds": s.seconds, "message": s.message} for s in record.stages]


def number_formats(columns) -> dict[str, str]:
    """printf-style formats for the numeric columns of the tables above, by their titles."""
    formats = {}
    for name in columns:
        if name.endswith("µs/call") or name.endswith(" us"):
            formats[name] = "%.2f"
        elif name.endswith("±"):
            formats[name] = "±%.1f%%"
        elif name.startswith("% of copy") or name.startswith("median % of copy"):
            formats[name] = "%.0f%%"
        elif "GB/s" in name:
            formats[name] = "%.4g"
        elif name.startswith("vs "):
            formats[name] = "%.3fx" if name.endswith((" low", " high")) else "%.2fx"
        elif name == "tokens":
            formats[name] = "%d"
    return formats


# ---------------------------------------------------------------------------------------------- results CSV

_RATIOS = RIVALS
CSV_COLUMNS = (
    "iteration",
    "candidate",
    "outcome",
    "commit",
    "failed_stage",
    "shape",
    "dtype",
    "hidden",
    "correct",
    "max_abs_err",
    "max_rel_err",
    "scope",  # eager or graph; empty where the shape was not timed
    "decides",  # whether this scope is the record's decision scope
    "bound",
    "median_us",
    "ci_low_us",
    "ci_high_us",
    "batches",
    "calls_per_batch",
    "method",
    "gbps",
    "fraction_of_copy",
    "copy_gbps",
    *(f"{contestant}_us" for contestant in CONTESTANTS[1:]),  # the columns _scope_fields fills
    *(f"speedup_vs_{a}{end}" for a in _RATIOS for end in ("", "_low", "_high")),
    "self_reported_us",
    "errors",
    "liger_status",
    "bench_status",
    "bench_note",
    "rationale",
)


def _blank(value) -> object:
    return "" if value is None else value


def _scope_fields(record: EvalRecord, b: ShapeBenchmark | None, scope: str | None) -> dict:
    """The CSV's timing columns of one scope of one shape; all empty where there is none."""
    result = b.scope(scope) if b is not None and scope else None
    if result is None:
        return {}
    mine = result.candidate
    fields = {
        "scope": scope,
        "decides": scope == record.decision_scope(),
        "bound": b.bound(),
        "median_us": _us(mine),
        "gbps": result.gbps,
        "fraction_of_copy": result.fraction_of_copy,
        "copy_gbps": result.copy_gbps,
        "self_reported_us": result.self_reported_us,
        "errors": _errors(result),
    }
    if mine is not None:
        fields |= {
            "ci_low_us": mine.ci_low_us,
            "ci_high_us": mine.ci_high_us,
            "batches": mine.batches or None,
            "calls_per_batch": mine.calls_per_batch or None,
            "method": mine.method,
        }
    for contestant in CONTESTANTS[1:]:  # every one but the candidate, whose columns come first
        fields[f"{contestant}_us"] = _us(result.timing(contestant))
    for against in _RATIOS:
        ratio: Ratio | None = getattr(result, f"speedup_vs_{against}")
        if ratio is not None:
            fields |= {
                f"speedup_vs_{against}": ratio.median,
                f"speedup_vs_{against}_low": ratio.low,
                f"speedup_vs_{against}_high": ratio.high,
            }
    return fields


def _csv_rows(row: IterationRow, record: EvalRecord) -> list[dict]:
    checks: dict[tuple[str, str], list] = {}
    for c in record.correctness:
        checks.setdefault((c.shape, c.dtype), []).append(c)
    bench: dict[tuple[str, str], ShapeBenchmark] = {(b.shape, b.dtype): b for b in record.benchmark}
    out = []
    for key in dict.fromkeys([*checks, *bench]):
        runs, b = checks.get(key, []), bench.get(key)
        common = {
            "iteration": row.iteration,
            "candidate": row.index + 1,
            "outcome": row.outcome,
            "commit": row.commit or "",
            "failed_stage": record.failed_stage or "",
            "shape": key[0],
            "dtype": key[1],
            "hidden": any(c.hidden for c in runs),
            "correct": all(c.ok for c in runs) if runs else "",
            "max_abs_err": max((c.max_abs_err for c in runs), default=""),
            "max_rel_err": max((c.max_rel_err for c in runs), default=""),
            "liger_status": (b.liger_status or "") if b else "",
            "bench_status": b.status if b else "",
            "bench_note": b.note if b else "",
            "rationale": row.rationale,
        }
        scopes = [s for s in SCOPES_SHOWN if b is not None and b.scope(s) is not None] or [None]
        for scope in scopes:
            line = dict.fromkeys(CSV_COLUMNS, "") | common | _scope_fields(record, b, scope)
            out.append({k: _blank(v) for k, v in line.items()})
    return out


def results_csv(run_dir: Path, rows: list[IterationRow] | None = None) -> str:
    """One line per iteration x candidate x (shape, dtype) x scope, hidden shapes included; numbers unformatted.

    A shape that was checked but not timed has one line with an empty `scope`.
    """
    folder = RunFolder(run_dir)
    rows = iteration_rows(run_dir) if rows is None else rows
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        record = folder.read_record(row.iteration, row.index)
        if record is not None:
            writer.writerows(_csv_rows(row, record))
    return buffer.getvalue()


# ---------------------------------------------------------------------------------------------- one iteration


@dataclass(frozen=True)
class GeneratedSource:
    key: str
    language: str
    text: str


@dataclass
class IterationDetail:
    """Everything the iteration page shows for one candidate."""

    row: IterationRow
    directory: Path
    candidates: int
    source: str | None
    diff: str | None
    prompt: str | None
    response: str | None
    reflection: str | None
    profile: str | None
    record: EvalRecord | None
    generated: list[GeneratedSource] = field(default_factory=list)
    commit_sha: str | None = None
    commit_message: str | None = None
    reflection_prompt: str | None = None  # the reflection's exchange, where a model wrote it
    reflection_response: str | None = None
    reflection_model: str | None = None


def _generated(record: EvalRecord | None) -> list[GeneratedSource]:
    if record and record.compile:
        return [GeneratedSource(s.key, s.language, s.text) for s in record.compile.sources]
    return []


def commit_message(run_dir: Path, run: RunInfo | dict, sha: str) -> str | None:
    """The full message of an accepted version's commit, from the run's git worktree (None if it is gone)."""
    import git

    run_dir = Path(run_dir).resolve()
    workspace = RunInfo.model_validate(run).workspace or {}
    candidates = []
    if workspace.get("worktree"):
        recorded = Path(workspace["worktree"])
        # Absolute (older runs), or relative to the run folder (tools/paths.record_path); older relative
        # ones were relative to the repository, a folder above the run folder.
        candidates += (
            [recorded] if recorded.is_absolute() else [run_dir / recorded, *(p / recorded for p in run_dir.parents)]
        )
    # A run folder copied to another machine still has its repository beside it.
    candidates += [run_dir / "worktree", run_dir / "repo"]
    for path in candidates:
        if not path.exists():
            continue
        try:
            return git.Repo(path).commit(sha).message.strip()
        except (git.GitError, ValueError, OSError):
            continue
    return None


def iteration_detail(run_dir: Path, iteration: int, index: int = 0, rows: list[IterationRow] | None = None):
    """The files and record of one candidate; None when that iteration does not exist (yet)."""
    run_dir = Path(run_dir)
    folder = RunFolder(run_dir)
    events = folder.events()
    rows = iteration_rows(run_dir, events) if rows is None else rows
    round_rows = [r for r in rows if r.iteration == iteration]
    row = next((r for r in round_rows if r.index == index), None)
    if row is None:
        return None
    record = folder.read_record(iteration, index)
    sha, message = row.commit, None
    if sha:
        message = commit_message(run_dir, _info(run_dir), sha)
        if message is None:  # no repository here: the log keeps the first line
            message = next((e.message for e in folder.commits(events).values() if e.sha == sha), None)
    return IterationDetail(
        row=row,
        directory=folder.iteration_path(iteration),
        candidates=len(round_rows),
        source=_read_text(folder.candidate(iteration, index)),
        diff=_read_text(folder.diff(iteration, index)),
        prompt=_read_text(folder.prompt(iteration, index)),
        response=_read_text(folder.response(iteration, index)),
        reflection=_read_text(folder.reflection(iteration)),
        profile=_read_text(folder.profile(iteration, index)),
        record=record,
        generated=_generated(record),
        commit_sha=sha,
        commit_message=message,
        reflection_prompt=_read_text(folder.reflection_prompt(iteration, index)),
        reflection_response=_read_text(folder.reflection_response(iteration, index)),
        reflection_model=next(
            (e.model for e in folder.reflections(events) if (e.iteration, e.index) == (iteration, index)), None
        ),
    )


# ---------------------------------------------------------------------------------------------- environment


def environment_rows(run: RunInfo | dict) -> list[dict]:
    """run.json's environment as (item, value) rows, library versions last."""
    env = RunInfo.model_validate(run).environment
    if not env:
        return []
    labels = {
        "device": "device",
        "device_count": "devices",
        "driver": "driver",
        "cuda_runtime": "CUDA runtime",
        "target": "target",
        "l2_bytes": "L2 bytes",
        "hostname": "host",
        "platform": "platform",
        "python": "python",
    }
    rows = [{"item": label, "value": str(env[key])} for key, label in labels.items() if env.get(key) not in (None, "")]
    if "device" not in env or env.get("device") is None:
        rows.insert(0, {"item": "device", "value": "CPU (no GPU visible)"})
    rows += [{"item": name, "value": version} for name, version in (env.get("versions") or {}).items()]
    return rows


def record_environment_rows(record: EvalRecord | None) -> list[dict]:
    """The environment one evaluation ran in (its eval.json), as environment_rows gives run.json's."""
    if record is None or record.environment is None:
        return []
    return environment_rows({"environment": record.environment.model_dump()})


def confinement_rows(record: EvalRecord | None) -> list[dict]:
    """How the runners that imported candidate code were confined, as (item, value) rows; [] where not recorded."""
    c = record.confinement if record else None
    if c is None:
        return []
    yes = {True: "yes", False: "no"}
    rows = [
        {"item": "confinement", "value": c.headline},
        {"item": "mode", "value": c.mode},
        *({"item": "mechanism", "value": part} for part in c.parts),
        {"item": "uid separation", "value": yes[c.uid_separation]},
        {"item": "network", "value": c.network},
        {"item": "environment", "value": c.env},
        {"item": "judge dumpable", "value": yes[c.judge_dumpable]},
        {"item": "transport", "value": c.transport},
    ]
    rows += [{"item": f"note {i + 1}" if len(c.notes) > 1 else "note", "value": n} for i, n in enumerate(c.notes)]
    return rows


def confinement_caption(record: EvalRecord | None) -> str:
    """Why a record has no confinement rows."""
    if record is None:
        return "No evaluation record yet."
    return "No confinement recorded in this eval.json."


# ---------------------------------------------------------------------------------------------- a whole run


@dataclass
class RunData:
    """What the run page needs, read once per change of the folder."""

    path: Path
    info: RunInfo
    events: list[dict]
    summary: RunRow
    rows: list[IterationRow]
    start: EvalRecord | None
    best: IterationRow | None
    best_record: EvalRecord | None

    @property
    def run(self) -> dict:
        """run.json as written (its fields the run has set so far)."""
        return self.info.model_dump(exclude_unset=True)

    @property
    def config(self) -> dict:
        return self.info.config

    @property
    def title(self) -> str:
        op, backend = self.summary.op or "?", self.summary.backend or "?"
        return f"{op}[{backend}]"


def load_run(run_dir: Path) -> RunData:
    run_dir = Path(run_dir)
    folder = RunFolder(run_dir)
    run = _info(run_dir)
    events = folder.events()
    rows = iteration_rows(run_dir, events)
    best = best_row(rows, run)
    best_record = folder.read_record(best.iteration, best.index) if best is not None else None
    return RunData(
        path=run_dir,
        info=run,
        events=events,
        summary=run_row(run_dir),
        rows=rows,
        start=folder.read_record(0),
        best=best,
        best_record=best_record,
    )
