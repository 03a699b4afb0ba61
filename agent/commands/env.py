"""`agent env`: the GPU, driver, smi output, library versions and target found here."""

from __future__ import annotations

from agent.commands.options import TARGET_CHOICES

HELP = "print the environment"


def add_arguments(p) -> None:
    p.add_argument("--target", choices=TARGET_CHOICES, default="auto")


def run(args) -> int:
    from tools.env import collect_environment, format_environment
    from workbench.kernels import target

    print(format_environment(collect_environment(target.resolve(args.target), with_smi=True)))
    return 0
