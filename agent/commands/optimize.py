"""`agent optimize OP --backend B`: the loop, propose, evaluate, keep what wins (needs a GPU)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from agent.commands.options import (
    BACKENDS,
    EDITABLE,
    OPERATORS,
    common,
    confinement_gate,
    evaluation_options,
    runs_dir,
)
from agent.console import (
    final_summary,
    iteration_printer,
    judge_with_progress,
    make_console,
    stop_on_first_ctrl_c,
)

HELP = "the loop: propose, evaluate, keep what wins (needs a GPU)"


def add_arguments(p) -> None:
    p.add_argument("op", choices=OPERATORS)
    p.add_argument("--backend", choices=BACKENDS, required=True)  # torch too: refused below with the reason
    p.add_argument(
        "--policy", choices=["search", "llm"], help="default: llm if OPENAI_BASE_URL/KEY is set, else search"
    )
    p.add_argument(
        "--search", choices=["walk", "optuna"], default="walk", help="the search policy's method (default: walk)"
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
        "--profile-best",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="profile each new best on its largest shape for the next prompt (default: wherever ncu is on PATH)",
    )
    p.add_argument(
        "--history-tokens",
        type=int,
        default=12_000,
        metavar="N",
        help="llm: token budget (chars/4) of what a prompt carries of earlier iterations (default %(default)s)",
    )
    p.add_argument(
        "--price-in",
        type=float,
        metavar="PRICE",
        help="llm: price per million prompt tokens, for the run's cost (default: $AGENT_PRICE_IN)",
    )
    p.add_argument(
        "--price-out",
        type=float,
        metavar="PRICE",
        help="llm: price per million completion tokens (default: $AGENT_PRICE_OUT)",
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
    p.add_argument(
        "--e2e-model-code",
        choices=["workbench", "hf"],
        help="--e2e runs our Llama (default) or Hugging Face's, patched",
    )
    p.add_argument("--e2e-prompt-len", type=int, metavar="N", help="prompt token ids for --e2e (default 128)")
    p.add_argument("--e2e-new-tokens", type=int, metavar="N", help="greedy tokens compared by --e2e (default 32)")
    p.add_argument(
        "--e2e-dtype", choices=["fp32", "bf16", "fp16"], help="model dtype for --e2e (default fp32: bf16 greedy ties)"
    )
    runs_dir(p)
    common(p)


def run(args) -> int:
    import torch

    from agent.config import RunConfig
    from agent.loop import optimize

    console = make_console()
    if args.backend == "torch":
        choices = ", ".join(EDITABLE)
        raise ValueError(f"the torch backend is the reference, not something to optimise; pick one of {choices}")
    _check_e2e_options(args)
    if args.candidate and not Path(args.candidate).is_file():
        raise ValueError(f"--candidate {args.candidate}: no such kernel file")
    _check_knobs(args.policy or _default_policy(), args.op, args.backend, args.candidate)
    if not torch.cuda.is_available():
        raise RuntimeError(
            "agent optimize needs a GPU: every proposal is compiled, checked and timed on the device, "
            "and PyTorch sees none here. Run it on a GPU host (python -m agent optimize ...)."
        )
    from agent.installed import require

    require(args.backend)
    confinement_gate(args, console)
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
        "e2e_model_code": args.e2e_model_code,
    }
    config = RunConfig(
        op=args.op,
        backend=args.backend,
        policy=args.policy or _default_policy(),
        search=args.search,
        iterations=args.iterations,
        time_budget_s=args.time_budget,
        target_fraction=args.target_fraction,
        candidates=args.candidates,
        workers=args.workers,
        ray_address=args.ray_address,
        model=args.model,
        evaluation=evaluation_options(
            args,
            device="cuda",
            baselines=("eager",),
            compile_timeout_s=args.compile_timeout or None,
            profile=args.profile,
        ),
        start_source=str(Path(args.candidate).resolve()) if args.candidate else None,  # run.json: repo-relative
        profile=args.profile,
        profile_best=args.profile_best,
        history_tokens=args.history_tokens,
        price_in=args.price_in if args.price_in is not None else _env_price("AGENT_PRICE_IN"),
        price_out=args.price_out if args.price_out is not None else _env_price("AGENT_PRICE_OUT"),
        e2e=args.e2e,
        e2e_model=str(Path(args.e2e_model).resolve()) if args.e2e_model else None,  # a resume may start elsewhere
        **{key: value for key, value in e2e_lengths.items() if value is not None},  # unset: RunConfig's defaults
    )
    from agent.workers import check_workers

    check_workers(config.workers)
    if config.policy == "llm" and not config.model:
        raise ValueError("the llm policy needs --model (and OPENAI_BASE_URL / OPENAI_API_KEY for the endpoint)")
    runs_dir = Path(args.runs_dir)
    flag = stop_on_first_ctrl_c(console)
    printer, judge = iteration_printer(console), judge_with_progress()
    run = optimize(config, runs_dir=runs_dir, on_iteration=printer, stop_requested=flag, judge=judge)
    final_summary(run, runs_dir, console)
    return 0


def _env_price(name: str) -> float | None:
    """A price from the environment, or None; a value that is not a number is refused with its name."""
    value = os.environ.get(name)
    if not value:
        return None
    try:
        return float(value)
    except ValueError:
        raise ValueError(f"${name}={value!r} is not a price per million tokens (a number, e.g. 3.0)") from None


def _default_policy() -> str:
    return "llm" if os.environ.get("OPENAI_BASE_URL") or os.environ.get("OPENAI_API_KEY") else "search"


def _check_e2e_options(args) -> None:
    """--e2e-* options without --e2e would silently do nothing; a model directory must be one; the model must call
    the op, or its check would pass without running the kernel."""
    names = ("e2e_model", "e2e_prompt_len", "e2e_new_tokens", "e2e_dtype", "e2e_model_code")
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


def _check_knobs(policy: str, op: str, backend: str, candidate: str | None) -> None:
    """The search policy refuses, before the baseline runs, a file it finds nothing to tune in."""
    from tools.paths import default_candidate

    path = Path(candidate) if candidate else default_candidate(op, backend)
    if policy != "search" or path is None:
        return
    from agent.policies.search import refusal

    reason = refusal(path.read_text(), candidate or f"kernels/{op}/{backend}.py")
    if reason:
        raise ValueError(reason)
