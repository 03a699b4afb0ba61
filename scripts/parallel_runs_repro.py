"""Try to reproduce the race behind a failed parallel-runs test: two `agent optimize` runs on one repository at once.

    python scripts/parallel_runs_repro.py --trials 6 [--burners 3]      # the test's scenario, N times
    python scripts/parallel_runs_repro.py --worktree-adds 15             # raw `git worktree add`, 8 at a time

Each trial makes a fresh repository with the tests' tuned rope kernel committed, starts two CPU runs
of it (the test's config, two iterations) side by side, and prints the output of any run that exits
non-zero. `--burners` keeps that many CPU-bound processes busy meanwhile, as a loaded CI machine is.
`--worktree-adds` runs rounds of 8 concurrent `git worktree add` calls on one repository with no
lock, and counts the ones that fail (the race tools/workspace.py guards against).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.agent.test_faults import SCRIPT, committed_repo, make_config  # noqa: E402

BURN = "while True: pass"


def parallel_runs(trials: int, burners: int) -> int:
    burning = [subprocess.Popen([sys.executable, "-c", BURN]) for _ in range(burners)]
    failures = 0
    try:
        for trial in range(trials):
            folder = Path(tempfile.mkdtemp(prefix="kw-race-"))
            _, kernel = committed_repo(folder)
            config = make_config(kernel, iterations=2).model_dump_json()
            runs = [
                subprocess.Popen(
                    [sys.executable, "-c", SCRIPT, config, str(folder / "runs"), f"parallel-{i}"],
                    cwd=ROOT,
                    env=dict(os.environ, PYTHONPATH=str(ROOT)),
                    stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT,
                    text=True,
                )
                for i in range(2)
            ]
            for i, run in enumerate(runs):
                output, _ = run.communicate(timeout=600)
                if run.returncode:
                    failures += 1
                    print(f"trial {trial} run {i}: exit {run.returncode}\n{output[-3000:]}")
            print(f"trial {trial}: {'ok' if all(r.returncode == 0 for r in runs) else 'FAILED'}", flush=True)
    finally:
        for process in burning:
            process.kill()
    print(f"{failures} failed run(s) in {trials} trial(s) of two, {burners} burner(s)")
    return failures


def worktree_adds(rounds: int, width: int = 8) -> int:
    folder = Path(tempfile.mkdtemp(prefix="kw-worktrees-"))
    subprocess.run(["git", "init", "-q", str(folder / "repo")], check=True)
    subprocess.run(["git", "-C", str(folder / "repo"), "commit", "-q", "--allow-empty", "-m", "x"], check=True)
    failures = 0
    for r in range(rounds):
        adds = [
            subprocess.Popen(
                [
                    "git",
                    "-C",
                    str(folder / "repo"),
                    "worktree",
                    "add",
                    "-q",
                    "-b",
                    f"b{r}-{i}",
                    str(folder / f"w{r}-{i}"),
                ],
                stderr=subprocess.PIPE,
                text=True,
            )
            for i in range(width)
        ]
        for add in adds:
            _, err = add.communicate(timeout=120)
            if add.returncode:
                failures += 1
                print(err.strip())
    print(f"{failures} of {rounds * width} concurrent worktree adds failed")
    return failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=0, help="two parallel optimize runs, this many times")
    parser.add_argument("--burners", type=int, default=0, help="CPU-bound processes running meanwhile")
    parser.add_argument("--worktree-adds", type=int, default=0, metavar="ROUNDS", help="rounds of 8 concurrent adds")
    args = parser.parse_args()
    if not args.trials and not args.worktree_adds:
        parser.error("give --trials N and/or --worktree-adds ROUNDS")
    failures = parallel_runs(args.trials, args.burners) if args.trials else 0
    failures += worktree_adds(args.worktree_adds) if args.worktree_adds else 0
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
