"""CPU seconds per test: a pytest plugin, and a summary of what it wrote.

    python -m pytest -p tests.pytest_cpu ...                   # appends one JSON line per test
    python -m tests.pytest_cpu [--by file|test] [--top N]      # the summary, largest first

Each test's line holds the CPU time of the test's own process (`self`: the pytest-xdist worker, or
pytest with -n 0) and of the children it started and reaped (`children`), from getrusage around the
test's setup, call and teardown, and its wall time. Lines go to $KW_PYTEST_CPU (default
pytest-cpu.jsonl in the working directory). A child reaped later (a zygote, a module fixture's
process) counts where it was reaped.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import resource
import time
from pathlib import Path

import pytest

OUTPUT = Path(os.environ.get("KW_PYTEST_CPU", "pytest-cpu.jsonl"))


def _cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    own, children, start = _cpu(resource.RUSAGE_SELF), _cpu(resource.RUSAGE_CHILDREN), time.monotonic()
    yield
    line = {
        "test": item.nodeid,
        "self": _cpu(resource.RUSAGE_SELF) - own,
        "children": _cpu(resource.RUSAGE_CHILDREN) - children,
        "wall": time.monotonic() - start,
    }
    with OUTPUT.open("a") as out:  # one short write per line: workers append side by side
        out.write(json.dumps(line) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", type=Path, default=OUTPUT)
    parser.add_argument("--by", choices=("file", "test"), default="file", help="test: a test function's cases summed")
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.path.read_text().splitlines() if line.strip()]
    own, children, count = collections.Counter(), collections.Counter(), collections.Counter()
    for row in rows:
        key = row["test"].split("::")[0] if args.by == "file" else row["test"].split("[")[0]
        own[key] += row["self"]
        children[key] += max(row["children"], 0.0)
        count[key] += 1
    print(
        f"{len(rows)} tests: {sum(own.values()):.0f} CPU-s in their processes, {sum(children.values()):.0f} in children"
    )
    print(f"{'self':>7} {'children':>8} {'tests':>5}  {args.by}")
    for key in sorted(own, key=lambda k: -(own[k] + children[k]))[: args.top]:
        print(f"{own[key]:7.1f} {children[key]:8.1f} {count[key]:5d}  {key}")


if __name__ == "__main__":
    main()
