"""The judge's handle on one runner process: start it confined, ask it things with a deadline, stop it.

A runner is stopped (SIGSTOP, its whole process group) whenever the judge is not waiting for it,
so between its answers it runs nothing on the host: no thread finishing deferred work, no process
slowing another contestant. A runner that does not answer in time is killed, and the failure says
how it ended (status, signal) and what it printed last.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time

from tools.evaluator import confine, wire, zygote
from tools.evaluator.buffers import Arena, ArenaOutOfMemory
from tools.evaluator.layout import INPUT_ARENA, OUTPUT_ARENA, Layout
from tools.paths import PROJECT_ROOT
from tools.sandbox import describe_exit

OUTPUT_TAIL_BYTES = 4000


class RunnerFailed(RuntimeError):
    """The runner died, hung or broke the protocol; the message says how (for the record)."""


class RunnerProcess:
    """One runner: `contestant` says what it imports (a kernel file, or trusted built-ins)."""

    def __init__(
        self,
        role: str,
        contestant: dict,
        *,
        device: str,
        target: str,
        cache_key: str,
        separate_uid: bool,
        env: dict[str, str] | None = None,
        prefix: list[str] | None = None,
        cpus: tuple[int, ...] = (),
        network_left_by_prefix: bool = False,
        pausing: bool = True,
    ):
        self.role = role
        self.pausing = pausing  # stopped (SIGSTOP) between requests, so it runs only while asked
        self.contestant = contestant
        self.identity = confine.prepare(cache_key, separate_uid=separate_uid)
        self.identity.cpus = cpus
        if network_left_by_prefix:  # the prefix (tools/evaluator/netns.py) made the namespace it runs in
            self.identity.isolate_network = False
        self.sock, theirs = socket.socketpair()
        self._log = tempfile.TemporaryFile()
        environment = confine.runner_env(self.identity, env)
        environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PROJECT_ROOT), environment.get("PYTHONPATH")]))
        runner_args = [
            "--fd",
            str(theirs.fileno()),
            "--contestant",
            json.dumps(contestant),
            "--device",
            device,
            "--target",
            target,
        ]
        self.started = time.monotonic()
        self.forked = False
        self.proc = None
        if not prefix and zygote.enabled():
            try:  # forked from a process that has imported torch already (tools/evaluator/zygote.py)
                parent = zygote.for_env(environment)
                args = [*runner_args, *self.identity.args(direct_child=False), "--parent", str(parent.pid)]
                self.proc = parent.spawn(
                    args, environment, str(self.identity.scratch), [theirs.fileno(), self._log.fileno()]
                )
                self.forked = True
            except zygote.ZygoteUnavailable as err:
                self.identity.notes.append(f"runner exec'd, not forked: {err}"[:300])
        if self.proc is None:
            command = [
                *(prefix or []),
                sys.executable,
                "-m",
                "tools.evaluator.runner",
                *runner_args,
                *self.identity.args(direct_child=not prefix),
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

    # -- talking ---------------------------------------------------------------------------------

    def wait_hello(self, deadline: float) -> wire.Reply:
        """The runner's first message: its import of the contestant worked (ok) or why not."""
        self.hello = self._receive(deadline, "starting")
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
        try:
            message, _ = wire.receive(self.sock, deadline=deadline)
        except TimeoutError:
            self.kill()
            raise RunnerFailed(
                f"the {self.role} runner did not answer while {what} within its time limit and was killed"
                + self._tail_note()
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
                os.killpg(self.proc.pid, signal.SIGSTOP)
                self.stopped = True
            except ProcessLookupError:
                pass

    def resume(self) -> None:
        if self.stopped:
            try:
                os.killpg(self.proc.pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
            self.stopped = False

    def kill(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
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
        return f"the {self.role} process {self.how_it_ended()} {when}" + self._tail_note()


def _arena(nbytes: int, device, runner_writable: bool) -> Arena:
    """A judge-owned arena; no room on the GPU fails the seat (or the shape, for the candidate), not the evaluation."""
    try:
        return Arena(nbytes, device, runner_writable=runner_writable)
    except ArenaOutOfMemory as err:
        raise RunnerFailed(str(err)) from err
