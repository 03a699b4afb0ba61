"""The loop as a LangGraph StateGraph (docs/design.md, "The loop"):

    START -> baseline -> propose -> evaluate -> decide -> (commit) -> reflect -> propose | END

With --e2e, baseline also checks the starting kernel end to end and decide checks the version it
would accept (agent/e2e_gate.py): one that changes the model's greedy tokens fails at stage e2e and
is not committed.

Nodes are top-level functions of the state and `Deps` (config, policy, run folder, git workspace),
bound with functools.partial when the graph is built; they return partial state updates. The state
is checkpointed to SQLite after every node, so a killed run resumes at the node
it was in, and every finished iteration stays in the run folder. The state's
paths are relative to the run folder (RunFolder.locate reads them), so a
checkpoint names no folder of the machine it was written on.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property, partial
from pathlib import Path
from typing import Literal

from langgraph.graph import END, START, StateGraph

from agent.config import RunConfig
from agent.e2e_gate import E2EGate
from agent.policies.base import Attempt, Policy, ProposalContext, ReflectionContext
from agent.policies.source_edit import read_literal
from agent.state import Candidate, Evaluation, LoopState
from agent.stopping import stop_reason
from agent.workers import Job, run_jobs
from kernels import registry
from kernels import target as targets
from tools.evaluator.decide import decide
from tools.evaluator.evaluate import evaluate
from tools.evaluator.profile import summarise
from tools.evaluator.records import EvalRecord
from tools.llama.e2e import ModelRunFailed
from tools.report import proposer_table
from tools.runfolder import RunFolder, Summary, read_record
from tools.workspace import Workspace, commit_message


@dataclass
class Deps:
    """Everything the nodes use that is not state."""

    config: RunConfig
    policy: Policy
    folder: RunFolder
    workspace: Workspace
    stop_requested: list[bool] = field(default_factory=lambda: [False])
    on_iteration: object = None  # callable(dict) for the terminal table
    # evaluate()'s signature: the judge. Tests that need decisions not hinging on a CPU's timing pass one that
    # replays recorded records (tests/agent/recorded_judge.py).
    judge: Callable[..., EvalRecord] = evaluate

    @cached_property
    def gate(self) -> E2EGate | None:
        return E2EGate(self.config, self.folder) if self.config.e2e else None


def _config_of(source: str) -> dict | None:
    try:
        return read_literal(source, "CONFIG")
    except (ValueError, SyntaxError):
        return None


def _load_record(path: Path) -> EvalRecord:
    return read_record(path, required=True)


def _options(deps: Deps) -> dict:
    """evaluate()'s keyword arguments for this run (a Ray worker gets them as they are)."""
    c = deps.config
    return {
        "shapes": c.shapes,
        "dtypes": tuple(c.dtypes),
        "baselines": tuple(c.baselines),
        "device": c.device,
        "target": c.target,
        "timeout_s": c.timeout_s,
        "profile": c.profile,
        "batches": c.batches,
        "stage_timeouts": {"compile": c.compile_timeout_s} if c.compile_timeout_s else None,
        "allow_unconfined": c.allow_unconfined,
    }


def _evaluate(deps: Deps, candidate: Path, incumbent: str | None) -> EvalRecord:
    c = deps.config
    return deps.judge(c.op, c.backend, candidate, incumbent=incumbent, **_options(deps))


def baseline(state: LoopState, deps: Deps) -> dict:
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
    return {"iteration": 0, "best_path": folder.relative(candidate), "best_eval": eval_path, "started": time.time()}


