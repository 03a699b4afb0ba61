"""Load a run folder (DESIGN §5) into typed rows for the review UI.

Pure functions over the files the loop writes (run.json, events.jsonl,
iterations/NNNN/): no Streamlit here, so everything is unit-tested on its own.
A run may still be in progress or may have been killed, so every reader
tolerates what is not there yet: run.json without its end-of-run fields, a
half-written last line of events.jsonl, an iteration without eval.json, or an
eval.json caught mid-write (the loop writes it in place, not atomically).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import math
import statistics
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from tools.records import EvalRecord, ShapeBenchmark, Timing

OUTCOMES = ("baseline", "accepted", "rejected", "failed", "evaluating", "proposed")


def _read_json(path: Path) -> dict:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def read_events(run_dir: Path) -> list[dict]:
    """events.jsonl, skipping a line still being appended (it is read complete on the next refresh)."""
    try:
        text = (Path(run_dir) / "events.jsonl").read_text()
    except OSError:
        return []
    events = []
    for line in text.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if isinstance(event, dict) and "event" in event:
            events.append(event)
    return events


def read_record(path: Path) -> EvalRecord | None:
    """An eval.json as a record, or None when it is missing or still being written."""
    try:
        return EvalRecord.model_validate_json(Path(path).read_text())
    except (OSError, ValueError, ValidationError):
        return None


def _read_text(path: Path) -> str | None:
    try:
        return path.read_text()
    except OSError:
        return None


def _suffix(index: int) -> str:
    return "" if index == 0 else f"-{index + 1}"


def _geomean(values: list[float]) -> float | None:
    values = [v for v in values if v and v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def _median(values: list[float | None]) -> float | None:
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def gbps_of(bytes_moved: int, timing: Timing | None) -> float | None:
    """GB/s for a timing of `bytes_moved` (the same formula as the evaluator's `gbps`)."""
    return bytes_moved / (timing.median_us * 1e3) if timing and timing.median_us else None


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
    best_fraction_of_copy: float | None  # median shape of the best version
    best_gbps: float | None
    best_iteration: int | None
    stop_reason: str | None


def speedup_over_start(run: dict) -> float | None:
    """Geomean over shapes of (start median us / best median us), from run.json's two summaries."""
    start = (run.get("start") or {}).get("shapes") or {}
    best = (run.get("best") or {}).get("shapes") or {}
    ratios = [
        start[shape]["median_us"] / best[shape]["median_us"]
        for shape in start
        if shape in best and start[shape].get("median_us") and best[shape].get("median_us")
    ]
    return _geomean(ratios)


def run_row(run_dir: Path) -> RunRow:
    """The runs-table row of one run folder, whatever state it is in."""
    run_dir = Path(run_dir)
    run = _read_json(run_dir / "run.json")
    events = read_events(run_dir)
    config = run.get("config") or {}
    start_event = next((e for e in events if e["event"] == "run_start"), {})
    decided = {e.get("iteration") for e in events if e["event"] == "decide"}
    # A finished run says how many iterations it ran; a running one has only its events.
    iterations = max(int(run.get("iterations") or 0), len(decided))
    commits = {e.get("sha") for e in events if e["event"] == "commit"} | set(run.get("commits") or [])
    best = run.get("best") or {}
    return RunRow(
        run_id=run.get("run_id") or run_dir.name,
        path=run_dir,
        op=config.get("op") or start_event.get("op"),
        backend=config.get("backend") or start_event.get("backend"),
        policy=config.get("policy") or start_event.get("policy"),
        model=config.get("model"),
        started=run.get("created") or start_event.get("time"),
        status=run.get("status") or ("starting" if not run else "unknown"),
        iterations=iterations,
        accepted=len(commits - {None}),
        best_speedup=speedup_over_start(run),
        best_fraction_of_copy=best.get("median_fraction_of_copy"),
        best_gbps=best.get("median_gbps"),
        best_iteration=best.get("iteration"),
        stop_reason=run.get("stop_reason"),
    )


def list_runs(root: Path) -> list[RunRow]:
    """Every run folder under `root`, newest first; an empty or missing folder gives no rows."""
    root = Path(root)
    if not root.is_dir():
        return []
    folders = [
        p
        for p in root.iterdir()
        if p.is_dir() and any((p / name).exists() for name in ("run.json", "events.jsonl", "iterations"))
    ]
    return sorted((run_row(p) for p in folders), key=_age, reverse=True)


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
    paths = [run_dir / "run.json", run_dir / "events.jsonl", run_dir / "iterations"]
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
    """One candidate of one iteration (iteration 0 is the starting kernel)."""

    iteration: int
    index: int  # candidate within the round; 0 unless the run asked for several (--candidates K)
    outcome: str  # one of OUTCOMES
    rationale: str
    reason: str  # the decision's reason, or the evaluation's message before a decision
    failed_stage: str | None
    model: str | None
    time: str | None
    median_gbps: float | None
    median_fraction_of_copy: float | None
    geomean_vs_best: float | None  # against the best of its time, timed in the same process
    geomean_vs_start: float | None  # against the starting kernel's timings (another process)
    geomean_vs_eager: float | None
    commit: str | None

    @property
    def suffix(self) -> str:
        return _suffix(self.index)

    @property
    def label(self) -> str:
        return f"{self.iteration}" if self.index == 0 else f"{self.iteration}.{self.index + 1}"


def median_gbps(record: EvalRecord | None) -> float | None:
    return record.median_gbps() if record else None


def median_fraction(record: EvalRecord | None) -> float | None:
    return record.median_fraction_of_copy() if record else None


def vs_start(record: EvalRecord | None, start: EvalRecord | None) -> float | None:
    """Geomean over shapes of the start's median time / this record's."""
    if record is None or start is None:
        return None
    before = {(b.shape, b.dtype): b.candidate.median_us for b in start.benchmark}
    return _geomean(
        [before[(b.shape, b.dtype)] / b.candidate.median_us for b in record.benchmark if (b.shape, b.dtype) in before]
    )


def _candidate_indices(directory: Path) -> list[int]:
    indices = set()
    for path in directory.glob("candidate*.py"):
        tail = path.stem.removeprefix("candidate")
        if tail == "":
            indices.add(0)
        elif tail.startswith("-") and tail[1:].isdigit():
            indices.add(int(tail[1:]) - 1)
    return sorted(indices)


def iteration_rows(run_dir: Path, events: list[dict] | None = None) -> list[IterationRow]:
    """Every candidate of every iteration, in order, with its outcome so far."""
    run_dir = Path(run_dir)
    events = read_events(run_dir) if events is None else events
    proposals = {(e["iteration"], e.get("index", 0)): e for e in events if e["event"] == "proposal"}
    started = {(e["iteration"], e.get("index", 0)) for e in events if e["event"] == "evaluate_start"}
    decisions = {e["iteration"]: e for e in events if e["event"] == "decide"}
    commits = {e["iteration"]: e for e in events if e["event"] == "commit"}
    baseline_end = next((e for e in reversed(events) if e["event"] == "baseline_end"), {})
    start = read_record(run_dir / "iterations" / "0000" / "eval.json")
    rows = []
    for directory in sorted((run_dir / "iterations").glob("[0-9][0-9][0-9][0-9]")):
        iteration = int(directory.name)
        indices = _candidate_indices(directory) or [0]
        for index in indices:
            record = read_record(directory / f"eval{_suffix(index)}.json")
            proposal = proposals.get((iteration, index), {})
            decided = decisions.get(iteration)
            decision = None
            if decided and index < len(decided.get("decisions") or []):
                decision = decided["decisions"][index]
            commit = None
            if iteration == 0:
                outcome = "baseline" if record else "evaluating"
                rationale = "starting kernel"
                reason = record.message if record else baseline_end.get("message", "being evaluated")
            elif decision is not None:
                if decided.get("accepted") == index:
                    outcome = "accepted"
                    commit = commits.get(iteration, {}).get("sha")
                else:
                    outcome = "failed" if record is not None and record.status != "ok" else "rejected"
                rationale = proposal.get("rationale", "")
                reason = decision.get("reason", "")
            else:
                outcome = "evaluating" if record is not None or (iteration, index) in started else "proposed"
                rationale = proposal.get("rationale", "")
                reason = record.message if record else "not evaluated yet"
            rows.append(
                IterationRow(
                    iteration=iteration,
                    index=index,
                    outcome=outcome,
                    rationale=rationale,
                    reason=reason,
                    failed_stage=record.failed_stage if record else None,
                    model=proposal.get("model"),
                    time=proposal.get("time") or (record.started if record else None),
                    median_gbps=median_gbps(record),
                    median_fraction_of_copy=median_fraction(record),
                    geomean_vs_best=(decision or {}).get("geomean_speedup"),
                    geomean_vs_start=vs_start(record, start),
                    geomean_vs_eager=record.geomean_speedup("eager") if record else None,
                    commit=commit,
                )
            )
    return rows


def best_row(rows: list[IterationRow], run: dict) -> IterationRow | None:
    """The version the run holds as its best: run.json's `best.iteration`, else the last accepted one."""
    iteration = (run.get("best") or {}).get("iteration")
    kept = [r for r in rows if r.outcome in ("baseline", "accepted")]
    if iteration is not None:
        match = [r for r in kept if r.iteration == iteration]
        if match:
            return match[-1]
    return kept[-1] if kept else None


# ---------------------------------------------------------------------------------------------- levels for the chart


def baseline_levels(start: EvalRecord | None, metric: str) -> dict[str, float]:
    """Horizontal rules for the chart: torch eager, torch.compile and Liger-Kernel (when measured), the copy roofline.

    `metric` is "gbps" (median shape, GB/s) or "vs_start" (geomean speedup over the starting kernel).
    Levels come from the starting kernel's evaluation, where every baseline was timed beside it.
    """
    if metric not in ("gbps", "vs_start"):
        raise ValueError(f"metric must be 'gbps' or 'vs_start', not {metric!r}")
    if start is None:
        return {}
    names = {
        "torch eager": "eager",
        "torch.compile": "compiled",
        "Liger-Kernel": "liger",
        "copy roofline": "copy_roofline",
    }
    levels = {}
    for label, attribute in names.items():
        timed = [(b, getattr(b, attribute)) for b in start.benchmark if getattr(b, attribute) is not None]
        if not timed:
            continue
        if metric == "gbps":
            value = _median([gbps_of(b.bytes_moved, t) for b, t in timed])
        else:
            value = _geomean([b.candidate.median_us / t.median_us for b, t in timed if t.median_us])
        if value:
            levels[label] = value
    return levels


# ---------------------------------------------------------------------------------------------- per-shape tables


def best_shape_table(record: EvalRecord, start: EvalRecord | None = None) -> list[dict]:
    """The best version per (shape, dtype): time, GB/s, % of copy and its speedups."""
    before = {(b.shape, b.dtype): b.candidate.median_us for b in start.benchmark} if start else {}
    rows = []
    for b in record.benchmark:
        first = before.get((b.shape, b.dtype))
        rows.append(
            {
                "shape": b.shape,
                "dtype": b.dtype,
                "median us": b.candidate.median_us,
                "GB/s": b.gbps,
                "% of copy": 100 * b.fraction_of_copy if b.fraction_of_copy else None,
                "copy GB/s": b.copy_gbps,
                "vs start": first / b.candidate.median_us if first and b.candidate.median_us else None,
                "vs eager": b.speedup_vs_eager,
                "vs compile": b.speedup_vs_compiled,
                "vs liger": b.speedup_vs_liger,
                "status": b.status,
            }
        )
    return rows


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


def _us(timing: Timing | None) -> float | None:
    return timing.median_us if timing else None


def timing_table(record: EvalRecord) -> list[dict]:
    """Per (shape, dtype): the candidate's timing and everything timed beside it."""
    return [
        {
            "shape": b.shape,
            "dtype": b.dtype,
            "status": b.status,
            "median us": b.candidate.median_us,
            "p10 us": b.candidate.p10_us,
            "p90 us": b.candidate.p90_us,
            "reps": b.candidate.reps,
            "method": b.candidate.method,
            "best us": _us(b.incumbent),
            "eager us": _us(b.eager),
            "compile us": _us(b.compiled),
            "liger us": _us(b.liger),
            "copy us": _us(b.copy_roofline),
            "graph us": _us(b.graph),
            "GB/s": b.gbps,
            "% of copy": 100 * b.fraction_of_copy if b.fraction_of_copy else None,
            "vs best": b.speedup_vs_incumbent,
            "vs eager": b.speedup_vs_eager,
            "vs compile": b.speedup_vs_compiled,
            "vs liger": b.speedup_vs_liger,
            "note": b.note,
        }
        for b in record.benchmark
    ]


def stage_table(record: EvalRecord) -> list[dict]:
    return [{"stage": s.name, "status": s.status, "seconds": s.seconds, "message": s.message} for s in record.stages]


# ---------------------------------------------------------------------------------------------- results CSV

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
    "median_us",
    "p10_us",
    "p90_us",
    "reps",
    "method",
    "gbps",
    "fraction_of_copy",
    "copy_gbps",
    "incumbent_us",
    "eager_us",
    "compiled_us",
    "liger_us",
    "speedup_vs_incumbent",
    "speedup_vs_eager",
    "speedup_vs_compiled",
    "speedup_vs_liger",
    "liger_status",
    "bench_status",
    "rationale",
)


