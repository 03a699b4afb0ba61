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
from dataclasses import asdict, dataclass, field
from functools import cached_property, partial
from pathlib import Path
from typing import Literal

from langgraph.graph import END, START, StateGraph

from agent.config import RunConfig
from agent.e2e_gate import E2EGate
from agent.policies.base import Attempt, Policy, ProposalContext, ReflectionContext
from agent.policies.source_edit import read_literal
from agent.state import LoopState
from agent.workers import Job, run_jobs
from kernels import registry
from kernels import target as targets
from tools.evaluator.decide import Decision, decide
from tools.evaluator.evaluate import evaluate
from tools.evaluator.profile import summarise
from tools.evaluator.records import EvalRecord
from tools.llama.e2e import ModelRunFailed
from tools.report import shape_rows
from tools.runfolder import RunFolder, read_record
from tools.workspace import Workspace

USER_STOP = "stopped by the user (Ctrl-C)"  # the one stop reason agent resume goes on from


@dataclass
class Deps:
    """Everything the nodes use that is not state."""

    config: RunConfig
    policy: Policy
    folder: RunFolder
    workspace: Workspace
    stop_requested: list[bool] = field(default_factory=lambda: [False])
    on_iteration: object = None  # callable(dict) for the terminal table

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


def results_table(record: EvalRecord) -> str:
    rows = shape_rows(record)
    if not rows:
        return record.message
    keys = ("shape", "dtype", "status", "max_err", "eager_us", "graph_us", "bound", "gbps", "of_copy")
    scope = record.decision_scope() or "graph"
    lines = [
        "| shape | dtype | status | max err | eager µs/call | graph µs/call | bound "
        f"| GB/s ({scope}) | % of copy ({scope}) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    lines += [
        "| " + " | ".join(r[k] for k in keys) + " |"
        for r in rows
        if not r["shape"].startswith("hidden/")  # hidden shapes stay hidden from the proposer
    ]
    return "\n".join(lines)


def commit_message(
    op: str,
    backend: str,
    iteration: int,
    speedup: float,
    scope: str | None,
    gbps: float | None,
    fraction: float | None,
    rationale: str,
    run_id: str,
) -> str:
    """An accepted version's commit message: its result on the first line, the why, the run."""
    numbers = f"{speedup:.2f}x over previous ({scope or 'graph'} scope)"
    if gbps:
        numbers += f", {gbps / 1e3:.2f} TB/s median" if gbps >= 100 else f", {gbps:.3g} GB/s median"
    if fraction:
        numbers += f" ({fraction:.2f} of copy)"
    return f"{op}[{backend}]: {numbers}, iteration {iteration}\n\n{rationale}\n\nrun: {run_id}"


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
    }


def _evaluate(deps: Deps, candidate: Path, incumbent: str | None) -> EvalRecord:
    c = deps.config
    return evaluate(c.op, c.backend, candidate, incumbent=incumbent, **_options(deps))


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
    folder.update_run(start=_summary(record), best=_summary(record) | {"iteration": 0})
    if deps.on_iteration:
        deps.on_iteration({"iteration": 0, "rationale": "starting kernel", "outcome": "baseline", "record": record})
    return {
        "iteration": 0,
        "best_path": folder.relative(candidate),
        "best_eval": eval_path,
        "attempts": [],
        "commits": [],
        "started": time.time(),
    }


