"""`agent eval OP --backend B`: one evaluation by the judge, as a table (without a GPU: what can be done)."""

from __future__ import annotations

from pathlib import Path

from agent.commands.options import (
    BACKENDS,
    OPERATORS,
    baselines,
    common,
    confinement_gate,
    evaluation_options,
    runs_dir,
    selected_baselines,
)
from agent.console import make_console, make_progress, print_record
from kernels.backends import backend as backend_of
from tools.evaluator.records import KernelSource

HELP = "evaluate one kernel: static, compile, correctness, benchmark, profile"

# The loop's compile cap (agent/config.py): a kernel file that hangs at import or in a first call fails in minutes.
COMPILE_TIMEOUT_S = 180.0

# `agent eval` is the edit-check loop: torch.compile of every shape (about 25 s on the H200) is left to
# `agent bench` and to `--baselines eager compiled`.
EVAL_BASELINES = ("eager",)


def add_arguments(p) -> None:
    p.add_argument("op", choices=OPERATORS)
    p.add_argument("--backend", choices=BACKENDS, required=True)
    p.add_argument("--candidate", help="kernel file to evaluate (default: kernels/OP/BACKEND.py)")
    p.add_argument(
        "--set",
        action="append",
        metavar="KEY=VALUE",
        help="evaluate the kernel file with this CONFIG value changed (repeatable), e.g. --set copy_tiles=True; "
        "the variant is saved under RUNS_DIR/variants/",
    )
    p.add_argument(
        "--profile",
        action="store_true",
        help="also run ncu per shape, for diagnosis (on MetaX the stage says mcProfiler is not wired in yet)",
    )
    p.add_argument("--no-bench", action="store_true", help="stop after correctness")
    p.add_argument(
        "--compile-timeout",
        type=float,
        default=COMPILE_TIMEOUT_S,
        metavar="SECONDS",
        help=f"a kernel file whose import or first calls take longer fails at compile (default {COMPILE_TIMEOUT_S:g}, "
        "as in agent optimize; 0: only --timeout)",
    )
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
    runs_dir(p)
    common(p)


def run(args) -> int:
    import torch

    from tools.evaluator.evaluate import evaluate

    console = make_console()
    if args.candidate and not Path(args.candidate).is_file():
        raise ValueError(f"--candidate {args.candidate}: no such kernel file")
    if args.set:
        from agent.variant import write_variant
        from tools.paths import default_candidate

        base = Path(args.candidate) if args.candidate else default_candidate(args.op, args.backend)
        if base is None:
            raise ValueError("--set changes a kernel file's CONFIG; the torch backend has none")
        args.candidate = str(write_variant(base, args.set, args.op, args.backend, Path(args.runs_dir) / "variants"))
        console.print(f"{base} with {', '.join(args.set)}: written to {args.candidate}")
    if args.against and not Path(args.against).is_file():
        raise ValueError(f"--against {args.against}: no such kernel file")
    if args.backend != "torch" and not torch.cuda.is_available() and args.device != "cpu":
        return _explain_without_gpu(args, console)
    from agent.cpu_shapes import choose
    from agent.installed import require
    from kernels import registry

    require(args.backend)

    confinement_gate(args, console)
    on_cpu = args.device == "cpu" or (args.device == "auto" and not torch.cuda.is_available())
    choice = choose(registry.spec(args.op), args.shapes, on_cpu)
    if choice.note:
        console.print(f"[yellow]{choice.note}[/yellow]")
    progress, on_event = make_progress()
    with progress:
        options = evaluation_options(
            args,
            shapes=choice.shapes,
            benchmark=not args.no_bench,
            profile=args.profile,
            baselines=selected_baselines(args, default=EVAL_BASELINES),
            compile_timeout_s=args.compile_timeout or None,
            stop_when_slower=False,  # `eval --against` reports every shape (an A/A check wants them all)
        )
        record = evaluate(args.op, args.backend, args.candidate, options, incumbent=args.against, on_event=on_event)
    print_record(record, console)
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
