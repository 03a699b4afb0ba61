"""The bench tables under benchmarks/results/<device>/: one op's current results as compact typed rows.

A row is one op x backend x shape x dtype x scope: the judge's median per call and its interval, GB/s,
the fraction of a copy of the same bytes, the ratios over each baseline, and the worst error of the
shape's checks; a hidden shape, checked but never timed, has a row without a scope. No per-batch timings,
no generated sources: those stay in the evaluation records (`agent eval --json`). `ResultTable` is the
one reader and writer of `<op>.json` and its markdown view `<op>.md`; `agent bench` writes them
(tools/bench.py), anything that reads results reads them here.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from tools.evaluator.records import Environment, EvalRecord, LigerStatus, Scope, ShapeBenchmark
from tools.report import CPU_NOTE, gbps_text, missing_liger_note

# Ratios a row keeps: over the torch reference op, torch.compile, Liger-Kernel and torch's own ops in the model dtype.
Against = Literal["torch", "compiled", "liger", "native"]
AGAINST: tuple[Against, ...] = ("torch", "compiled", "liger", "native")
AGAINST_TITLES: dict[Against, str] = {
    "torch": "vs torch",
    "compiled": "vs compile",
    "liger": "vs liger",
    "native": "vs native",
}
ShapeStatus = Literal["ok", "wrong", "measurement_error", "wrong_after_timing", "failed"]
# Where the eager call costs this much more than its graph replay, the host's launch cost bounds it.
HOST_BOUND = 1.5

SCOPES_NOTE = (
    "Timings are the judge's clock (tools/evaluator/judge.py): per call, the median over rounds of batches "
    "(±: half the 95% interval), in two scopes: eager (the runner calls the op back to back: host launch "
    "cost included, what a model's eager forward pays) and graph (the same calls replayed from a CUDA graph: "
    f"device time). bound: host where the eager call costs over {HOST_BOUND}x its graph replay. GB/s from "
    "bytes_moved; % of copy: of a device-to-device copy of the same bytes timed the same way; speedups are "
    "medians of per-round ratios. vs liger: Liger-Kernel's kernel for the op (tools/liger.py), its inputs put in "
    "its layout and its fresh result copied into out= (its API has none) off the clock; `-` where it was not "
    "installed. vs native: torch's own ops in the model dtype (F.rms_norm, rotate-half RoPE, F.silu(gate) * up), "
    "as a user would write them."
)


class ResultRow(BaseModel):
    """One backend's figures on one (shape, dtype) in one scope; `scope` None: checked, not timed."""

    backend: str
    shape: str
    dims: list[int]
    dtype: str
    scope: Scope | None = None
    status: ShapeStatus = "ok"
    max_abs_err: float | None = Field(default=None, description="worst over the shape's checks, hazards included")
    bytes_moved: int | None = None
    median_us: float | None = None
    ci_low_us: float | None = None
    ci_high_us: float | None = None
    gbps: float | None = None
    fraction_of_copy: float | None = None
    speedup: dict[Against, float] = Field(default_factory=dict, description="median per-round ratio over each")
    liger_status: LigerStatus | None = None
    note: str = ""

    @property
    def half_width(self) -> float | None:
        """Half the confidence interval relative to the median: the noise of this timing."""
        if self.ci_low_us is None or self.ci_high_us is None or not self.median_us:
            return None
        return (self.ci_high_us - self.ci_low_us) / 2 / self.median_us


class BackendBench(BaseModel):
    """What one bench of one backend said about itself: when, by which harness, its verdict and message."""

    backend: str
    started: str
    harness_sha256: str
    status: Literal["ok", "failed"]
    message: str = ""
    decision_scope: Scope | None = None
    timed_on_cpu: bool = False
    compiled_per_shape: bool = Field(
        default=False, description="torch.compile compiled each shape on its own: its column can be read"
    )
    environment: Environment | None = None


