"""The loop as a LangGraph StateGraph (docs/loop.md):

    START -> baseline -> propose -> evaluate -> decide -> (commit) -> reflect -> propose | END

With --e2e, baseline also checks the starting kernel end to end and decide checks the version it
would accept (agent/e2e_gate.py): one that changes the model's greedy tokens fails at stage e2e and
is not committed.

Nodes are top-level functions of the state and LangGraph's `Runtime`, whose context is `Deps` (config,
policy, run folder, git workspace): the graph's context_schema, given to each invoke as `context=`. They
return partial state updates; `attempts` and `commits` take only a node's own rows (agent/state.py). The state
is checkpointed to SQLite after every node, so a killed run resumes at the node
it was in, and every finished iteration stays in the run folder. The state's
paths are relative to the run folder (RunFolder.locate reads them), so a
checkpoint names no folder of the machine it was written on.
"""

from __future__ import annotations

import math
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Literal

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

import prompts
from agent.config import RunConfig, candidate_compile_limit
from agent.e2e_gate import E2EGate
from agent.failures import failure_lines
from agent.policies.base import Attempt, Policy, ProposalContext, ReflectionContext
from agent.policies.history import MAX_DIFFS, label
from agent.state import Candidate, Evaluation, LoopState
from agent.stopping import stop_reason
from agent.workers import Job, run_jobs
from tools.env import DeviceFacts, device_facts
from tools.evaluator.decide import decide
from tools.evaluator.evaluate import evaluate
from tools.evaluator.profile import summarise
from tools.evaluator.records import EvalRecord
from tools.llama.e2e import ModelRunFailed
from tools.report import proposer_table
from tools.runfolder import RunFolder, Summary, read_record
from tools.workspace import Workspace, commit_message
from workbench.kernels import registry
from workbench.kernels import target as targets
from workbench.kernels.kernel_file import knob_values


@dataclass
class Deps:
    """Everything the nodes use that is not state: the graph's context (`runtime.context` in a node)."""

    config: RunConfig
    policy: Policy
    folder: RunFolder
    workspace: Workspace
    stop_requested: list[bool] = field(default_factory=lambda: [False])
    on_iteration: object = None  # callable(dict) for the terminal table
    # evaluate()'s signature (op, backend, candidate, options, *, incumbent): the judge. Tests that need decisions
    # not hinging on a CPU's timing pass one that replays recorded records (tests/agent/recorded_judge.py).
    judge: Callable[..., EvalRecord] = evaluate
    # torch.cuda.get_device_properties's signature: the device the hardware notes describe (tests pass a fake).
    device_properties: Callable[[int], object] | None = None

    @cached_property
    def gate(self) -> E2EGate | None:
        return E2EGate(self.config, self.folder) if self.config.e2e else None

    @cached_property
    def device(self) -> DeviceFacts | None:
        """The GPU the run times on, as the driver reports it; None on the CPU."""
        if self.config.evaluation.device == "cpu":
            return None
        return device_facts(self.device_properties)

    @cached_property
    def profiles_best(self) -> bool:
        """Whether each new best is profiled: as asked, else wherever ncu runs (a GPU run with ncu on PATH)."""
        if self.config.profile_best is not None:
            return self.config.profile_best
        info = targets.resolve(self.config.evaluation.target)
        return self.config.evaluation.device == "cuda" and info.profiler == "ncu" and shutil.which("ncu") is not None


def _config_of(source: str) -> dict | None:
    try:
        return knob_values(source) or None  # CONFIG's values, or the knobs the syntax tree shows
    except (ValueError, SyntaxError):
        return None


def _load_record(path: Path) -> EvalRecord:
    return read_record(path, required=True)


def _evaluate(deps: Deps, candidate: Path, incumbent: str | None) -> EvalRecord:
    c = deps.config
    return deps.judge(c.op, c.backend, candidate, c.evaluation, incumbent=incumbent)


def _largest_shape(record: EvalRecord) -> str | None:
    """The name of the record's largest shape by element count (the profile's and the copy figure's)."""
    dims = {b.shape: b.dims for b in record.benchmark} or {c.shape: c.dims for c in record.correctness if not c.hidden}
    return max(dims, key=lambda name: math.prod(dims[name]), default=None)


def _copy_gbps(record: EvalRecord) -> float | None:
    """The copy bandwidth the judge measured for the record's largest timed shape, in its decision scope."""
    largest = max(record.benchmark, key=lambda b: b.bytes_moved, default=None)
    result = largest.scope() if largest else None
    return result.copy_gbps if result else None


