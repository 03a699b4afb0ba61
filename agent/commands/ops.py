"""`agent ops --backend B`: which operators a backend runs natively here, and why not where not."""

from __future__ import annotations

from agent.commands.options import BACKENDS, OPERATORS, TARGET_CHOICES

HELP = "which operators a backend runs natively here"


def add_arguments(p) -> None:
    p.add_argument("--backend", choices=BACKENDS, required=True)
    p.add_argument("--target", choices=TARGET_CHOICES, default="auto")


def run(args) -> int:
    import os

    from workbench.kernels import registry, target

    os.environ[target.TARGET_ENV] = target.resolve(args.target).name  # the kernels this process builds
    width = max(map(len, OPERATORS))
    for op in OPERATORS:
        reg = registry.registration(op, args.backend)
        print(f"{op:<{width}} {reg.status:<15} {reg.reason}")
    return 0