def propose(state: LoopState, deps: Deps) -> dict:
    c, folder = deps.config, deps.folder
    spec = registry.spec(c.op)
    iteration = state.iteration + 1
    best_source = folder.locate(state.best_path).read_text()
    best = _load_record(folder.locate(state.best_eval))
    context = ProposalContext(
        op=c.op,
        backend=c.backend,
        iteration=iteration,
        spec_text=f"{spec.signature}\n\n{spec.description}",
        best_source=best_source,
        best_summary=proposer_table(best),
        profile_summary=summarise(best.profile) if best.profile else "",
        hardware=targets.resolve(c.target).name,
        attempts=state.attempts,
        k=c.candidates,
    )
    folder.event("propose_start", iteration=iteration)
    try:
        proposals = deps.policy.propose(context)
    except RuntimeError as err:  # the endpoint failed after its retries
        folder.event("propose_failed", iteration=iteration, error=str(err))
        return {"proposals": [], "stop_reason": f"the policy failed: {err}"}
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
    return {"iteration": iteration, "proposals": stored, "results": [], "accepted": None}


def evaluate_node(state: LoopState, deps: Deps) -> dict:
    """Every proposal against the best: in turn, or `workers` at a time on GPUs of their own (Ray)."""
    c, folder, iteration = deps.config, deps.folder, state.iteration
    incumbent = str(folder.locate(state.best_path))
    jobs = [Job(folder.locate(p.path), incumbent, _options(deps)) for p in state.proposals]
    for i in range(len(jobs)):
        folder.event("evaluate_start", iteration=iteration, index=i)
    paths: dict[int, str] = {}

    def finished(i: int, record: EvalRecord) -> None:  # saved as each one ends: nothing lost to a crash
        paths[i] = folder.save_evaluation(iteration, i, record)
        folder.event("evaluate_end", iteration=iteration, index=i, status=record.status, message=record.message)

    gpus_per_job = 0 if c.device == "cpu" else 1
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


def decide_node(state: LoopState, deps: Deps) -> dict:
    """The acceptance rule on every candidate; the fastest that passes is the round's, the others beaten by it."""
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
    return {"results": results, "attempts": [*state.attempts, *attempts], "accepted": best_index}


def commit(state: LoopState, deps: Deps) -> dict:
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
    return {"best_path": candidate.path, "best_eval": result.eval, "commits": [*state.commits, sha]}


def reflect(state: LoopState, deps: Deps) -> dict:
    c, folder = deps.config, deps.folder
    iteration, attempts = state.iteration, state.attempts
    this_round = [a for a in attempts if a.iteration == iteration]
    texts = []
    for i, attempt in enumerate(this_round):
        record = _load_record(folder.locate(state.results[i].eval))
        fraction = record.median_fraction_of_copy()
        summary = (
            f"geomean {attempt.geomean_vs_best:.3f}x vs the best" if attempt.geomean_vs_best else record.message
        ) + (f", median {fraction:.2f} of copy" if fraction else "")
        context = ReflectionContext(
            op=c.op,
            backend=c.backend,
            iteration=iteration,
            rationale=attempt.rationale,
            outcome=attempt.outcome,
            message=attempt.message,
            summary=summary,
            attempts=attempts,
            decision=state.results[i].decision,
        )
        try:
            reflection = deps.policy.reflect(context)
        except RuntimeError as err:
            texts.append(f"(no reflection: {err})")
            continue
        texts.append(reflection.text)
        folder.event("reflection", iteration=iteration, index=i, text=reflection.text, usage=reflection.usage)
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
    return {"stop_reason": stop_reason(deps.config, deps.folder, state, deps.stop_requested[0])}


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


def build_graph(deps: Deps, checkpointer=None):
    """The loop's graph, each node given `deps`; checkpointed to `checkpointer` after every node."""
    graph = StateGraph(LoopState)
    for name, node in NODES.items():
        graph.add_node(name, partial(node, deps=deps))
    graph.add_edge(START, "baseline")
    graph.add_conditional_edges("baseline", after_baseline)
    graph.add_conditional_edges("propose", after_propose)
    graph.add_edge("evaluate", "decide")
    graph.add_conditional_edges("decide", after_decide)
    graph.add_edge("commit", "reflect")
    graph.add_conditional_edges("reflect", after_reflect)
    return graph.compile(checkpointer=checkpointer)
