"""The real judge's records of the loop fixtures' candidates, recorded once and replayed, so that what the loop
decides in a test does not hinge on the CPU's timing.

The fixtures that need accepted iterations (the UI's runs, tests/ui/conftest.py; the exported run,
tests/tools/test_export.py; the e2e gate's run, tests/agent/test_loop_e2e.py; the runs killed at random
moments, tests/agent/test_faults.py, whose judge runs live and then answers with the recording) run the real
loop over torch RoPE candidates that differ by a sleep (tests/agent/tuned_candidates.py). With the judge timing
them live, a 2 -> 1 ms step beside other work was once judged within the noise and the UI's tests failed.
Here the loop, its policy, git and the run folder are as in a real run; only the judge is the recording:
`RecordedJudge` stands in for tools.evaluator.evaluate (agent/graph.py's `Deps.judge`) and returns the record
the real judge wrote for the same candidate source against the same incumbent source, so every decision is the
one recorded.

    python -m tests.agent.recorded_judge     # re-record: run the fixtures' loops with the real judge
    python -m tests.agent.recorded_judge --only e2e_run     # one fixture's run, added to the records kept

re-records them after a change to those candidates (a replay of a source it has no record of says so): it
keeps the records only when each run decided as the fixtures expect, and leaves host details (the hostname,
the runners' notes naming the interpreter's paths) out of the committed files.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Literal

import openai

from agent.config import RunConfig
from agent.loop import optimize
from agent.policies.llm import LLMPolicy
from agent.policies.source_edit import read_literal
from tests.agent.fake_openai import FakeOpenAI
from tests.agent.tuned_candidates import (
    CHANGES_TOKENS_AT_TWO,
    FROM_THE_TOP,
    TUNED_ROPE,
    WRONG_AT_TWO,
    cpu_config,
    kernel_reply,
)
from tools.evaluator.records import EvalRecord
from tools.paths import record_path, sha256_file

RECORDS = Path(__file__).with_name("recorded")
ROOT = Path(__file__).resolve().parents[2]
START = "start"  # the incumbent part of a starting kernel's key


def _digest(source: str) -> str:
    return hashlib.sha256(source.encode()).hexdigest()[:16]


def key(candidate: Path, incumbent: Path | None) -> str:
    """What was judged: the candidate's source and the incumbent's (none for a starting kernel)."""
    return f"{_digest(Path(candidate).read_text())}-{_digest(Path(incumbent).read_text()) if incumbent else START}"


def _delay(path: Path | None) -> str:
    try:
        return str(read_literal(Path(path).read_text(), "CONFIG").get("delay_ms")) if path else "-"
    except (OSError, ValueError, SyntaxError):
        return "?"


class RecordedJudge:
    """evaluate()'s stand-in: the recorded record of this candidate against this incumbent.

    A candidate with no record is judged live, and its live record stands only if it failed a check (failing
    does not hinge on timing, and needs no recording); one that passed unrecorded is an error that says how to
    re-record. `live=True` judges every candidate live first (its runners, its stages, the time a kill can land
    in), then answers one that passed with the recording.
    """

    def __init__(self, folder: Path = RECORDS, live: bool = False):
        self.folder = Path(folder)
        self.live = live

    def __call__(self, op: str, backend: str, candidate, options=None, *, incumbent=None) -> EvalRecord:
        path = self.folder / f"{key(candidate, incumbent)}.json"
        if self.live or not path.is_file():
            from tools.evaluator.evaluate import evaluate

            live = evaluate(op, backend, candidate, options, incumbent=incumbent)
            if live.status != "ok":
                return live
        if not path.is_file():
            raise FileNotFoundError(
                f"no recorded judge record of {candidate} (delay_ms {_delay(candidate)}) against "
                f"{incumbent or 'no incumbent'} (delay_ms {_delay(incumbent)}): the fixtures' candidates changed; "
                "re-record with `python -m tests.agent.recorded_judge`"
            )
        record = EvalRecord.model_validate_json(path.read_text())
        if (record.op, record.backend) != (op, backend):
            raise ValueError(f"{path.name} records {record.op}[{record.backend}], not {op}[{backend}]")
        # As the judge names what it evaluated: this file, wherever the run folder is.
        return record.model_copy(
            update={"candidate": record_path(Path(candidate).resolve()), "candidate_sha256": sha256_file(candidate)}
        )


# `optimize` in a child process, for tests that kill it: its judge is the real one ("real"), the recording
# ("recorded"), or the real one whose passing records are answered with the recording ("live": a kill lands in a
# real evaluation, yet the decisions do not hinge on the machine's load).
CHILD_JUDGES = {"real": "None", "recorded": "RecordedJudge()", "live": "RecordedJudge(live=True)"}
CHILD_SCRIPT = (
    "import sys; from pathlib import Path; from agent.config import RunConfig; from agent.loop import optimize;"
    "from tests.agent.recorded_judge import RecordedJudge;"
    "optimize(RunConfig.model_validate_json(sys.argv[1]), runs_dir=Path(sys.argv[2]), run_id=sys.argv[3] or None,"
    " judge={judge})"
)


def start_run(
    config: RunConfig,
    runs: Path,
    run_id: str | None = None,
    *,
    judge: Literal["real", "recorded", "live"],
    log: Path | None = None,
) -> subprocess.Popen:
    """`optimize` in a child process of its own session; its output goes to `log` (kept for a failure message) or
    nowhere. `run_id` None: the run names itself."""
    script = CHILD_SCRIPT.format(judge=CHILD_JUDGES[judge])
    output = open(log, "w") if log else subprocess.DEVNULL  # the child writes it; closed here once started
    try:
        return subprocess.Popen(
            [sys.executable, "-c", script, config.model_dump_json(), str(runs), run_id or ""],
            cwd=ROOT,
            env=dict(os.environ, PYTHONPATH=str(ROOT)),
            start_new_session=True,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    finally:
        if log:
            output.close()


class RecordingJudge:
    """The real judge, keeping each record by what it judged (for `record`)."""

    def __init__(self):
        from tools.evaluator.evaluate import evaluate

        self.evaluate = evaluate
        self.records: dict[str, EvalRecord] = {}

    def __call__(self, op: str, backend: str, candidate, options=None, *, incumbent=None) -> EvalRecord:
        record = self.evaluate(op, backend, candidate, options, incumbent=incumbent)
        self.records[key(candidate, incumbent)] = record
        return record


# ---------------------------------------------------------------------------------------------- the fixtures' runs


def _kernel(base: Path, source: str) -> Path:
    """The kernel file a run starts from, `base`/tuned.py (outside any repository: the run makes its own)."""
    base.mkdir(parents=True, exist_ok=True)
    kernel = base / "tuned.py"
    kernel.write_text(source)
    return kernel


def search_run(base: Path, runs: Path, judge: Callable[..., EvalRecord]) -> dict:
    """The search policy from delay 4: 8 is slower (rejected), then 2 and 1 are accepted."""
    kernel = _kernel(base, TUNED_ROPE)
    return optimize(cpu_config(kernel), runs_dir=runs, judge=judge)


def llm_run(base: Path, runs: Path, judge: Callable[..., EvalRecord]) -> dict:
    """The llm policy against a local OpenAI-speaking server: delay 2 (accepted), then a kernel wrong at
    head_dim 80 and 96 only, which fails correctness on those hidden shapes; prompts and replies are kept."""
    kernel = _kernel(base, TUNED_ROPE)
    script = [
        kernel_reply(2, "halve the delay"),
        "Halving the delay paid off; try going lower.",
        kernel_reply(1, "special-case odd head sizes (wrong on purpose)").replace(
            "    out.copy_(result)\n", "    out.copy_(result * 2 if x.shape[-1] in (80, 96) else result)\n"
        ),
        "The special case broke head_dim 80 and 96; revert that.",
    ]
    with FakeOpenAI(script) as server:
        client = openai.OpenAI(base_url=server.base_url, api_key="test", max_retries=0, timeout=10)
        try:
            policy = LLMPolicy(model="fake-model", client=client)
            config = cpu_config(kernel, policy="llm", model="fake-model", iterations=2)
            return optimize(config, runs, policy=policy, judge=judge)
        finally:
            client.close()


def reasked_llm_run(base: Path, runs: Path, judge: Callable[..., EvalRecord]) -> dict:
    """The llm policy through a malformed reply (re-asked), delay 2 (accepted), a kernel that scales its output
    (fails correctness), a 429 (retried by the client), then delay 1 (accepted); `requests` is how many the
    server answered."""
    from tests.agent.fake_openai import Status

    kernel = _kernel(base, TUNED_ROPE)
    script = [
        "I would shorten the delay, but here is no code.",  # malformed: re-asked
        kernel_reply(2, "halve the delay"),
        "Halving the delay paid off; try going lower.",  # reflection 1
        kernel_reply(1, "scale the output (wrong on purpose)", wrong=True),
        "The scaled output broke correctness; revert that.",  # reflection 2
        Status(429, {"retry-after": "0"}),  # retried by the openai client
        kernel_reply(1, "delay of 1 ms"),
        "One millisecond is faster still.",  # reflection 3
    ]
    with FakeOpenAI(script) as server:
        client = openai.OpenAI(base_url=server.base_url, api_key="test", max_retries=2, timeout=10)
        try:
            policy = LLMPolicy(model="fake-model", client=client)
            config = cpu_config(kernel, policy="llm", model="fake-model")
            run = optimize(config, runs_dir=runs, policy=policy, judge=judge)
        finally:
            client.close()
    return run | {"requests": len(server.requests), "script": len(script)}


def wrong_at_two_run(base: Path, runs: Path, judge: Callable[..., EvalRecord]) -> dict:
    """The search policy from delay 4 over a kernel whose output is wrong at delay 2: 8 is slower (rejected), 2
    fails correctness, and the walk stops with nothing better than the start."""
    kernel = _kernel(base, WRONG_AT_TWO)
    return optimize(cpu_config(kernel, iterations=3), runs_dir=runs, judge=judge)


def from_the_top_run(base: Path, runs: Path, judge: Callable[..., EvalRecord]) -> dict:
    """The search policy from delay 8, the top of its space: 4 is accepted, 8 again rejected (the search does not
    count the starting configuration as tried once another is the best), then 2 accepted."""
    kernel = _kernel(base, FROM_THE_TOP)
    return optimize(cpu_config(kernel), runs_dir=runs, judge=judge)


def e2e_run(base: Path, runs: Path, judge: Callable[..., EvalRecord]) -> dict:
    """The search policy with the e2e gate from delay 8: 16 is slower (rejected), 4 is accepted with the model's
    tokens unchanged, 2 is faster but changes them (fails at e2e). tests/agent/test_loop_e2e.py kills and resumes
    it."""
    from tests.tools.tiny_llama import write_tiny_checkpoint

    kernel = _kernel(base, CHANGES_TOKENS_AT_TWO)
    return optimize(e2e_config(kernel, write_tiny_checkpoint(base / "tiny-llama")), runs_dir=runs, judge=judge)


def e2e_config(kernel: Path, checkpoint: Path, **overrides) -> RunConfig:
    """The e2e run's configuration: 3 iterations, the model's greedy tokens checked on a tiny Llama checkpoint."""
    values = dict(iterations=3, e2e=True, e2e_model=str(checkpoint), e2e_prompt_len=8, e2e_new_tokens=6)
    return cpu_config(kernel, **{**values, **overrides})


# What each run must decide for the fixtures: the outcome of every iteration, from its decide events.
EXPECTED = {
    search_run: ["rejected", "accepted", "accepted"],
    llm_run: ["accepted", "failed"],
    from_the_top_run: ["accepted", "rejected", "accepted"],
    wrong_at_two_run: ["rejected", "failed"],
    reasked_llm_run: ["accepted", "failed", "accepted"],
    e2e_run: ["rejected", "accepted", "failed"],
}


def outcomes(runs: Path, run: dict) -> list[str]:
    """Each iteration's outcome as the run's decide events recorded it."""
    lines = (runs / run["run_id"] / "events.jsonl").read_text().splitlines()
    return [o for e in map(json.loads, lines) if e["event"] == "decide" for o in e["outcomes"]]


def _for_the_repository(record: EvalRecord) -> EvalRecord:
    """Without what names the recording machine: its hostname, the runners' notes on its paths."""
    record = record.model_copy(deep=True)
    record.candidate = ""  # the replay names the file it is given
    if record.environment is not None:
        record.environment.hostname = "cpu-host"
    if record.confinement is not None:
        record.confinement.notes = [n for n in record.confinement.notes if "/" not in n]
    return record