def _csv_rows(row: IterationRow, record: EvalRecord) -> list[dict]:
    checks: dict[tuple[str, str], list] = {}
    for c in record.correctness:
        checks.setdefault((c.shape, c.dtype), []).append(c)
    bench: dict[tuple[str, str], ShapeBenchmark] = {(b.shape, b.dtype): b for b in record.benchmark}
    out = []
    for key in dict.fromkeys([*checks, *bench]):
        runs, b = checks.get(key, []), bench.get(key)
        out.append(
            {
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
                "median_us": b.candidate.median_us if b else "",
                "p10_us": b.candidate.p10_us if b else "",
                "p90_us": b.candidate.p90_us if b else "",
                "reps": b.candidate.reps if b else "",
                "method": b.candidate.method if b else "",
                "gbps": b.gbps if b else "",
                "fraction_of_copy": b.fraction_of_copy if b and b.fraction_of_copy is not None else "",
                "copy_gbps": b.copy_gbps if b and b.copy_gbps is not None else "",
                "incumbent_us": _us(b.incumbent) if b and b.incumbent else "",
                "eager_us": _us(b.eager) if b and b.eager else "",
                "compiled_us": _us(b.compiled) if b and b.compiled else "",
                "liger_us": _us(b.liger) if b and b.liger else "",
                "speedup_vs_incumbent": b.speedup_vs_incumbent if b and b.speedup_vs_incumbent is not None else "",
                "speedup_vs_eager": b.speedup_vs_eager if b and b.speedup_vs_eager is not None else "",
                "speedup_vs_compiled": b.speedup_vs_compiled if b and b.speedup_vs_compiled is not None else "",
                "speedup_vs_liger": b.speedup_vs_liger if b and b.speedup_vs_liger is not None else "",
                "liger_status": (b.liger_status or "") if b else "",
                "bench_status": b.status if b else "",
                "rationale": row.rationale,
            }
        )
    return out


