"""The agent benchmark's results: what the loop reached from a user's first-draft kernel, case by case.

A case is one (op, backend, policy) run of the loop from a starting file (`benchmarks/agent/starts/<op>/<backend>.py`),
bounded by iterations and wall time, beside one evaluation of the shipped kernel (`kernels/<op>/<backend>.py`) on
the same shapes. `case_from_run` reads what a case reached from its run folder alone (run.json, events.jsonl, the
iterations' eval.json), so any run folder can be scored. `AgentBench` is the one reader and writer of
`benchmarks/results/<gpu>/agent.json` and its markdown view `agent.md`; `agent bench-agent` fills them
(agent/commands/bench_agent.py).

fast_p (KernelBench's): the share of cases whose best version is correct and faster than a baseline by more than
p, where a case's speed over the baseline is the geomean over its timed shapes of the judge's per-shape speedups
(the record's medians of per-round ratios), in the decision scope.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterable
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from tools.evaluator.options import EvalOptions
from tools.evaluator.records import Environment, EvalRecord, geomean
from tools.paths import PROJECT_ROOT
from tools.runfolder import RUN_FILE, RunFolder, read_record

STARTS_DIR = PROJECT_ROOT / "benchmarks" / "agent" / "starts"
RESULTS_FILE = "agent.json"
# A case reached the shipped kernel when its best version's median shape came within this share of the shipped
# kernel's fraction of copy.
REACH = 0.9
FAST_P = (1.0, 1.2)
# The fewest timed rounds per shape a case may ask for, so that cases of one table are measured alike.
MIN_BATCHES = 6
Against = Literal["torch", "compiled"]
AGAINST: tuple[Against, ...] = ("torch", "compiled")
AGAINST_TITLES: dict[Against, str] = {"torch": "torch eager", "compiled": "torch.compile"}
CaseStatus = Literal["finished", "stopped", "failed", "skipped"]

DEFINITIONS = " ".join(
    [
        "**start**, **best**, **shipped**: the fraction of a device copy of the same bytes reached by the median",
        "timed shape (the judge's `fraction_of_copy`, decision scope), for the starting file's baseline evaluation,",
        "the best version the loop kept, and the shipped kernel evaluated once on the same shapes.",
        "**to 0.9**: the iteration and the minutes from the run's start (its baseline evaluation included) at which",
        f"the best version first reached {REACH} of the shipped kernel's fraction; `-` if it did not.",
        "**minutes**: the run's wall time (the loop starts no iteration after the case's budget, so the last one may",
        "end past it). **commits**: versions accepted. **tokens**: prompt + completion tokens the llm policy used",
        "(empty for search). **vs eager / vs compile**: the geomean over the timed shapes of the best version's",
        "speedup over torch eager and torch.compile (the judge's per-shape medians of per-round ratios; over",
        "torch.compile, where the loop did not time it, the shipped evaluation's torch.compile time per shape over",
        "the best version's, marked ~). **fast_p** (KernelBench): the share of cases whose version is correct and",
        "more than p times as fast as the baseline by that geomean; a case without a correct version (its start",
        "failed, or it was skipped) counts as not fast.",
    ]
)


# ---------------------------------------------------------------------------------------------- the options


class AgentBenchOptions(BaseModel):
    """What one `agent bench-agent` asks for, built at the command line and passed whole."""

    policy: Literal["search", "llm"] = "search"
    model: str | None = Field(default=None, description="chat model for the llm policy")
    iterations: int = Field(default=8, ge=1, description="proposal rounds per case at most")
    minutes: float | None = Field(default=1.5, gt=0, description="per case: start no iteration after this")
    total_minutes: float | None = Field(
        default=None, gt=0, description="start no case after this; the cases left get a `skipped` row"
    )
    # How each case's loop evaluates its candidates: against torch eager, within the compile limit.
    evaluation: EvalOptions = Field(
        default_factory=lambda: EvalOptions(baselines=("eager",), device="cuda", compile_timeout_s=90.0)
    )
    shipped_baselines: list[str] = Field(
        default_factory=lambda: ["eager", "compiled"], description="what the shipped kernel's evaluation times"
    )
    starts_dir: Path = STARTS_DIR
    out_dir: Path = PROJECT_ROOT / "benchmarks" / "results"

    @field_validator("evaluation")
    @classmethod
    def _enough_batches(cls, evaluation: EvalOptions) -> EvalOptions:
        if evaluation.batches < MIN_BATCHES:
            raise ValueError(f"bench-agent times at least {MIN_BATCHES} batches a shape; got {evaluation.batches}")
        return evaluation

    def shipped_evaluation(self) -> EvalOptions:
        """How the shipped kernel is evaluated beside a case: its baselines, no compile limit, no dtypes stage."""
        update = {"baselines": tuple(self.shipped_baselines), "compile_timeout_s": None, "other_dtypes": False}
        return self.evaluation.model_copy(update=update)


# ---------------------------------------------------------------------------------------------- the model


class Point(BaseModel):
    """The best version after one iteration (0: the starting kernel)."""

    iteration: int
    elapsed_s: float | None = Field(default=None, description="from the case's start to this iteration's decision")
    best_fraction: float | None = None
    outcomes: list[str] = Field(default_factory=list, description="each candidate's outcome in this iteration")


class Speed(BaseModel):
    """One version's speed: the median shape's fraction of copy and its geomean speedups over the baselines."""

    fraction: float | None = None
    speedup: dict[Against, float] = Field(default_factory=dict)
    estimated: list[Against] = Field(
        default_factory=list, description="speedups taken across evaluations (another record's baseline timing)"
    )
    correct: bool = False


class TokenUse(BaseModel):
    prompt: int = 0
    completion: int = 0

    @property
    def total(self) -> int:
        return self.prompt + self.completion


class CaseResult(BaseModel):
    """One case: an (op, backend, policy) run from a starting file, and the shipped kernel's figures beside it."""

    op: str
    backend: str
    policy: str
    model: str | None = None
    start_file: str = Field(description="relative to the repository where it is inside it")
    run_id: str | None = None
    status: CaseStatus
    message: str = Field(default="", description="why it stopped: the loop's stop reason, or the error")
    shapes: list[str] | None = Field(default=None, description="the shape patterns the case ran on (None: all)")
    dtypes: list[str] = Field(default_factory=lambda: ["bf16"])
    budget_iterations: int
    budget_minutes: float | None = None
    started: str
    wall_s: float = 0.0
    iterations: int = 0
    commits: list[str] = Field(default_factory=list)
    start: Speed = Field(default_factory=Speed)
    best: Speed = Field(default_factory=Speed)
    best_iteration: int | None = None
    shipped: Speed | None = Field(default=None, description="None: no shipped kernel for this backend")
    shipped_message: str = ""
    reached_iteration: int | None = Field(default=None, description=f"first iteration at {REACH} of shipped")
    reached_s: float | None = None
    tokens: TokenUse | None = Field(default=None, description="None: no model was asked")
    points: list[Point] = Field(default_factory=list)

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.op, self.backend, self.policy)

    @property
    def target(self) -> float | None:
        """The fraction of copy that counts as reaching the shipped kernel."""
        return REACH * self.shipped.fraction if self.shipped and self.shipped.fraction else None

    def fast(self, p: float, against: Against, which: Literal["start", "best", "shipped"] = "best") -> bool:
        speed = getattr(self, which)
        if speed is None or not speed.correct or self.status == "skipped":
            return False
        value = speed.speedup.get(against)
        return value is not None and value > p


