"""What a candidate can do from inside the judge's runners, tried for real, per confinement mode and user.

`attack_source` is a torch-backend rope file that, when its runner imports it, tries everything at once
and reports what worked in the exception it raises (the judge records a failed import's message):

- a secret: reads every /proc/PID/environ it can for the judge's API key (a shell above the judge holds it);
- the network: a TCP connection to a listener of the test's on 127.0.0.1;
- writes: the checkout's judge code, its .git, the incumbent file, the interpreter's site-packages, the
  incumbent's compile cache (the folder its later runners load compiled kernels from);
- reads: world-readable files planted outside the checkout (under /opt and /var/lib), and what an earlier
  runner left in its own compile cache;
- signals: which processes outside its own tree it may signal (kill with signal 0) or renice;
- a daemon: a double fork, a new session, a loop that keeps forking, marked by a token in its environment.

`judge` runs one evaluation of a file in a fresh process, as root or as another user, in a confinement
mode, with the secret in the environment of a shell that stays its parent; `survivors` finds a daemon's
processes after the evaluation ended. tests/tools/evaluator/test_confinement.py asserts what each mode
stops; confinement_table.py beside it prints the same as a table.
"""

from __future__ import annotations

import hashlib
import json
import os
import pwd
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from tools.paths import PROJECT_ROOT

USER = "kw-confine-test"
# Where a host keeps world-readable files of its own (label -> folder); the attack tries to read one planted in each.
PLANT_UNDER = {"a host file under /opt": "/opt", "a host file under /var/lib": "/var/lib"}
SECRET_PREFIX = "kw-secret-"
ROPE = PROJECT_ROOT / "kernels" / "rope" / "candidates.py"

HONEST_ROPE = """
def rope(x, sin, cos, *, out=None):
    half = x.shape[-1] // 2
    xf = x.float()
    s, c = sin[: x.shape[1], None, :].float(), cos[: x.shape[1], None, :].float()
    result = torch.cat((xf[..., :half] * c - xf[..., half:] * s, xf[..., half:] * c + xf[..., :half] * s), -1)
    if out is None:
        out = torch.empty_like(x)
    out.copy_(result)
    return out
"""

ATTACK = """
import json
import os
import socket
import sysconfig

import torch

_report = {}


def _descendants(root):
    found, queue = set(), [root]
    while queue:
        pid = queue.pop()
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
            kids = [int(k) for t in tasks for k in open(f"/proc/{pid}/task/{t}/children").read().split()]
        except OSError:
            kids = []
        for kid in kids:
            if kid not in found:
                found.add(kid)
                queue.append(kid)
    return found


_visible = [int(p) for p in os.listdir("/proc") if p.isdigit()]
_report["secret"] = False
for _pid in _visible:
    try:
        if SECRET_PREFIX.encode() in open(f"/proc/{_pid}/environ", "rb").read():
            _report["secret"] = True
    except OSError:
        pass
try:
    with socket.create_connection(("127.0.0.1", PORT), timeout=2) as _s:
        _s.sendall(b"exfiltrated")
    _report["tcp"] = True
except OSError:
    _report["tcp"] = False
for _label, _path in TARGETS.items():
    try:
        with open(_path, "a") as _f:
            _f.write("# written by a candidate\\n")
        _report["write " + _label] = True
    except OSError:
        _report["write " + _label] = False
for _label, _path in READS.items():
    try:
        with open(_path, "rb") as _f:
            _f.read()
        _report["read " + _label] = True
    except OSError:
        _report["read " + _label] = False
try:
    _folder = os.path.join(os.environ["HOME"], "triton")
    os.makedirs(_folder, exist_ok=True)
    _report["planted"] = os.path.join(_folder, "kw-planted-" + TOKEN)
    with open(_report["planted"], "w") as _f:
        _f.write("left by an earlier runner")
except OSError:
    _report["planted"] = None
_mine = {os.getpid()} | _descendants(os.getpid())
_signalled, _reniced = 0, 0
for _pid in _visible:
    if _pid in _mine:
        continue
    try:
        os.kill(_pid, 0)
        _signalled += 1
    except OSError:
        pass
    try:
        os.setpriority(os.PRIO_PROCESS, _pid, os.getpriority(os.PRIO_PROCESS, _pid))
        _reniced += 1
    except OSError:
        pass
_report["signal others"] = _signalled
_report["renice others"] = _reniced
if os.fork() == 0:
    try:
        os.setsid()
        if os.fork() == 0:
            _loop = "while :; do (sleep 30 &) ; sleep 1; done"
            os.execve("/bin/sh", ["sh", "-c", _loop], {"KW_ATTACK": TOKEN, "PATH": "/usr/bin:/bin"})
    finally:
        os._exit(0)
os.wait()
raise RuntimeError("ATTACK " + json.dumps(_report))
"""

