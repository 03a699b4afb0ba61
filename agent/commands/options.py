"""Arguments the commands share, and the names they offer: the ops and backends, without loading a kernel."""

from __future__ import annotations

from tools.evaluator.records import BASELINES
from tools.paths import RUNS_DIR
from workbench.kernels.backends import BACKENDS as BACKEND_OBJECTS
from workbench.kernels.backends import EDITABLE
from workbench.kernels.folders import op_folders
from workbench.kernels.target import TARGET_CHOICES

OPERATORS = op_folders()  # the registry checks each folder's SPEC when a command loads it
BACKENDS = tuple(BACKEND_OBJECTS)

__all__ = [
    "BACKENDS",
    "BASELINES",
    "EDITABLE",
    "OPERATORS",
    "TARGET_CHOICES",
    "baselines",
    "common",
    "confinement_gate",
    "evaluation_options",
    "runs_dir",
    "selected_baselines",
]


def common(p) -> None:
    """What every evaluating command takes: target, shapes, dtypes, device, limits, rounds."""
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
    p.add_argument(
        "--allow-unconfined",
        action="store_true",
        help="judge even where candidate code cannot be confined (no sandbox, no Landlock); records say so",
    )


def confinement_gate(args, console) -> None:
    """Before anything starts: where runners cannot be confined, refuse, or with --allow-unconfined say so."""
    from tools.evaluator.evaluate import unconfined_warning

    warning = unconfined_warning()
    if warning is None:
        return
    if not getattr(args, "allow_unconfined", False):
        raise RuntimeError(warning)
    console.print(f"[bold red]judging UNCONFINED (--allow-unconfined):[/bold red] {warning}")


def runs_dir(p) -> None:
    # One name on every command that reads run folders; --runs (the ui's old name) still works.
    p.add_argument(
        "--runs-dir",
        "--runs",
        dest="runs_dir",
        default=str(RUNS_DIR),
        metavar="DIR",
        help="folder of runs (default: runs/)",
    )


def baselines(p, default: str) -> None:
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


def selected_baselines(args, default: tuple[str, ...]) -> tuple[str, ...]:
    """--baselines, else `default`; --no-compile drops torch.compile either way."""
    chosen = tuple(args.baselines) if args.baselines is not None else default
    return tuple(b for b in chosen if not (b == "compiled" and args.no_compile))


def evaluation_options(args, **fields):
    """The evaluation's options (tools/evaluator/options.py) from what `common` parsed, with `fields` added."""
    from tools.evaluator.options import EvalOptions

    common_fields = {
        "shapes": args.shapes,
        "dtypes": tuple(args.dtypes),
        "device": args.device,
        "target": args.target,
        "timeout_s": args.timeout,
        "batches": args.batches,
        "allow_unconfined": args.allow_unconfined,
    }
    return EvalOptions(**{**common_fields, **fields})
