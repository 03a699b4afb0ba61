"""The judge's handle on one runner process: start it confined, ask it things with a deadline, stop it.

A runner is stopped (SIGSTOP, its whole process group) whenever the judge is not waiting for it,
so between its answers it runs nothing on the host: no thread finishing deferred work, no process
slowing another contestant. A runner that does not answer in time is killed, and the failure says
how it ended (status, signal) and what it printed last.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from tools.child_process import describe_exit
from tools.evaluator import confine, sandbox, wire, zygote
from tools.evaluator.buffers import Arena, ArenaOutOfMemory
from tools.evaluator.layout import INPUT_ARENA, OUTPUT_ARENA, Layout
from tools.paths import PROJECT_ROOT

OUTPUT_TAIL_BYTES = 4000


def exception_line(traceback_text: str) -> str:
    """The first line of the exception a runner's traceback ends with (the text's last line where it has no frame).

    A message's later lines can say less than its first: torch's CUDA errors end in advice on debugging.
    """
    lines = [line.rstrip() for line in traceback_text.strip().splitlines() if line.strip()]
    frames = [i for i, line in enumerate(lines) if line.lstrip().startswith('File "')]
    after_frames = lines[frames[-1] + 1 :] if frames else []
    # a frame's source and caret lines are indented; the exception's first line is not
    head = next((line for line in after_frames if not line[:1].isspace()), None)
    return (head or (lines[-1] if lines else "")).strip()


class RunnerFailed(RuntimeError):
    """The runner died, hung or broke the protocol; the message says how (for the record)."""


class RunnerProcess:
    """One runner: `contestant` says what it imports (a kernel file, or trusted built-ins).

    `setup`: how this judge confines runners (tools/evaluator/sandbox.py; default: the strongest
    available). A kernel file is copied into the runner's own scratch folder, where it imports it from:
    a sandboxed runner sees nothing of the checkout but its code, and no run folder.
    """

    def __init__(
        self,
        role: str,
        contestant: dict,
        *,
        device: str,
        target: str,
        cache_key: str,
        setup: sandbox.Setup | None = None,
        env: dict[str, str] | None = None,
        prefix: list[str] | None = None,
        cpus: tuple[int, ...] = (),
        pausing: bool = True,
        uids: confine.UidPool | None = None,
        zygotes: zygote.Zygotes | None = None,
    ):
        """`uids`: the pool its uid comes from, where runners get one each (a pool of its own if None: then it
        must be the only runner alive); `zygotes`: the registry it may be forked from (None: exec'd)."""
        self.role = role
        self.pausing = pausing  # stopped (SIGSTOP) between requests, so it runs only while asked
        self.setup = setup or sandbox.setup()
        self.identity = confine.prepare(
            cache_key, uids=(uids or confine.UidPool()) if self.setup.uid_per_runner else None
        )
        self.identity.cpus = cpus
        self.identity.isolate_network = self.setup.isolate_network and not prefix
        self.identity.policy = self.setup.runner_policy(profiled=bool(prefix), trusted=contestant.get("kind") != "file")
        self.contestant = _staged(contestant, self.identity)
        self.limit_hit: str | None = None
        self.sock, theirs = socket.socketpair()
        self._log = tempfile.TemporaryFile()
        environment = confine.runner_env(self.identity, env)
        environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PROJECT_ROOT), environment.get("PYTHONPATH")]))
        runner_args = [
            "--fd",
            str(theirs.fileno()),
            "--contestant",
            json.dumps(self.contestant),
            "--device",
            device,
            "--target",
            target,
        ]
        self.started = time.monotonic()
        self.forked = False
        self.proc = None
        self._pid: int | None = None  # the runner's own process (the keeper's child), as the judge sees it
        # One zygote's runners share its sandbox: only where they cannot reach each other's folders (a uid
        # each, or Landlock); otherwise each is exec'd in a sandbox that binds its own folders alone.
        if zygotes is not None and not prefix and zygote.enabled() and self.setup.runners_fenced:
            try:  # forked from a process that has imported torch already (tools/evaluator/zygote.py)
                parent = zygotes.for_env(environment, self.setup)
                args = [*runner_args, *self.identity.args(direct_child=False), "--parent", str(parent.pid)]
                self.proc = parent.spawn(
                    args, environment, str(self.identity.scratch), [theirs.fileno(), self._log.fileno()]
                )
                self.forked = True
            except zygote.ZygoteUnavailable as err:
                self.identity.notes.append(f"runner exec'd, not forked: {err}"[:300])
        if self.proc is None:
            wrap = self.setup.wrap(writable=(self.identity.scratch, self.identity.home))
            command = [
                *wrap,
                *(prefix or []),
                sys.executable,
                "-m",
                "tools.evaluator.runner",
                *runner_args,
                *self.identity.args(direct_child=not prefix and not wrap),
            ]
            self.proc = subprocess.Popen(
                command,
                pass_fds=[theirs.fileno()],
                env=environment,
                cwd=self.identity.scratch,
                stdin=subprocess.DEVNULL,
                stdout=self._log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        theirs.close()
        self.stopped = False
        self.hello: wire.Reply | None = None
        WATCHDOG.watch(self)

    @property
    def keeper(self) -> int:
        """The process the runner was started as: after `confine.enter`, its keeper (host pid)."""
        if isinstance(self.proc, subprocess.Popen) and self.setup.mode == "namespaces":
            # bubblewrap, its PID 1 reaper, then the command as PID 2 of the sandbox
            return sandbox.host_pid(self.proc.pid, 2) or self.proc.pid
        return self.proc.pid

    @property
    def pid(self) -> int:
        """The runner itself (host pid): the keeper's one child once it has said hello, else the keeper."""
        if self._pid is None and self.hello is not None:
            kids = sandbox.children(self.keeper)
            self._pid = kids[0] if len(kids) == 1 else None
        return self._pid or self.keeper

    def processes(self) -> list[int]:
        """The runner and every process it started (host pids): the keeper adopts what they orphan."""
        return sandbox.descendants(self.keeper)

    # -- talking ---------------------------------------------------------------------------------

    def wait_hello(self, deadline: float) -> wire.Reply:
        """The runner's first message: its import of the contestant worked (ok) or why not."""
        what = "importing its kernel file" if self.contestant.get("kind") == "file" else "starting"
        self.hello = self._receive(deadline, what)
        return self.hello

    def ask(self, message: dict, deadline: float, *, fds: list[int] | None = None, what: str = "") -> wire.Reply:
        """Send a request (resuming the runner for it) and wait for the reply; stops it again afterwards."""
        self.resume()
        try:
            wire.send(self.sock, message)
            if fds:
                wire.send(self.sock, {}, fds)
            return self._receive(deadline, what or message.get("op", "a request"))
        except (BrokenPipeError, ConnectionError) as err:
            raise RunnerFailed(self._ended(f"while {what or message.get('op')}", err)) from err
        finally:
            self.pause()

    def share(
        self, layout: Layout, device, ids: tuple[int, int], plan_id: int, deadline: float, fn: str = "main"
    ) -> tuple:
        """Arenas for `layout` (inputs, outputs), mapped into this runner as `ids`, and plan `plan_id` over them."""
        inputs = _arena(layout.input_bytes, device, False)
        try:
            arenas = (inputs, _arena(layout.output_bytes, device, True))
        except RunnerFailed:
            inputs.close()
            raise
        try:
            for arena, arena_id in zip(arenas, ids, strict=True):
                fd = arena.export_fd()
                try:
                    reply = self.ask({"op": "map", "id": arena_id, "arena": arena.describe()}, deadline, fds=[fd])
                finally:
                    os.close(fd)
                if not reply.ok:
                    raise RunnerFailed(f"the {self.role} runner could not map a buffer: {reply.error}")
            reply = self.ask(layout.plan(plan_id, ids[INPUT_ARENA], ids[OUTPUT_ARENA], fn), deadline)
            if not reply.ok:
                raise RunnerFailed(f"the {self.role} runner could not build its plan: {reply.error}")
        except RunnerFailed:
            for arena in arenas:
                arena.close()
            raise
        return arenas

    def send(self, message: dict) -> None:
        """Send without waiting (the caller times the reply itself with `receive`)."""
        wire.send(self.sock, message)

    def receive(self, deadline: float, what: str) -> wire.Reply:
        return self._receive(deadline, what)

    def _receive(self, deadline: float, what: str) -> wire.Reply:
        asked = time.monotonic()
        try:
            message, _ = wire.receive(self.sock, deadline=deadline)
        except TimeoutError:
            self.kill()
            raise RunnerFailed(
                f"the {self.role} runner hung: it did not answer in {time.monotonic() - asked:.0f} s while {what} "
                "and was killed" + self._tail_note()
            ) from None
        except wire.WireError as err:
            raise RunnerFailed(self._ended(f"while {what}", err)) from err
        try:
            return wire.Reply.model_validate(message)
        except ValueError as err:
            self.kill()
            raise RunnerFailed(f"the {self.role} runner sent a malformed reply while {what}: {err}"[:600]) from err

    # -- signals ---------------------------------------------------------------------------------

    def pause(self) -> None:
        if self.pausing and not self.stopped and self.proc.poll() is None:
            try:
                os.killpg(self.pid, signal.SIGSTOP)
                self.stopped = True
            except (ProcessLookupError, PermissionError):
                pass

    def resume(self) -> None:
        if self.stopped:
            try:
                os.killpg(self.pid, signal.SIGCONT)
            except (ProcessLookupError, PermissionError):
                pass
            self.stopped = False

    def kill(self) -> None:
        """The runner and everything it started; its keeper then exits (a sandbox's PID 1 takes the rest)."""
        kill_all(self.processes() or [self.proc.pid])
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass

    def close(self) -> None:
        """Ask it to exit, then make sure: nothing of the runner outlives the evaluation."""
        if self.proc.poll() is None:
            self.resume()
            try:
                wire.send(self.sock, {"op": "exit"})
                self.proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self.kill()
        WATCHDOG.forget(self)
        self.sock.close()
        confine.release(self.identity)
        self._log.close()

    # -- how it ended ----------------------------------------------------------------------------

    def how_it_ended(self) -> str:
        try:
            return describe_exit(self.proc.wait(timeout=5))
        except subprocess.TimeoutExpired:
            return "stopped answering"

    def output_tail(self, lines: int = 3) -> str:
        try:
            self._log.seek(0, os.SEEK_END)
            size = self._log.tell()
            self._log.seek(max(size - OUTPUT_TAIL_BYTES, 0))
            text = self._log.read().decode(errors="replace")
        except (OSError, ValueError):
            return ""
        kept = [line for line in text.strip().splitlines() if line.strip()]
        return " | ".join(kept[-lines:])[-600:]

    def _tail_note(self) -> str:
        tail = self.output_tail()
        return f"; last output: {tail}" if tail else ""

    def _ended(self, when: str, err: BaseException) -> str:
        over = f" ({self.limit_hit})" if self.limit_hit else ""
        return f"the {self.role} process {self.how_it_ended()}{over} {when}" + self._tail_note()


def _arena(nbytes: int, device, runner_writable: bool) -> Arena:
    """A judge-owned arena; no room on the GPU fails the seat (or the shape, for the candidate), not the evaluation."""
    try:
        return Arena(nbytes, device, runner_writable=runner_writable)
    except ArenaOutOfMemory as err:
        raise RunnerFailed(str(err)) from err


def _staged(contestant: dict, identity: confine.Identity) -> dict:
    """A kernel file copied into the runner's scratch, at its path relative to the project (compiler messages
    name it so) or by its own name; the runner imports the copy."""
    if contestant.get("kind") != "file":
        return contestant
    source = Path(contestant["path"]).resolve()
    try:
        relative = source.relative_to(PROJECT_ROOT)
    except ValueError:
        relative = Path(source.name)
    copy = identity.scratch / relative
    copy.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, copy)
    if identity.uid is not None:
        for path in [copy, *copy.parents]:
            if path == identity.scratch:
                break
            os.chown(path, identity.uid, identity.uid)
    return {**contestant, "path": str(copy)}


