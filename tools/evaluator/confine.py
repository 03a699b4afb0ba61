"""Confining the processes that import candidate code: who they run as, what they see, what they keep.

The judge's side prepares a runner's identity (`prepare`): a scratch folder for its HOME's
temporary files, a compile cache of its own (per candidate, by content hash, so a candidate cannot
poison the cache another candidate loads), and an environment built from an allow-list (no API
keys, no evaluation markers). Where the runner runs (a bubblewrap sandbox, or Landlock alone) is
tools/evaluator/sandbox.py's. `enter` is the runner's first act, before it imports anything that is
not the standard library (or the two small bindings below):

- it splits off a keeper: the process the judge started becomes a child subreaper that waits for
  the runner and then kills every process the runner left (orphans are re-parented to the keeper, so
  none gets away, double forks and new sessions included);
- in a root judge's sandbox it becomes an unprivileged uid of its own; without a sandbox, as root, a
  network namespace of its own;
- it forbids itself new privileges, core dumps and group access, and takes resource limits (core
  files, file size, processes);
- Landlock (py-landlock, as far as the kernel's ABI goes): reads only where the policy says, writes
  only its own folders and the GPU's device nodes, no TCP, signals and abstract UNIX sockets only
  within its own domain (not its siblings, its keeper, the zygote or the judge), ptrace and
  /proc/PID/mem or environ of no process outside it;
- seccomp (pyseccomp over libseccomp): no ptrace, process_vm_*, mounts, new namespaces, bpf, perf,
  kernel keyrings, io_uring or sockets other than UNIX ones; priorities, affinities and limits of
  itself only; no kill(-1).

The judge makes itself non-dumpable (`make_non_dumpable`), and watches each runner's memory,
processes and bytes written (tools/evaluator/process.py), killing one over its limits.

What this does NOT protect against, stated in docs/judge.md: a kernel can read any GPU memory its
own mappings reach; without Landlock's ABI 6 (Linux 6.12) a runner of the judge's uid may signal its
sibling runners; without a sandbox, /proc shows other processes' command lines.
"""

from __future__ import annotations

import ctypes
import fcntl
import json
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

from tools.evaluator.host_paths import readable_by_others, runner_root, separation_blockers  # noqa: F401

CLONE_NEWNET = 0x40000000
CLONE_NEW_FLAGS = (0x00020000, 0x02000000, 0x04000000, 0x08000000, 0x10000000, 0x20000000, 0x40000000, 0x00000080)
PR_SET_CHILD_SUBREAPER = 36
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
# What stays of a runner's HOME after it ended: the compile caches (NineToothed keeps its generated code in
# ~/.ninetoothed, whatever the variables say). Anything else it wrote there goes with it.
CACHE_FOLDERS = frozenset({*CACHE_VARIABLES.values(), ".ninetoothed"})


def is_root() -> bool:
    return os.geteuid() == 0


def interpreter_paths() -> list[Path]:
    """What every confined process must read: the interpreter, its standard library, torch, this project."""
    import importlib.util

    torch_spec = importlib.util.find_spec("torch")
    root = Path(__file__).resolve().parents[2]
    paths = [Path(sys.executable), Path(os.__file__), root / "tools", root / "workbench"]
    if torch_spec and torch_spec.origin:
        paths.append(Path(torch_spec.origin).parent)
    paths += [Path(p) for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return paths


def can_separate(extra: list[Path]) -> tuple[bool, list[str]]:
    """(uid separation possible, the paths that prevent it): root, and a sandbox that binds what runners read
    (tools/evaluator/sandbox.py), or without one everything readable by other users."""
    if not is_root():
        return False, []
    from tools.evaluator import sandbox

    if sandbox.setup().mode == "namespaces":
        return True, []
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
    policy: dict = field(default_factory=dict)  # what `enter` applies (sandbox.runner_policy)
    _lock: int | None = None

    def args(self, direct_child: bool = True) -> list[str]:
        """The runner's command-line options that `enter` reads (`direct_child`: no profiler or sandbox between)."""
        args = ["--home", str(self.home), "--scratch", str(self.scratch), "--policy", json.dumps(self.policy)]
        if self.uid is not None:
            args += ["--uid", str(self.uid)]
        if self.isolate_network:
            args.append("--isolate-network")
        if self.cpus:
            args += ["--cpus", ",".join(map(str, self.cpus))]
        return [*args, "--parent", str(os.getpid())] if direct_child else args


class UidPool:
    """The uids a judge gives its runners, one each in turn: UIDS_PER_JUDGE of its own, by its process id.

    Owned by whoever starts runners (a judge's lineup for its evaluation): two runners alive at once must
    draw from one pool. A runner's uid dies with it (`release` kills whatever still runs as it).
    """

    def __init__(self) -> None:
        self._given = 0

    def next(self) -> int:
        self._given += 1
        return UID_BASE + (os.getpid() % 1_000_000) * UIDS_PER_JUDGE + self._given % UIDS_PER_JUDGE


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


def prepare(cache_key: str, *, uids: UidPool | None) -> Identity:
    """A runner's identity: a fresh scratch folder and the compile cache of `cache_key` (locked for it).

    `uids`: a uid of its own from that pool, where this process may give one (root); None: the judge's uid.
    """
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
    if uids is not None and is_root():
        identity.uid = uids.next()
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
        if source.is_dir():  # regular files, folders and links only: a FIFO a runner left would block the copy
            shutil.copytree(source, copy, symlinks=True, dirs_exist_ok=True, ignore=_special_files)
    finally:
        os.close(lock)
    return copy.name


def _special_files(folder: str, names: list[str]) -> set[str]:
    special = set()
    for name in names:
        mode = os.lstat(os.path.join(folder, name)).st_mode
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISLNK(mode)):
            special.add(name)
    return special


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
    _keep_caches_only(identity.home)
    shutil.rmtree(identity.scratch, ignore_errors=True)
    if COPY_MARK in identity.key:
        shutil.rmtree(identity.home, ignore_errors=True)
        Path(f"{identity.home}.lock").unlink(missing_ok=True)
    if identity._lock is not None:
        os.close(identity._lock)
        identity._lock = None


