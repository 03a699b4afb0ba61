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
    parser.add_argument("--home", required=True)
    parser.add_argument("--scratch", required=True)
    parser.add_argument("--uid", type=int)
    parser.add_argument("--isolate-network", action="store_true")
    parser.add_argument("--cpu", type=int)
    parser.add_argument("--parent", type=int)
    args = parser.parse_args(argv[:split])
    module, *rest = argv[split + 1 :]
    confine.enter(
        uid=args.uid, isolate_network=args.isolate_network, scratch=args.scratch, cpu=args.cpu, parent=args.parent
    )
    sys.argv = [module, *rest]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main(sys.argv[1:])
