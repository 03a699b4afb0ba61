"""`agent export <run-id>`: prompts.md and reflection.md, from the run folder alone."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from agent.runfolder import RunFolder
from tools.records import EvalRecord


def _record(path: Path) -> EvalRecord | None:
    try:
        return EvalRecord.model_validate_json(path.read_text())
    except (OSError, ValueError):
        return None


def _rounds(folder: RunFolder) -> list[dict]:
    """One entry per proposal: its iteration, files, event data and decision."""
    events = folder.events()
    proposals = [e for e in events if e["event"] == "proposal"]
    decisions = {e["iteration"]: e for e in events if e["event"] == "decide"}
    commits = {e["iteration"]: e for e in events if e["event"] == "commit"}
    rounds = []
    for event in proposals:
        iteration, index = event["iteration"], event["index"]
        suffix = "" if index == 0 else f"-{index + 1}"
        directory = folder.path / "iterations" / f"{iteration:04d}"
        decided = decisions.get(iteration)
        decision = decided["decisions"][index] if decided and index < len(decided["decisions"]) else None
        adopted = bool(decided and decided.get("accepted") == index and iteration in commits)
        rounds.append(
            {
                "iteration": iteration,
                "index": index,
                "time": event["time"],
                "event": event,
                "dir": directory,
                "suffix": suffix,
                "decision": decision,
                "adopted": adopted,
                "commit": commits.get(iteration, {}).get("sha") if adopted else None,
                "record": _record(directory / f"eval{suffix}.json"),
            }
        )
    return rounds


def _diffstat(patch: Path) -> str:
    if not patch.exists():
        return "no diff"
    lines = patch.read_text().splitlines()
    added = sum(1 for line in lines if line.startswith("+") and not line.startswith("+++"))
    removed = sum(1 for line in lines if line.startswith("-") and not line.startswith("---"))
    return f"+{added} -{removed} lines"


def prompts_markdown(folder: RunFolder) -> str:
    run = folder.read_json("run.json")
    config = run["config"]
    lines = [
        f"# Prompts: run {folder.run_id}",
        "",
        f"{config['op']}[{config['backend']}], policy `{config['policy']}`.",
        "",
    ]
    for r in _rounds(folder):
        event, record = r["event"], r["record"]
        model = event.get("model") or f"{config['policy']} policy (no LLM)"
        if event.get("usage"):
            model += f" (tokens: {event['usage']})"
        prompt_file = r["dir"] / f"prompt{r['suffix']}.md"
        asked = f"see {prompt_file.relative_to(folder.path).as_posix()}" if prompt_file.exists() else "no prompt"
        if event.get("reasks"):
            asked += f"; re-asked {event['reasks']} time(s)"
        patch = r["dir"] / f"diff{r['suffix']}.patch"
        candidate = r["dir"] / f"candidate{r['suffix']}.py"
        command = f"agent eval {config['op']} --backend {config['backend']} --candidate {candidate}"
        decision = r["decision"]["reason"] if r["decision"] else "none"
        adopted = f"yes, commit {r['commit'][:10]}" if r["adopted"] else "no"
        title = f"## Iteration {r['iteration']}" + (f", candidate {r['index'] + 1}" if r["index"] else "")
        lines += [
            title,
            "",
            f"- Date: {r['time']}",
            f"- Model: {model}",
            f"- Asked: {asked}",
            f"- What changed: {event['rationale']} ({_diffstat(patch)})",
            f"- Test command: `{command}`",
            f"- Result: {record.message if record else 'not evaluated'}",
            f"- Decision: {decision}",
            f"- Adopted: {adopted}",
            "",
        ]
    return "\n".join(lines)


def _shape_table(start: dict, best: dict) -> list[str]:
    lines = ["| shape | start GB/s | best GB/s | start % of copy | best % of copy |", "|---|---|---|---|---|"]
    for shape, before in start.get("shapes", {}).items():
        after = best.get("shapes", {}).get(shape, before)

        def pct(value):
            return f"{100 * value:.0f}%" if value else "-"

        lines.append(
            f"| {shape} | {before['gbps']:.0f} | {after['gbps']:.0f} | {pct(before['fraction_of_copy'])} | "
            f"{pct(after['fraction_of_copy'])} |"
        )
    return lines


def reflection_markdown(folder: RunFolder) -> str:
    run = folder.read_json("run.json")
    config, env = run["config"], run.get("environment", {})
    rounds = _rounds(folder)
    outcomes = Counter(
        "accepted" if r["adopted"] else ("failed" if r["record"] and r["record"].status != "ok" else "rejected")
        for r in rounds
    )
    failed_stages = Counter(r["record"].failed_stage for r in rounds if r["record"] and r["record"].failed_stage)
    start, best = run.get("start", {}), run.get("best", {})
    shapes = config["shapes"] or "all named"
    branch = run.get("branch") or run.get("workspace", {}).get("branch")
    lines = [
        f"# Reflection: run {folder.run_id}",
        "",
        "## Operator and environment",
        "",
        f"- {config['op']}[{config['backend']}], dtypes {', '.join(config['dtypes'])}, shapes {shapes}",
        f"- Device {env.get('device') or 'CPU'}, driver {env.get('driver') or '-'}, target {env.get('target')}; "
        + ", ".join(f"{k} {v}" for k, v in env.get("versions", {}).items()),
        "",
        "## How the agent worked",
        "",
        f"- Policy `{config['policy']}`"
        + (f", model {config['model']}" if config.get("model") else "")
        + f"; {run.get('iterations', 0)} iterations, {len(rounds)} proposals: "
        + ", ".join(f"{n} {k}" for k, n in sorted(outcomes.items())),
        f"- Failures by stage: {dict(failed_stages) or 'none'}",
        f"- Ended: {run.get('stop_reason') or run.get('status')}",
        f"- Git: branch `{branch}`, {len(run.get('commits', []))} commit(s)",
        "",
        "## What helped",
        "",
    ]
    helped = [r for r in rounds if r["adopted"]]
    lines += [
        f"- Iteration {r['iteration']}: {r['event']['rationale']} ({r['decision']['reason']})" for r in helped
    ] or ["- Nothing beat the starting kernel."]
    lines += ["", "## What misled it", ""]
    misled = [r for r in rounds if not r["adopted"]]
    lines += [
        f"- Iteration {r['iteration']}: {r['event']['rationale']} "
        f"({r['decision']['reason'] if r['decision'] else 'not decided'})"
        for r in misled
    ] or ["- Every proposal was adopted."]
    lines += ["", "## Reflections", ""]
    for directory in sorted((folder.path / "iterations").glob("*/reflection.md")):
        lines += [f"### Iteration {int(directory.parent.name)}", "", directory.read_text().strip(), ""]
    lines += ["## Measured results", ""]
    if start and best:

        def tb(value):
            return f"{value / 1e3:.2f} TB/s" if value else "-"

        lines += [
            f"Median shape: {tb(start.get('median_gbps'))} at the start, {tb(best.get('median_gbps'))} best "
            f"(iteration {best.get('iteration', 0)}).",
            "",
            *_shape_table(start, best),
        ]
    else:
        lines.append("No measurements: the starting kernel did not evaluate.")
    lines += [
        "",
        "## Review checklist",
        "",
        "- [ ] Read the diff of every adopted commit on the branch (`git log -p` on it).",
        "- [ ] Re-run `agent eval` on the best version on a fresh process and compare with the numbers above.",
        "- [ ] Check the hidden-shape and random-shape results in the best version's eval.json.",
        "- [ ] Confirm no adopted version is slower on a shape that matters to you (per-shape table).",
        "- [ ] `agent adopt " + folder.run_id + "` only after the above.",
        "",
    ]
    return "\n".join(lines)


def export(folder: RunFolder, out_dir: Path | None = None) -> tuple[Path, Path]:
    out = Path(out_dir) if out_dir else folder.path
    out.mkdir(parents=True, exist_ok=True)
    prompts = out / "prompts.md"
    reflection = out / "reflection.md"
    prompts.write_text(prompts_markdown(folder))
    reflection.write_text(reflection_markdown(folder))
    return prompts, reflection