def _keep_caches_only(home: Path) -> None:
    """Everything in a runner's HOME but its compile caches (CACHE_FOLDERS) goes: a later runner of the same
    file reads its compile cache, and nothing else a runner left."""
    try:
        entries = list(os.scandir(home))
    except OSError:
        return
    for entry in entries:
        if entry.name in CACHE_FOLDERS and entry.is_dir(follow_symlinks=False):
            continue
        if entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path, ignore_errors=True)
        else:
            Path(entry.path).unlink(missing_ok=True)


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
    parser.add_argument("--policy", default="{}")


def enter_from(args) -> dict:
    """`enter` with the options `add_arguments` parsed."""
    return enter(
        uid=args.uid,
        isolate_network=args.isolate_network,
        scratch=args.scratch,
        home=args.home,
        cpus=tuple(int(c) for c in args.cpus.split(",") if c),
        parent=args.parent,
        policy=json.loads(args.policy),
    )


def enter(
    *,
    uid: int | None,
    isolate_network: bool,
    scratch: str,
    home: str | None = None,
    cpus: tuple[int, ...] = (),
    parent: int | None = None,
    policy: dict | None = None,
) -> dict:
    """The runner confines itself (see the module docstring). Facts it reached, for the record.

    `policy` (Identity.policy): "landlock" (apply it), "read" (folders it may read, "/" with namespaces),
    "seccomp", "profiled" (under ncu, which talks TCP over loopback), "limits".
    """
    policy = policy or {}
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
    if uid is not None:  # before the keeper splits off: it must be able to kill what the runner starts
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
        facts["uid"] = os.getuid()
    if policy.get("keeper", True):
        _split_keeper(libc)
        facts["keeper"] = True
    libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    # Dies with its keeper (set after the uid change, which clears it): a runner stopped between turns
    # would otherwise wait forever for a judge that was killed.
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    keeper = facts.get("keeper") and _KEEPER_PID
    if (keeper and os.getppid() != keeper) or (not keeper and parent is not None and os.getppid() != parent):
        os._exit(1)  # the judge (or the keeper) died before this line: nobody will ask anything
    _limit(policy.get("limits") or {}, facts)
    os.umask(0o077)
    os.chdir(scratch)
    os.environ.pop("PWD", None)  # a sandbox's start sets it; a forked runner has none
    facts["no_new_privs"] = True
    facts["python"] = sys.version.split()[0]
    if policy.get("capabilities") is False:
        facts["capabilities"] = _drop_capabilities(libc)
    if policy.get("landlock"):
        facts["landlock"] = _landlock(policy, [scratch, *([home] if home else [])])
    if policy.get("seccomp"):
        facts["seccomp"] = _seccomp(allow_inet=bool(policy.get("profiled")))
    return facts


_KEEPER_PID: int | None = None


