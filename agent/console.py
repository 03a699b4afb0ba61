"""What the commands print: evaluation records as tables, progress, the loop's iterations and its end."""

from __future__ import annotations

import os
from pathlib import Path

from tools.paths import RUNS_DIR


def make_progress():
    """A rich progress bar on stderr fed by evaluation events."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    progress = Progress(
        TextColumn("[bold]{task.fields[stage]:<11}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[label]}"),
        TimeElapsedColumn(),
        transient=True,
    )
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

    return progress, on_event


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
    from tools.report import CPU_NOTE, ERROR_NOTE, GPU_ONLY_NOTE, liger_note, shape_rows

    console.print(
        f"[bold]{record.op}[{record.backend}][/bold]  {record.candidate}  "
        f"({record.environment.device or 'CPU'}, target {record.environment.target})"
    )
    for stage in record.stages:
        colour = {"ok": "green", "failed": "red", "skipped": "yellow"}[stage.status]
        console.print(
            f"  [{colour}]{stage.name:<12}{stage.status:<8}[/{colour}] {stage.seconds:6.1f} s  {stage.message}"
        )
    if record.timed_on_cpu():
        console.print(f"[yellow]{CPU_NOTE} {GPU_ONLY_NOTE}[/yellow]")
    if shape_rows(record):
        for table in shape_tables(record, console):
            console.print(table)
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
    console.print(f"stopped because: {run.get('stop_reason')}")
    console.print(f"start (median shape): {line(start)}")
    console.print(f"best  (median shape): {line(best)} at iteration {best.get('iteration', 0)}")
    console.print(f"commits: {len(run.get('commits', []))} on branch {run.get('branch')}")
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
