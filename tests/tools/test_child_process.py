"""tools/child_process.py: a child run with a timeout, and how it ended, in words."""

from __future__ import annotations

import signal

from tools.child_process import describe_exit, run_child


def test_an_exit_is_described_by_its_status_or_signal():
    assert describe_exit(0) == "exited"
    assert describe_exit(3) == "exited with status 3"
    assert describe_exit(-signal.SIGSEGV) == "was killed by SIGSEGV"


def test_a_child_past_its_timeout_is_killed_and_says_so(tmp_path):
    # A child that would sleep a minute, given a quarter of a second: killed, its group with it.
    sleep = ["-n", "1", "-r", "1", "import time; time.sleep(60)"]
    outcome = run_child("timeit", sleep, tmp_path / "events.jsonl", timeout_s=0.25)
    assert outcome.timed_out and outcome.how_it_ended == "timed out and was killed"
    assert outcome.seconds < 60


def test_a_failing_child_reports_its_status_and_output(tmp_path):
    outcome = run_child("py_compile", [str(tmp_path / "missing.py")], tmp_path / "events.jsonl", timeout_s=60)
    assert not outcome.timed_out and outcome.returncode == 1
    assert outcome.how_it_ended == "exited with status 1 before finishing"
    assert "missing.py" in outcome.stderr_tail