def _profile_best(deps: Deps, iteration: int, index: int, record: EvalRecord) -> str:
    """The profile of a new best on its largest shape, saved beside it (profile.txt); its run-folder path, or ""
    where none was taken. With --profile its record has one already; otherwise the judge profiles it now."""
    c, folder = deps.config, deps.folder
    path = folder.profile(iteration, index)
    if record.profile:
        return folder.relative(path) if path.exists() else ""
    if not deps.profiles_best:
        return ""
    shape = _largest_shape(record)
    if shape is None:
        return ""
    folder.event("profile_start", iteration=iteration, index=index, shape=shape)
    update = {"shapes": [shape], "dtypes": c.evaluation.dtypes[:1], "profile": True}
    options = c.evaluation.model_copy(update=update | {"benchmark": False, "other_dtypes": False})
    try:
        profiled = deps.judge(c.op, c.backend, folder.candidate(iteration, index), options)
    except Exception as err:  # diagnosis only: a profiler that cannot run never ends the run
        folder.event("profile_end", iteration=iteration, index=index, status="failed", message=str(err))
        return ""
    stage = profiled.stage("profile")
    folder.event(
        "profile_end",
        iteration=iteration,
        index=index,
        status=stage.status if stage else profiled.status,
        message=stage.message if stage else profiled.message,
    )
    if not profiled.profile:
        return ""
    path.write_text(summarise(profiled.profile) + "\n")
    return folder.relative(path)


def _record_tokens(deps: Deps) -> None:
    """run.json's token counts (and cost, where prices are given), from the events so far."""
    c = deps.config
    deps.folder.update_run(tokens=deps.folder.tokens(c.price_in, c.price_out).model_dump())


def baseline(state: LoopState, runtime: Runtime[Deps]) -> dict:
    deps = runtime.context
    folder, gate = deps.folder, deps.gate
    candidate = folder.save_candidate(0, 0, deps.workspace.read())
    folder.event("baseline_start")
    record = _evaluate(deps, candidate, incumbent=None)
    eval_path = folder.save_evaluation(0, 0, record)
    folder.event("baseline_end", status=record.status, message=record.message)
    if record.status != "ok":
        return {"stop_reason": f"the starting kernel fails ({record.message}); fix it before optimising"}
    if gate is not None:
        # Fail fast: if the start already changes the tokens (or the model cannot run), no version can pass.
        try:
            result = gate.check(candidate, 0, 0)
        except ModelRunFailed as err:
            return {"stop_reason": f"the e2e check cannot run: {err}"}
        gate.record(folder.locate(eval_path), result)
        if not result.ok:
            return {"stop_reason": f"the starting kernel fails the e2e check ({result.message}); fix it first"}
    folder.update_run(start=Summary.of(record).model_dump(), best=Summary.of(record, iteration=0).model_dump())
    if deps.on_iteration:
        deps.on_iteration({"iteration": 0, "rationale": "starting kernel", "outcome": "baseline", "record": record})
    return {
        "iteration": 0,
        "best_path": folder.relative(candidate),
        "best_eval": eval_path,
        "best_profile": _profile_best(deps, 0, 0, record),
        "started": time.time(),
    }


def propose(state: LoopState, runtime: Runtime[Deps]) -> dict:
    deps = runtime.context
    c, folder = deps.config, deps.folder
    spec = registry.spec(c.op)
    iteration = state.iteration + 1
    best_source = folder.locate(state.best_path).read_text()
    best = _load_record(folder.locate(state.best_eval))
    profile = folder.locate(state.best_profile) if state.best_profile else None
    diffs = {}
    for attempt in state.attempts[-MAX_DIFFS:]:
        path = folder.diff(attempt.iteration, attempt.index)
        if path.exists():
            diffs[label(attempt)] = path.read_text()
    context = ProposalContext(
        op=c.op,
        backend=c.backend,
        iteration=iteration,
        spec_text=f"{spec.signature}\n\n{spec.description}",
        best_source=best_source,
        best_summary=proposer_table(best),
        profile_summary=profile.read_text() if profile and profile.exists() else "",
        hardware=prompts.hardware_notes(deps.device, targets.resolve(c.evaluation.target).name, _copy_gbps(best)),
        attempts=state.attempts,
        k=c.candidates,
        diffs=diffs,
        history_tokens=c.history_tokens,
    )
    folder.event("propose_start", iteration=iteration)
    try:
        proposals = deps.policy.propose(context)
    except Exception as err:  # whatever a policy raises ends the run as failed, with the reason
        reason = f"the {deps.policy.name} policy failed: {type(err).__name__}: {err}"
        folder.event("propose_failed", iteration=iteration, error=f"{type(err).__name__}: {err}")
        return {"proposals": [], "stop_reason": reason, "failure": reason}
    if not proposals:
        return {"proposals": [], "stop_reason": f"the {deps.policy.name} policy has nothing left to try"}
    stored = []
    for i, proposal in enumerate(proposals):
        path = folder.save_proposal(iteration, i, proposal.source, best_source, proposal.prompt, proposal.response)
        stored.append(Candidate(proposal=proposal, path=folder.relative(path)))
        folder.event(
            "proposal",
            iteration=iteration,
            index=i,
            rationale=proposal.rationale,
            model=proposal.model,
            usage=proposal.usage,
            reasks=proposal.reasks,
        )
    _record_tokens(deps)
    return {"iteration": iteration, "proposals": stored, "results": [], "accepted": None}


