"""Starting, resuming and finishing a run: the glue between the CLI and the graph."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import git
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.checkpoint.sqlite import SqliteSaver

from agent.config import RunConfig
from agent.graph import Deps, build_graph
from agent.policies.base import Policy
from agent.state import CHECKPOINTED_TYPES, LoopState
from agent.stopping import USER_STOP, stop_reason
from tools.env import collect_environment
from tools.evaluator.records import EvalRecord
from tools.paths import default_candidate, record_path, resolve_path
from tools.runfolder import RUN_FILE, RUNS_DIR, RunFolder, new_run_id, now
from tools.workspace import Workspace
from workbench.kernels import registry
from workbench.kernels import target as targets

# Each iteration is about five graph steps; LangGraph's default limit (25) would end a run early.
RECURSION_LIMIT = 100_000


def make_policy(config: RunConfig) -> Policy:
    if config.policy == "search":
        from agent.policies.search import SearchPolicy

        return SearchPolicy(config.op, config.backend, search=config.search)
    from agent.policies.llm import LLMPolicy

    return LLMPolicy(model=config.model)


def _kernel_file(config: RunConfig) -> Path:
    """The file the run starts from; a relative start_source is in the repository, as run.json records it."""
    path = resolve_path(config.start_source) if config.start_source else default_candidate(config.op, config.backend)
    if path is None:
        raise ValueError("the torch backend has no kernel file to optimise; pass start_source")
    if not path.exists():
        raise FileNotFoundError(f"kernel file {path} does not exist")
    return path


def optimize(
    config: RunConfig,
    runs_dir: Path = RUNS_DIR,
    policy: Policy | None = None,
    on_iteration: Callable[[dict], None] | None = None,
    stop_requested: list[bool] | None = None,
    run_id: str | None = None,
    judge: Callable[..., EvalRecord] | None = None,
) -> dict:
    """Run the loop from the kernel's current source; returns the final run.json.

    `judge` stands in for tools.evaluator.evaluate (tests replay recorded records with it)."""
    registry.spec(config.op)
    kernel_file = _kernel_file(config)
    run_id = run_id or new_run_id(config.op, config.backend)
    folder = RunFolder.create(runs_dir, run_id)
    start_source = kernel_file.read_text()
    try:
        workspace = Workspace.create(
            folder.path, kernel_file, f"agent/{config.op}-{config.backend}-{run_id}", start_source
        )
    except (ValueError, OSError, git.GitCommandError):
        shutil.rmtree(folder.path, ignore_errors=True)  # no half-made run left behind
        raise
    environment = collect_environment(targets.resolve(config.evaluation.target))
    if config.start_source:  # as it was found, not as the caller spelled it (relative to their cwd, say)
        config = config.model_copy(update={"start_source": record_path(kernel_file)})
    folder.update_run(
        run_id=run_id,
        created=now(),
        status="running",
        config=config.model_dump(),
        environment=environment.model_dump(),
        kernel_file=record_path(kernel_file),  # adopt writes it in the clone it runs in
        workspace=workspace.to_dict(relative_to=folder.path),
    )
    folder.event("run_start", run_id=run_id, op=config.op, backend=config.backend, policy=config.policy)
    with folder.hold():
        return _run(folder, config, workspace, policy, on_iteration, stop_requested, fresh=True, judge=judge)


def resume(
    run_id: str,
    runs_dir: Path = RUNS_DIR,
    policy: Policy | None = None,
    on_iteration: Callable[[dict], None] | None = None,
    stop_requested: list[bool] | None = None,
    judge: Callable[..., EvalRecord] | None = None,
) -> dict:
    """Continue a run that was stopped or killed, from its last checkpoint."""
    folder = RunFolder.open(runs_dir, run_id)
    run = folder.read_json(RUN_FILE)
    config = RunConfig.model_validate(run["config"])
    workspace = folder.workspace(run)
    if not workspace.worktree.is_dir():
        raise FileNotFoundError(
            f"run {run_id}: its git worktree {workspace.worktree} is missing, so accepted versions have nowhere "
            "to be committed; resume the run where it ran (a run folder copied from another machine can be "
            "read with agent export and agent ui, not resumed)"
        )
    with folder.hold():
        folder.update_run(status="running")
        cleared = workspace.clear_stale_locks()
        folder.event("run_resume", run_id=run_id, **({"cleared_locks": cleared} if cleared else {}))
        return _run(folder, config, workspace, policy, on_iteration, stop_requested, fresh=False, judge=judge)


def _run(
    folder: RunFolder,
    config: RunConfig,
    workspace: Workspace,
    policy: Policy | None,
    on_iteration: Callable[[dict], None] | None,
    stop_requested: list[bool] | None,
    fresh: bool,
    judge: Callable[..., EvalRecord] | None = None,
) -> dict:
    deps = Deps(
        config=config,
        policy=policy or make_policy(config),
        folder=folder,
        workspace=workspace,
        stop_requested=stop_requested if stop_requested is not None else [False],
        on_iteration=on_iteration,
        **({"judge": judge} if judge is not None else {}),
    )
    thread = {"configurable": {"thread_id": folder.run_id}, "recursion_limit": RECURSION_LIMIT}
    with closing(sqlite3.connect(str(folder.checkpoints), check_same_thread=False)) as connection:
        saver = SqliteSaver(connection, serde=JsonPlusSerializer(allowed_msgpack_modules=CHECKPOINTED_TYPES))
        graph = build_graph(saver)
        # Finished only at END: a run killed between a node's end and the next checkpoint has no `next`
        # but still a task (the node, its writes saved), which invoke(None) completes and goes on from.
        snapshot = None if fresh else graph.get_state(thread)
        if snapshot is not None and snapshot.created_at is None:
            # Killed after run.json but before the first checkpoint: nothing ran yet, so start from the top
            # (an empty snapshot has no `next` either, and was taken for a finished run).
            snapshot, fresh = None, True
        if snapshot is not None and not snapshot.next and not snapshot.tasks:
            final = snapshot.values
            if final.get("stop_reason") != USER_STOP:
                folder.event("run_end", stop_reason=final.get("stop_reason"), note="already finished")
                status = "failed" if final.get("failure") else "finished"
                if "finished" in folder.read_json("run.json"):
                    return folder.update_run(status=status)
                # Killed after its last checkpoint, before run.json got the run's end: write it now.
                return _finish(folder, workspace, final, status)
            # Ctrl-C ended the graph after an iteration: go on from there, unless a limit is reached by now.
            reason = stop_reason(config, folder, LoopState.model_validate(final), deps.stop_requested[0])
            graph.update_state(thread, {"stop_reason": reason}, as_node="reflect")
        try:
            final = graph.invoke({} if fresh else None, thread, context=deps)
        except Exception as err:
            # Whatever a node raised, run.json says so: the run is not left "running". Its checkpoint is at the
            # last node that finished, so `agent resume` retries the one that raised.
            reason = f"{type(err).__name__}: {err}"
            folder.event("run_failed", error=reason)
            folder.update_run(status="failed", stop_reason=reason, finished=now())
            raise
    failed = final.get("failure")
    status = "failed" if failed else "stopped" if deps.stop_requested[0] else "finished"
    folder.event("run_end", stop_reason=final.get("stop_reason"), commits=final.get("commits", []))
    return _finish(folder, workspace, final, status)


def _finish(folder: RunFolder, workspace: Workspace, final: dict, status: str) -> dict:
    return folder.update_run(
        status=status,
        stop_reason=final.get("stop_reason"),
        iterations=final.get("iteration", 0),
        commits=final.get("commits", []),
        branch=workspace.branch,
        finished=now(),
    )