def kill_all(pids: list[int]) -> None:
    """SIGKILL every one of `pids` (a runner's tree); what they start meanwhile dies with its keeper's sweep."""
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            continue


class Watchdog:
    """A judge thread that holds every live runner to its limits (sandbox.limits) and kills one over them.

    Memory (resident, the runner and all it started), processes (tasks, threads included) and bytes written
    (by its processes, and the size of its folders). The reason reaches the record with the runner's end.
    """

    INTERVAL_S = 0.1
    FOLDER_EVERY = 10  # folders are measured every 10th pass: a walk costs more than /proc reads

    def __init__(self):
        self._runners: set[RunnerProcess] = set()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._passes = 0

    def watch(self, runner: RunnerProcess) -> None:
        with self._lock:
            self._runners.add(runner)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="runner-limits", daemon=True)
                self._thread.start()

    def forget(self, runner: RunnerProcess) -> None:
        with self._lock:
            self._runners.discard(runner)

    def _run(self) -> None:
        while True:
            time.sleep(self.INTERVAL_S)
            self._passes += 1
            with self._lock:
                runners = list(self._runners)
            for runner in runners:
                try:
                    self.check(runner, folders=self._passes % self.FOLDER_EVERY == 0)
                except Exception:  # a runner that ended between two reads: the next pass sees it gone
                    continue

    def check(self, runner: RunnerProcess, folders: bool = True) -> str | None:
        if runner.limit_hit or runner.proc.poll() is not None:
            return None
        limits = runner.identity.policy.get("limits") or {}
        pids = runner.processes()
        use = usage(pids)
        why = None
        if limits.get("memory_bytes") and use["memory_bytes"] > limits["memory_bytes"] and len(pids) > 1:
            # Resident sets count pages forked processes share once each: over the limit, the proportional
            # share decides (it costs a page-table walk per process, so only then).
            use["memory_bytes"] = proportional_memory(pids)
        if limits.get("memory_bytes") and use["memory_bytes"] > limits["memory_bytes"]:
            used, cap = use["memory_bytes"] / 2**30, limits["memory_bytes"] / 2**30
            why = f"over its memory limit: {used:.1f} GiB resident of {cap:.1f}"
        elif limits.get("processes") and use["tasks"] > limits["processes"]:
            why = f"over its process limit: {use['tasks']} tasks of {limits['processes']}"
        elif limits.get("written_bytes"):
            written = use["written_bytes"]
            if folders:
                written = max(written, folder_bytes(runner.identity.scratch) + folder_bytes(runner.identity.home))
            if written > limits["written_bytes"]:
                why = f"over its write limit: {written / 2**20:.0f} MiB of {limits['written_bytes'] / 2**20:.0f}"
        if why:
            runner.limit_hit = f"killed by the judge: {why}"
            kill_all(pids)
        return why


def usage(pids: list[int]) -> dict:
    """Resident memory, tasks and bytes written by `pids`, from /proc."""
    memory = tasks = written = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        memory += int(line.split()[1]) * 1024
                    elif line.startswith("Threads:"):
                        tasks += int(line.split()[1])
            with open(f"/proc/{pid}/io") as f:
                for line in f:
                    if line.startswith("wchar:"):
                        written += int(line.split()[1])
        except (OSError, ValueError):
            continue
    return {"memory_bytes": memory, "tasks": tasks, "written_bytes": written}


def proportional_memory(pids: list[int]) -> int:
    """The processes' proportional set size (shared pages divided among those that map them), in bytes."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/smaps_rollup") as f:
                for line in f:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1]) * 1024
                        break
        except (OSError, ValueError):
            continue
    return total


def folder_bytes(folder: Path) -> int:
    total = 0
    for root, _dirs, files in os.walk(folder):
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_size
            except OSError:
                continue
    return total


WATCHDOG = Watchdog()
