"""RunnerProcess: a runner is stopped between requests unless it was started not to be (profiling)."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest

from tools.evaluator import confine
from tools.evaluator.process import RunnerProcess, exception_line

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
        {"kind": "file", "path": str(candidate), "op": "rms_norm", "module": "workbench.kernels.rms_norm.ninetoothed"},
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


CUDA_ERROR_TRACEBACK = """Traceback (most recent call last):
  File "/checkout/tools/evaluator/runner.py", line 229, in on_run
    returned &= call(fn, args, out)
                ^^^^^^^^^^^^^^^^^^^^
  File "/runner/candidate.py", line 12, in rope
    torch.cuda.synchronize()
torch.AcceleratorError: CUDA error: an illegal memory access was encountered
Search for `cudaErrorIllegalAddress' in the CUDA Runtime API documentation for more information.
For debugging consider passing CUDA_LAUNCH_BLOCKING=1
Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.
"""


def test_a_tracebacks_exception_is_its_first_line_not_the_advice_after_it():
    assert exception_line(CUDA_ERROR_TRACEBACK) == (
        "torch.AcceleratorError: CUDA error: an illegal memory access was encountered"
    )
    missing = 'Traceback (most recent call last):\n  File "/runner/candidate.py", line 1, in <module>\n'
    missing += "    import nope\n"
    assert exception_line(missing + "ModuleNotFoundError: No module named 'nope'\n") == (
        "ModuleNotFoundError: No module named 'nope'"
    )


def test_a_text_without_frames_is_read_by_its_last_line():
    assert exception_line("graph batch 1:\ncall 5 of a timed batch is wrong\n") == "call 5 of a timed batch is wrong"
    assert exception_line("") == ""