def _split_keeper(libc) -> None:
    """The process the judge started becomes the keeper (a child subreaper); the runner goes on as its child.

    The keeper closes everything the runner holds (its socket to the judge, so the judge sees the runner
    end), waits for it, then kills every process re-parented to it until none is left, and exits with
    the runner's status. Returns only in the runner.
    """
    global _KEEPER_PID
    libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    parent = os.getppid()
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)  # the keeper dies with the zygote or the judge
    if os.getppid() != parent:
        os._exit(1)
    _KEEPER_PID = os.getpid()
    sys.stdout.flush()
    sys.stderr.flush()
    child = os.fork()
    if child == 0:
        os.setsid()  # the runner's own session and group: the judge stops and resumes that group
        return
    os.closerange(3, os.sysconf("SC_OPEN_MAX"))
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, signal.SIG_IGN)
    code = 1
    while True:
        try:
            pid, status = os.waitpid(-1, 0)
        except ChildProcessError:
            break
        if pid == child:
            code = os.waitstatus_to_exitcode(status)
            break
    sweep_children()
    if code < 0:  # the runner died of a signal: so does its keeper, so the judge reads how it ended
        if -code not in (signal.SIGKILL, signal.SIGSTOP):  # no handler to reset: signal.signal raises EINVAL
            signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    os._exit(code if code >= 0 else 128 - code)


def own_children() -> list[int]:
    pids: list[int] = []
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/children") as f:
                pids += [int(p) for p in f.read().split()]
        except OSError:
            continue
    return pids


def sweep_children() -> int:
    """Kill this process's children (re-parented orphans included) until none is left; how many there were."""
    killed = 0
    while True:
        children = own_children()
        for pid in children:
            try:
                os.kill(pid, signal.SIGKILL)
                killed += 1
            except ProcessLookupError:
                pass
        try:
            while os.waitpid(-1, os.WNOHANG if children else 0)[0]:
                pass
        except ChildProcessError:
            return killed


def _limit(limits: dict, facts: dict) -> None:
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if limits.get("file_bytes"):
        resource.setrlimit(resource.RLIMIT_FSIZE, (limits["file_bytes"], limits["file_bytes"]))
    if limits.get("processes"):
        # Counted per uid (threads too): what this uid runs now, plus the runner's allowance.
        mine = _tasks_of(os.getuid())
        resource.setrlimit(resource.RLIMIT_NPROC, (mine + limits["processes"], mine + limits["processes"]))
    facts["limits"] = dict(limits)


def _tasks_of(uid: int) -> int:
    count = 0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.stat(f"/proc/{entry}").st_uid == uid:
                    count += len(os.listdir(f"/proc/{entry}/task"))
            except OSError:
                continue
    return count


def _landlock(policy: dict, own: list[str]) -> str:
    """Landlock over this process and what it starts; the ABI it had, or why there was none.

    Reads: the policy's list (tools/evaluator/sandbox.py `view`); /proc, to read (CUDA and torch read their
    own entries; another process's environment or memory also takes ptrace rights, which Landlock and the
    dropped capabilities withhold), and this process's own /proc entry to write (cuInit names its threads
    through /proc/<pid>/task/<tid>/comm, opened with O_TRUNC: without it, error 304). Writes: its own
    folders, the device nodes it needs (opened read-write and ioctl'd), /dev/shm for a trusted runner only.
    """
    try:
        from py_landlock import AccessFs, Landlock
    except ImportError as err:
        return f"not applied: {err}"
    ruleset = Landlock(strict=False)
    file_rights = AccessFs.READ_FILE | AccessFs.EXECUTE
    read = [p for p in policy.get("read", ["/"]) if os.path.exists(p)]
    folders = [p for p in read if os.path.isdir(p)]
    if folders:
        ruleset.add_path_rule(*folders, access=file_rights | AccessFs.READ_DIR)
    files = [p for p in read if not os.path.isdir(p)]
    if files:  # a rule on a file may hold file rights only
        ruleset.add_path_rule(*files, access=file_rights)
    everything = AccessFs(0)
    for flag in AccessFs:
        everything |= flag
    writable = [p for p in (*own, *(["/dev/shm"] if policy.get("shared_memory") else [])) if os.path.isdir(p)]
    ruleset.add_path_rule(*writable, access=everything)
    node_rights = AccessFs.READ_FILE | AccessFs.WRITE_FILE | AccessFs.TRUNCATE
    node_rights |= getattr(AccessFs, "IOCTL_DEV", AccessFs(0))
    nodes = [p for p in policy.get("devices", []) if os.path.exists(p)]
    node_files = [p for p in nodes if not os.path.isdir(p)]
    if node_files:
        ruleset.add_path_rule(*node_files, access=node_rights)
    node_folders = [p for p in nodes if os.path.isdir(p)]  # /dev/dri, /dev/nvidia-caps
    if node_folders:
        ruleset.add_path_rule(*node_folders, access=node_rights | AccessFs.READ_DIR)
    ruleset.add_path_rule("/dev", access=AccessFs.READ_DIR)  # names only: which GPU nodes exist
    ruleset.add_path_rule("/proc", access=AccessFs.READ_FILE | AccessFs.READ_DIR)
    ruleset.add_path_rule(
        f"/proc/{os.getpid()}", access=AccessFs.READ_FILE | AccessFs.WRITE_FILE | AccessFs.READ_DIR | AccessFs.TRUNCATE
    )
    if policy.get("profiled"):
        ruleset.allow_all_network()  # ncu and its target talk TCP over loopback (the sandbox has no other)
    ruleset.apply()
    return f"ABI {ruleset.abi_version}"