def results_csv(run_dir: Path, rows: list[IterationRow] | None = None) -> str:
    """One line per iteration x candidate x (shape, dtype), hidden shapes included; numbers unformatted."""
    run_dir = Path(run_dir)
    rows = iteration_rows(run_dir) if rows is None else rows
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        record = read_record(run_dir / "iterations" / f"{row.iteration:04d}" / f"eval{row.suffix}.json")
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


def _generated(directory: Path, suffix: str, record: EvalRecord | None) -> list[GeneratedSource]:
    if record and record.compile and record.compile.sources:
        return [GeneratedSource(s.key, s.language, s.text) for s in record.compile.sources]
    # An older or partial eval.json: fall back to the file the loop wrote beside it.
    for extension, language in (("cu", "cuda"), ("py", "triton"), ("txt", "text")):
        text = _read_text(directory / f"generated{suffix}.{extension}")
        if text:
            return [GeneratedSource(f"generated{suffix}.{extension}", language, text)]
    return []


def commit_message(run_dir: Path, run: dict, sha: str) -> str | None:
    """The full message of an accepted version's commit, from the run's git worktree (None if it is gone)."""
    import git

    workspace = run.get("workspace") or {}
    # The recorded path is absolute; a run folder copied to another machine still has its repo beside it.
    candidates = [Path(workspace["worktree"])] if workspace.get("worktree") else []
    candidates += [Path(run_dir) / "worktree", Path(run_dir) / "repo"]
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
    events = read_events(run_dir)
    rows = iteration_rows(run_dir, events) if rows is None else rows
    round_rows = [r for r in rows if r.iteration == iteration]
    row = next((r for r in round_rows if r.index == index), None)
    if row is None:
        return None
    directory = run_dir / "iterations" / f"{iteration:04d}"
    suffix = row.suffix
    record = read_record(directory / f"eval{suffix}.json")
    sha, message = row.commit, None
    if sha:
        message = commit_message(run_dir, _read_json(run_dir / "run.json"), sha)
        if message is None:  # no repository here: the log keeps the first line
            message = next((e.get("message") for e in events if e["event"] == "commit" and e.get("sha") == sha), None)
    return IterationDetail(
        row=row,
        directory=directory,
        candidates=len(round_rows),
        source=_read_text(directory / f"candidate{suffix}.py"),
        diff=_read_text(directory / f"diff{suffix}.patch"),
        prompt=_read_text(directory / f"prompt{suffix}.md"),
        response=_read_text(directory / f"response{suffix}.md"),
        reflection=_read_text(directory / "reflection.md"),
        profile=_read_text(directory / f"profile{suffix}.txt"),
        record=record,
        generated=_generated(directory, suffix, record),
        commit_sha=sha,
        commit_message=message,
    )