def evaluate_node(state: LoopState, runtime: Runtime[Deps]) -> dict:
    """Every proposal against the best: in turn, or `workers` at a time on GPUs of their own (Ray)."""
    deps = runtime.context
    c, folder, iteration = deps.config, deps.folder, state.iteration
    incumbent = str(folder.locate(state.best_path))
    best_compile = _load_record(folder.locate(state.best_eval)).stage("compile")
    limit = candidate_compile_limit(c.evaluation.compile_timeout_s, best_compile.seconds if best_compile else None)
    options = c.evaluation.model_copy(update={"compile_timeout_s": limit})
    jobs = [Job(folder.locate(p.path), incumbent, options) for p in state.proposals]
    for i in range(len(jobs)):
        folder.event("evaluate_start", iteration=iteration, index=i)
    paths: dict[int, str] = {}

    def finished(i: int, record: EvalRecord) -> None:  # saved as each one ends: nothing lost to a crash
        paths[i] = folder.save_evaluation(iteration, i, record)
        folder.event("evaluate_end", iteration=iteration, index=i, status=record.status, message=record.message)

    gpus_per_job = 0 if c.evaluation.device == "cpu" else 1
    run_jobs(
        jobs,
        c.op,
        c.backend,
        c.workers,
        ray_address=c.ray_address,
        gpus_per_job=gpus_per_job,
        on_done=finished,
        evaluate=deps.judge,
    )
    return {"results": [Evaluation(eval=paths[i]) for i in range(len(jobs))]}


def decide_node(state: LoopState, runtime: Runtime[Deps]) -> dict:
    """The acceptance rule on every candidate; the fastest that passes is the round's, the others beaten by it."""
    deps = runtime.context
    folder = deps.folder
    records = [_load_record(folder.locate(result.eval)) for result in state.results]
    decisions = [decide(record, against_best=True) for record in records]
    if deps.gate is not None:
        deps.gate.check_round(state, records, decisions)
    passed = [i for i, decision in enumerate(decisions) if decision.accepted]
    best_index = max(passed, key=lambda i: decisions[i].geomean_speedup or 0, default=None)
    decisions = [d if i == best_index else d.beaten() for i, d in enumerate(decisions)]
    attempts = []
    for i, (candidate, record, decision) in enumerate(zip(state.proposals, records, decisions, strict=True)):
        outcome = "accepted" if i == best_index else "failed" if record.status != "ok" else "rejected"
        attempts.append(
            Attempt(
                iteration=state.iteration,
                rationale=candidate.proposal.rationale,
                outcome=outcome,
                message=decision.reason,
                config=_config_of(candidate.proposal.source),
                geomean_vs_best=decision.geomean_speedup,
                median_fraction_of_copy=record.median_fraction_of_copy(),
                index=i,
                failure=failure_lines(record) if record.status != "ok" else "",
            )
        )
    folder.event(
        "decide",
        iteration=state.iteration,
        accepted=best_index,
        decisions=[d.model_dump(mode="json") for d in decisions],
        outcomes=[a.outcome for a in attempts],
    )
    results = [result.model_copy(update={"decision": d}) for result, d in zip(state.results, decisions, strict=True)]
    return {"results": results, "attempts": attempts, "accepted": best_index}


def commit(state: LoopState, runtime: Runtime[Deps]) -> dict:
    deps = runtime.context
    c, folder = deps.config, deps.folder
    candidate, result = state.proposals[state.accepted], state.results[state.accepted]
    record = _load_record(folder.locate(result.eval))
    message = commit_message(
        c.op,
        c.backend,
        state.iteration,
        result.decision.geomean_speedup,
        result.decision.scope,
        record.median_gbps(),
        record.median_fraction_of_copy(),
        candidate.proposal.rationale,
        folder.run_id,
    )
    # Idempotent: a run killed after the commit but before the checkpoint re-runs this node.
    history = deps.workspace.history()
    source = candidate.proposal.source
    if history and history[-1][1] == message.strip() and deps.workspace.read() == source:
        sha = history[-1][0]
    else:
        sha = deps.workspace.commit(source, message)
    folder.event("commit", iteration=state.iteration, sha=sha, message=message.splitlines()[0])
    folder.update_run(best=Summary.of(record, iteration=state.iteration, commit=sha).model_dump())
    return {
        "best_path": candidate.path,
        "best_eval": result.eval,
        "best_profile": _profile_best(deps, state.iteration, state.accepted, record),
        "commits": [sha],
    }


