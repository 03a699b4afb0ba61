"""RunnerProcess: a runner is stopped between requests unless it was started not to be (profiling)."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest

from tools.evaluator import confine
from tools.evaluator.process import RunnerProcess

CANDIDATE = "def rms_norm(x, weight, eps=1e-6, *, out=None):\n    return out\n"


def _state(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


@pytest.fixture
def candidate():
    folder = Path(tempfile.mkdtemp(prefix=f"scratch-{os.getpid()}-process-", dir=confine.runner_root()))
    os.chmod(folder, 0o755)
    path = folder / "candidate.py"
    path.write_text(CANDIDATE)
    os.chmod(path, 0o644)
    yield path
    shutil.rmtree(folder)


@pytest.mark.parametrize("pausing, state", [(True, "T"), (False, "S")])
def test_a_runner_is_stopped_between_requests_only_when_pausing(candidate, pausing, state):
    runner = RunnerProcess(
        "candidate",
        {"kind": "file", "path": str(candidate), "op": "rms_norm", "module": "kernels.rms_norm.ninetoothed"},
        device="cpu",
        target="auto",
        cache_key=f"process-test-{pausing}",
        pausing=pausing,
    )
    try:
        deadline = time.monotonic() + 120
        assert runner.wait_hello(deadline).ok
        reply = runner.ask({"op": "no-such-request"}, deadline)
        assert not reply.ok and "unknown request" in reply.error
        time.sleep(0.2)  # the runner is back waiting on its socket
        assert _state(runner.pid) == state
    finally:
        runner.close()


def test_no_room_on_the_gpu_fails_the_seat_with_the_free_memory_named(monkeypatch):
    # An arena the GPU has no room for is the shape's or the seat's failure, not the whole evaluation's.
    from tools.evaluator import process
    from tools.evaluator.buffers import ArenaOutOfMemory
    from tools.evaluator.process import RunnerFailed

    def no_room(*args, **kwargs):
        raise ArenaOutOfMemory("no GPU memory for a 1.31 GiB buffer of the judge's: 0.50 GiB free of 139.8 GiB")

    monkeypatch.setattr(process, "Arena", no_room)
    with pytest.raises(RunnerFailed, match=r"0\.50 GiB free"):
        process._arena(1 << 30, "cuda", False)
