"""The `agent` command line: eval, bench, env, ops, infer, compare.

agent eval rope --backend tilelang           # one evaluation of the current kernel, as a table
agent bench rope rms_norm                    # every backend; JSON + markdown under benchmarks/results/
agent env                                    # GPU, driver, smi output, library versions, target
agent ops --backend tilelang                 # native or torch_fallback per operator
agent infer --backend tilelang --json b.json # Llama-3 greedy generation: prefill and decode tokens/s
agent compare a.json b.json                  # speedup of B over A, refused unless the runs match
agent ui                                     # review runs in the browser (Streamlit)
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from kernels.backends import BACKENDS, EDITABLE
from kernels.backends import backend as backend_of
from kernels.registry import OPERATORS
from kernels.target import TARGET_CHOICES
from tools.evaluator.records import BASELINES, KernelSource
from tools.runfolder import RUN_FILE, RUNS_DIR

# Backends with a kernel file to edit (torch is the reference); `agent bench` times these by default.
OPTIMIZABLE_BACKENDS = EDITABLE

# `agent eval` is the edit-check loop: torch.compile of every shape (about 25 s on the H200) is left to
# `agent bench` and to `--baselines eager compiled`.
EVAL_BASELINES = ("eager",)


def _progress():
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


def _console():
    from rich.console import Console

    console = Console()
    # Piped output (CI logs, files) would otherwise be cut to 80 columns; COLUMNS, where set, still decides.
    return console if console.is_terminal or os.environ.get("COLUMNS") else Console(width=170)


def _shape_tables(record, console) -> list:
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


def _print_record(record, console) -> None:
    from tools.report import CPU_NOTE, GPU_ONLY_NOTE, liger_note, shape_rows

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
        for table in _shape_tables(record, console):
            console.print(table)
    note = liger_note(record)
    if note:
        console.print(f"[yellow]{note}[/yellow]")
    if record.confinement:
        c = record.confinement
        console.print(
            f"[dim]runners: {c.mode} judge, uid separation {'on' if c.uid_separation else 'off'}, network {c.network}, "
            f"environment from an allow-list, buffers in {c.transport} memory"
            + (f"; {'; '.join(c.notes)}" if c.notes else "")
            + "[/dim]"
        )
    if record.profile:
        from tools.evaluator.profile import summarise

        console.print("[bold]profile[/bold] (ncu, diagnosis only)")
        console.print(summarise(record.profile))
    verdict = "[green]OK[/green]" if record.status == "ok" else "[red]FAILED[/red]"
    console.print(f"{verdict} in {record.seconds:.1f} s: {record.message}")


def _print_against(record, against: str, console) -> None:
    """Candidate vs the --against file, batch by batch in the same rounds (1.00x: the same speed), per scope."""
    from tools.evaluator.decide import decide

    printed = False
    for scope in ("graph", "eager"):
        ratios = [b.scope(scope).speedup_vs_incumbent for b in record.benchmark if b.scope(scope)]
        ratios = [r for r in ratios if r is not None]
        if not ratios:
            continue
        geomean = record.geomean_speedup("incumbent", scope)
        spread = f"shapes {min(r.median for r in ratios):.3f}x to {max(r.median for r in ratios):.3f}x"
        console.print(f"vs {against} ({scope} scope, timed in the same rounds): geomean {geomean:.3f}x, {spread}")
        printed = True
    if not printed:
        console.print(f"[yellow]{against} was not timed: no shape reached the benchmark[/yellow]")
        return
    decision = decide(record, against_best=True)
    console.print(f"as agent optimize would decide: {'accept' if decision.accepted else 'reject'} ({decision.reason})")


def _explain_without_gpu(args, console) -> int:
    """No GPU: say what needs one, and do what can be done here (static check; TileLang lowering in a runner)."""
    from tools.evaluator.static_check import check_file
    from tools.paths import default_candidate

    path = Path(args.candidate) if args.candidate else default_candidate(args.op, args.backend)
    if not path.is_file():
        raise ValueError(f"--candidate {path}: no such kernel file")
    console.print(
        f"[yellow]No GPU visible to PyTorch: {args.backend} kernels cannot run here, so correctness and "
        "timing are skipped.[/yellow] Run this on a GPU host, or use `--backend torch` to exercise the "
        "evaluator on the CPU."
    )
    report = check_file(path, args.op)
    console.print(f"  static check of {path}: {report.message}")
    if not report.ok:
        return 1
    backend = backend_of(args.backend)
    generated: dict[str, str] = {}
    if backend.build is not None:
        import time

        from kernels.cpp_support import CompileError

        start = time.perf_counter()
        try:
            library = backend.build(path, args.op)
        except CompileError as err:
            console.print(f"  [red]compile without a GPU failed[/red]: {err}")
            return 1
        # Parsed for its SOURCE and CONFIG literals, never imported: the compiler alone sees the candidate.
        console.print(f"  compiled without a GPU (no launch) in {time.perf_counter() - start:.1f} s: {library}")
    if backend.lower is not None:
        from kernels import registry
        from tools.evaluator.evaluate import lower_without_gpu

        shapes = registry.spec(args.op).select(args.shapes)
        generated = lower_without_gpu(args.op, path.resolve(), [(s.dims, d) for s in shapes for d in args.dtypes])
        lines = sum(text.count("\n") for text in generated.values())
        console.print(
            f"  lowered to CUDA source without a GPU (in a runner): {len(generated)} program(s), {lines} lines in all "
            f"(for {len(shapes)} shapes x {len(args.dtypes)} dtype(s))"
        )
    if args.source and generated:
        sources = [KernelSource(key=k, language=backend.language, text=v) for k, v in generated.items()]
        _write_sources(args.source, sources, backend.extension, console)
    elif args.source:
        console.print(f"  no source written: without a GPU only TileLang kernels are lowered ({args.backend} is not)")
    if args.json:
        console.print(f"  no record written to {args.json}: nothing ran without a GPU")
    return 0


def _write_sources(folder: str, sources: list[KernelSource], extension: str, console) -> None:
    """Each generated program as a file of its own in `folder`, and what was written."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    for index, source in enumerate(sources):
        stem = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in source.key).strip("_")[:80]
        (out / f"{index:02d}-{stem or f'program{index}'}.{extension}").write_text(source.text)
    console.print(f"  {len(sources)} generated source(s) written to {out}/")