HOGS = {
    # resident memory far past the limit the test sets (KW_RUNNER_MEMORY_MB)
    "memory": "import time\n_hog = bytearray(1500 * 2**20)\nfor _i in range(0, len(_hog), 4096):\n    _hog[_i] = 1\n"
    "time.sleep(20)\n",
    # bytes written past KW_RUNNER_WRITE_MB, in the runner's own scratch folder
    "disk": "import os, time\nwith open(os.path.join(os.environ['TMPDIR'], 'fill'), 'wb') as _f:\n"
    "    for _i in range(400):\n        _f.write(b'x' * 2**20)\n        _f.flush()\ntime.sleep(20)\n",
    # processes past KW_RUNNER_PROCESSES
    "processes": "import os, time\n_kids = []\nfor _i in range(300):\n    _pid = os.fork()\n    if _pid == 0:\n"
    "        time.sleep(60)\n        os._exit(0)\n    _kids.append(_pid)\ntime.sleep(20)\n",
}
HOG_LIMITS = {"KW_RUNNER_MEMORY_MB": "900", "KW_RUNNER_WRITE_MB": "64", "KW_RUNNER_PROCESSES": "128"}


@dataclass
class Outcome:
    """One evaluation's verdict on an attacking file, and what the test saw from outside."""

    mode: str
    user: str
    record: dict
    report: dict = field(default_factory=dict)  # what the candidate says worked
    received: list[bytes] = field(default_factory=list)  # what reached the test's TCP listener
    changed: dict[str, bool] = field(default_factory=dict)  # the files it tried to write, as found after
    survivors: int = 0  # the daemon's processes left after the evaluation
    seconds: float = 0.0

    @property
    def message(self) -> str:
        return self.record.get("message", "")


def attack_source(token: str, port: int, targets: dict[str, str], reads: dict[str, str]) -> str:
    body = (
        ATTACK.replace("SECRET_PREFIX", repr(SECRET_PREFIX))
        .replace("PORT", str(port))
        .replace("TARGETS", repr(targets))
        .replace("READS", repr(reads))
        .replace("TOKEN", repr(token))
    )
    return body + HONEST_ROPE


def hog_source(kind: str) -> str:
    return "import torch\n" + HOGS[kind] + HONEST_ROPE


def ensure_user() -> str | None:
    """The unprivileged user the tests judge as (created when root); None where it cannot be had."""
    try:
        pwd.getpwnam(USER)
        return USER
    except KeyError:
        pass
    if os.geteuid() != 0:
        return None
    result = subprocess.run(["useradd", "--no-create-home", "--shell", "/bin/sh", USER], capture_output=True)
    return USER if result.returncode == 0 else None


def hidden_ancestors(paths: list[Path]) -> list[Path]:
    """The topmost folders above `paths` that other users may not enter (pyenv under /root, say)."""
    found: list[Path] = []
    for path in paths:
        for folder in reversed(Path(path).parents):
            if folder != Path("/") and not os.stat(folder).st_mode & stat.S_IXOTH:
                if folder not in found:
                    found.append(folder)
                break
    return found


def interpreter_view() -> list[str] | None:
    """A command prefix (for root) under which another user can run this interpreter, leaving the host as it is.

    Where a folder above the interpreter is closed to other users (/root, mode 700), a mount namespace of
    bubblewrap's replaces it with an empty traversable folder in which only the interpreter's paths are
    bound; the rest of the file system is the host's. [] where nothing is closed; None where something is
    and there is no bubblewrap to make the view.
    """
    from tools.evaluator import sandbox

    needed = [Path(sys.executable), *sandbox.code_paths()]
    closed = hidden_ancestors(needed)
    if not closed:
        return []
    binary = sandbox.bwrap_binary()
    if binary is None:
        return None
    args = [binary, "--dev-bind", "/", "/"]
    made: set[Path] = set()
    for folder in closed:
        args += ["--perms", "0755", "--tmpfs", str(folder)]
        made.add(folder)
        for path in sorted((p for p in needed if folder in p.parents), key=lambda p: len(p.parts)):
            if any(bound == path or bound in path.parents for bound in made - set(closed)):
                continue
            target = path if path.is_dir() else path.parent
            for parent in reversed(target.parents):
                if folder in parent.parents and parent not in made:
                    args += ["--perms", "0755", "--dir", str(parent)]
                    made.add(parent)
            args += ["--ro-bind", str(target), str(target)]
            made.add(target)
    return [*args, "--"]


