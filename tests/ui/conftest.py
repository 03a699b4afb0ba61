"""Run folders for the UI tests, made by the loop itself on the CPU (never hand-written).

One session-scoped folder holds three runs of the torch RoPE with a tunable delay:

- `search`: the search policy, 3 iterations (a slower neighbour rejected, then two accepted);
- `llm`: the llm policy against a local OpenAI-speaking server, 2 iterations (accepted, then
  a kernel wrong at head_dim 80 and 96 only, failing correctness on those hidden shapes), so
  prompts and replies are there;
- `running`: a run killed while its first proposal was being evaluated, as the UI sees a run
  in progress: run.json without its end-of-run fields, an iteration without eval.json.

The first two decide by the judge's recorded records (tests/agent/recorded_judge.py), so their outcomes do
not hinge on the CPU's timing: timed live beside other work, the search run once accepted one version, not two.
The third runs the real judge: it only has to be killed mid-evaluation.

A CPU has no CUDA graphs, so those records carry the eager scope only; `judged_root` is a folder with
one run written by hand in the judge's schema with both scopes, as a GPU run has (tests/ui/judged.py).
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.agent.recorded_judge import RecordedJudge, llm_run, search_run, start_run
from tests.agent.tuned_candidates import TUNED_ROPE, cpu_config
from tests.ui import judged

# The first proposal from delay 4 is the next value up: a minute per call, so its evaluation is
# still running when the run is killed.
SLOW_ROPE = TUNED_ROPE.replace('"delay_ms": [0, 1, 2, 4, 8]', '"delay_ms": [2, 4, 60000]')


@dataclass(frozen=True)
class Runs:
    root: Path
    search: str
    llm: str
    running: str


def _children(pid: int) -> list[int]:
    """Processes whose parent is `pid` (Linux /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def _runners(pid: int) -> list[int]:
    """The runners under `pid`: its children, or a zygote's children (tools/evaluator/zygote.py), not the zygote."""
    found = []
    for child in _children(pid):
        try:
            forks = b"tools.evaluator.zygote" in Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        found += _children(child) if forks else [child]
    return found


def _start_run_to_kill(base: Path, runs: Path) -> subprocess.Popen:
    kernel = base / "slow.py"
    kernel.write_text(SLOW_ROPE)
    return start_run(cpu_config(kernel), runs, judge="real")


def _kill_mid_evaluation(child: subprocess.Popen, runs: Path, known: set[str]) -> str:
    """Wait until the child evaluates its first proposal, then kill it and its evaluation worker."""
    deadline = time.monotonic() + 120
    workers: list[int] = []
    while time.monotonic() < deadline and child.poll() is None:
        folders = [p for p in runs.iterdir() if p.name not in known]
        log = folders[0] / "events.jsonl" if folders else None
        if log and log.exists() and '"evaluate_start", "iteration": 1' in log.read_text():
            workers = _runners(child.pid)
            if workers:
                break
        time.sleep(0.05)
    # The loop first, so it cannot record the worker's death as a failed evaluation.
    os.killpg(child.pid, signal.SIGKILL)
    child.wait()
    for pid in workers:  # the worker runs in its own session
        try:
            os.killpg(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    (folder,) = [p for p in runs.iterdir() if p.name not in known]
    return folder.name


@pytest.fixture(scope="session")
def runs(tmp_path_factory) -> Runs:
    base = tmp_path_factory.mktemp("ui-runs")
    root = base / "runs"
    root.mkdir()
    judge = RecordedJudge()
    searched = search_run(base / "search", root, judge)
    # The run to kill reaches its slow evaluation (where it only sleeps) while the llm run runs here.
    child = _start_run_to_kill(base, root)
    try:
        asked = llm_run(base / "llm", root, judge)
        running = _kill_mid_evaluation(child, root, {searched["run_id"], asked["run_id"]})
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()
    return Runs(root=root, search=searched["run_id"], llm=asked["run_id"], running=running)


@pytest.fixture(scope="session")
def judged_root(tmp_path_factory) -> Path:
    """A runs folder holding the hand-written two-scope run (its id: judged.RUN_ID)."""
    root = tmp_path_factory.mktemp("judged-runs")
    judged.write_run(root)
    return root
