"""The `agent` command line: one subcommand per module of agent/commands/ (`agent --help` lists them).

agent optimize rope --backend tilelang        # the loop: propose, evaluate, keep what wins (needs a GPU)
agent eval rope --backend tilelang            # one evaluation of the current kernel, as a table
agent bench rope rms_norm                     # every backend into benchmarks/results/<gpu>/<op>.json and .md
agent bench-agent                             # the loop from first-draft kernels: benchmarks/results/<gpu>/agent.json
agent runs / export RUN_ID / adopt RUN_ID     # the runs under runs/, their write-ups, their best version
agent ui                                      # review runs in the browser (Streamlit)
"""

from __future__ import annotations

import argparse
import importlib
import sys

from agent.commands import COMMANDS


class Parser(argparse.ArgumentParser):
    """An argument error in one line, with where to read more: the usage before it buried the error."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="agent", description="Kernel workbench for Llama inference operators.")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in COMMANDS:
        command = importlib.import_module(f"agent.commands.{name}")
        p = sub.add_parser(name.replace("_", "-"), help=command.HELP)
        command.add_arguments(p)
        p.set_defaults(func=command.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except (ValueError, OSError, RuntimeError) as err:
        print(f"agent: error: {err}", file=sys.stderr)
        return 2
