"""Runners forked from the zygote (tools/evaluator/zygote.py): what one runner does stays in it.

Each candidate here prints what it sees at import (one JSON line in the runner's log) and defines
an `rms_norm` that is never called.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tools.evaluator import confine, sandbox, zygote
from tools.evaluator.process import RunnerProcess

SNAPSHOT = """
import ctypes, json, os, sys, tempfile
import torch
fds = sorted(int(fd) for fd in os.listdir("/proc/self/fd"))
print("SNAPSHOT " + json.dumps({
    "env": dict(os.environ),
    "cwd": os.getcwd(),
    "path0": sys.path[0],
    "tempdir": tempfile.gettempdir(),
    "fds": [os.readlink(f"/proc/self/fd/{fd}") for fd in fds if fd > 2 and os.path.exists(f"/proc/self/fd/{fd}")],
    "ppid": os.getppid(),  # its keeper (tools/evaluator/confine.py), whose parent is the zygote
    "dumpable": ctypes.CDLL(None).prctl(3, 0, 0, 0, 0),
    "harness": sorted(n for n in sys.modules if n == "tools" or n.startswith("tools.")),
    "main": sorted(vars(sys.modules["__main__"])),
    "argv": sys.argv,
    "torch_add_patched": getattr(torch.add, "patched_by_a_candidate", False),
    "torch_marker": getattr(torch, "_left_by_a_candidate", None),
    "uid": os.getuid(),
}), flush=True)
"""

OP = "\ndef rms_norm(x, weight, eps=1e-6, *, out=None):\n    return out\n"


def _candidate(folder: Path, name: str, extra: str = "") -> Path:
    path = folder / f"{name}.py"
    path.write_text(SNAPSHOT + extra + OP)
    os.chmod(path, 0o644)
    return path


def _gone(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


class _Started(list):
    """The runners a test started, and the zygotes and uids they share, as one judge's lineup shares them."""

    def __init__(self) -> None:
        super().__init__()
        self.zygotes = zygote.Zygotes()
        self.uids = confine.UidPool()


def _start(runners: _Started, path: Path, key: str, *, separate_uid: bool = False) -> RunnerProcess:
    setup = dataclasses.replace(sandbox.setup(), uid_per_runner=separate_uid and confine.is_root())
    runner = RunnerProcess(
        "candidate",
        {"kind": "file", "path": str(path), "op": "rms_norm", "module": "workbench.kernels.rms_norm.ninetoothed"},
        device="cpu",
        target="auto",
        cache_key=key,
        setup=setup,
        uids=runners.uids,
        zygotes=runners.zygotes,
    )
    runners.append(runner)  # closed by the fixture, started or not
    hello = runner.wait_hello(time.monotonic() + 120)
    assert hello.ok, hello.error
    return runner


def _printed(runner: RunnerProcess, tag: str) -> dict:
    """The JSON of the last `TAG {...}` line the runner's candidate printed to its log."""
    runner._log.seek(0)
    lines = [line for line in runner._log.read().decode().splitlines() if line.startswith(f"{tag} ")]
    assert lines, runner.output_tail()
    return json.loads(lines[-1].split(" ", 1)[1])


def _snapshot(runner: RunnerProcess) -> dict:
    return _printed(runner, "SNAPSHOT")


def _zygote_of(runner: RunnerProcess) -> int:
    """The zygote that forked a runner, as this process numbers it (the runner's keeper's parent)."""
    status = Path(f"/proc/{runner.keeper}/status").read_text()
    return int(status.split("PPid:")[1].split()[0])


@pytest.fixture
def tmp_path():
    """Candidates where a runner of its own uid can read them (pytest's tmp_path is private to root)."""
    folder = Path(tempfile.mkdtemp(prefix=f"scratch-{os.getpid()}-candidates-", dir=confine.runner_root()))
    os.chmod(folder, 0o755)
    yield folder
    shutil.rmtree(folder)


@pytest.fixture
def runners():
    started = _Started()
    yield started
    for runner in started:
        runner.close()
    started.zygotes.close()


