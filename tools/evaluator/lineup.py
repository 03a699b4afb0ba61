"""Runner setup: which contestants an evaluation starts, their runners, the cores they run on, their arenas.

One runner per role: the candidate's file, the incumbent's, and trusted yardsticks (the reference
runner with torch, native, copy and null; torch.compile; Liger). Every runner starts at once; the
candidate's hello is the compile stage's (its import is the verdict), the others' are awaited before
the benchmark. A yardstick that fails to start is dropped with a note; the candidate's failure fails
its stage. The lineup also owns the ids of the arenas and plans shared with runners, and the record's
account of their confinement.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import torch

from tools.evaluator import confine, sandbox
from tools.evaluator.layout import Layout
from tools.evaluator.process import RunnerFailed, RunnerProcess
from tools.evaluator.records import Confinement
from tools.evaluator.stages import Deadlines, StageFailed, brief_error
from tools.evaluator.zygote import Zygotes
from workbench.kernels.registry import native_op

DROPPED_NAMES = {"reference": "reference runner", "compiled": "torch.compile baseline", "liger": "liger baseline"}


def file_contestant(op: str, backend: str, candidate: Path | None, device: str) -> dict:
    """The candidate as a runner imports it: under the module name a user's import of the kernel gets."""
    if candidate is None:
        return {"kind": "builtin", "names": ["torch"], "op": op, "device": device}
    return {"kind": "file", "path": str(candidate), "op": op, "module": f"workbench.kernels.{op}.{backend}"}


def cache_key(backend: str, role: str, contestant: dict) -> str:
    """A runner's compile-cache folder: a file's by its content, a builtin's by its role."""
    if contestant["kind"] == "file":
        digest = hashlib.sha256(Path(contestant["path"]).read_bytes()).hexdigest()[:24]
        return f"file-{backend}-{digest}"
    return f"builtin-{role}"


def wanted_contestants(
    op: str,
    backend: str,
    candidate: Path | None,
    incumbent: Path | None,
    baselines: tuple[str, ...],
    device: str,
    notes: list[str],
) -> dict[str, dict]:
    """{role: contestant} for every runner to start; what cannot be timed here goes into `notes`."""
    cuda = device == "cuda"
    wanted: dict[str, dict] = {"candidate": file_contestant(op, backend, candidate, device)}
    if incumbent is not None:
        wanted["incumbent"] = {"kind": "file", "path": str(incumbent), "op": op, "module": "kernel_incumbent"}
    native = "native" in baselines and native_op(op) is not None
    if "native" in baselines and not native:  # an op folder added without a native.py
        notes.append(f"native baseline: kernels/{op}/native.py does not exist")
    # The copy on every device: the acceptance rule decides wherever it is timed, and a figure faster than a
    # copy of the same bytes is a measurement error there too (a CPU run's chain-following cheat passed without).
    reference = ["null"] + (["torch"] if "eager" in baselines else []) + (["native"] if native else []) + ["copy"]
    wanted["reference"] = {"kind": "builtin", "names": reference, "op": op, "device": device}
    if "compiled" in baselines:
        if cuda:
            wanted["compiled"] = {"kind": "builtin", "names": ["compiled"], "op": op, "device": device}
        else:
            notes.append("torch.compile baseline: timed on a GPU only")
    if "liger" in baselines:
        if cuda:
            wanted["liger"] = {"kind": "builtin", "names": ["liger"], "op": op, "device": device}
        else:
            from tools.liger import installed_version

            why = "needs a CUDA GPU (its kernels are Triton)" if installed_version() else "liger-kernel not installed"
            notes.append(f"liger baseline: {why}")
    return wanted


def confinement_record(setup: sandbox.Setup, judge_dumpable: bool, transport: str) -> Confinement:
    """What a record says of its runners' confinement (tools/evaluator/sandbox.py)."""
    return Confinement(
        mode=setup.mode,
        parts=sandbox.describe(setup.mechanisms, setup.mode),
        uid_separation=setup.uid_per_runner,
        network=setup.network,
        judge_dumpable=judge_dumpable,
        transport=transport,
        limits=sandbox.limits(),
        unconfined=setup.mode == "none",
        notes=list(setup.notes),
    )


