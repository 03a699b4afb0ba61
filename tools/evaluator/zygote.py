"""Runners forked from a trusted process that has already imported torch (a "zygote").

A runner started with exec pays for an interpreter and `import torch` (about 2.3 CPU-seconds on a CPU
machine, 5-6 s of an optimize iteration on the H200) before it imports its contestant. The zygote pays
that once per owner of a `Zygotes` (an evaluation, or a loop of them): `python -m tools.evaluator.zygote
--fd N` with the runners' scrubbed environment imports torch and the runner's call loop
(tools/evaluator/runner.py), never a candidate, a baseline or any kernel file, and then only forks. Each
child does what an exec'd runner does from its first line: a session of its own, stdout and stderr to
the judge's log, every other descriptor closed, its own environment (HOME, TMPDIR, compile caches), the
confinement of tools/evaluator/confine.py (uid, network, no new privileges, death signal), and only then
imports the contestant.

What must not cross the fork, and why it does not:
- candidate code: the zygote never imports it; a candidate that changes torch or the runner
  changes its own copy-on-write memory, which dies with it (tests/tools/evaluator/test_zygote.py).
- CUDA: the zygote never initialises it (torch.cuda stays uninitialised; the driver does not
  survive a fork); each child initialises its own, as an exec'd runner does.
- threads: the zygote forks only with one thread. numpy's OpenBLAS pool (started at import unless
  OMP_NUM_THREADS=1) is stopped by OpenBLAS's own fork handler; the zygote checks at start, with one
  throw-away fork, that nothing else is left, and refuses otherwise (the judge then execs runners).
- judge secrets: the zygote is exec'd, not forked from the judge, with the allow-listed environment
  of confine.runner_env; it is non-dumpable, so a runner of the same uid cannot read or write its
  memory (a forked child makes itself dumpable again, as a fresh runner is).
- variables read at import: the zygote has the runners' shared ones (OMP_NUM_THREADS, PYTHONPATH,
  LD_LIBRARY_PATH...: the judge keeps one zygote per distinct set); the per-runner ones (HOME,
  TMPDIR, the cache folders) point at a path that does not exist, so a library that kept one at
  import would fail loudly instead of sharing a folder between runners.

Not the same as exec: every runner of one zygote shares its hash seed (PYTHONHASHSEED) and its
address-space layout; Python's `random` is reseeded in each child. `KW_RUNNER_ZYGOTE=0` turns the
zygote off (runners are exec'd, as before); a runner under a profiler (`prefix`) is always exec'd.
"""

from __future__ import annotations

import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback

from tools.evaluator import confine, sandbox, wire

START_TIMEOUT_S = 300.0
# Per-runner variables: set in each child, never in the zygote (see the module docstring).
PER_RUNNER = frozenset({"HOME", "TMPDIR", *confine.CACHE_VARIABLES})
NOWHERE = "/nonexistent/kw-zygote"
MAX_ZYGOTES = 3  # per Zygotes; a new environment past that closes the oldest zygote


class ZygoteUnavailable(RuntimeError):
    """No zygote for this environment (it failed to start, refused or died): exec the runner instead."""


def _thread_count() -> int:
    return len(os.listdir("/proc/self/task"))


# ------------------------------------------------------------------------------------------ judge side


class ForkedProcess:
    """A runner forked by a zygote, with the parts of `subprocess.Popen` the judge uses.

    `pid` is the process as the judge sees it; `inner` its number in the zygote's sandbox (the same without).
    """

    def __init__(self, zygote: Zygote, inner: int):
        self.zygote = zygote
        self.inner = inner
        self.pid = zygote.host_pid_of(inner)
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = self.zygote.exit_code(self.inner, time.monotonic())
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = time.monotonic() + (timeout if timeout is not None else 10**9)
        if self.returncode is None:
            self.returncode = self.zygote.exit_code(self.inner, deadline)
        if self.returncode is None:
            raise subprocess.TimeoutExpired(f"runner {self.pid}", timeout)
        return self.returncode