def _baselines(args, default: tuple[str, ...]) -> tuple[str, ...]:
    """--baselines, else `default`; --no-compile drops torch.compile either way."""
    chosen = tuple(args.baselines) if args.baselines is not None else default
    return tuple(b for b in chosen if not (b == "compiled" and args.no_compile))


def cmd_eval(args) -> int:
    import torch

    from tools.evaluator.evaluate import evaluate

    console = _console()
    if args.candidate and not Path(args.candidate).is_file():
        raise ValueError(f"--candidate {args.candidate}: no such kernel file")
    if args.set:
        from agent.variant import write_variant
        from tools.paths import default_candidate

        base = Path(args.candidate) if args.candidate else default_candidate(args.op, args.backend)
        if base is None:
            raise ValueError("--set changes a kernel file's CONFIG; the torch backend has none")
        args.candidate = str(write_variant(base, args.set, args.op, args.backend))
        console.print(f"{base} with {', '.join(args.set)}: written to {args.candidate}")
    if args.against and not Path(args.against).is_file():
        raise ValueError(f"--against {args.against}: no such kernel file")
    if args.backend != "torch" and not torch.cuda.is_available() and args.device != "cpu":
        return _explain_without_gpu(args, console)
    progress, on_event = _progress()
    with progress:
        record = evaluate(
            args.op,
            args.backend,
            args.candidate,
            shapes=args.shapes,
            dtypes=tuple(args.dtypes),
            benchmark=not args.no_bench,
            profile=args.profile,
            baselines=_baselines(args, default=EVAL_BASELINES),
            device=args.device,
            target=args.target,
            timeout_s=args.timeout,
            on_event=on_event,
            incumbent=args.against,
            batches=args.batches,
            stop_when_slower=False,  # `eval --against` reports every shape (an A/A check wants them all)
        )
    _print_record(record, console)
    if args.against:
        _print_against(record, args.against, console)
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(record.model_dump_json(indent=1) + "\n")
        console.print(f"record written to {args.json}")
    if args.source:
        sources = record.compile.sources if record.compile else []
        _write_sources(args.source, sources, backend_of(record.backend).extension, console)
    return 0 if record.status == "ok" else 1


