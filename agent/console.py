"""What the commands print: evaluation records as tables, progress, the loop's iterations and its end."""

from __future__ import annotations

import os
from pathlib import Path

from tools.paths import RUNS_DIR

# A stage past this many seconds gets lines of its own (a live bar alone shows nothing in a log or a pipe).
SLOW_STAGE_S = 5.0
# While a stage runs long, a line this often: a hang is seen as one, minutes before its time limit ends it.
HEARTBEAT_S = 30.0


class StageClock:
    """Evaluation events as elapsed-time lines on stderr: a stage still running after HEARTBEAT_S says so,
    with its progress, every HEARTBEAT_S; a stage that ran past SLOW_STAGE_S says how long it took.

    `tick(now)` prints what is due at `now` (time.monotonic()); a thread calls it each second while the clock
    runs, since a hung runner sends no event that could.
    """

    def __init__(self, console, clock=None):
        import threading
        import time

        self.console = console
        self.clock = clock or time.monotonic
        self.stage: str | None = None
        self.started = self.last_line = 0.0
        self.label = ""
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def on_event(self, event: dict) -> None:
        with self._lock:
            kind, now = event.get("event"), self.clock()
            if kind == "stage_start":
                self.stage, self.started, self.last_line, self.label = event["stage"], now, now, ""
            elif kind == "progress" and event.get("stage") == self.stage:
                self.label = f"{event['label']} ({event['done']}/{event['total']})"
            elif kind == "stage_end" and event.get("stage") == self.stage:
                seconds = now - self.started
                if seconds >= SLOW_STAGE_S:
                    status = (event.get("result") or {}).get("status", "done")
                    self._line(f"{self.stage}: {status} after {_elapsed(seconds)}")
                self.stage = None

    def tick(self, now: float) -> None:
        with self._lock:
            if self.stage is not None and now - self.last_line >= HEARTBEAT_S:
                self.last_line = now
                self._line(
                    f"{self.stage}: running for {_elapsed(now - self.started)}"
                    + (f", {self.label}" if self.label else "")
                )

    def _line(self, text: str) -> None:
        self.console.print(f"[dim]  {text}[/dim]", highlight=False)

    def _run(self) -> None:
        while not self._stop.wait(1.0):
            self.tick(self.clock())

    def __enter__(self):
        import threading

        self._thread = threading.Thread(target=self._run, name="stage-clock", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()


def _elapsed(seconds: float) -> str:
    minutes, rest = divmod(int(seconds), 60)
    return f"{minutes} min {rest} s" if minutes else f"{seconds:.1f} s"


def make_progress():
    """Progress of an evaluation fed by its events: a live bar in a terminal, and a StageClock's elapsed-time
    lines on stderr wherever the output goes. Returns (a context manager, on_event)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    errors = Console(stderr=True)
    progress = Progress(
        TextColumn("[bold]{task.fields[stage]:<11}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[label]}"),
        TimeElapsedColumn(),
        console=errors,
        transient=True,
    )
    clock = StageClock(progress.console)  # printed through the bar's console: lines stay above the bar
    task = progress.add_task("eval", total=None, stage="", label="")

    def on_event(event: dict) -> None:
        kind = event.get("event")
        if kind == "stage_start":
            progress.update(task, stage=event["stage"], completed=0, total=None, label="")
        elif kind == "progress":
            progress.update(
                task,
                stage=event["stage"],
                completed=event["done"],
                total=event["total"],
                label=event["label"],
            )
        clock.on_event(event)

    return _Both(progress, clock), on_event


class _Both:
    """The bar and the clock as one `with` block."""

    def __init__(self, progress, clock):
        self.parts = (progress, clock)

    def __enter__(self):
        for part in self.parts:
            part.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        for part in reversed(self.parts):
            part.__exit__(*exc)


def judge_with_progress():
    """tools.evaluator.evaluate with a StageClock's lines: the loop's evaluations are not silent either.

    Its evaluations share one set of zygotes (tools/evaluator/zygote.py), so torch is imported for the runners
    once per command, not once per evaluation; they stop with this process.
    """
    from tools.evaluator.evaluate import evaluate
    from tools.evaluator.zygote import Zygotes

    zygotes = Zygotes()

    def judge(op, backend, candidate, options, *, incumbent=None):
        context, on_event = make_progress()
        with context:
            return evaluate(op, backend, candidate, options, incumbent=incumbent, on_event=on_event, zygotes=zygotes)

    return judge


def make_console():
    from rich.console import Console

    console = Console()
    # Piped output (CI logs, files) would otherwise be cut to 80 columns; COLUMNS, where set, still decides.
    return console if console.is_terminal or os.environ.get("COLUMNS") else Console(width=170)


def shape_tables(record, console) -> list:
    """The per-shape table, as one table where it fits the terminal.

    Where it does not, every column but the shape is as wide as its longest value or title word (titles
    wrap), shape names break after a '/' (tools/report.py: wrap_name) so that none is cut to `lla…`, and
    columns that still do not fit go to a second table, the shape and dtype repeated: a GPU record keeps
    all its columns at 80 characters too.
    """
    from rich.table import Table

    from tools.report import shape_rows, terminal_columns, wrap_name

    rows, titles = shape_rows(record), terminal_columns(record)
    if not rows:
        return []

    def build(keys: list[str], widths: dict[str, int], name_width: int | None) -> Table:
        table = Table(show_lines=False, show_edge=name_width is None)  # narrow: no outer border either
        for key in keys:
            justify = "left" if key in {"shape", "dtype", "status", "bound"} else "right"
            overflow = "fold" if key == "shape" else None  # a part longer than the column: folded, not cut
            table.add_column(titles[key], justify=justify, width=widths.get(key), overflow=overflow)
        for row in rows:
            cells = [wrap_name(row[k], name_width) if k == "shape" and name_width else row[k] for k in keys]
            table.add_row(*cells, style=None if row["status"] == "ok" else "red")
        return table

    table = build(list(titles), {}, None)
    if console.measure(table, options=console.options.update_width(10**4)).maximum <= console.width:
        return [table]
    widths = {
        key: max([len(word) for word in title.split()] + [len(row[key]) for row in rows])
        for key, title in titles.items()
        if key != "shape"
    }
    # The shape column gets what the others leave, and at least its longest unbreakable part.
    name_min = max(len(part) for row in rows for part in wrap_name(row["shape"], 1).splitlines())

    def frame(keys: list[str]) -> int:  # a space either side of each column, a border between two
        return 3 * len(keys) - 1 + sum(widths[k] for k in keys if k != "shape")

    shared, groups = ["shape", "dtype"], [[]]
    for key in titles:
        if key in shared:
            continue
        if groups[-1] and frame([*shared, *groups[-1], key]) + name_min > console.width:
            groups.append([])
        groups[-1].append(key)
    tables = []
    for group in groups:
        keys = [*shared, *group]
        tables.append(build(keys, widths, max(console.width - frame(keys), name_min)))
    return tables


def print_record(record, console) -> None:
    from tools.report import CPU_NOTE, ERROR_NOTE, GPU_ONLY_NOTE, liger_note

    console.print(
        f"[bold]{record.op}[{record.backend}][/bold]  {record.candidate}  "
        f"({record.environment.device or 'CPU'}, target {record.environment.target})"
    )
    for stage in record.stages:
        colour = {"ok": "green", "failed": "red", "skipped": "yellow"}[stage.status]
        # The failing stage's message is the verdict's, printed once, at the end.
        message = "(the verdict below)" if record.message == f"{stage.name}: {stage.message}" else stage.message
        console.print(f"  [{colour}]{stage.name:<12}{stage.status:<8}[/{colour}] {stage.seconds:6.1f} s  {message}")
    if record.timed_on_cpu():
        console.print(f"[yellow]{CPU_NOTE} {GPU_ONLY_NOTE}[/yellow]")
    tables = shape_tables(record, console)  # none for a record without shape rows
    for table in tables:
        console.print(table)
    if tables:
        console.print(f"[dim]{ERROR_NOTE}[/dim]")
    note = liger_note(record)
    if note:
        console.print(f"[yellow]{note}[/yellow]")
    if record.confinement:
        c = record.confinement
        style = "bold red" if c.unconfined else "dim"
        console.print(
            f"[{style}]{c.headline}; environment from an allow-list, buffers in {c.transport} memory"
            + (f"; {'; '.join(c.notes)}" if c.notes else "")
            + f"[/{style}]"
        )
    if record.profile:
        from tools.evaluator.profile import summarise

        console.print("[bold]profile[/bold] (ncu, diagnosis only)")
        console.print(summarise(record.profile))
    verdict = "[green]OK[/green]" if record.status == "ok" else "[red]FAILED[/red]"
    console.print(f"{verdict} in {record.seconds:.1f} s: {record.message}")


def print_against(record, decision, against: str, console) -> None:
    """Candidate vs the --against file, batch by batch in the same rounds (1.00x: the same speed), per scope, and
    the acceptance rule's decision on it (`decision`, None where no shape was timed)."""
    for scope in ("graph", "eager"):
        ratios = [b.scope(scope).speedup_vs_incumbent for b in record.benchmark if b.scope(scope)]
        ratios = [r for r in ratios if r is not None]
        if not ratios:
            continue
        geomean = record.geomean_speedup("incumbent", scope)
        spread = f"shapes {min(r.median for r in ratios):.3f}x to {max(r.median for r in ratios):.3f}x"
        console.print(f"vs {against} ({scope} scope, timed in the same rounds): geomean {geomean:.3f}x, {spread}")
    if decision is None:
        console.print(f"[yellow]{against} was not timed: no shape reached the benchmark[/yellow]")
        return
    console.print(f"as agent optimize would decide: {'accept' if decision.accepted else 'reject'} ({decision.reason})")


def print_without_gpu(done, backend: str, console) -> None:
    """What the judge did for a kernel file without a GPU (tools/evaluator/without_gpu.py: WithoutGpu)."""
    console.print(
        f"[yellow]No GPU visible to PyTorch: {backend} kernels cannot run here, so correctness and "
        "timing are skipped.[/yellow] Run this on a GPU host, or use `--backend torch` to exercise the "
        "evaluator on the CPU."
    )
    console.print(f"  static check of {done.candidate}: {done.static_message}")
    if done.build_error is not None:
        console.print(f"  [red]compile without a GPU failed[/red]: {done.build_error}")
    elif done.library is not None:
        console.print(f"  compiled without a GPU (no launch) in {done.build_seconds:.1f} s: {done.library}")
    if done.sources:
        lines = sum(source.text.count("\n") for source in done.sources)
        shapes, dtypes = done.lowered_cases
        console.print(
            f"  lowered to CUDA source without a GPU (in a runner): {len(done.sources)} program(s), {lines} lines in "
            f"all (for {shapes} shapes x {dtypes} dtype(s))"
        )


def iteration_printer(console):
    """One table row per finished iteration, printed as it happens."""
    printed_header = []

    def on_iteration(row: dict) -> None:
        if not printed_header:  # on the first row, so an error before any iteration prints no stray header
            console.print(f"[bold]{'iter':>4}  {'outcome':<9} {'median GB/s':>11} {'% of copy':>9}  change[/bold]")
            printed_header.append(True)
        record = row["record"]
        gbps, fraction = record.median_gbps(), record.median_fraction_of_copy()
        colour = {"accepted": "green", "baseline": "cyan", "failed": "red"}.get(row["outcome"], "yellow")
        console.print(
            f"{row['iteration']:>4}  [{colour}]{row['outcome']:<9}[/{colour}] "
            f"{f'{gbps:.0f}' if gbps else '-':>11} {f'{100 * fraction:.0f}%' if fraction else '-':>9}  "
            f"{row['rationale'][:90]}"
            + (f" [dim]({row['message'][:70]})[/dim]" if row.get("message") and row["outcome"] != "accepted" else "")
        )

    return on_iteration


def final_summary(run: dict, runs_dir: Path, console) -> None:
    start, best = run.get("start") or {}, run.get("best") or {}

    def line(summary):
        gbps, fraction = summary.get("median_gbps"), summary.get("median_fraction_of_copy")
        return (f"{gbps / 1e3:.2f} TB/s" if gbps else "-") + (f", {fraction:.2f} of copy" if fraction else "")

    console.rule(f"run {run['run_id']}: {run['status']}")
    if run["status"] == "failed":
        console.print(f"[red]failed: {run.get('stop_reason')}[/red]")
    else:
        console.print(f"stopped because: {run.get('stop_reason')}")
    console.print(f"start (median shape): {line(start)}")
    console.print(f"best  (median shape): {line(best)} at iteration {best.get('iteration', 0)}")
    console.print(f"commits: {len(run.get('commits', []))} on branch {run.get('branch')}")
    tokens = run.get("tokens") or {}
    if tokens.get("calls"):
        cost = tokens.get("cost")
        console.print(
            f"tokens: {tokens['prompt_tokens']:,} prompt + {tokens['completion_tokens']:,} completion "
            f"in {tokens['calls']} calls" + (f", cost {cost:.4f} at the prices given" if cost is not None else "")
        )
    console.print(f"run folder: {runs_dir / run['run_id']}")
    where = "" if runs_dir.resolve() == Path(RUNS_DIR).resolve() else f" --runs-dir {runs_dir}"
    console.print(f"next: agent export {run['run_id']}{where}   |   agent adopt {run['run_id']}{where}")


def stop_on_first_ctrl_c(console) -> list[bool]:
    """First Ctrl-C: finish the current stage and stop; second: interrupt at once."""
    import signal

    flag = [False]

    def handler(signum, frame):
        if flag[0]:
            raise KeyboardInterrupt
        flag[0] = True
        console.print("[yellow]stopping after the current stage (Ctrl-C again to abort)[/yellow]")

    signal.signal(signal.SIGINT, handler)
    return flag