class ResultTable(BaseModel):
    """An op's bench file: each backend's bench and its rows, in the order benches list backends."""

    model_config = ConfigDict(extra="forbid")  # a file of another format is refused, not read as empty

    op: str
    benches: list[BackendBench] = Field(default_factory=list)
    rows: list[ResultRow] = Field(default_factory=list)

    # ------------------------------------------------------------------------------------------ building

    @classmethod
    def from_records(cls, op: str, records: list[EvalRecord]) -> ResultTable:
        table = cls(op=op)
        for record in records:
            if record.op != op:
                raise ValueError(f"a record of {record.op!r} cannot go into {op}'s results")
            table = table.replaced(record.backend, _bench_of(record), _rows_of(record))
        return table

    def replaced(self, backend: str, bench: BackendBench, rows: list[ResultRow]) -> ResultTable:
        """This table with `backend`'s bench and rows replaced (added where it had none)."""
        benches = [b for b in self.benches if b.backend != backend] + [bench]
        kept = [r for r in self.rows if r.backend != backend] + rows
        return ResultTable(op=self.op, benches=benches, rows=kept)

    def merged(self, newer: ResultTable, order: tuple[str, ...] = ()) -> ResultTable:
        """The backends of `newer` replace this table's; the others stay. Backends sorted by `order`."""
        table = self
        for bench in newer.benches:
            table = table.replaced(bench.backend, bench, newer.backend_rows(bench.backend))
        rank = {name: i for i, name in enumerate(order)}
        benches = sorted(table.benches, key=lambda b: rank.get(b.backend, len(rank)))
        rows = sorted(table.rows, key=lambda r: rank.get(r.backend, len(rank)))  # stable: shape order kept
        return ResultTable(op=self.op, benches=benches, rows=rows)

    # ------------------------------------------------------------------------------------------ reading

    def bench(self, backend: str) -> BackendBench | None:
        return next((b for b in self.benches if b.backend == backend), None)

    def backend_rows(self, backend: str, scope: Scope | Literal["any"] | None = "any") -> list[ResultRow]:
        return [r for r in self.rows if r.backend == backend and (scope == "any" or r.scope == scope)]

    @property
    def environment(self) -> Environment | None:
        return next((b.environment for b in self.benches if b.environment), None)

    # ------------------------------------------------------------------------------------------ files

    @classmethod
    def load(cls, path: Path, op: str | None = None) -> ResultTable:
        """An op's bench file; raises with what to do where the file holds something else."""
        try:
            table = cls.model_validate_json(Path(path).read_text())
        except (OSError, ValueError, ValidationError) as err:
            raise RuntimeError(
                f"{path} cannot be read as a bench file ({str(err).splitlines()[0][:200]}); "
                "move it away or pass --out, so it is not overwritten unread"
            ) from err
        if op is not None and table.op != op:
            raise RuntimeError(
                f"{path} holds {table.op}'s results, not {op}'s; move it away or pass --out, so it is not overwritten"
            )
        return table

    def save(self, path: Path) -> None:
        """`<op>.json` (one row a line, so a change of figures is a readable diff) and `<op>.md` beside it."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        head = self.model_dump_json(exclude={"rows"}, exclude_none=True)[:-1]
        lines = [r.model_dump_json(exclude_none=True, exclude_defaults=True) for r in self.rows]
        path.write_text(head + ',"rows":[\n' + ",\n".join(lines) + "\n]}\n")
        path.with_suffix(".md").write_text(self.markdown() + "\n")

    # ------------------------------------------------------------------------------------------ markdown

    def markdown(self) -> str:
        """A table per backend, a line per (shape, dtype): both scopes' times, then the decision scope's figures."""
        lines = [f"# {self.op}: benchmark", ""]
        env = self.environment
        if env:
            shown = {"torch", "triton", "tilelang", "ninetoothed", "liger_kernel"}
            versions = ", ".join(f"{k} {v}" for k, v in env.versions.items() if k in shown)
            lines += [f"Device: {env.device or 'CPU'} (driver {env.driver or '-'}); {versions}.", ""]
        lines += [SCOPES_NOTE, ""]
        for bench in self.benches:
            lines += [f"## {self.op}[{bench.backend}]: {bench.status}", ""]
            # A file's backends may come from different benches (tools/bench.py keeps those not re-run).
            lines += [f"Timed {bench.started}, harness {bench.harness_sha256[:12]}.", "", bench.message, ""]
            rows = self.backend_rows(bench.backend)
            note = liger_note(rows)
            if note:
                lines += [note, ""]
            if bench.timed_on_cpu:
                lines += [CPU_NOTE, ""]
            lines += _markdown_table(bench, rows)
            lines.append("")
        return "\n".join(lines).rstrip() + "\n"


# ---------------------------------------------------------------------------------------------- from a record


def _bench_of(record: EvalRecord) -> BackendBench:
    return BackendBench(
        backend=record.backend,
        started=record.started,
        harness_sha256=record.harness_sha256,
        status=record.status,
        message=record.message,
        decision_scope=record.decision_scope() if record.decision_scope() in ("eager", "graph") else None,
        timed_on_cpu=record.timed_on_cpu(),
        compiled_per_shape=record.compiled_per_shape,
        environment=record.environment,
    )


def _rows_of(record: EvalRecord) -> list[ResultRow]:
    errors: dict[tuple[str, str], list[float]] = defaultdict(list)
    wrong: set[tuple[str, str]] = set()
    dims: dict[tuple[str, str], list[int]] = {}
    for c in record.correctness:
        errors[(c.shape, c.dtype)].append(c.max_abs_err)
        dims[(c.shape, c.dtype)] = c.dims
        if not c.ok:
            wrong.add((c.shape, c.dtype))
    timed: dict[tuple[str, str], ShapeBenchmark] = {(b.shape, b.dtype): b for b in record.benchmark}
    rows = []
    for key in dict.fromkeys([*errors, *timed]):
        b = timed.get(key)
        common = {
            "backend": record.backend,
            "shape": key[0],
            "dims": b.dims if b else dims[key],
            "dtype": key[1],
            "status": "wrong" if key in wrong else (b.status if b else "ok"),
            "max_abs_err": max(errors[key]) if errors.get(key) else None,
        }
        scopes = [s for s in ("eager", "graph") if b is not None and b.scope(s) and b.scope(s).candidate]
        if not scopes:
            rows.append(ResultRow(**common))
        for scope in scopes:
            result = b.scope(scope)
            speedups = {a: result.speedup(a) for a in AGAINST}
            rows.append(
                ResultRow(
                    **common,
                    scope=scope,
                    bytes_moved=b.bytes_moved,
                    median_us=result.candidate.median_us,
                    ci_low_us=result.candidate.ci_low_us,
                    ci_high_us=result.candidate.ci_high_us,
                    gbps=result.gbps,
                    fraction_of_copy=result.fraction_of_copy,
                    speedup={a: v for a, v in speedups.items() if v is not None},
                    liger_status=b.liger_status,
                    note=b.note,
                )
            )
    return rows


# ---------------------------------------------------------------------------------------------- markdown rows


def liger_note(rows: list[ResultRow]) -> str | None:
    """Why the Liger baseline is missing from some timed shapes; None when it is not."""
    timed = {(r.shape, r.dtype): r for r in rows if r.scope is not None}
    return missing_liger_note([(r.liger_status, r.note) for r in timed.values()])


def _us(row: ResultRow | None) -> str:
    if row is None or row.median_us is None:
        return "-"
    noise = row.half_width
    return f"{row.median_us:.2f}" + (f" ±{100 * noise:.0f}%" if noise is not None and noise >= 0.005 else "")


def _vs(row: ResultRow | None, against: Against) -> str:
    if row is None:
        return "-"
    if against == "liger" and row.liger_status in ("wrong", "failed"):
        return f"liger {row.liger_status}"
    value = row.speedup.get(against)
    return "-" if value is None else f"{value:.2f}x"


def _bound(eager: ResultRow | None, graph: ResultRow | None) -> str:
    if not (eager and graph and eager.median_us and graph.median_us):
        return "-"
    return "host" if eager.median_us > HOST_BOUND * graph.median_us else "device"


def _markdown_table(bench: BackendBench, rows: list[ResultRow]) -> list[str]:
    by_shape: dict[tuple[str, str], dict[Scope | None, ResultRow]] = defaultdict(dict)
    for row in rows:
        by_shape[(row.shape, row.dtype)][row.scope] = row
    if not by_shape:
        return []
    scope = bench.decision_scope or "graph"
    against = [a for a in AGAINST if a != "native" or any("native" in r.speedup for r in rows)]
    titles = ["shape", "dtype", "status", "max err", "eager µs/call", "graph µs/call", "bound"]
    titles += [f"GB/s ({scope})", f"% of copy ({scope})"]
    titles += [
        {"torch": "vs torch", "compiled": "vs compile", "liger": "vs liger", "native": "vs native"}[a] for a in against
    ]
    lines = ["| " + " | ".join(titles) + " |", "|" + "---|" * len(titles)]
    for (shape, dtype), scopes in by_shape.items():
        first = next(iter(scopes.values()))
        decided = scopes.get(scope)
        cells = [
            shape,
            dtype,
            "ok" if first.status == "ok" else first.status.upper(),
            "-" if first.max_abs_err is None else f"{first.max_abs_err:.1e}",
            _us(scopes.get("eager")),
            _us(scopes.get("graph")),
            _bound(scopes.get("eager"), scopes.get("graph")),
            gbps_text(decided.gbps if decided else None),
            f"{100 * decided.fraction_of_copy:.0f}%" if decided and decided.fraction_of_copy else "-",
            *(_vs(decided, a) for a in against),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return lines