class AgentBench(BaseModel):
    """`agent.json`: the cases of the agent benchmark on one device, in the order they ran."""

    model_config = ConfigDict(extra="forbid")  # a file of another format is refused, not read as empty

    kind: Literal["agent-bench"] = "agent-bench"
    device: str | None = None
    environment: Environment | None = None
    updated: str = ""
    cases: list[CaseResult] = Field(default_factory=list)

    def replaced(self, case: CaseResult, environment: Environment | None = None) -> AgentBench:
        """This file with `case` in place of the earlier one of its (op, backend, policy), or added."""
        cases = [c for c in self.cases if c.key != case.key] + [case]
        env = environment or self.environment
        return AgentBench(device=env.device if env else self.device, environment=env, updated=_now(), cases=cases)

    # ------------------------------------------------------------------------------------------ figures

    def fast_p(self, p: float, against: Against, which: Literal["start", "best", "shipped"] = "best") -> float | None:
        """The share of cases whose `which` version is correct and faster than `against` by more than p."""
        cases = [c for c in self.cases if which != "shipped" or c.shipped is not None]
        if not cases:
            return None
        return sum(c.fast(p, against, which) for c in cases) / len(cases)

    def summary(self) -> str:
        """One line: how many cases reached 0.9 of shipped, and the geomean of start and best fractions."""
        ran = [c for c in self.cases if c.status != "skipped"]
        with_target = [c for c in ran if c.target is not None]
        reached = [c for c in with_target if c.reached_iteration is not None]
        pairs = [(c.start.fraction, c.best.fraction) for c in ran if c.start.fraction and c.best.fraction]
        text = f"{len(reached)} of {len(with_target)} cases reached {REACH} of the shipped kernel's fraction of copy"
        if pairs:
            start, best = geomean(s for s, _ in pairs), geomean(b for _, b in pairs)
            text += f"; geomean start -> best {start:.2f} -> {best:.2f} of copy"
            text += f" ({best / start:.2f}x over {len(pairs)} cases)"
        skipped = len(self.cases) - len(ran)
        return text + (f"; {skipped} skipped (time budget)" if skipped else "")

    # ------------------------------------------------------------------------------------------ files

    @classmethod
    def load(cls, path: Path) -> AgentBench:
        try:
            return cls.model_validate_json(Path(path).read_text())
        except (OSError, ValueError, ValidationError) as err:
            raise RuntimeError(
                f"{path} cannot be read as an agent benchmark file ({str(err).splitlines()[0][:200]}); "
                "move it away or pass --out, so it is not overwritten unread"
            ) from err

    def save(self, path: Path) -> None:
        """`agent.json` (a case a line) and `agent.md` beside it, each written whole and then moved in place."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        head = self.model_dump_json(exclude={"cases"}, exclude_none=True)[:-1]
        lines = [c.model_dump_json(exclude_none=True) for c in self.cases]
        _write(path, head + ',"cases":[\n' + ",\n".join(lines) + "\n]}\n")
        _write(path.with_suffix(".md"), self.markdown())

    # ------------------------------------------------------------------------------------------ markdown

    def markdown(self) -> str:
        lines = ["# The agent benchmark", ""]
        env = self.environment
        if env:
            lines += [f"Device: {env.device or 'CPU'} (driver {env.driver or '-'}). Updated {self.updated}.", ""]
        lines += [
            "The loop (`agent optimize`'s machinery) run from a first-draft kernel per op and backend "
            "(`benchmarks/agent/starts/`), each case bounded by iterations and wall time; written by "
            "`agent bench-agent` (docs/agent_bench.md).",
            "",
            DEFINITIONS,
            "",
            self.summary() + ".",
            "",
        ]
        if self.cases:
            lines += [*_cases_table(self.cases), ""]
            lines += ["## fast_p", "", *self._fast_table(), ""]
            lines += ["## Best fraction of copy by iteration", "", *_progress_lines(self.cases), ""]
            notes = [c for c in self.cases if c.message or c.shipped_message]
            if notes:
                lines += ["## Notes", ""]
                for c in notes:
                    lines.append(f"- {_case_name(c)}: {'; '.join(m for m in (c.message, c.shipped_message) if m)}")
                lines.append("")
            settings = sorted(
                {
                    (tuple(c.shapes or ["all named shapes"]), tuple(c.dtypes), c.budget_iterations, c.budget_minutes)
                    for c in self.cases
                },
                key=str,
            )
            lines += ["## Budgets", ""]
            for shapes, dtypes, iterations, minutes in settings:
                budget = f"at most {iterations} iteration(s)" + (f" and {minutes:g} min per case" if minutes else "")
                lines.append(f"- {budget}; shapes {', '.join(shapes)}; dtypes {', '.join(dtypes)}")
        return "\n".join(lines).rstrip() + "\n"

    def _fast_table(self) -> list[str]:
        titles = ["version"] + [f"fast_{p:.1f} vs {AGAINST_TITLES[a]}" for a in AGAINST for p in FAST_P]
        lines = ["| " + " | ".join(titles) + " |", "|" + "---|" * len(titles)]
        for which in ("start", "best", "shipped"):
            cells = [which]
            for against in AGAINST:
                for p in FAST_P:
                    share = self.fast_p(p, against, which)
                    cells.append("-" if share is None else f"{100 * share:.0f}%")
            lines.append("| " + " | ".join(cells) + " |")
        return lines


def _now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")


def _write(path: Path, text: str) -> None:
    temp = path.with_name(f".{path.name}.tmp")
    temp.write_text(text)
    temp.replace(path)


def _case_name(case: CaseResult) -> str:
    return f"{case.op}[{case.backend}] {case.policy}"


def _fraction(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _speedup(speed: Speed | None, against: Against) -> str:
    if speed is None or against not in speed.speedup:
        return "-"
    return ("~" if against in speed.estimated else "") + f"{speed.speedup[against]:.2f}x"


def _cases_table(cases: list[CaseResult]) -> list[str]:
    titles = ["op", "backend", "policy", "status", "start", "best", "shipped", "to 0.9: iter", "to 0.9: min"]
    titles += ["iterations", "minutes", "commits", "tokens", "vs eager", "vs compile", "run"]
    lines = ["| " + " | ".join(titles) + " |", "|" + "---|" * len(titles)]
    for c in cases:
        cells = [
            c.op,
            c.backend,
            c.policy + (f" ({c.model})" if c.model else ""),
            c.status,
            _fraction(c.start.fraction),
            _fraction(c.best.fraction),
            _fraction(c.shipped.fraction if c.shipped else None),
            "-" if c.reached_iteration is None else str(c.reached_iteration),
            "-" if c.reached_s is None else f"{c.reached_s / 60:.1f}",
            str(c.iterations),
            f"{c.wall_s / 60:.1f}",
            str(len(c.commits)),
            "" if c.tokens is None else str(c.tokens.total),
            _speedup(c.best, "torch"),
            _speedup(c.best, "compiled"),
            f"`{c.run_id}`" if c.run_id else "-",
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


SPARK = "▁▂▃▄▅▆▇█"


def sparkline(values: Iterable[float | None], top: float = 1.0) -> str:
    """A bar per value, scaled to [0, top]; a gap where there is none."""
    bars = []
    for v in values:
        if v is None:
            bars.append(" ")
        else:
            bars.append(SPARK[max(0, min(len(SPARK) - 1, math.floor(v / top * len(SPARK))))])
    return "".join(bars)


def _progress_lines(cases: list[CaseResult]) -> list[str]:
    """Per case: the best version's fraction of copy after each iteration, as bars (0 to 1) and figures."""
    lines = ["```"]
    width = max(len(_case_name(c)) for c in cases)
    for c in cases:
        values = [p.best_fraction for p in c.points]
        figures = " ".join(_fraction(v) for v in values) or "-"
        lines.append(f"{_case_name(c):<{width}}  {sparkline(values):<12} {figures}")
    lines.append("```")
    return lines


