"""`agent bench OP...`: every backend into the op's results table (tools/bench.py, tools/results.py)."""

from __future__ import annotations

from pathlib import Path

from agent.commands.options import (
    BACKENDS,
    BASELINES,
    EDITABLE,
    OPERATORS,
    baselines,
    common,
    confinement_gate,
    evaluation_options,
    selected_baselines,
)
from agent.console import make_console, make_progress, print_record

HELP = "benchmark every backend; write benchmarks/results/<gpu>/<op>.json + .md"


def add_arguments(p) -> None:
    p.add_argument("ops", nargs="+", choices=OPERATORS)
    p.add_argument("--backends", nargs="+", default=list(EDITABLE), choices=BACKENDS)
    p.add_argument("--out", help="results folder (default: benchmarks/results)")
    baselines(p, "all four; liger is noted as unavailable where liger-kernel is not installed")
    common(p)


def run(args) -> int:
    import torch

    from tools.bench import run_bench

    console = make_console()
    if not torch.cuda.is_available() and args.device != "cpu":
        raise RuntimeError(
            "agent bench needs a GPU: timings on the CPU say nothing about kernels. "
            "Pass --device cpu to exercise the pipeline anyway."
        )
    confinement_gate(args, console)
    status = 0
    for op in args.ops:
        progress, on_event = make_progress()
        with progress:
            records, path, kept = run_bench(
                op,
                tuple(args.backends),
                evaluation_options(args, baselines=selected_baselines(args, default=BASELINES)),
                out_dir=Path(args.out) if args.out else None,
                on_event=on_event,
            )
        for record in records:
            print_record(record, console)
            status |= record.status != "ok"
        console.print(f"wrote {path} and {path.with_suffix('.md')}")
        if kept:
            console.print(f"kept from earlier benches: {', '.join(kept)} (each record says when it was timed)")
    return status