PR_CAPBSET_DROP = 24
PR_CAP_AMBIENT = 47
PR_CAP_AMBIENT_CLEAR_ALL = 4
CAPABILITY_VERSION_3 = 0x20080522


def _drop_capabilities(libc) -> str:
    """No capability left, now or after an exec: a runner that keeps root's uid is root in name only.

    Without CAP_SYS_PTRACE, another process's environment and memory (/proc/PID/environ, mem) take a
    subset of that process's capabilities, so no process of the judge's (or any process with a
    capability) is readable; without CAP_DAC_OVERRIDE, file modes hold.
    """
    try:
        with open("/proc/sys/kernel/cap_last_cap") as f:
            last = int(f.read())
    except (OSError, ValueError):
        last = 63
    for cap in range(last + 1):
        libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)  # needs CAP_SETPCAP: a process without it has none to drop
    libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    header = (ctypes.c_uint32 * 2)(CAPABILITY_VERSION_3, 0)
    data = (ctypes.c_uint32 * 6)()
    if libc.capset(header, data) != 0:
        return f"not dropped: {os.strerror(ctypes.get_errno())}"
    with open("/proc/self/status") as f:
        left = {k: v.strip() for k, v in (line.split(":", 1) for line in f if line.startswith("Cap"))}
    return "none" if int(left.get("CapEff", "0"), 16) == 0 and int(left.get("CapPrm", "0"), 16) == 0 else str(left)


def _seccomp(allow_inet: bool) -> str:
    """A seccomp filter (default allow) that refuses what a kernel file never needs; what was loaded."""
    try:
        import errno

        import pyseccomp as sc
    except ImportError as err:
        return f"not loaded: {err}"
    refuse = sc.ERRNO(errno.EPERM)
    rules = sc.SyscallFilter(sc.ALLOW)
    for name in (
        "ptrace",
        "process_vm_readv",
        "process_vm_writev",
        "mount",
        "umount2",
        "pivot_root",
        "chroot",
        "unshare",
        "setns",
        "bpf",
        "perf_event_open",
        "kexec_load",
        "kexec_file_load",
        "init_module",
        "finit_module",
        "delete_module",
        "reboot",
        "swapon",
        "swapoff",
        "acct",
        "keyctl",
        "add_key",
        "request_key",
        "io_uring_setup",
        "io_uring_enter",
        "io_uring_register",
        "userfaultfd",
        "open_by_handle_at",
        "name_to_handle_at",
        "tkill",
    ):
        try:
            rules.add_rule(refuse, name)
        except Exception:  # a call this kernel or libseccomp does not know
            continue
    rules.add_rule(sc.ERRNO(errno.ENOSYS), "clone3")  # its flags sit in memory: glibc falls back to clone
    for flag in CLONE_NEW_FLAGS:
        rules.add_rule(refuse, "clone", sc.Arg(0, sc.MASKED_EQ, flag, flag))
    for name, position in (
        ("setpriority", 1),
        ("ioprio_set", 1),
        ("sched_setaffinity", 0),
        ("sched_setscheduler", 0),
        ("sched_setparam", 0),
        ("sched_setattr", 0),
        ("prlimit64", 0),
    ):
        rules.add_rule(refuse, name, sc.Arg(position, sc.NE, 0))  # itself only (0)
    for minus_one in (2**64 - 1, 2**32 - 1):
        rules.add_rule(refuse, "kill", sc.Arg(0, sc.EQ, minus_one))  # every process it may signal
    if not allow_inet:
        rules.add_rule(refuse, "socket", sc.Arg(0, sc.NE, 1))  # AF_UNIX only
    rules.load()
    return "loaded" + ("" if allow_inet else " (UNIX sockets only)")