# ---------------------------------------------------------------------------------------------- from a run folder


def speed_of(record: EvalRecord | None, compiled_reference: EvalRecord | None = None) -> Speed:
    """A record's speed; over torch.compile, where it did not time it, the reference record's compile time per
    shape over this record's own (both in the decision scope, matched by shape and dtype)."""
    if record is None:
        return Speed()
    speed = Speed(fraction=record.median_fraction_of_copy(), correct=record.status == "ok")
    for against in AGAINST:
        value = record.geomean_speedup(against)
        if value is not None:
            speed.speedup[against] = value
    if "compiled" not in speed.speedup and compiled_reference is not None:
        value = _compiled_across(record, compiled_reference)
        if value is not None:
            speed.speedup["compiled"] = value
            speed.estimated.append("compiled")
    return speed


def _compiled_across(record: EvalRecord, reference: EvalRecord) -> float | None:
    scope = record.decision_scope()
    if scope is None:
        return None
    theirs = {}
    for b in reference.benchmark:
        result = b.scope(scope)
        if result is not None and result.compiled is not None:
            theirs[(b.shape, b.dtype)] = result.compiled.median_us
    ratios = []
    for b in record.benchmark:
        result = b.scope(scope)
        compiled = theirs.get((b.shape, b.dtype))
        if result is None or result.candidate is None or not compiled:
            continue
        ratios.append(compiled / result.candidate.median_us)
    return geomean(ratios) if ratios else None