def reflect(state: LoopState, runtime: Runtime[Deps]) -> dict:
    """A reflection per candidate of the round, each saved with its prompt, reply and model. A reflection that
    raises still records its candidate's row; the run then ends as failed, with the reason. Returns the round's
    rows with their reflections (each later candidate's context shows the earlier ones')."""
    deps = runtime.context
    c, folder = deps.config, deps.folder
    iteration, attempts = state.iteration, list(state.attempts)
    first = len(attempts) - sum(1 for a in attempts if a.iteration == iteration)
    texts, failed = [], None
    for i, attempt in enumerate(attempts[first:]):
        record = _load_record(folder.locate(state.results[i].eval))
        fraction = record.median_fraction_of_copy()
        summary = (
            f"geomean {attempt.geomean_vs_best:.3f}x vs the best" if attempt.geomean_vs_best else record.message
        ) + (f", median {fraction:.2f} of copy" if fraction else "")
        diff = folder.diff(iteration, attempt.index)
        context = ReflectionContext(
            op=c.op,
            backend=c.backend,
            iteration=iteration,
            rationale=attempt.rationale,
            outcome=attempt.outcome,
            message=attempt.message,
            summary=summary,
            attempts=attempts,
            failure=attempt.failure,
            diff=diff.read_text() if diff.exists() else "",
            decision=state.results[i].decision,
        )
        try:
            reflection = deps.policy.reflect(context)
        except Exception as err:  # the row is still recorded below; the run ends as failed after this round
            error = f"{type(err).__name__}: {err}"
            failed = failed or f"the {deps.policy.name} policy failed to reflect: {error}"
            texts.append(f"(no reflection: {error})")
            folder.event("reflection_failed", iteration=iteration, index=i, error=error)
        else:
            texts.append(reflection.text)
            folder.save_reflection_exchange(iteration, i, reflection.prompt or "", reflection.response or "")
            folder.event(
                "reflection",
                iteration=iteration,
                index=i,
                text=reflection.text,
                model=reflection.model,
                usage=reflection.usage,
            )
            attempts[first + i] = replace(attempt, reflection=reflection.text)
        if deps.on_iteration:
            deps.on_iteration(
                {
                    "iteration": iteration,
                    "rationale": attempt.rationale,
                    "outcome": attempt.outcome,
                    "record": record,
                    "message": attempt.message,
                }
            )
    folder.save_reflection(iteration, "\n\n".join(texts) + "\n")
    _record_tokens(deps)
    if failed:
        return {"attempts": attempts[first:], "stop_reason": failed, "failure": failed}
    reason = stop_reason(deps.config, deps.folder, state, deps.stop_requested[0])
    return {"attempts": attempts[first:], "stop_reason": reason}


def after_baseline(state: LoopState) -> Literal["propose", "__end__"]:
    return END if state.stop_reason else "propose"


def after_propose(state: LoopState) -> Literal["evaluate", "__end__"]:
    return END if state.stop_reason or not state.proposals else "evaluate"


def after_decide(state: LoopState) -> Literal["commit", "reflect"]:
    return "commit" if state.accepted is not None else "reflect"


def after_reflect(state: LoopState) -> Literal["propose", "__end__"]:
    return END if state.stop_reason else "propose"


NODES = {
    "baseline": baseline,
    "propose": propose,
    "evaluate": evaluate_node,
    "decide": decide_node,
    "commit": commit,
    "reflect": reflect,
}


def build_graph(checkpointer=None):
    """The loop's graph, checkpointed to `checkpointer` after every node; invoke it with `context=Deps(...)`."""
    graph = StateGraph(LoopState, context_schema=Deps)
    for name, node in NODES.items():
        graph.add_node(name, node)
    graph.add_edge(START, "baseline")
    graph.add_conditional_edges("baseline", after_baseline)
    graph.add_conditional_edges("propose", after_propose)
    graph.add_edge("evaluate", "decide")
    graph.add_conditional_edges("decide", after_decide)
    graph.add_edge("commit", "reflect")
    graph.add_conditional_edges("reflect", after_reflect)
    return graph.compile(checkpointer=checkpointer)