def record(folder: Path = RECORDS, tries: int = 3, only: list[str] | None = None) -> list[Path]:
    """Run every fixture's loop (or the `only` ones, adding to the records kept) with the real judge until each
    decides as expected; write their records."""
    kept: dict[str, EvalRecord] = {}
    wanted = {make: expected for make, expected in EXPECTED.items() if only is None or make.__name__ in only}
    if only is not None and len(wanted) != len(set(only)):
        raise ValueError(f"--only takes names of {', '.join(m.__name__ for m in EXPECTED)}")
    for make, expected in wanted.items():
        for attempt in range(1, tries + 1):
            judge = RecordingJudge()
            with tempfile.TemporaryDirectory(prefix="record-judge-") as scratch:
                base = Path(scratch)
                runs = base / "runs"
                runs.mkdir()
                got = outcomes(runs, make(base, runs, judge))
            if got == expected:
                kept |= judge.records
                break
            print(f"{make.__name__}: decided {got}, not {expected} (try {attempt} of {tries})", file=sys.stderr)
        else:
            raise RuntimeError(f"{make.__name__} never decided {expected}: record on a quieter machine")
    if folder.exists() and only is None:
        shutil.rmtree(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, rec in sorted(kept.items()):
        path = folder / f"{name}.json"
        path.write_text(_for_the_repository(rec).model_dump_json(indent=1) + "\n")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=RECORDS, help="folder of the records (default: %(default)s)")
    parser.add_argument("--only", nargs="+", metavar="RUN", help="record these runs only (e.g. e2e_run)")
    args = parser.parse_args(argv)
    for path in record(args.out, only=args.only):
        print(f"{path}  {path.stat().st_size // 1024} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