def _seconds_between(start: str, end: str) -> float | None:
    try:
        return (dt.datetime.fromisoformat(end) - dt.datetime.fromisoformat(start)).total_seconds()
    except (TypeError, ValueError):
        return None


def _record(folder: RunFolder, iteration: int, index: int) -> EvalRecord | None:
    """The candidate's eval.json without its generated sources (None: missing or half-written)."""
    return read_record(folder.record(iteration, index))


def _tokens(run: dict, events: list[dict]) -> TokenUse | None:
    """Prompt and completion tokens: run.json's totals where it keeps them, else the events' usage summed; None
    where no model was asked (run.json's `tokens` counts its calls)."""
    for key in ("tokens", "usage"):
        total = run.get(key)
        if isinstance(total, dict) and total.get("calls") == 0:
            return None
        if isinstance(total, dict):
            prompt = total.get("prompt_tokens", total.get("prompt"))
            completion = total.get("completion_tokens", total.get("completion"))
            if isinstance(prompt, int) and isinstance(completion, int):
                return TokenUse(prompt=prompt, completion=completion)
    used = [e["usage"] for e in events if isinstance(e.get("usage"), dict)]
    if not used:
        return None
    return TokenUse(
        prompt=sum(int(u.get("prompt_tokens") or 0) for u in used),
        completion=sum(int(u.get("completion_tokens") or 0) for u in used),
    )