class Zygote:
    """The judge's handle on one zygote process: ask it for runners, learn how they ended."""

    def __init__(self, shared_env: dict[str, str], wrap: list[str] | None = None):
        self.sock, theirs = socket.socketpair()
        self.wrap = list(wrap or [])
        self.lock = threading.Lock()
        self.exits: dict[int, int] = {}
        self.children: set[int] = set()  # forked and not yet known to have ended
        self.alive = True
        self._log = tempfile.TemporaryFile()
        env = dict(shared_env, HOME=NOWHERE, TMPDIR=NOWHERE)
        env.update({name: f"{NOWHERE}/{name.lower()}" for name in confine.CACHE_VARIABLES})
        started = time.monotonic()
        self.proc = subprocess.Popen(
            [*self.wrap, sys.executable, "-m", "tools.evaluator.zygote", "--fd", str(theirs.fileno())],
            pass_fds=[theirs.fileno()],
            env=env,
            cwd="/",
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        theirs.close()
        self.pid = self.proc.pid
        try:
            hello, _ = wire.receive(self.sock, deadline=time.monotonic() + START_TIMEOUT_S)
        except (TimeoutError, wire.WireError) as err:
            self.close()
            raise ZygoteUnavailable(f"the zygote did not start: {err}; {self._tail()}") from None
        if not hello.get("ok"):
            self.close()
            raise ZygoteUnavailable(f"the zygote refused to fork: {hello.get('error')}")
        self.start_seconds = time.monotonic() - started
        if self.wrap:  # the zygote is PID 2 of its sandbox, under bubblewrap and bubblewrap's reaper
            self.pid = sandbox.host_pid(self.proc.pid, int(hello.get("pid", 2))) or self.proc.pid
        use = confine.cpu_use(self.pid)
        self.start_cpu_seconds = (use.main_ns + use.others_ns) / 1e9
        self.facts = hello

    def spawn(self, args: list[str], env: dict[str, str], cwd: str, fds: list[int]) -> ForkedProcess:
        """A runner: `python -m tools.evaluator.runner ARGS` in `cwd` with `env`; fds[0] its socket, fds[1] its log."""
        with self.lock:
            if not self.alive:
                raise ZygoteUnavailable("the zygote has stopped")
            try:
                # The judge's cores now, as an exec'd child would inherit them (the zygote keeps those it started with).
                cores = sorted(os.sched_getaffinity(0))
                wire.send(self.sock, {"op": "spawn", "args": args, "env": env, "cwd": cwd, "cores": cores}, fds)
                while True:
                    message, _ = wire.receive(self.sock, deadline=time.monotonic() + 60)
                    if "exited" in message:
                        self.exits[int(message["exited"])] = int(message["code"])
                    elif "spawned" in message:
                        self.children.add(int(message["spawned"]))
                        return ForkedProcess(self, int(message["spawned"]))
                    else:
                        raise ZygoteUnavailable(str(message.get("error", message))[:300])
            except (OSError, TimeoutError, wire.WireError) as err:
                self.alive = False
                raise ZygoteUnavailable(f"the zygote stopped answering: {err}") from None

    def host_pid_of(self, inner: int) -> int:
        """A child's pid as the judge sees it (the same number where the zygote has no sandbox)."""
        if not self.wrap:
            return inner
        for _ in range(100):  # it was forked before the zygote answered: it is there, or about to be listed
            found = sandbox.host_pid(self.pid, inner, depth=1)
            if found:
                return found
            time.sleep(0.01)
        return inner

    def exit_code(self, pid: int, deadline: float) -> int | None:
        """`pid`'s return code (as Popen's: -N for signal N) once the zygote reaped it, waiting until `deadline`."""
        with self.lock:
            while pid not in self.exits:
                if not self.alive:
                    return -signal.SIGKILL  # its runners died with it (their death signal)
                remaining = deadline - time.monotonic()
                ready, _, _ = select.select([self.sock], [], [], max(remaining, 0))
                if not ready:
                    return None
                try:
                    message, _ = wire.receive(self.sock, deadline=time.monotonic() + 10)
                except (TimeoutError, wire.WireError):
                    self.alive = False
                    continue
                if "exited" in message:
                    self.exits[int(message["exited"])] = int(message["code"])
            self.children.discard(pid)
            return self.exits.pop(pid)

    def close(self) -> None:
        """The zygote kills what is left of its runners when its socket closes, then exits."""
        self.alive = False
        self.sock.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._log.close()

    def _tail(self) -> str:
        try:
            self._log.seek(0)
            return self._log.read().decode(errors="replace")[-600:]
        except (OSError, ValueError):
            return ""


def enabled() -> bool:
    return os.environ.get("KW_RUNNER_ZYGOTE", "1") != "0"


class Zygotes:
    """A judge's zygotes, one per distinct runner environment and sandbox, started on first use.

    Whoever judges owns one: `tools.evaluator.evaluate` one per evaluation unless given one, and a
    caller that evaluates many times in one process (the loop, `agent bench`) one for all of them, so
    the zygote's import of torch is paid once. `close` stops them all and waits for them (their CPU
    time then counts as this process's children's).
    """

    def __init__(self) -> None:
        self._found: dict[tuple, Zygote | ZygoteUnavailable] = {}
        self._lock = threading.Lock()

    def for_env(self, runner_env: dict[str, str], setup: sandbox.Setup | None = None) -> Zygote:
        """The zygote for runners with `runner_env` in `setup`'s sandbox; ZygoteUnavailable if none can start."""
        shared = {k: v for k, v in runner_env.items() if k not in PER_RUNNER}
        wrap = setup.wrap() if setup is not None else []
        key = (tuple(sorted(shared.items())), tuple(wrap))
        with self._lock:
            found = self._found.get(key)
            if isinstance(found, Zygote) and not (found.alive and found.proc.poll() is None):
                found = None
            if found is None:
                self._found.pop(key, None)
                # Each holds torch's memory (~0.3 GB): past the limit, the oldest with no runner left goes.
                idle = [k for k, z in self._found.items() if not (isinstance(z, Zygote) and z.children)]
                for old in idle[: max(len(self._found) - MAX_ZYGOTES + 1, 0)]:
                    if isinstance(gone := self._found.pop(old), Zygote):
                        gone.close()
                try:
                    found = Zygote(shared, wrap)
                except ZygoteUnavailable as err:
                    found = err
                self._found[key] = found
        if isinstance(found, ZygoteUnavailable):
            raise found
        return found

    def running(self) -> list[Zygote]:
        """The zygotes started (benchmarks/probes/runner_start.py reports their start-up)."""
        with self._lock:
            return [z for z in self._found.values() if isinstance(z, Zygote)]

    def close(self) -> None:
        """Stop every zygote and wait for it; a later runner starts a new one."""
        with self._lock:
            for found in self._found.values():
                if isinstance(found, Zygote):
                    found.close()
            self._found.clear()

    def __enter__(self) -> Zygotes:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


# ----------------------------------------------------------------------------------------- zygote side


def _probe_fork() -> int:
    """Threads left after a fork (fork handlers such as OpenBLAS's stop their pools): must be 1."""
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    return _thread_count()


def _become_runner(message: dict, fds: list[int], closing: list[socket.socket]) -> None:
    """In the forked child: the process an exec'd runner would be, then the runner's main."""
    import random

    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    for sock in closing:
        sock.detach()  # closed below with every other descriptor; no object may close a reused number later
    os.setsid()
    sock_fd, log_fd = fds
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(log_fd, 1)
    os.dup2(log_fd, 2)
    os.closerange(3, sock_fd)
    os.closerange(sock_fd + 1, os.sysconf("SC_OPEN_MAX"))
    os.sched_setaffinity(0, message["cores"])
    os.environ.clear()
    os.environ.update(message["env"])
    tempfile.tempdir = None
    random.seed()
    sys.path[0] = message["cwd"]  # what `python -m` in that folder puts first; it goes there in confine.enter
    confine.set_dumpable(True)
    from tools.evaluator import runner

    args = list(message["args"])
    args[args.index("--fd") + 1] = str(sock_fd)  # the number it has here, not the judge's
    code = runner.main(args)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code or 0)