def propose(state: LoopState, deps: Deps) -> dict:
    c, folder = deps.config, deps.folder
    spec = registry.spec(c.op)
    iteration = state["iteration"] + 1
    best_source = folder.locate(state["best_path"]).read_text()
    best = _load_record(folder.locate(state["best_eval"]))
    context = ProposalContext(
        op=c.op,
        backend=c.backend,
        iteration=iteration,
        spec_text=f"{spec.signature}\n\n{spec.description}",
        best_source=best_source,
        best_summary=results_table(best),
        profile_summary=summarise(best.profile) if best.profile else "",
        hardware=targets.resolve(c.target).name,
        attempts=[Attempt(**a) for a in state.get("attempts", [])],
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
        stored.append({**proposal.to_dict(), "path": folder.relative(path)})
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
    c, folder, iteration = deps.config, deps.folder, state["iteration"]
    incumbent = str(folder.locate(state["best_path"]))
    jobs = [Job(folder.locate(p["path"]), incumbent, _options(deps)) for p in state["proposals"]]
    for i in range(len(jobs)):
        folder.event("evaluate_start", iteration=iteration, index=i)
    paths: dict[int, str] = {}

    def finished(i: int, record: EvalRecord) -> None:  # saved as each one ends: nothing lost to a crash
        paths[i] = folder.save_evaluation(iteration, i, record)
        folder.event("evaluate_end", iteration=iteration, index=i, status=record.status, message=record.message)

    gpus_per_job = 0 if c.device == "cpu" else 1
    run_jobs(jobs, c.op, c.backend, c.workers, ray_address=c.ray_address, gpus_per_job=gpus_per_job, on_done=finished)
    return {"results": [{"eval": paths[i]} for i in range(len(jobs))]}


def check_end_to_end(state: LoopState, deps: Deps, records: list[EvalRecord], decisions: list[Decision]) -> None:
    """Checks accepted candidates, fastest first, until one keeps the tokens; those that change them fail."""
    folder, gate = deps.folder, deps.gate
    accepted = [i for i, d in enumerate(decisions) if d.accepted]
    for i in sorted(accepted, key=lambda i: -(decisions[i].geomean_speedup or 0)):
        result = gate.check(folder.locate(state["proposals"][i]["path"]), state["iteration"], i)
        records[i] = gate.record(folder.locate(state["results"][i]["eval"]), result)
        if result.ok:
            return  # the slower ones lose to this one anyway
        decisions[i] = decide(records[i], against_best=True)


def decide_node(state: LoopState, deps: Deps) -> dict:
    folder = deps.folder
    best_index, best_speedup = None, 0.0
    results, attempts = [], []
    records = [_load_record(folder.locate(result["eval"])) for result in state["results"]]
    decisions = [decide(record, against_best=True) for record in records]
    if deps.gate is not None:
        check_end_to_end(state, deps, records, decisions)
    for i, (proposal, result) in enumerate(zip(state["proposals"], state["results"], strict=True)):
        record, decision = records[i], decisions[i]
        results.append({**result, "decision": asdict(decision)})
        outcome = "accepted" if decision.accepted else ("failed" if record.status != "ok" else "rejected")
        attempt = Attempt(
            iteration=state["iteration"],
            rationale=proposal["rationale"],
            outcome=outcome,
            message=decision.reason,
            config=_config_of(proposal["source"]),
            geomean_vs_best=decision.geomean_speedup,
            median_fraction_of_copy=record.median_fraction_of_copy(),
        )
        attempts.append(asdict(attempt))
        if decision.accepted and (decision.geomean_speedup or 0) > best_speedup:
            best_index, best_speedup = i, decision.geomean_speedup or 0
    # Only the winner counts as accepted; other passing candidates of the round were beaten by it.
    for i, entry in enumerate(attempts):
        if entry["outcome"] == "accepted" and i != best_index:
            entry["outcome"] = "rejected"
            entry["message"] += "; another candidate of this round was faster"
    folder.event(
        "decide",
        iteration=state["iteration"],
        accepted=best_index,
        decisions=[r["decision"] for r in results],
        outcomes=[a["outcome"] for a in attempts],
    )
    return {"results": results, "attempts": [*state.get("attempts", []), *attempts], "accepted": best_index}


def commit(state: LoopState, deps: Deps) -> dict:
    c, folder = deps.config, deps.folder
    index = state["accepted"]
    proposal = state["proposals"][index]
    record = _load_record(folder.locate(state["results"][index]["eval"]))
    decision = state["results"][index]["decision"]
    message = commit_message(
        c.op,
        c.backend,
        state["iteration"],
        decision["geomean_speedup"],
        decision.get("scope"),
        record.median_gbps(),
        record.median_fraction_of_copy(),
        proposal["rationale"],
        folder.run_id,
    )
    # Idempotent: a run killed after the commit but before the checkpoint re-runs this node.
    history = deps.workspace.history()
    if history and history[-1][1] == message.strip() and deps.workspace.read() == proposal["source"]:
        sha = history[-1][0]
    else:
        sha = deps.workspace.commit(proposal["source"], message)
    folder.event("commit", iteration=state["iteration"], sha=sha, message=message.splitlines()[0])
    folder.update_run(best=_summary(record) | {"iteration": state["iteration"], "commit": sha})
    return {
        "best_path": proposal["path"],
        "best_eval": state["results"][index]["eval"],
        "commits": [*state.get("commits", []), sha],
    }


def reflect(state: LoopState, deps: Deps) -> dict:
    c, folder = deps.config, deps.folder
    iteration = state["iteration"]
    attempts = [Attempt(**a) for a in state["attempts"]]
    this_round = [a for a in attempts if a.iteration == iteration]
    texts = []
    for i, attempt in enumerate(this_round):
        record = _load_record(folder.locate(state["results"][i]["eval"]))
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
    return {"stop_reason": stop_reason(deps, state)}


def after_baseline(state: LoopState) -> Literal["propose", "__end__"]:
    return END if state.get("stop_reason") else "propose"


def after_propose(state: LoopState) -> Literal["evaluate", "__end__"]:
    return END if state.get("stop_reason") or not state.get("proposals") else "evaluate"


def after_decide(state: LoopState) -> Literal["commit", "reflect"]:
    return "commit" if state.get("accepted") is not None else "reflect"


def after_reflect(state: LoopState) -> Literal["propose", "__end__"]:
    return END if state.get("stop_reason") else "propose"


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


def _summary(record: EvalRecord) -> dict:
    scope = record.decision_scope()
    shapes = {}
    for b in record.benchmark:
        result = b.scope(scope) if scope else None
        if result is None or result.candidate is None:
            continue
        shapes[b.shape] = {
            "gbps": result.gbps,
            "fraction_of_copy": result.fraction_of_copy,
            "median_us": result.candidate.median_us,
            "eager_us": b.eager.candidate.median_us if b.eager and b.eager.candidate else None,
            "graph_us": b.graph.candidate.median_us if b.graph and b.graph.candidate else None,
        }
    return {
        "status": record.status,
        "scope": scope,
        "median_gbps": record.median_gbps(),
        "median_fraction_of_copy": record.median_fraction_of_copy(),
        "geomean_vs_eager": record.geomean_speedup("torch"),
        "shapes": shapes,
    }


def stop_reason(deps: Deps, state: LoopState) -> str | None:
    """Why the run ends after this iteration, or None to go on."""
    c = deps.config
    if deps.stop_requested[0]:
        return USER_STOP
    if state["iteration"] >= c.iterations:
        return f"reached --iterations {c.iterations}"
    if c.time_budget_s is not None and time.time() - state.get("started", time.time()) >= c.time_budget_s:
        return f"reached --time-budget {c.time_budget_s:.0f} s"
    if c.target_fraction is not None:
        fraction = _load_record(deps.folder.locate(state["best_eval"])).median_fraction_of_copy()
        if fraction is not None and fraction >= c.target_fraction:
            return f"reached --target {c.target_fraction:.2f} of copy bandwidth (median shape {fraction:.2f})"
    return None