def cmd_bench(args) -> int:
    import torch

    from tools.bench import run_bench

    console = _console()
    if not torch.cuda.is_available() and args.device != "cpu":
        raise RuntimeError(
            "agent bench needs a GPU: timings on the CPU say nothing about kernels. "
            "Pass --device cpu to exercise the pipeline anyway."
        )
    status = 0
    for op in args.ops:
        progress, on_event = _progress()
        with progress:
            records, path, kept = run_bench(
                op,
                tuple(args.backends),
                baselines=_baselines(args, default=BASELINES),
                out_dir=Path(args.out) if args.out else None,
                on_event=on_event,
                shapes=args.shapes,
                dtypes=tuple(args.dtypes),
                device=args.device,
                target=args.target,
                timeout_s=args.timeout,
                batches=args.batches,
            )
        for record in records:
            _print_record(record, console)
            status |= record.status != "ok"
        console.print(f"wrote {path} and {path.with_suffix('.md')}")
        if kept:
            console.print(f"kept from earlier benches: {', '.join(kept)} (each record says when it was timed)")
    return status


def cmd_env(args) -> int:
    from kernels import target
    from tools.env import collect_environment, format_environment

    print(format_environment(collect_environment(target.select(args.target), with_smi=True)))
    return 0


def cmd_ops(args) -> int:
    from kernels import registry, target

    target.select(args.target)
    width = max(map(len, OPERATORS))
    for op in OPERATORS:
        reg = registry.registration(op, args.backend)
        print(f"{op:<{width}} {reg.status:<15} {reg.reason}")
    return 0


def cmd_infer(args) -> int:
    import torch

    from tools.llama.infer import format_record, run_inference, write_record

    on_gpu = torch.cuda.is_available() and args.device != "cpu"

    record = run_inference(
        args.backend,
        model_path=args.model,
        prompt=args.prompt,
        prompt_len=args.prompt_len,
        max_new_tokens=args.max_new_tokens,
        warmup=args.warmup,
        iters=args.iters,
        seed=args.seed,
        device=args.device,
        dtype=args.dtype,
        batch=args.batch,
        decode=args.decode or ("graphs" if on_gpu else "eager"),
    )
    print(format_record(record))
    if args.json:
        write_record(record, args.json)
        print(f"wrote {args.json}")
    return 0


def cmd_compare(args) -> int:
    from tools.llama.infer import compare, format_comparison, read_record

    for name, path in (("A.json", args.a), ("B.json", args.b)):
        if not Path(path).is_file():
            raise ValueError(f"{name} {path}: no such file (agent infer --json PATH writes one)")
    a, b = read_record(args.a), read_record(args.b)
    result = compare(a, b)
    if result.refused:
        print("agent compare: refusing to compare these runs:", file=sys.stderr)
        for reason in result.refused:
            print(f"  - {reason}", file=sys.stderr)
        return 2
    print(format_comparison(a, b, result))
    return 0


def _iteration_printer(console):
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


def _final_summary(run: dict, runs_dir: Path, console) -> None:
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


def _stop_on_first_ctrl_c(console) -> list[bool]:
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


def _default_policy() -> str:
    import os

    return "llm" if os.environ.get("OPENAI_BASE_URL") or os.environ.get("OPENAI_API_KEY") else "search"


def _check_e2e_options(args) -> None:
    """--e2e-* options without --e2e would silently do nothing; a model directory must be one; the model must call
    the op, or its check would pass without running the kernel."""
    names = ("e2e_model", "e2e_prompt_len", "e2e_new_tokens", "e2e_dtype")
    given = [name for name in names if getattr(args, name) is not None]
    if given and not args.e2e:
        raise ValueError(f"--{given[0].replace('_', '-')} applies only with --e2e")
    if args.e2e:
        from tools.llama.model import plan_for

        try:
            plan_for(args.op)
        except ValueError as err:
            raise ValueError(f"--e2e: {err}. Run without --e2e.") from None
    if args.e2e_model and not (Path(args.e2e_model) / "config.json").is_file():
        raise ValueError(f"--e2e-model {args.e2e_model} has no config.json: pass a local Hugging Face Llama directory")


