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
from agent.console import make_console, make_progress, print_against, print_record, print_without_gpu
from tools.evaluator.records import KernelSource
from workbench.kernels.backends import backend as backend_of

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
    """Ask the judge once (tools/evaluator/verdict.py) and print its answer."""
    from tools.evaluator.verdict import judge_file

    console = make_console()
    candidate = _kernel_file(args, console)
    options = _options(args, console)
    progress, on_event = make_progress()
    with progress:
        verdict = judge_file(args.op, args.backend, candidate, options, against=args.against, on_event=on_event)
    _print(verdict, args, console)
    return 0 if verdict.ok else 1


def _kernel_file(args, console) -> str | None:
    """The file to evaluate: --candidate, or with --set a variant of it (or of the backend's file)."""
    if args.candidate and not Path(args.candidate).is_file():
        raise ValueError(f"--candidate {args.candidate}: no such kernel file")
    if not args.set:
        return args.candidate
    from agent.variant import write_variant

    variant, base = write_variant(args.candidate, args.set, args.op, args.backend, Path(args.runs_dir) / "variants")
    console.print(f"{base} with {', '.join(args.set)}: written to {variant}")
    return str(variant)


def _options(args, console):
    """The evaluation's options; where the judge will run the file, the confinement gate and the CPU's shapes first."""
    from tools.evaluator.without_gpu import needs_a_gpu

    shapes = args.shapes
    if not needs_a_gpu(args.backend, args.device):
        import torch

        from agent.cpu_shapes import choose
        from agent.installed import require
        from workbench.kernels import registry

        require(args.backend)
        confinement_gate(args, console)
        on_cpu = args.device == "cpu" or (args.device == "auto" and not torch.cuda.is_available())
        choice = choose(registry.spec(args.op), args.shapes, on_cpu)
        if choice.note:
            console.print(f"[yellow]{choice.note}[/yellow]")
        shapes = choice.shapes
    return evaluation_options(
        args,
        shapes=shapes,
        benchmark=not args.no_bench,
        profile=args.profile,
        baselines=selected_baselines(args, default=EVAL_BASELINES),
        compile_timeout_s=args.compile_timeout or None,
        stop_when_slower=False,  # `eval --against` reports every shape (an A/A check wants them all)
    )


def _print(verdict, args, console) -> None:
    """The answer, and what --json and --source asked to be written."""
    extension = backend_of(args.backend).extension
    if verdict.without_gpu is not None:
        print_without_gpu(verdict.without_gpu, args.backend, console)
        if args.source and verdict.without_gpu.sources:
            _write_sources(args.source, verdict.without_gpu.sources, extension, console)
        elif args.source:
            console.print(
                f"  no source written: without a GPU only TileLang kernels are lowered ({args.backend} is not)"
            )
        if args.json:
            console.print(f"  no record written to {args.json}: nothing ran without a GPU")
        return
    record = verdict.record
    print_record(record, console)
    if args.against:
        print_against(record, verdict.decision, args.against, console)
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(record.model_dump_json(indent=1) + "\n")
        console.print(f"record written to {args.json}")
    if args.source:
        _write_sources(args.source, record.compile.sources if record.compile else [], extension, console)


def _write_sources(folder: str, sources: list[KernelSource], extension: str, console) -> None:
    """Each generated program as a file of its own in `folder`, and what was written."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    for index, source in enumerate(sources):
        stem = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in source.key).strip("_")[:80]
        (out / f"{index:02d}-{stem or f'program{index}'}.{extension}").write_text(source.text)
    console.print(f"  {len(sources)} generated source(s) written to {out}/")
