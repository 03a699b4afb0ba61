"""Run a module as a confined process: `python -m tools.evaluator.confined [confinement options] -- MODULE ARGS...`.

For processes that import candidate code but are not runners (the Llama end-to-end check,
tools/llama/e2e.py): the same first act as a runner's (tools/evaluator/confine.py `enter`), then
the module as `__main__`.
"""

from __future__ import annotations

import argparse
import runpy
import sys

from tools.evaluator import confine


def main(argv: list[str]) -> None:
    if "--" not in argv:
        raise SystemExit("usage: python -m tools.evaluator.confined [options] -- MODULE ARGS...")
    split = argv.index("--")
    parser = argparse.ArgumentParser(prog="python -m tools.evaluator.confined")
    confine.add_arguments(parser)
    args = parser.parse_args(argv[:split])
    module, *rest = argv[split + 1 :]
    confine.enter_from(args)
    sys.argv = [module, *rest]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main(sys.argv[1:])