def cmd_optimize(args) -> int:
    import torch

    from agent.config import RunConfig
    from agent.loop import optimize

    console = _console()
    _check_e2e_options(args)
    if args.candidate and not Path(args.candidate).is_file():
        raise ValueError(f"--candidate {args.candidate}: no such kernel file")
    if not torch.cuda.is_available():
        raise RuntimeError(
            "agent optimize needs a GPU: every proposal is compiled, checked and timed on the device, "
            "and PyTorch sees none here. Run it on a GPU host (python -m agent optimize ...)."
        )
    if args.backend == "torch":
        choices = ", ".join(OPTIMIZABLE_BACKENDS)
        raise ValueError(f"the torch backend is the reference, not something to optimise; pick one of {choices}")
    from tools.evaluator.decide import ROUNDS_TO_ACCEPT

    if args.batches < ROUNDS_TO_ACCEPT:
        raise ValueError(
            f"--batches {args.batches}: a gain needs at least {ROUNDS_TO_ACCEPT} rounds per shape to show at 95%, "
            "so this run could accept nothing"
        )
    e2e_lengths = {
        "e2e_prompt_len": args.e2e_prompt_len,
        "e2e_new_tokens": args.e2e_new_tokens,
        "e2e_dtype": args.e2e_dtype,
    }
    config = RunConfig(
        op=args.op,
        backend=args.backend,
        policy=args.policy or _default_policy(),
        iterations=args.iterations,
        time_budget_s=args.time_budget,
        target_fraction=args.target_fraction,
        candidates=args.candidates,
        workers=args.workers,
        ray_address=args.ray_address,
        model=args.model,
        shapes=args.shapes,
        dtypes=args.dtypes,
        device="cuda",
        target=args.target,
        timeout_s=args.timeout,
        batches=args.batches,
        compile_timeout_s=args.compile_timeout or None,
        start_source=str(Path(args.candidate).resolve()) if args.candidate else None,  # run.json: repo-relative
        profile=args.profile,
        e2e=args.e2e,
        e2e_model=str(Path(args.e2e_model).resolve()) if args.e2e_model else None,  # a resume may start elsewhere
        **{key: value for key, value in e2e_lengths.items() if value is not None},  # unset: RunConfig's defaults
    )
    from agent.workers import check_workers

    check_workers(config.workers)
    if config.policy == "llm" and not config.model:
        raise ValueError("the llm policy needs --model (and OPENAI_BASE_URL / OPENAI_API_KEY for the endpoint)")
    runs_dir = Path(args.runs_dir)
    flag = _stop_on_first_ctrl_c(console)
    run = optimize(config, runs_dir=runs_dir, on_iteration=_iteration_printer(console), stop_requested=flag)
    _final_summary(run, runs_dir, console)
    return 0


def cmd_resume(args) -> int:
    from agent.loop import resume
    from tools.runfolder import RunFolder

    console = _console()
    runs_dir = Path(args.runs_dir)
    finished = RunFolder.open(runs_dir, args.run_id).read_json(RUN_FILE)
    if finished.get("status") == "finished":
        # Nothing to continue: the run folder (committed examples too) stays as it is.
        console.print(
            f"run {args.run_id} is finished (stopped because: {finished.get('stop_reason')}); nothing to resume"
        )
        return 0
    flag = _stop_on_first_ctrl_c(console)
    run = resume(args.run_id, runs_dir=runs_dir, on_iteration=_iteration_printer(console), stop_requested=flag)
    _final_summary(run, runs_dir, console)
    return 0


def cmd_runs(args) -> int:
    from tools.runfolder import list_runs

    runs = [(folder, info) for folder in list_runs(Path(args.runs_dir)) if (info := folder.info()) is not None]
    if not runs:
        print(f"no runs under {args.runs_dir}")
        return 0
    for folder, run in runs:
        fraction = run.best.median_fraction_of_copy if run.best else None
        print(
            f"{run.run_id or folder.run_id:<48} {run.status or '?':<9} iterations {run.iterations:>3}  "
            f"commits {len(run.commits):>2}  best {f'{fraction:.2f} of copy' if fraction else '-'}"
        )
    return 0


