"""Candidates evaluated by several judges at once through Ray (agent/workers.py), on the CPU.

Ray runs a real local cluster of two CPU workers here; on a GPU host each worker gets one GPU.
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
import threading
import time
from pathlib import Path

import pytest

from agent import workers
from tools.evaluator.decide import decide
from tools.evaluator.options import EvalOptions
from workbench.kernels.rope import candidates as rope_candidates

OPTIONS = EvalOptions(shapes=["llama3-8b/decode1/q"], dtypes=("bf16",), batches=3, device="cpu", timeout_s=240)
# Wrong on the one shape timed here: its verdict is the correctness stage's, whatever the machine's load.
WRONG = rope_candidates.GOOD_ROPE.replace("    return out\n", "    out.view(-1)[0] += 1.0\n    return out\n")
HANGS_AT_IMPORT = "import time\ntime.sleep(120)\n" + rope_candidates.GOOD_ROPE


@pytest.fixture(scope="module")
def ray_cluster():
    ray = pytest.importorskip("ray")
    temp = tempfile.mkdtemp(prefix="kw-ray-")  # short: Ray's socket paths must fit in 107 bytes
    # Runners exec'd, not forked from a zygote: the kill test finds a runner by the candidate in its command
    # line (a forked runner's is the zygote's). tests/tools/evaluator/test_zygote.py kills a zygote's judge.
    previous = os.environ.get("KW_RUNNER_ZYGOTE")
    os.environ["KW_RUNNER_ZYGOTE"] = "0"  # the workers inherit it from the cluster started here
    ray.init(num_cpus=2, num_gpus=0, include_dashboard=False, log_to_driver=False, _temp_dir=temp)
    yield ray
    ray.shutdown()
    if previous is None:
        os.environ.pop("KW_RUNNER_ZYGOTE")
    else:
        os.environ["KW_RUNNER_ZYGOTE"] = previous
    shutil.rmtree(temp, ignore_errors=True)


def _files(folder: Path, **sources: str) -> dict[str, Path]:
    paths = {}
    for name, source in sources.items():
        paths[name] = folder / f"{name}.py"
        paths[name].write_text(source)
        os.chmod(paths[name], 0o644)
    os.chmod(folder, 0o755)  # runners of their own uid import from here
    return paths


def test_more_than_one_worker_without_ray_says_how_to_get_it(monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "ray", None)
    with pytest.raises(RuntimeError, match=r'pip install -e "\.\[ray\]"'):
        workers.check_workers(2)
    workers.check_workers(1)
    with pytest.raises(ValueError, match="at least 1"):
        workers.check_workers(0)


def test_two_workers_give_the_decisions_one_gives(tmp_path, ray_cluster):
    # Outcomes that no timing decides: one candidate wrong on a shape, one correct; how fast is not asked here.
    paths = _files(tmp_path, honest=rope_candidates.GOOD_ROPE, wrong=WRONG, same=rope_candidates.GOOD_ROPE)
    jobs = [workers.Job(paths[n], str(paths["honest"]), OPTIONS) for n in ("wrong", "same")]
    finished = []
    parallel = workers.run_jobs(jobs, "rope", "torch", 2, gpus_per_job=0, on_done=lambda i, r: finished.append(i))
    serial = workers.run_jobs(jobs, "rope", "torch", 1)
    assert sorted(finished) == [0, 1]
    for records in (parallel, serial):
        assert [r.status for r in records] == ["failed", "ok"], [r.message for r in records]
        wrong, same = records
        assert wrong.failed_stage == "correctness" and not decide(wrong, against_best=True).accepted
        assert same.stage("benchmark").status == "ok" and same.benchmark
    assert [r.candidate_sha256 for r in parallel] == [r.candidate_sha256 for r in serial]


def _cmdline_and_parent(pid: int) -> tuple[str, int]:
    cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    return cmdline, int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def _kill_the_judge_of(candidate: Path, stop: threading.Event) -> None:
    """SIGKILL the Ray worker holding the judge whose runner imports `candidate`.

    The runner imports a copy in its own scratch folder, so it is found by the file's name; the worker is
    its first ancestor that is not part of the runner (a sandbox wrapper's command line names the runner too).
    """
    while not stop.is_set():
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                cmdline, parent = _cmdline_and_parent(int(pid))
                if "tools.evaluator.runner" not in cmdline or f"/{candidate.name}" not in cmdline:
                    continue
                while "tools.evaluator.runner" in cmdline:
                    pid, (cmdline, parent) = parent, _cmdline_and_parent(parent)
            except (OSError, ValueError, IndexError):
                continue
            os.kill(int(pid), signal.SIGKILL)
            return
        time.sleep(0.2)


def test_a_worker_killed_mid_evaluation_fails_only_its_candidate(tmp_path, ray_cluster):
    paths = _files(tmp_path, honest=rope_candidates.GOOD_ROPE, hangs=HANGS_AT_IMPORT, fine=rope_candidates.GOOD_ROPE)
    jobs = [workers.Job(paths[n], str(paths["honest"]), OPTIONS) for n in ("hangs", "fine")]
    stop = threading.Event()
    killer = threading.Thread(target=_kill_the_judge_of, args=(paths["hangs"], stop), daemon=True)
    killer.start()
    try:
        lost, fine = workers.run_jobs(jobs, "rope", "torch", 2, gpus_per_job=0)
    finally:
        stop.set()
    assert lost.status == "failed" and lost.failed_stage == "judge", lost.message
    assert "worker evaluating this candidate died" in lost.message
    assert not decide(lost, against_best=True).accepted
    assert fine.status == "ok", fine.message