# ---------------------------------------------------------------------------------------------- environment


def environment_rows(run: dict) -> list[dict]:
    """run.json's environment as (item, value) rows, library versions last."""
    env = run.get("environment") or {}
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


# ---------------------------------------------------------------------------------------------- a whole run


@dataclass
class RunData:
    """What the run page needs, read once per change of the folder."""

    path: Path
    run: dict
    events: list[dict]
    summary: RunRow
    rows: list[IterationRow]
    start: EvalRecord | None
    best: IterationRow | None
    best_record: EvalRecord | None

    @property
    def config(self) -> dict:
        return self.run.get("config") or {}

    @property
    def title(self) -> str:
        op, backend = self.summary.op or "?", self.summary.backend or "?"
        return f"{op}[{backend}]"


def load_run(run_dir: Path) -> RunData:
    run_dir = Path(run_dir)
    run = _read_json(run_dir / "run.json")
    events = read_events(run_dir)
    rows = iteration_rows(run_dir, events)
    best = best_row(rows, run)
    best_record = None
    if best is not None:
        best_record = read_record(run_dir / "iterations" / f"{best.iteration:04d}" / f"eval{best.suffix}.json")
    return RunData(
        path=run_dir,
        run=run,
        events=events,
        summary=run_row(run_dir),
        rows=rows,
        start=read_record(run_dir / "iterations" / "0000" / "eval.json"),
        best=best,
        best_record=best_record,
    )