def case_from_run(
    folder: RunFolder,
    case: CaseResult,
    shipped: EvalRecord | None,
    case_started: str | None = None,
) -> CaseResult:
    """`case` (its identity, budgets and status) with what its run folder shows: start, best, the timeline, the
    iteration and time at which it reached the shipped kernel, commits and tokens. Tolerates a run that died
    midway (run.json still `running`) or never got past its baseline."""
    try:
        run = folder.read_json(RUN_FILE)
    except (OSError, ValueError):
        run = {}
    events = folder.events()
    origin = case_started or run.get("created") or case.started
    baseline = _record(folder, 0, 0)
    start = speed_of(baseline, shipped)
    best_record, best_iteration = (baseline, 0) if baseline is not None and baseline.status == "ok" else (None, None)
    baseline_time = next((e["time"] for e in events if e.get("event") == "baseline_end"), None)
    points = []
    if baseline is not None:
        fraction = start.fraction if start.correct else None
        points.append(Point(iteration=0, elapsed_s=_seconds_between(origin, baseline_time), best_fraction=fraction,
                            outcomes=["baseline" if start.correct else "failed"]))  # fmt: skip
    for event in events:
        if event.get("event") != "decide":
            continue
        iteration, accepted = event.get("iteration"), event.get("accepted")
        if accepted is not None:
            record = _record(folder, iteration, accepted)
            if record is not None:
                best_record, best_iteration = record, iteration
        points.append(
            Point(
                iteration=iteration,
                elapsed_s=_seconds_between(origin, event.get("time")),
                best_fraction=best_record.median_fraction_of_copy() if best_record else None,
                outcomes=list(event.get("outcomes") or []),
            )
        )
    result = case.model_copy(
        update={
            "run_id": folder.run_id,
            "iterations": max((p.iteration for p in points), default=0),
            "commits": list(run.get("commits") or [e["sha"] for e in events if e.get("event") == "commit"]),
            "start": start,
            "best": speed_of(best_record, shipped),
            "best_iteration": best_iteration,
            "shipped": speed_of(shipped) if shipped is not None else None,
            "tokens": _tokens(run, events),
            "points": points,
            "message": case.message or run.get("stop_reason") or "",
        }
    )
    reached = first_reach(points, result.target)
    if reached is not None:
        result.reached_iteration, result.reached_s = reached.iteration, reached.elapsed_s
    return result


def first_reach(points: list[Point], target: float | None) -> Point | None:
    """The first point whose best version reached `target` (None: no target, or never reached)."""
    if not target:
        return None
    return next((p for p in points if p.best_fraction is not None and p.best_fraction >= target), None)


def results_path(out_dir: Path, gpu: str) -> Path:
    return Path(out_dir) / gpu / RESULTS_FILE


def load_or_new(path: Path) -> AgentBench:
    """The file's cases so far (read before any work, so a file of another format stops the bench at once)."""
    return AgentBench.load(path) if Path(path).exists() else AgentBench()


def starting_file(op: str, backend: str, starts_dir: Path = STARTS_DIR) -> Path:
    return Path(starts_dir) / op / f"{backend}.py"


def starting_cases(ops: Iterable[str], backends: Iterable[str], starts_dir: Path = STARTS_DIR) -> list[tuple[str, str]]:
    """The (op, backend) pairs with a starting file: every op of the first backend, then of the next."""
    ops = list(ops)
    return [(op, b) for b in backends for op in ops if starting_file(op, b, starts_dir).is_file()]