class Lineup:
    """The runners of one evaluation, the cores they run on, and the arenas and plans shared with them."""

    def __init__(self, device: torch.device, deadlines: Deadlines, uids: confine.UidPool, zygotes: Zygotes) -> None:
        self.device = device
        self.cuda = device.type == "cuda"
        self.deadlines = deadlines
        self.runners: dict[str, RunnerProcess] = {}
        self.notes: list[str] = []  # what the evaluation could not do as asked, for every shape's note
        self.timing_core: int | None = None
        self.runner_cores: tuple[int, ...] = ()
        self._affinity: set[int] | None = None
        self._ids = iter(range(1, 10**9))
        self.uids = uids
        self.zygotes = zygotes
        dumpable = not confine.make_non_dumpable()
        self.setup = sandbox.setup()
        self.confinement = confinement_record(self.setup, dumpable, "device" if self.cuda else "host")

    def next_id(self) -> int:
        """A fresh id for an arena or a plan, unique within the evaluation."""
        return next(self._ids)

    # -- starting ----------------------------------------------------------------------------------

    def start(self, contestants: dict[str, dict], backend: str, target: str) -> None:
        """Start every runner at once; the candidate's failure to import is the compile stage's verdict."""
        self._place_judge()
        keys: dict[str, str] = {}
        for role, contestant in contestants.items():
            key = cache_key(backend, role, contestant)
            # The same file twice (an A/A check): the second runner gets a copy, taken before either starts.
            keys[role] = confine.copy_cache(key) if key in keys.values() else key
        for role, contestant in contestants.items():
            self.runners[role] = RunnerProcess(
                role,
                contestant,
                device=self.device.type,
                target=target,
                cache_key=keys[role],
                setup=self.setup,
                cpus=self.runner_cores,
                uids=self.uids,
                zygotes=self.zygotes,
            )
        # The candidate's hello now (its import is the compile stage's verdict); the others' before the
        # benchmark: a torch.compile runner takes 10+ s to start, which its first calls then overlap.
        self.greet("candidate")
        for runner in self.runners.values():
            self.confinement.notes.extend(n for n in runner.identity.notes if n not in self.confinement.notes)

    def greet_the_others(self) -> None:
        """Wait for every runner but the candidate to have started (dropping those that failed), then stop it."""
        for role, runner in list(self.runners.items()):
            if role != "candidate" and runner.hello is None:
                self.greet(role)

    def greet(self, role: str) -> None:
        """Wait for `role`'s hello, then stop it until asked; the candidate's failure raises StageFailed."""
        runner = self.runners[role]
        try:  # the candidate's import is its compile stage's: a file that hangs there fails in that stage's limit
            hello = runner.wait_hello(self.deadlines.of("compile") if role == "candidate" else self.deadlines.overall)
        except RunnerFailed as err:
            if role == "candidate":
                raise StageFailed(str(err) + self.deadlines.note("compile")) from None
            self.drop(role, str(err))
            return
        runner.pause()
        facts = hello.facts
        if role == "candidate":
            if self.setup.isolate_network and facts.get("network") != "isolated":
                self.confinement.network = "open"
                self.confinement.notes.append(f"network isolation failed: {facts.get('network_error')}")
            for part in ("landlock", "seccomp"):  # what the candidate's runner reached (its word, before import)
                if self.setup.runner_policy().get(part) and not str(facts.get(part, "")).startswith(("ABI", "loaded")):
                    self.confinement.notes.append(f"{part} not in force in the candidate's runner: {facts.get(part)}")
        if not hello.ok:
            if role == "candidate":
                raise StageFailed(f"the kernel file failed to import: {brief_error(hello.error)}")
            self.drop(role, hello.error or "failed to start")

    def _place_judge(self) -> None:
        """On a GPU host with cores to spare: the judge on a core of its own, and one core kept for timing.

        Runners start on every other core (a JIT compiles in threads); the benchmark moves them all onto
        the timing core (`pin_runners`). One runs at a time, so on one core a candidate and the incumbent
        meet the same host: on the H200 VM a core ran a whole eager batch up to 3x slower at times.
        """
        available = sorted(os.sched_getaffinity(0))
        if not self.cuda or len(available) < 4:
            return
        self._affinity = set(available)  # given back in close(): the caller's later children get all cores
        os.sched_setaffinity(0, {available[0]})
        self.timing_core = available[1]
        self.runner_cores = tuple(available[1:])

    def pin_runners(self) -> None:
        """Every runner onto the timing core, for the benchmark."""
        if self.timing_core is None:
            return
        for runner in self.runners.values():
            confine.pin(runner.pid, self.timing_core)

    def unpin(self, role: str) -> None:
        """`role`'s runner back onto every runner core (its JIT may use threads again)."""
        if self.runner_cores:
            confine.pin(self.runners[role].pid, self.runner_cores)

    def drop(self, role: str, why: str) -> None:
        """Close a runner that cannot serve, with a note that says why."""
        runner = self.runners.pop(role, None)
        if runner is not None:
            runner.close()
        last = why.strip().splitlines()[-1] if why.strip() else why
        self.notes.append(f"{DROPPED_NAMES.get(role, role)} unavailable: {last[:300]}")

    def close(self) -> None:
        for runner in self.runners.values():
            runner.close()
        self.runners.clear()
        if self._affinity:
            os.sched_setaffinity(0, self._affinity)

    # -- arenas ------------------------------------------------------------------------------------

    def share(self, seat, layout: Layout) -> None:
        """Arenas for `layout`, mapped into the seat's runner, and its plan over them."""
        ids, plan = (self.next_id(), self.next_id()), self.next_id()
        arenas = seat.runner.share(layout, self.device, ids, plan, self.deadlines.overall, seat.fn)
        seat.layout, seat.arenas, seat.arena_ids, seat.plan = layout, arenas, ids, plan

    def unshare(self, seat) -> None:
        """The seat's plan and arenas dropped in its runner (if it still runs) and closed here."""
        if seat.arenas is None:
            return
        if seat.runner.proc.poll() is None:
            try:
                message = {"op": "drop", "plans": [seat.plan], "arenas": list(seat.arena_ids)}
                seat.runner.ask(message, self.deadlines.overall)
            except RunnerFailed:
                pass
        for arena in seat.arenas:
            arena.close()
        seat.arenas = None