def test_a_forked_runner_sees_what_an_execd_one_sees_but_its_own_paths(tmp_path, runners, monkeypatch):
    path = _candidate(tmp_path, "snapshot")
    forked = _start(runners, path, "zygote-test-forked")
    monkeypatch.setenv("KW_RUNNER_ZYGOTE", "0")
    execd = _start(runners, path, "zygote-test-execd")
    assert forked.forked and not execd.forked
    a, b = _snapshot(forked), _snapshot(execd)
    for snap, runner in ((a, forked), (b, execd)):
        home, scratch = str(runner.identity.home), str(runner.identity.scratch)
        assert snap["env"]["HOME"] == home and snap["env"]["TMPDIR"] == scratch
        assert snap["env"]["TRITON_CACHE_DIR"] == f"{home}/triton"
        assert snap["cwd"] == snap["path0"] == snap["tempdir"] == scratch
        # Past stdout and stderr (its log): its socket, nothing of the zygote's or of another runner's.
        assert len(snap["fds"]) == 1 and snap["fds"][0].startswith("socket:"), snap["fds"]
    assert a["fds"] != b["fds"]
    same = ("dumpable", "harness", "main", "argv", "uid")
    assert {k: a[k] for k in same} == {k: b[k] for k in same}
    assert a["harness"] == [] and a["argv"] == [""]
    per_runner = zygote.PER_RUNNER
    assert {k: v for k, v in a["env"].items() if k not in per_runner} == {
        k: v for k, v in b["env"].items() if k not in per_runner
    }


def test_a_secret_in_the_judges_environment_reaches_neither_the_zygote_nor_its_runners(tmp_path, runners, monkeypatch):
    monkeypatch.setenv("KW_ZYGOTE_TEST_API_KEY", "sk-not-for-candidates")
    runner = _start(runners, _candidate(tmp_path, "secret"), "zygote-test-secret")
    assert runner.forked
    assert "KW_ZYGOTE_TEST_API_KEY" not in _snapshot(runner)["env"]
    zygote_pid = _zygote_of(runner)
    assert b"sk-not-for-candidates" not in Path(f"/proc/{zygote_pid}/environ").read_bytes()


def test_a_candidate_that_patches_torch_does_not_reach_the_next_runner(tmp_path, runners):
    patch = (
        "def _patched(*args, **kwargs):\n    raise RuntimeError('patched')\n"
        "_patched.patched_by_a_candidate = True\ntorch.add = _patched\ntorch._left_by_a_candidate = 'yes'\n"
        "import tools\n"  # even a re-import of the harness in its runner stays there
    )
    first = _start(runners, _candidate(tmp_path, "patcher", patch + SNAPSHOT), "zygote-test-patcher")
    first_seen = _snapshot(first)
    assert first_seen["torch_add_patched"] and first_seen["torch_marker"] == "yes"
    second = _start(runners, _candidate(tmp_path, "innocent"), "zygote-test-innocent")
    second_seen = _snapshot(second)
    assert first.forked and second.forked and _zygote_of(first) == _zygote_of(second)  # one zygote
    assert not second_seen["torch_add_patched"] and second_seen["torch_marker"] is None


@pytest.mark.skipif(not confine.can_separate([])[0], reason="needs root and an interpreter other uids can read")
def test_a_forked_runner_of_its_own_uid_cannot_read_another_runners_scratch(tmp_path, runners):
    writer = "open(os.path.join(os.getcwd(), 'mine.txt'), 'w').write('private')\n"
    first = _start(runners, _candidate(tmp_path, "writer", writer), "zygote-test-w", separate_uid=True)
    target = first.identity.scratch / "mine.txt"
    reader = (
        f"try:\n    seen = open({str(target)!r}).read()\nexcept OSError as err:\n    seen = type(err).__name__\n"
        "print('READ ' + seen, flush=True)\n"
    )
    second = _start(runners, _candidate(tmp_path, "reader", reader), "zygote-test-r", separate_uid=True)
    assert first.forked and second.forked
    assert _snapshot(first)["uid"] != _snapshot(second)["uid"] != 0
    assert target.read_text() == "private"
    second._log.seek(0)
    assert "READ PermissionError" in second._log.read().decode()