def cmd_export(args) -> int:
    from tools.export import export
    from tools.runfolder import RunFolder

    prompts, reflection = export(RunFolder.open(Path(args.runs_dir), args.run_id), args.out)
    print(f"wrote {prompts} and {reflection}")
    return 0


def cmd_adopt(args) -> int:
    """The best version from the run folder (not its worktree, which may be on another machine) into the kernel
    file, resolved in this clone: run.json records it relative to the repository root."""
    from tools.paths import PROJECT_ROOT, resolve_path
    from tools.runfolder import RunFolder

    folder = RunFolder.open(Path(args.runs_dir), args.run_id)
    run = folder.read_json(RUN_FILE)
    recorded = run.get("kernel_file")
    if not recorded:
        raise ValueError(f"run {args.run_id}: run.json names no kernel file; the run folder is incomplete")
    kernel = resolve_path(recorded)
    best = folder.best_candidate(run)
    if best is None:
        print(f"run {args.run_id} accepted no version: its best is the kernel it started from; {recorded} is unchanged")
        return 0
    if not kernel.parent.is_dir():
        raise FileNotFoundError(f"{recorded}: no folder {kernel.parent} in this clone ({PROJECT_ROOT})")
    started_from = folder.candidate(0).read_text()
    if kernel.exists() and kernel.read_text() != started_from and not args.force:
        raise RuntimeError(
            f"{recorded} changed since the run started; adopting would overwrite your edits "
            "(use --force to do it anyway)"
        )
    kernel.write_text(best.read_text())
    iteration = run["best"]["iteration"]
    print(f"{recorded} now holds the best version of run {args.run_id} (iteration {iteration}, {best.name})")
    return 0


