"""`agent compare A.json B.json`: the speedup of one `agent infer` record over another."""

from __future__ import annotations

import sys
from pathlib import Path

HELP = "prefill/decode speedup of B over A from two `agent infer --json` records"


def add_arguments(p) -> None:
    p.add_argument("a", metavar="A.json")
    p.add_argument("b", metavar="B.json")


def run(args) -> int:
    from tools.llama.infer import compare, format_comparison, read_record

    for name, path in (("A.json", args.a), ("B.json", args.b)):
        if not Path(path).is_file():
            raise ValueError(f"{name} {path}: no such file (agent infer --json PATH writes one)")
    a, b = read_record(args.a), read_record(args.b)
    result = compare(a, b)
    if result.refused:
        print("agent compare: refusing to compare these runs:", file=sys.stderr)
        for reason in result.refused:
            print(f"  - {reason}", file=sys.stderr)
        return 2
    print(format_comparison(a, b, result))
    return 0
