"""Confining the processes that import candidate code: who they run as, what they see, what they keep.

The judge's side prepares a runner's identity (`prepare`): a scratch folder for its HOME's
temporary files, a compile cache of its own (per candidate, by content hash, so a candidate cannot
poison the cache another candidate loads), and an environment built from an allow-list (no API
keys, no evaluation markers). `enter` is the runner's first act, before it imports anything that
is not the standard library:

- as root, it leaves the network (a network namespace of its own: no interface but a down
  loopback) and, where the interpreter and the project are readable by other users, becomes an
  unprivileged uid of its own (`uid_separation`): then it cannot write the checkout, the run folder
  or another runner's files, and cannot read the judge's memory or environment;
- as any user, it forbids itself new privileges (no setuid binaries), core dumps and group access.

The judge makes itself non-dumpable (`make_non_dumpable`), so a runner of the same uid cannot read
its memory or its environment through /proc either.

What this does NOT protect against, stated in README.md: a runner of the same uid (a non-root
judge, or root without uid separation) can write whatever that user can write and read other
processes of that user; a runner can fork a process that outlives its stop signal and burns CPU
while other contestants are timed (GPU work left running is caught by the judge's quiet check);
a kernel can read any GPU memory its own mappings reach.
"""

from __future__ import annotations

import ctypes
import fcntl
import os
import re
import resource
import shutil
import signal
import stat
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

CLONE_NEWNET = 0x40000000
PR_SET_DUMPABLE = 4
PR_SET_NO_NEW_PRIVS = 38
PR_SET_PDEATHSIG = 1
# Runner uids: far above any human or system account, unique per (judge pid, runner).
UID_BASE = 300_000
UIDS_PER_JUDGE = 64

# Variables a runner inherits as they are. Everything else is dropped (API keys, tokens, the
# project's own KW_* settings); a name that looks like a secret is dropped even when listed.
ALLOWED = frozenset(
    {
        "PATH",
        "LANG",
        "LC_ALL",
        "LC_CTYPE",
        "TZ",
        "TERM",
        "PYTHONPATH",
        "LD_LIBRARY_PATH",
        "OMP_NUM_THREADS",
        "MKL_NUM_THREADS",
        "CUDA_VISIBLE_DEVICES",
        "CUDA_HOME",
        "CUDA_PATH",
        "TRITON_INTERPRET",  # NineToothed kernels under Triton's interpreter (CPU tests)
        "KW_TILELANG_TARGET",  # TileLang's C target (CPU tests): a setting of the kernel files, not of the judge
    }
)
ALLOWED_PREFIXES = ("NCCL_", "NVIDIA_", "TORCH_SYMM_MEM_", "NVSHMEM_", "TILELANG_", "TVM_", "MACA_", "MX")
SECRET = re.compile(r"KEY|TOKEN|SECRET|PASSW|CREDENTIAL|AUTH", re.IGNORECASE)
# Cache locations the kernel libraries read: all inside the runner's own cache folder.
CACHE_VARIABLES = {
    "TRITON_CACHE_DIR": "triton",
    "TILELANG_CACHE_DIR": "tilelang",
    "TORCHINDUCTOR_CACHE_DIR": "inductor",
    "CUDA_CACHE_PATH": "nv",
    "TORCH_EXTENSIONS_DIR": "torch_extensions",  # maca_cpp builds (kernels/cpp_support.py)
    "XDG_CACHE_HOME": "xdg",
}


def is_root() -> bool:
    return os.geteuid() == 0


def runner_root() -> Path:
    """Where runners' caches and scratch folders live: traversable by runner uids, writable by the judge only."""
    base = Path(os.environ.get("KW_RUNNER_DIR") or Path(tempfile.gettempdir()) / f"kernel-workbench-{os.geteuid()}")
    base.mkdir(parents=True, exist_ok=True)
    os.chmod(base, 0o711)
    return base