def main(argv: list[str]) -> None:
    control = socket.socket(fileno=int(argv[argv.index("--fd") + 1]))
    confine.set_dumpable(False)
    import torch  # the cost every exec'd runner pays

    from tools.evaluator import runner  # noqa: F401 (its imports: the runner's call loop)

    threads = _probe_fork()
    if torch.cuda.is_initialized() or threads != 1:
        why = f"{threads} threads after a fork; CUDA initialised: {torch.cuda.is_initialized()}"
        wire.send(control, {"ok": False, "error": why})
        return
    wire.send(control, {"ok": True, "pid": os.getpid(), "threads": threads})
    wake_r, wake_w = socket.socketpair()
    wake_r.setblocking(False)
    wake_w.setblocking(False)
    signal.set_wakeup_fd(wake_w.fileno())
    signal.signal(signal.SIGCHLD, lambda *_: None)
    live: set[int] = set()
    try:
        while True:
            ready, _, _ = select.select([control, wake_r], [], [])
            if wake_r in ready:
                try:
                    while wake_r.recv(4096):
                        pass
                except BlockingIOError:
                    pass
            _reap(control, live)
            if control not in ready:
                continue
            try:
                message, fds = wire.receive(control, fds=2)
            except wire.WireError:
                return  # the judge went away
            if _thread_count() != 1:
                for fd in fds:
                    os.close(fd)
                wire.send(control, {"error": f"the zygote has {_thread_count()} threads; it forks with one only"})
                continue
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                try:
                    _become_runner(message, fds, [control, wake_r, wake_w])
                except BaseException:
                    traceback.print_exc()  # into the runner's log, which the judge quotes
                finally:
                    os._exit(70)
            for fd in fds:
                os.close(fd)
            live.add(pid)
            wire.send(control, {"spawned": pid})
    finally:
        for pid in live:
            try:
                os.killpg(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass


def _reap(control: socket.socket, live: set[int]) -> None:
    while live:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        live.discard(pid)
        wire.send(control, {"exited": pid, "code": os.waitstatus_to_exitcode(status)})


if __name__ == "__main__":
    main(sys.argv[1:])