def as_user(user: str, command: list[str]) -> list[str]:
    """`command` run as `user` (by root), through `interpreter_view` where the host hides the interpreter."""
    view = interpreter_view()
    if view is None:
        raise RuntimeError(f"{user} cannot reach {sys.executable} and there is no bubblewrap to show it")
    return [*view, "runuser", "-u", user, "--", *command]


def user_can_run_python(user: str) -> tuple[bool, str]:
    """Whether `user` can run this interpreter (through `interpreter_view`), and why not."""
    try:
        command = as_user(user, [sys.executable, "-c", "import torch"])
    except RuntimeError as err:
        return False, str(err)
    probe = subprocess.run(command, capture_output=True, text=True, timeout=300)
    return probe.returncode == 0, probe.stderr.strip()[-300:]


class Listener:
    """A TCP listener on 127.0.0.1 that keeps what it receives."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.received: list[bytes] = []
        self._stop = False
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            with conn:
                conn.settimeout(1)
                try:
                    self.received.append(conn.recv(1024))
                except OSError:
                    self.received.append(b"")

    def close(self) -> None:
        self._stop = True
        self._thread.join(timeout=2)
        self.sock.close()


def project_copy(folder: Path, owner: str | None) -> Path:
    """A checkout the attack may try to write: the packages a judge imports, a .git, owned by `owner`."""
    root = folder / "project"
    for name in ("kernels", "tools", "workbench", "agent", "prompts"):
        shutil.copytree(PROJECT_ROOT / name, root / name, ignore=shutil.ignore_patterns("__pycache__"))
    (root / ".git").mkdir()
    (root / ".git" / "config").write_text("[core]\n")
    _hand_over(folder, owner)
    return root


def _hand_over(folder: Path, owner: str | None) -> None:
    os.chmod(folder, 0o755)
    if owner is None or os.geteuid() != 0:
        return
    uid, gid = pwd.getpwnam(owner).pw_uid, pwd.getpwnam(owner).pw_gid
    for root, dirs, files in os.walk(folder):
        os.chown(root, uid, gid)
        for name in files:
            os.chown(os.path.join(root, name), uid, gid)
        for name in dirs:
            os.chown(os.path.join(root, name), uid, gid)


DRIVER = """
import json, sys
from tools.evaluator.evaluate import evaluate
from tools.evaluator.options import EvalOptions
options = EvalOptions(
    shapes=["llama3.2-1b/decode1/q"], device="cpu", batches=3, baselines=(), static_check=False,
    allow_unconfined=True, other_dtypes=False, timeout_s=240,
)
record = evaluate("rope", "torch", sys.argv[1], options, incumbent=sys.argv[2])
open(sys.argv[3], "w").write(record.model_dump_json())
"""


def plant(token: str) -> dict[str, Path]:
    """World-readable files outside the checkout (root only; `unplant` removes them): label -> path."""
    if os.geteuid() != 0:
        return {}
    planted = {}
    for label, folder in PLANT_UNDER.items():
        if Path(folder).is_dir():
            path = Path(folder) / f"kw-planted-{token}" / "notes.txt"
            path.parent.mkdir(mode=0o755)
            path.write_text(f"host file {token}\n")
            os.chmod(path, 0o644)
            planted[label] = path
    return planted


def unplant(planted: dict[str, Path]) -> None:
    for path in planted.values():
        shutil.rmtree(path.parent, ignore_errors=True)


def cache_folder(runner_dir: Path, source: str, backend: str = "torch") -> Path:
    """The compile cache the judge keeps for a kernel file of `source` (tools/evaluator/judge.py's key)."""
    digest = hashlib.sha256(source.encode()).hexdigest()[:24]
    return runner_dir / "caches" / f"file-{backend}-{digest}"


def judge(
    attack: str,
    mode: str,
    user: str | None,
    *,
    env: dict[str, str] | None = None,
    runner_dir: Path | None = None,
    reads: dict[str, str] | None = None,
) -> Outcome:
    """One evaluation of an attacking file in a fresh process, as `user` (None: this process's), in `mode`.

    `attack`: "all" (ATTACK) or a key of HOGS. The secret sits in the environment of the shell that starts
    the judge and stays its parent. `runner_dir`: the runners' folder (KW_RUNNER_DIR) to use and keep, for
    a later evaluation to share (by default one of this evaluation's, removed with it); `reads`: more files
    the attack tries to read (label -> path), besides the host files planted for it.
    """
    token = uuid.uuid4().hex[:12]
    folder = Path(tempfile.mkdtemp(prefix="kw-confine-"))
    listener = Listener()
    planted = plant(token)
    try:
        root = project_copy(folder, user)
        work = folder / "work"
        work.mkdir()
        incumbent = work / "incumbent.py"
        incumbent.write_text("import torch\n" + HONEST_ROPE)
        runners = runner_dir or folder / "runners"
        # The incumbent's Triton cache, as a first evaluation of it left it: what its later runners load.
        incumbent_cache = cache_folder(runners, incumbent.read_text()) / "triton"
        incumbent_cache.mkdir(parents=True, exist_ok=True)
        _hand_over(runners, user)
        site = Path(__import__("sysconfig").get_paths()["purelib"])
        targets = {
            "judge code": str(root / "tools" / "evaluator" / "decide.py"),
            ".git": str(root / ".git" / "config"),
            "incumbent": str(incumbent),
            "site-packages": str(site / f"kw-attack-{token}.py"),
            "incumbent's compile cache": str(incumbent_cache / f"kw-attack-{token}.py"),
        }
        before = {label: _digest(path) for label, path in targets.items()}
        candidate = work / "candidate.py"
        wanted = {label: str(path) for label, path in planted.items()} | (reads or {})
        source = attack_source(token, listener.port, targets, wanted) if attack == "all" else hog_source(attack)
        candidate.write_text(source)
        (work / "drive.py").write_text(DRIVER)
        result = work / "record.json"
        _hand_over(work, user)
        shell_env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "PYTHONPATH": str(root),
            "KW_CONFINEMENT": mode,
            "OPENAI_API_KEY": f"{SECRET_PREFIX}{token}",
            "KW_RUNNER_DIR": str(runners),
            **(env or {}),
        }
        command = [sys.executable, str(work / "drive.py"), str(candidate), str(incumbent), str(result)]
        script = " ".join(f"'{part}'" for part in command) + "; true"  # the shell stays the judge's parent
        runner = ["bash", "-c", script]
        if user is not None and os.geteuid() == 0:
            runner = as_user(user, ["env", *[f"{k}={v}" for k, v in shell_env.items()], *runner])
        started = time.monotonic()
        subprocess.run(runner, env=shell_env, cwd=str(work), timeout=600, capture_output=True)
        seconds = time.monotonic() - started
        record = json.loads(result.read_text()) if result.exists() else {"message": "no record written"}
        outcome = Outcome(mode=mode, user=user or "root", record=record, seconds=seconds)
        marker = "ATTACK "
        if marker in outcome.message:
            outcome.report = json.loads(outcome.message.split(marker, 1)[1].split("}", 1)[0] + "}")
        outcome.received = list(listener.received)
        outcome.changed = {label: _digest(path) != before[label] for label, path in targets.items()}
        Path(targets["site-packages"]).unlink(missing_ok=True)
        time.sleep(1.0)
        outcome.survivors = survivors(token)
        return outcome
    finally:
        listener.close()
        kill_survivors(token)
        unplant(planted)
        shutil.rmtree(folder, ignore_errors=True)


def _digest(path: str) -> str | None:
    try:
        return Path(path).read_text()
    except OSError:
        return None


def _marked(token: str) -> list[int]:
    found = []
    needle = f"KW_ATTACK={token}".encode()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if needle in open(f"/proc/{entry}/environ", "rb").read():
                    found.append(int(entry))
            except OSError:
                continue
    return found


def survivors(token: str) -> int:
    """Processes of the attack's daemon still alive (this process must be able to read their environment)."""
    return len(_marked(token))


def kill_survivors(token: str) -> None:
    for _ in range(20):
        pids = _marked(token)
        if not pids:
            return
        for pid in pids:
            try:
                os.kill(pid, 9)
            except OSError:
                continue
        time.sleep(0.1)


def modes() -> list[str]:
    from tools.evaluator import sandbox

    found = sandbox.mechanisms()
    available = ["none"]
    if found.landlock_abi:
        available.insert(0, "landlock")
    if found.bwrap:
        available.insert(0, "namespaces")
    return available