def readable_by_others(path: Path) -> bool:
    """Whether a user other than the owner (and not root) can reach and read `path`."""
    path = Path(path).resolve()
    try:
        for parent in reversed(path.parents):
            if not os.stat(parent).st_mode & stat.S_IXOTH:
                return False
        mode = os.stat(path).st_mode
    except OSError:
        return False
    need = stat.S_IROTH | (stat.S_IXOTH if stat.S_ISDIR(mode) else 0)
    return mode & need == need


def separation_blockers(paths: list[Path]) -> list[str]:
    """The paths a runner of another uid could not read (why uid separation is off), empty when none."""
    return [str(p) for p in paths if p and not readable_by_others(p)]


def interpreter_paths() -> list[Path]:
    """What every confined process must read: the interpreter, its standard library, torch, this project."""
    import importlib.util

    torch_spec = importlib.util.find_spec("torch")
    paths = [Path(sys.executable), Path(os.__file__), Path(__file__).resolve().parents[2] / "tools"]
    if torch_spec and torch_spec.origin:
        paths.append(Path(torch_spec.origin).parent)
    paths += [Path(p) for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return paths


def can_separate(extra: list[Path]) -> tuple[bool, list[str]]:
    """(uid separation possible, the paths that prevent it): root, and everything readable by other users."""
    if not is_root():
        return False, []
    blockers = separation_blockers([*interpreter_paths(), *extra])
    return not blockers, blockers


@dataclass
class Identity:
    """Who a runner is and where it may write. `uid` None: it keeps the judge's uid."""

    key: str
    home: Path
    scratch: Path
    uid: int | None = None
    isolate_network: bool = False
    cpus: tuple[int, ...] = ()  # the cores the runner starts on (GPU hosts: all but the judge's); () any
    notes: list[str] = field(default_factory=list)
    _lock: int | None = None

    def args(self, direct_child: bool = True) -> list[str]:
        """The runner's command-line options that `enter` reads (`direct_child`: no profiler in between)."""
        args = ["--home", str(self.home), "--scratch", str(self.scratch)]
        if self.uid is not None:
            args += ["--uid", str(self.uid)]
        if self.isolate_network:
            args.append("--isolate-network")
        if self.cpus:
            args += ["--cpus", ",".join(map(str, self.cpus))]
        return [*args, "--parent", str(os.getpid())] if direct_child else args


_counter = 0


def _next_uid() -> int:
    global _counter
    _counter += 1
    return UID_BASE + (os.getpid() % 1_000_000) * UIDS_PER_JUDGE + _counter % UIDS_PER_JUDGE


def _chown_tree(path: Path, uid: int) -> None:
    os.chown(path, uid, uid)
    for root, dirs, files in os.walk(path):
        for name in dirs + files:
            try:
                os.chown(os.path.join(root, name), uid, uid, follow_symlinks=False)
            except FileNotFoundError:
                continue


def _caches() -> Path:
    caches = runner_root() / "caches"
    caches.mkdir(exist_ok=True)
    os.chmod(caches, 0o711)
    return caches


def prepare(cache_key: str, *, separate_uid: bool) -> Identity:
    """A runner's identity: a fresh scratch folder and the compile cache of `cache_key` (locked for it)."""
    base = runner_root()
    caches = _caches()
    _sweep(base)
    scratch = Path(tempfile.mkdtemp(prefix=f"scratch-{os.getpid()}-", dir=base))
    identity = Identity(key=cache_key, home=caches / cache_key, scratch=scratch, isolate_network=is_root())
    identity.home.mkdir(exist_ok=True)
    lock = os.open(caches / f"{cache_key}.lock", os.O_CREAT | os.O_RDWR, 0o600)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        identity._lock = lock
    except BlockingIOError:  # another runner of the same file holds its cache: start cold instead of waiting
        os.close(lock)
        identity.home = Path(tempfile.mkdtemp(prefix="cold-cache-", dir=scratch))
        identity.notes.append(f"cache of {cache_key} in use by another runner; this one started with an empty cache")
    if separate_uid and is_root():
        identity.uid = _next_uid()
        _chown_tree(identity.home, identity.uid)
        os.chown(scratch, identity.uid, identity.uid)
    os.chmod(identity.home, 0o700)
    os.chmod(scratch, 0o700)
    return identity


COPY_MARK = "-copy-"


def copy_cache(cache_key: str) -> str:
    """The key of a private copy of `cache_key`'s cache, taken while no runner holds it.

    For a second runner of the same file in one evaluation (an A/A check): it starts warm instead of
    cold, and what either runner writes stays its own. The copy goes when its runner is released.
    """
    caches = _caches()
    source = caches / cache_key
    lock = os.open(caches / f"{cache_key}.lock", os.O_CREAT | os.O_RDWR, 0o600)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(lock)
        return cache_key  # in use: prepare() starts this runner cold, as before
    try:
        copy = Path(tempfile.mkdtemp(prefix=f"{cache_key}{COPY_MARK}{os.getpid()}-", dir=caches))
        if source.is_dir():
            shutil.copytree(source, copy, symlinks=True, dirs_exist_ok=True)
    finally:
        os.close(lock)
    return copy.name


def _sweep(base: Path) -> None:
    """Scratch folders and cache copies of judges that died without cleaning up (a killed `agent optimize`)."""
    for folder in base.glob("scratch-*-*"):
        pid = folder.name.split("-")[1]
        if pid.isdigit() and not Path(f"/proc/{pid}").exists():
            shutil.rmtree(folder, ignore_errors=True)
    for folder in (base / "caches").glob(f"*{COPY_MARK}*"):
        pid = folder.name.split(COPY_MARK)[-1].split("-")[0]
        if folder.is_dir() and pid.isdigit() and not Path(f"/proc/{pid}").exists():
            shutil.rmtree(folder, ignore_errors=True)
            Path(f"{folder}.lock").unlink(missing_ok=True)


def release(identity: Identity) -> None:
    """After the runner ended: its leftovers killed, its cache the judge's again, its scratch gone."""
    if identity.uid is not None:
        kill_uid(identity.uid)
        if identity.home.exists():
            _chown_tree(identity.home, os.geteuid())
    shutil.rmtree(identity.scratch, ignore_errors=True)
    if COPY_MARK in identity.key:
        shutil.rmtree(identity.home, ignore_errors=True)
        Path(f"{identity.home}.lock").unlink(missing_ok=True)
    if identity._lock is not None:
        os.close(identity._lock)
        identity._lock = None


def kill_uid(uid: int) -> int:
    """SIGKILL every process of `uid` (a runner's forked leftovers); how many there were."""
    killed = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if os.stat(f"/proc/{entry}").st_uid == uid:
                os.kill(int(entry), signal.SIGKILL)
                killed += 1
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            continue
    return killed


def escaped(uid: int, pgid: int) -> list[int]:
    """Processes of a runner's uid outside its process group: a fork that got away from its stop signal."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if os.stat(f"/proc/{entry}").st_uid == uid and os.getpgid(int(entry)) != pgid:
                found.append(int(entry))
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            continue
    return found


@dataclass(frozen=True)
class CpuUse:
    """A process's CPU time so far (ns, from the scheduler's own counters in /proc/PID/task/*/schedstat)."""

    main_ns: int = 0  # on a CPU: the main thread, which makes the calls
    others_ns: int = 0  # on a CPU: every other thread (driver, compiler, library threads)
    waited_ns: int = 0  # runnable but waiting for a CPU, all threads

    def since(self, earlier: CpuUse) -> CpuUse:
        return CpuUse(
            self.main_ns - earlier.main_ns, self.others_ns - earlier.others_ns, self.waited_ns - earlier.waited_ns
        )


def pin(pid: int, cpu: int | tuple[int, ...]) -> None:
    """Every thread of `pid` onto one core, or a set of them (threads it starts later inherit their creator's)."""
    cpus = {cpu} if isinstance(cpu, int) else set(cpu)
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return
    for tid in tasks:
        try:
            os.sched_setaffinity(int(tid), cpus)
        except OSError:
            continue


def cpu_use(pid: int) -> CpuUse:
    main = others = waited = 0
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return CpuUse()
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                run, wait, _ = (int(v) for v in f.read().split())
        except (OSError, ValueError):
            continue
        if int(tid) == pid:
            main += run
        else:
            others += run
        waited += wait
    return CpuUse(main, others, waited)


def steal_ns(cpu: int) -> int | None:
    """Time the hypervisor ran something else on `cpu` (/proc/stat's steal, in 10 ms ticks), or None."""
    try:
        with open("/proc/stat") as f:
            for line in f:
                if line.startswith(f"cpu{cpu} "):
                    return int(line.split()[8]) * 1_000_000_000 // os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None
    return None


def runner_env(identity: Identity, base: dict[str, str] | None = None) -> dict[str, str]:
    """The runner's whole environment: the allow-list of `base`, and its own HOME, TMPDIR and caches."""
    base = dict(os.environ if base is None else base)
    env = {
        name: value
        for name, value in base.items()
        if (name in ALLOWED or name.startswith(ALLOWED_PREFIXES)) and not SECRET.search(name)
    }
    env.update(
        HOME=str(identity.home),
        TMPDIR=str(identity.scratch),
        USER="kw-runner",
        LOGNAME="kw-runner",
        PYTHONUNBUFFERED="1",
        PYTHONDONTWRITEBYTECODE="1",
    )
    env.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
    for name, sub in CACHE_VARIABLES.items():
        env[name] = str(identity.home / sub)
    return env


def make_non_dumpable() -> bool:
    """The judge's memory and environment become unreadable to processes of its uid (ptrace, /proc)."""
    return set_dumpable(False)


def set_dumpable(dumpable: bool) -> bool:
    """Whether it worked. Non-dumpable: closed to its uid (ptrace, /proc); a runner forked from the zygote reopens."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_DUMPABLE, int(dumpable), 0, 0, 0) == 0
    except OSError:
        return False


def is_dumpable() -> bool:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(3, 0, 0, 0, 0) == 1  # PR_GET_DUMPABLE
    except OSError:
        return True


# ---------------------------------------------------------------------------------------------- runner side


def add_arguments(parser) -> None:
    """The command-line options `Identity.args` writes, for a confined process's parser."""
    parser.add_argument("--home", required=True)
    parser.add_argument("--scratch", required=True)
    parser.add_argument("--uid", type=int)
    parser.add_argument("--isolate-network", action="store_true")
    parser.add_argument("--cpus", default="")
    parser.add_argument("--parent", type=int)


def enter_from(args) -> dict:
    """`enter` with the options `add_arguments` parsed."""
    return enter(
        uid=args.uid,
        isolate_network=args.isolate_network,
        scratch=args.scratch,
        cpus=tuple(int(c) for c in args.cpus.split(",") if c),
        parent=args.parent,
    )


def enter(
    *, uid: int | None, isolate_network: bool, scratch: str, cpus: tuple[int, ...] = (), parent: int | None = None
) -> dict:
    """The runner confines itself (standard library only: nothing it imported can interfere). Facts it reached."""
    facts: dict = {"uid": os.getuid(), "network": "open"}
    if cpus:
        os.sched_setaffinity(0, set(cpus))  # off the judge's core; the benchmark moves it to the timing core
        facts["cpus"] = list(cpus)
    libc = ctypes.CDLL(None, use_errno=True)
    if isolate_network:
        if libc.unshare(CLONE_NEWNET) == 0:
            facts["network"] = "isolated"
        else:
            facts["network_error"] = os.strerror(ctypes.get_errno())
    if uid is not None:
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
        facts["uid"] = os.getuid()
    libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    # Dies with the judge (set after the uid change, which clears it): a runner stopped between turns
    # would otherwise wait forever for a judge that was killed.
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if parent is not None and os.getppid() != parent:
        os._exit(1)  # the judge died before this line: nobody will ask anything
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    os.umask(0o077)
    os.chdir(scratch)
    facts["no_new_privs"] = True
    facts["python"] = sys.version.split()[0]
    return facts
