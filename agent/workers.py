"""An iteration's candidates evaluated on several GPUs at once: one judge per GPU, placed by Ray.

The loop, its state, the decisions and the commits stay in the driver (agent/graph.py); a worker
only runs `tools.evaluator.evaluate` (a judge and its runners) for one candidate against the
incumbent, on the one GPU Ray gave it, and returns the record. A worker that dies fails only its
candidate. Without `--workers` (or with 1) nothing here imports Ray and candidates run in turn.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tools.evaluator.options import EvalOptions
from tools.evaluator.records import EvalRecord, StageResult

INSTALL_HINT = 'pip install -e ".[ray]"'


@dataclass(frozen=True)
class Job:
    """One candidate to evaluate, against `incumbent`, as `options` say."""

    candidate: Path
    incumbent: str | None
    options: EvalOptions


def import_ray():
    try:
        import ray
    except ImportError:
        raise RuntimeError(
            f"--workers above 1 evaluates candidates on several GPUs through Ray, which is not installed: "
            f"{INSTALL_HINT} (or run with --workers 1)"
        ) from None
    return ray


def check_workers(workers: int) -> None:
    """Clear errors at start-up, before a run folder exists."""
    if workers < 1:
        raise ValueError(f"--workers must be at least 1; got {workers}")
    if workers > 1:
        import_ray()


def run_jobs(
    jobs: list[Job],
    op: str,
    backend: str,
    workers: int,
    *,
    ray_address: str | None = None,
    gpus_per_job: float = 1.0,
    on_done: Callable[[int, EvalRecord], None] | None = None,
    evaluate: Callable[..., EvalRecord] | None = None,
) -> list[EvalRecord]:
    """Each job's record, in the jobs' order; at most `workers` evaluations at a time.

    `evaluate` (default: the judge, tools.evaluator.evaluate) runs the jobs in turn in this process; Ray's
    workers always run the judge.
    """
    done = on_done or (lambda index, record: None)
    if workers <= 1 or len(jobs) <= 1:
        if evaluate is None:
            from tools.evaluator.evaluate import evaluate

        records = []
        for i, job in enumerate(jobs):
            records.append(evaluate(op, backend, job.candidate, job.options, incumbent=job.incumbent))
            done(i, records[-1])
        return records
    ray = import_ray()
    if not ray.is_initialized():
        # A running cluster where asked for, else one on this host; candidates' output stays in their records.
        ray.init(address=ray_address, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    remote = ray.remote(num_gpus=gpus_per_job, num_cpus=1, max_retries=0)(_evaluate_in_worker)
    records: list[EvalRecord | None] = [None] * len(jobs)
    pending: dict[Any, int] = {}
    queue = list(range(len(jobs)))
    while queue or pending:
        while queue and len(pending) < workers:
            i = queue.pop(0)
            job = jobs[i]
            ref = remote.remote(op, backend, str(job.candidate), job.incumbent, job.options.model_dump_json())
            pending[ref] = i
        ready, _ = ray.wait(list(pending), num_returns=1)
        i = pending.pop(ready[0])
        try:
            records[i] = EvalRecord.model_validate_json(ray.get(ready[0]))
        except ray.exceptions.RayTaskError as err:  # evaluate() raised (bad input): as it would in turn
            raise err.as_instanceof_cause() from None
        except ray.exceptions.RayError as err:  # the worker (its judge) died: this candidate fails, the run goes on
            records[i] = died(op, backend, jobs[i], err)
        done(i, records[i])
    return [r for r in records if r is not None]


def _evaluate_in_worker(op: str, backend: str, candidate: str, incumbent: str | None, options: str) -> str:
    from tools.evaluator.evaluate import evaluate

    return evaluate(
        op, backend, candidate, EvalOptions.model_validate_json(options), incumbent=incumbent
    ).model_dump_json()


def died(op: str, backend: str, job: Job, err: BaseException) -> EvalRecord:
    """The record of a candidate whose judge was lost: failed at the `judge` stage, with Ray's reason."""
    from tools.evaluator.evaluate import harness_sha256
    from tools.paths import record_path, sha256_file

    reason = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
    message = f"the worker evaluating this candidate died ({type(err).__name__}): {reason}"[:600]
    digest, modules = harness_sha256()
    return EvalRecord(
        op=op,
        backend=backend,
        candidate=record_path(job.candidate),
        candidate_sha256=sha256_file(job.candidate),
        harness_sha256=digest,
        harness_modules=modules,
        started=dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        status="failed",
        failed_stage="judge",
        message=message,
        dtypes=list(job.options.dtypes),
        shapes=list(job.options.shapes or []),
        stages=[StageResult(name="judge", status="failed", message=message)],
    )