def cmd_ui(args) -> int:
    """Start the Streamlit review app (ui/app.py) over a folder of runs, on this machine only."""
    import os
    import subprocess

    root = Path(__file__).resolve().parents[1]  # ui/ sits beside agent/, in a checkout and in site-packages
    app = root / "ui" / "app.py"
    # `python -m agent ui` works without installing: the app imports ui/ and agent/ from the project root.
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")])))
    command = [sys.executable, "-m", "streamlit", "run", str(app), "--server.port", str(args.port)]
    command += ["--server.address", "127.0.0.1", "--server.headless", "true", "--browser.gatherUsageStats", "false"]
    # A review app, not a script being developed: no Deploy button or developer menu. A flag, which
    # overrides every config.toml (~/.streamlit, the working directory's, ui/.streamlit), from any cwd.
    command += ["--client.toolbarMode", "viewer"]
    command += ["--", "--runs", str(Path(args.runs_dir).resolve())]
    print(f"agent ui: http://127.0.0.1:{args.port} (runs from {Path(args.runs_dir).resolve()}); Ctrl-C stops it")
    try:
        return subprocess.call(command, env=env)
    except KeyboardInterrupt:
        return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="agent", description="Kernel workbench for Llama inference operators.")
    sub = parser.add_subparsers(dest="command", required=True)

    def common(p, many_ops: bool = False):
        p.add_argument("--target", choices=TARGET_CHOICES, default="auto", help="GPU platform (default: detect)")
        p.add_argument(
            "--shapes",
            nargs="+",
            metavar="PATTERN",
            help="only these shapes: a whole name, one /-part of it (decode1) or a glob ('llama3-8b/prefill*')",
        )
        p.add_argument("--dtypes", nargs="+", default=["bf16"], choices=["bf16", "fp16", "fp32"])
        p.add_argument("--device", choices=["auto", "cuda", "cpu"], default="auto")
        p.add_argument("--timeout", type=float, default=900.0, help="seconds before the candidate is killed")
        p.add_argument(
            "--batches",
            type=int,
            default=10,
            metavar="N",
            help="timed rounds per shape (each: every contestant, both scopes)",
        )

    def runs_dir(p):
        # One name on every command that reads run folders; --runs (the ui's old name) still works.
        p.add_argument(
            "--runs-dir",
            "--runs",
            dest="runs_dir",
            default=str(RUNS_DIR),
            metavar="DIR",
            help="folder of runs (default: runs/)",
        )

    def baselines(p, default: str):
        p.add_argument(
            "--baselines",
            nargs="+",
            choices=BASELINES,
            help=(
                "what the kernel is timed against: the torch reference eager, torch.compile of it, Liger-Kernel, "
                f"torch's own ops in the model dtype (native) (default: {default})"
            ),
        )
        p.add_argument("--no-compile", action="store_true", help="skip the torch.compile baseline")

    p = sub.add_parser("optimize", help="the loop: propose, evaluate, keep what wins (needs a GPU)")
    p.add_argument("op", choices=OPERATORS)
    p.add_argument("--backend", choices=OPTIMIZABLE_BACKENDS, required=True)
    p.add_argument(
        "--policy", choices=["search", "llm"], help="default: llm if OPENAI_BASE_URL/KEY is set, else search"
    )
    p.add_argument("--model", help="chat model for the llm policy")
    p.add_argument("--iterations", type=int, default=10)
    p.add_argument("--time-budget", type=float, metavar="SECONDS", help="start no iteration after this")
    p.add_argument("--target-fraction", type=float, metavar="F", help="stop at this fraction of copy bandwidth")
    p.add_argument("--candidates", type=int, default=1, metavar="K", help="proposals per iteration")
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="G",
        help="evaluate an iteration's candidates on G GPUs at once, one judge each, placed by Ray "
        '(pip install -e ".[ray]")',
    )
    p.add_argument("--ray-address", metavar="ADDR", help="a running Ray cluster for --workers (default: this host)")
    p.add_argument("--candidate", help="kernel file to start from (default: kernels/OP/BACKEND.py)")
    p.add_argument(
        "--profile",
        action="store_true",
        help="run ncu on each version; the summary feeds the prompt (diagnosis only, never the decision)",
    )
    p.add_argument(
        "--compile-timeout",
        type=float,
        default=180.0,
        metavar="SECONDS",
        help="a candidate whose compile stage takes longer fails at compile (0: only --timeout)",
    )
    p.add_argument(
        "--e2e", action="store_true", help="commit a version only if Llama-3's greedy tokens with it match torch's"
    )
    p.add_argument("--e2e-model", metavar="PATH", help="local Hugging Face Llama directory (default: random 1B)")
    p.add_argument("--e2e-prompt-len", type=int, metavar="N", help="prompt token ids for --e2e (default 128)")
    p.add_argument("--e2e-new-tokens", type=int, metavar="N", help="greedy tokens compared by --e2e (default 32)")
    p.add_argument(
        "--e2e-dtype", choices=["fp32", "bf16", "fp16"], help="model dtype for --e2e (default fp32: bf16 greedy ties)"
    )
    runs_dir(p)
    common(p)
    p.set_defaults(func=cmd_optimize)

    p = sub.add_parser("resume", help="continue a stopped or killed run")
    p.add_argument("run_id")
    runs_dir(p)
    p.set_defaults(func=cmd_resume)

    p = sub.add_parser("runs", help="list runs")
    runs_dir(p)
    p.set_defaults(func=cmd_runs)

    p = sub.add_parser("export", help="write prompts.md and reflection.md for a run")
    p.add_argument("run_id")
    p.add_argument("--out", help="folder for the two files (default: the run folder)")
    runs_dir(p)
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("adopt", help="bring a run's best version into the working tree")
    p.add_argument("run_id")
    p.add_argument("--force", action="store_true", help="overwrite edits made since the run started")
    runs_dir(p)
    p.set_defaults(func=cmd_adopt)

    p = sub.add_parser("ui", help="review runs in the browser: a Streamlit app over the run folders")
    runs_dir(p)
    p.add_argument("--port", type=int, default=8501)
    p.set_defaults(func=cmd_ui)

    p = sub.add_parser("eval", help="evaluate one kernel: static, compile, correctness, benchmark, profile")
    p.add_argument("op", choices=OPERATORS)
    p.add_argument("--backend", choices=BACKENDS, required=True)
    p.add_argument("--candidate", help="kernel file to evaluate (default: kernels/OP/BACKEND.py)")
    p.add_argument(
        "--set",
        action="append",
        metavar="KEY=VALUE",
        help="evaluate the kernel file with this CONFIG value changed (repeatable), e.g. --set copy_tiles=True; "
        "the variant is saved under runs/variants/",
    )
    p.add_argument(
        "--profile",
        action="store_true",
        help="also run ncu per shape, for diagnosis (on MetaX the stage says mcProfiler is not wired in yet)",
    )
    p.add_argument("--no-bench", action="store_true", help="stop after correctness")
    p.add_argument(
        "--against",
        metavar="FILE",
        help="also time this kernel file, call by call in turn with the candidate (as agent optimize times "
        "its best); the candidate's own file here is an A/A check of the timing: every shape should be ~1.00x",
    )
    p.add_argument("--json", metavar="PATH", help="write the full record as JSON")
    p.add_argument(
        "--source",
        metavar="DIR",
        help="write each generated kernel source there (without a GPU: TileLang's programs lowered to CUDA)",
    )
    baselines(p, "eager; torch.compile adds ~25 s, so `agent bench` times it, or --baselines eager compiled")
    common(p)
    p.set_defaults(func=cmd_eval)

    p = sub.add_parser("bench", help="benchmark every backend; write benchmarks/results/<gpu>/<op>.json + .md")
    p.add_argument("ops", nargs="+", choices=OPERATORS)
    p.add_argument("--backends", nargs="+", default=list(OPTIMIZABLE_BACKENDS), choices=BACKENDS)
    p.add_argument("--out", help="results folder (default: benchmarks/results)")
    baselines(p, "all four; liger is noted as unavailable where liger-kernel is not installed")
    common(p)
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("env", help="print the environment")
    p.add_argument("--target", choices=TARGET_CHOICES, default="auto")
    p.set_defaults(func=cmd_env)

    p = sub.add_parser("ops", help="which operators a backend runs natively here")
    p.add_argument("--backend", choices=BACKENDS, required=True)
    p.add_argument("--target", choices=TARGET_CHOICES, default="auto")
    p.set_defaults(func=cmd_ops)

    p = sub.add_parser("infer", help="Llama-3 greedy generation through a backend's ops; prefill and decode tokens/s")
    p.add_argument(
        "--backend",
        choices=(*BACKENDS, "native"),
        required=True,
        help="a kernel backend, or native: torch's own ops in the model dtype (the baseline a user would write)",
    )
    p.add_argument("--batch", type=int, default=1, metavar="N", help="prompts decoded together (default 1)")
    p.add_argument(
        "--decode",
        choices=("eager", "static", "graphs", "compile"),
        help="decode steps: eager forwards, a fixed-shape step (static), that step as one CUDA graph (graphs), "
        "or torch.compile reduce-overhead of it (compile, --backend native); default graphs on a GPU, else eager",
    )
    p.add_argument("--model", metavar="PATH", help="local Hugging Face Llama directory (default: random Llama-3.2-1B)")
    prompt = p.add_mutually_exclusive_group()
    prompt.add_argument("--prompt", metavar="TEXT", help="text prompt (needs tokenizer.json in --model)")
    prompt.add_argument("--prompt-len", type=int, metavar="N", help="N seeded random token ids (default 128)")
    p.add_argument("--max-new-tokens", type=int, default=32, metavar="N")
    p.add_argument("--warmup", type=int, default=1, metavar="N", help="untimed generations first")
    p.add_argument("--iters", type=int, default=3, metavar="N", help="timed generations; the median is reported")
    p.add_argument("--seed", type=int, default=0, help="random weights and prompt ids")
    p.add_argument("--device", choices=["cpu", "cuda"], help="default: cuda if PyTorch sees a GPU, else cpu")
    p.add_argument("--dtype", choices=["bf16", "fp16", "fp32"], default="bf16")
    p.add_argument("--json", metavar="PATH", help="write the record as JSON (input to agent compare)")
    p.set_defaults(func=cmd_infer)

    p = sub.add_parser("compare", help="prefill/decode speedup of B over A from two `agent infer --json` records")
    p.add_argument("a", metavar="A.json")
    p.add_argument("b", metavar="B.json")
    p.set_defaults(func=cmd_compare)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except (ValueError, OSError, RuntimeError) as err:
        print(f"agent: error: {err}", file=sys.stderr)
        return 2