# Writes over torch.add in the zygote, by the three ways into another process's memory. A forked child
# shares its parent's address-space layout, so id(torch.add) is that object's address in the zygote too:
# had any write landed, every runner forked afterwards (the next contestant, a yardstick) would start
# from a torch the candidate chose.
INTO_THE_ZYGOTE = """
import errno
libc = ctypes.CDLL(None, use_errno=True)
keeper = os.getppid()
zygote = int(open(f"/proc/{keeper}/status").read().split("PPid:")[1].split()[0])
target = id(torch.add)
tried = {}
def _error(number):
    return errno.errorcode.get(number, str(number))
try:
    with open(f"/proc/{zygote}/mem", "r+b", buffering=0) as mem:
        mem.seek(target)
        mem.write(bytes(8))
    tried["/proc/pid/mem"] = "wrote"
except OSError as err:
    tried["/proc/pid/mem"] = _error(err.errno)
class Iovec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]
zeros = ctypes.create_string_buffer(8)
local, remote = Iovec(ctypes.addressof(zeros), 8), Iovec(target, 8)
libc.process_vm_writev.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_ulong, ctypes.c_void_p,
                                   ctypes.c_ulong, ctypes.c_ulong]
written = libc.process_vm_writev(zygote, ctypes.byref(local), 1, ctypes.byref(remote), 1, 0)
tried["process_vm_writev"] = "wrote" if written == 8 else _error(ctypes.get_errno())
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p]
attached = libc.ptrace(16, zygote, None, None)  # PTRACE_ATTACH
tried["ptrace"] = "attached" if attached == 0 else _error(ctypes.get_errno())
print("INTO " + json.dumps(tried), flush=True)
"""


@pytest.mark.parametrize(
    "separate_uid",
    [
        # A judge run as root separates its runners; one that cannot says so in every record.
        pytest.param(
            True,
            id="own uid",
            marks=pytest.mark.skipif(
                not confine.can_separate([])[0], reason="needs root and an interpreter other uids can read"
            ),
        ),
        # A judge run as another user: runners share its uid, and the zygote is non-dumpable to them.
        pytest.param(
            False, id="the judge's uid", marks=pytest.mark.skipif(os.getuid() == 0, reason="root may trace any process")
        ),
    ],
)
def test_a_runner_cannot_write_into_the_zygote(tmp_path, runners, separate_uid):
    attacker = _start(
        runners, _candidate(tmp_path, "into", SNAPSHOT + INTO_THE_ZYGOTE), "zygote-test-into", separate_uid=separate_uid
    )
    tried = _printed(attacker, "INTO")
    assert set(tried.values()) <= {"EPERM", "EACCES"}, tried
    zygote_pid = _zygote_of(attacker)
    assert attacker.forked and not _gone(zygote_pid)
    after = _start(runners, _candidate(tmp_path, "after-into"), "zygote-test-after-into", separate_uid=separate_uid)
    assert after.forked and _zygote_of(after) == zygote_pid  # the same zygote, still forking


def test_the_zygotes_runners_die_with_it(tmp_path, runners):
    runner = _start(runners, _candidate(tmp_path, "orphan"), "zygote-test-orphan")
    zygote_pid = _zygote_of(runner)
    os.kill(zygote_pid, signal.SIGKILL)
    assert runner.proc.wait(timeout=10) == -signal.SIGKILL
    deadline = time.monotonic() + 10
    while not _gone(runner.proc.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _gone(runner.proc.pid)
    after = _start(runners, _candidate(tmp_path, "after"), "zygote-test-after")
    assert after.forked and _zygote_of(after) != zygote_pid  # a new zygote took its place


JUDGE = """
import time
from tools.evaluator import zygote
from tools.evaluator.process import RunnerProcess
zygotes = zygote.Zygotes()
runner = RunnerProcess("reference", {"kind": "builtin", "names": ["torch"], "op": "rms_norm", "device": "cpu"},
                       device="cpu", target="auto", cache_key="zygote-test-judge", zygotes=zygotes)
assert runner.wait_hello(time.monotonic() + 120).ok and runner.forked
print(runner.proc.pid, zygotes.running()[0].pid, flush=True)
time.sleep(300)
"""


def test_a_killed_judges_zygote_and_runners_go_with_it():
    repo = Path(__file__).resolve().parents[3]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, (str(repo), os.environ.get("PYTHONPATH")))))
    judge = subprocess.Popen([sys.executable, "-c", JUDGE], env=env, cwd=repo, stdout=subprocess.PIPE, text=True)
    try:
        runner_pid, zygote_pid = (int(v) for v in judge.stdout.readline().split())
    finally:
        judge.kill()
        judge.wait()
    deadline = time.monotonic() + 20
    while not (_gone(runner_pid) and _gone(zygote_pid)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _gone(zygote_pid) and _gone(runner_pid)
