"""`agent bench-agent [OP...]`: the loop from each first-draft kernel; results in benchmarks/results/<gpu>/agent.json.

Per (op, backend): the shipped kernel is evaluated once on the case's shapes (its fraction of copy is the
target), then `agent optimize`'s loop runs from `benchmarks/agent/starts/<op>/<backend>.py` in a fresh run
folder, bounded by --iterations and --minutes. The file is rewritten after every case (tools/agent_bench.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from agent.commands.options import BACKENDS, EDITABLE, OPERATORS, common, confinement_gate, evaluation_options, runs_dir

HELP = "the agent benchmark: the loop from first-draft kernels; write benchmarks/results/<gpu>/agent.json + .md"


def add_arguments(p) -> None:
    p.add_argument("ops", nargs="*", metavar="OP", help=f"default: every op ({', '.join(OPERATORS)})")
    p.add_argument(
        "--backends", nargs="+", choices=BACKENDS, help="default: every editable backend whose compiler is here"
    )
    p.add_argument(
        "--policy", choices=["search", "llm"], help="default: llm with --model and OPENAI_BASE_URL set, else search"
    )
    p.add_argument("--model", help="chat model for the llm policy (any OpenAI-compatible endpoint: OPENAI_BASE_URL)")
    p.add_argument("--iterations", type=int, default=8, help="proposal rounds per case at most (default 8)")
    p.add_argument("--minutes", type=float, default=1.5, help="per case: start no iteration after this (default 1.5)")
    p.add_argument("--total-minutes", type=float, help="start no case after this; the rest get a `skipped` row")
    p.add_argument(
        "--compile-timeout",
        type=float,
        default=90.0,
        metavar="SECONDS",
        help="a candidate whose compile stage takes longer fails at compile (default 90)",
    )
    p.add_argument("--no-compile", action="store_true", help="no torch.compile baseline in the shipped evaluation")
    p.add_argument("--starts", help="folder of starting files <op>/<backend>.py (default: benchmarks/agent/starts)")
    p.add_argument("--out", help="results folder (default: benchmarks/results)")
    runs_dir(p)
    common(p)


def run(args) -> int:
    import torch

    from agent.console import make_console, stop_on_first_ctrl_c
    from tools.agent_bench import STARTS_DIR, AgentBenchOptions

    console = make_console()
    device = "cuda" if args.device == "auto" else args.device
    if device == "cuda" and not torch.cuda.is_available():
        raise RuntimeError(
            "agent bench-agent needs a GPU: every case runs the loop, whose proposals are compiled, checked and timed "
            "on the device, and PyTorch sees none here. Pass --device cpu with --backends torch to exercise it."
        )
    options = AgentBenchOptions(
        policy=args.policy or _default_policy(args.model),
        model=args.model,
        iterations=args.iterations,
        minutes=args.minutes,
        total_minutes=args.total_minutes,
        evaluation=evaluation_options(
            args, device=device, baselines=("eager",), compile_timeout_s=args.compile_timeout or None
        ),
        shipped_baselines=["eager"] if args.no_compile or device == "cpu" else ["eager", "compiled"],
        starts_dir=Path(args.starts) if args.starts else STARTS_DIR,
        **({"out_dir": Path(args.out)} if args.out else {}),
    )
    if options.policy == "llm" and not options.model:
        raise ValueError("the llm policy needs --model (and OPENAI_BASE_URL / OPENAI_API_KEY for the endpoint)")
    unknown = [op for op in args.ops if op not in OPERATORS]
    if unknown:
        raise ValueError(f"unknown op {unknown[0]!r}: pick from {', '.join(OPERATORS)}")
    backends = tuple(args.backends) if args.backends else runnable_backends(console)
    cases = _cases(args.ops or list(OPERATORS), backends, options.starts_dir)
    confinement_gate(args, console)
    flag = stop_on_first_ctrl_c(console)
    say = lambda text: console.print(text, markup=False, highlight=False)  # noqa: E731  (op[backend] is no markup)
    bench, path = bench_agent(cases, options, Path(args.runs_dir), say=say, stop_requested=flag)
    say(f"wrote {path} and {path.with_suffix('.md')}")
    say(bench.summary())
    return 0


def _default_policy(model: str | None) -> str:
    import os

    return "llm" if model and (os.environ.get("OPENAI_BASE_URL") or os.environ.get("OPENAI_API_KEY")) else "search"


def runnable_backends(console=None) -> tuple[str, ...]:
    """The editable backends whose library or compiler is on this machine."""
    from agent.installed import missing

    ready = []
    for backend in EDITABLE:
        note = missing(backend)
        if note is None and backend == "maca_cpp":
            try:
                from workbench.kernels.cpp_support import toolchain

                toolchain()
            except Exception as err:  # no compiler for the target: its cases cannot run here
                note = f"the maca_cpp backend is left out: {err}"
        if note is None:
            ready.append(backend)
        elif console is not None:
            console.print(f"[yellow]{note}[/yellow]")
    return tuple(ready)


def _cases(ops: list[str], backends: tuple[str, ...], starts_dir: Path) -> list[tuple[str, str]]:
    from tools.agent_bench import starting_cases, starting_file

    if "torch" in backends and len(backends) == 1 and not starting_cases(ops, backends, starts_dir):
        raise ValueError(f"no starting files for the torch backend under {starts_dir}: pass --starts DIR")
    cases = starting_cases(ops, backends, starts_dir)
    if not cases:
        wanted = ", ".join(str(starting_file(op, b, starts_dir)) for op in ops for b in backends)
        raise ValueError(f"no starting file for the cases asked (looked for {wanted})")
    return cases


def bench_agent(
    cases: list[tuple[str, str]],
    options,
    runs_dir: Path,
    *,
    say: Callable[[str], None] = print,
    stop_requested: list[bool] | None = None,
    judge: Callable | None = None,
) -> tuple:
    """Run every (op, backend) case; the results file is rewritten after each. Returns (AgentBench, its path).

    `judge` stands in for tools.evaluator.evaluate in the shipped evaluation and in the loop (tests replay
    recorded records with it)."""
    from tools.agent_bench import load_or_new, results_path
    from tools.env import collect_environment, gpu_slug
    from workbench.kernels import target as targets

    environment = collect_environment(targets.resolve(options.evaluation.target))
    path = results_path(options.out_dir, gpu_slug(environment))
    bench = load_or_new(path)  # before any work: a file of another format stops here
    stop = stop_requested if stop_requested is not None else [False]
    began = time.monotonic()
    for n, (op, backend) in enumerate(cases, 1):
        over = options.total_minutes is not None and time.monotonic() - began >= 60 * options.total_minutes
        if over or stop[0]:
            why = f"--total-minutes {options.total_minutes:g} reached" if over else "stopped by the user"
            case = _skipped(op, backend, options, why)
        else:
            say(f"case {n}/{len(cases)}: {op}[{backend}] from {_shown(options, op, backend)}")
            case = run_case(op, backend, options, runs_dir, say=say, stop_requested=stop, judge=judge)
        bench = bench.replaced(case, environment)
        bench.save(path)
        say(_case_line(case))
    return bench, path


def _shown(options, op: str, backend: str) -> str:
    from tools.agent_bench import starting_file
    from tools.paths import record_path

    return record_path(starting_file(op, backend, options.starts_dir))


def _skipped(op: str, backend: str, options, why: str):
    from tools.agent_bench import CaseResult
    from tools.runfolder import now

    return CaseResult(
        op=op,
        backend=backend,
        policy=options.policy,
        model=options.model,
        start_file=_shown(options, op, backend),
        status="skipped",
        message=why,
        shapes=options.evaluation.shapes,
        dtypes=list(options.evaluation.dtypes),
        budget_iterations=options.iterations,
        budget_minutes=options.minutes,
        started=now(),
    )


def run_case(op: str, backend: str, options, runs_dir: Path, *, say=print, stop_requested=None, judge=None):
    """One case: the shipped kernel's evaluation, then the loop from the starting file; never raises for either
    failing (the row says why)."""
    from agent.config import RunConfig
    from agent.loop import optimize
    from tools.agent_bench import case_from_run, starting_file
    from tools.evaluator.evaluate import evaluate
    from tools.paths import default_candidate
    from tools.runfolder import RunFolder, new_run_id

    judge = judge or evaluate
    case = _skipped(op, backend, options, "").model_copy(update={"status": "finished"})
    shipped, shipped_file = None, default_candidate(op, backend)
    if shipped_file is not None and shipped_file.is_file():
        say(f"  shipped {op}[{backend}]: evaluating on the same shapes")
        try:
            shipped = judge(op, backend, shipped_file, options.shipped_evaluation())
            if shipped.status != "ok":
                case.shipped_message = f"the shipped kernel failed: {shipped.message}"
        except Exception as err:  # the row still stands, without the shipped figures
            case.shipped_message = f"the shipped kernel's evaluation raised {type(err).__name__}: {err}"
    config = RunConfig(
        op=op,
        backend=backend,
        policy=options.policy,
        model=options.model,
        iterations=options.iterations,
        time_budget_s=60 * options.minutes if options.minutes else None,
        evaluation=options.evaluation,
        start_source=str(starting_file(op, backend, options.starts_dir).resolve()),
        # The search policy reads no profile: profiling each new best would only spend the case's wall time.
        profile_best=None if options.policy == "llm" else False,
    )
    run_id = new_run_id(op, backend)
    began = time.monotonic()
    try:
        run = optimize(
            config,
            runs_dir=runs_dir,
            run_id=run_id,
            on_iteration=_progress(op, backend, began, say),
            stop_requested=stop_requested,
            **({"judge": judge} if judge is not None else {}),
        )
        case.status = "stopped" if run.get("status") == "stopped" else "finished"
        if not (run.get("start") or {}).get("status") == "ok":
            case.status = "failed"  # the starting kernel did not pass: the stop reason says why
    except Exception as err:  # a policy or the loop raised: the row says so, with what the folder kept
        case.status, case.message = "failed", f"{type(err).__name__}: {err}"
    case.wall_s = time.monotonic() - began
    folder = RunFolder(runs_dir / run_id)
    if not folder.path.is_dir():
        return case
    return case_from_run(folder, case, shipped)


def _progress(op: str, backend: str, began: float, say) -> Callable[[dict], None]:
    """One line per finished iteration: elapsed time, outcome, the candidate's and the best's fraction of copy."""
    best: list[float | None] = [None]

    def on_iteration(row: dict) -> None:
        record = row["record"]
        fraction = record.median_fraction_of_copy()
        if row["outcome"] in ("baseline", "accepted"):
            best[0] = fraction
        text = lambda v: "-" if v is None else f"{v:.2f}"  # noqa: E731
        say(
            f"  {time.monotonic() - began:6.1f} s  {op}[{backend}] iteration {row['iteration']:>2}  "
            f"{row['outcome']:<9} {text(fraction)} of copy (best {text(best[0])})  {row['rationale'][:70]}"
        )

    return on_iteration


def _case_line(case) -> str:
    def text(v):
        return "-" if v is None else f"{v:.2f}"

    reached = (
        f"reached 0.9 of shipped at iteration {case.reached_iteration}" if case.reached_iteration is not None else ""
    )
    return (
        f"  {case.op}[{case.backend}] {case.status}: start {text(case.start.fraction)} -> best "
        f"{text(case.best.fraction)} of copy (shipped {text(case.shipped.fraction if case.shipped else None)}), "
        f"{case.iterations} iterations, {len(case.commits)} commits in {case.wall_s / 60:.1f} min"
        + (f"; {reached}" if reached else "")
        + (f"; {case.message}" if case.message else "")
    )
